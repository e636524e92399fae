import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { nextPollDelay } from '../poll-policy.js';

export interface PollControllerOptions {
  /**
   * Reads once. Resolves `true` to go on polling, `false` to stop (a final status); rejects
   * to back off. `signal` aborts when polling stops or the host leaves the page.
   */
  read: (signal: AbortSignal) => Promise<boolean>;
  /** The interval in milliseconds, asked before each wait (so a new `poll-interval` applies at once). */
  interval: () => number;
  /** Whether reading on a timer is worth it now: the page is shown and the device online. */
  present: () => boolean;
}

/**
 * Re-reads something on an interval: never two reads at once, exponential backoff with jitter
 * after failures, no timer while the page is away (hidden, offline) and nothing left behind
 * when the host disconnects. `refresh` reads at once whether polling runs or rests (the
 * payer came back, a deadline passed), sharing a read already in flight when that one is
 * fresh enough.
 */
export class PollController implements ReactiveController {
  readonly #options: PollControllerOptions;
  #active = false;
  #connected = false;
  #failures = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inFlight: { controller: AbortController; startedAt: number } | undefined;

  constructor(host: ReactiveControllerHost, options: PollControllerOptions) {
    this.#options = options;
    host.addController(this);
  }

  /** Starts (or restarts) polling: the first read comes after one interval, or at once with `now`. */
  start(now = false): void {
    this.#abort();
    this.#active = true;
    this.#failures = 0;
    this.#schedule();
    if (now) this.readNow();
  }

  /** Stops polling and aborts a read in flight. */
  stop(): void {
    this.#active = false;
    this.#abort();
  }

  /** Reads now, unless polling is off or a read is already in flight. */
  readNow(): void {
    if (!this.#active || !this.#connected || this.#inFlight) return;
    this.#clearTimer();
    void this.#perform();
  }

  /**
   * Reads at once, polling or not, unless a read that started at or after `since` (device
   * time) is in flight: that one answers for now. An older one (sent before the page froze, or
   * before a deadline) is aborted first, so two reads never overlap. Backoff starts over.
   */
  refresh(since: number): void {
    if (!this.#connected) return;
    if (this.#inFlight && this.#inFlight.startedAt >= since) return;
    this.#abort();
    this.#failures = 0;
    void this.#perform();
  }

  /** The page is away (frozen, cached, offline): a read in flight is dropped, no timer runs. */
  suspend(): void {
    this.#abort();
  }

  /** The page is shown and online again: the timer resumes (a `refresh` reads at once). */
  resume(): void {
    this.#failures = 0;
    if (!this.#inFlight) this.#schedule();
  }

  hostConnected(): void {
    this.#connected = true;
    // Back on the page after a while away: what is on screen may be stale.
    this.readNow();
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.#abort();
  }

  async #perform(): Promise<void> {
    const controller = new AbortController();
    this.#inFlight = { controller, startedAt: Date.now() };
    let outcome: 'continue' | 'stop' | 'failed';
    try {
      outcome = (await this.#options.read(controller.signal)) ? 'continue' : 'stop';
    } catch {
      outcome = 'failed';
    }
    // Stopped, restarted or disconnected meanwhile: whoever did that owns what comes next.
    if (controller.signal.aborted) return;
    this.#inFlight = undefined;
    this.#failures = outcome === 'failed' ? this.#failures + 1 : 0;
    if (outcome === 'stop') this.#active = false;
    else this.#schedule();
  }

  #schedule(): void {
    this.#clearTimer();
    if (!this.#active || !this.#connected || !this.#options.present()) return;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        // Gone away meanwhile: `resume` schedules again.
        if (this.#options.present()) this.readNow();
      },
      nextPollDelay(this.#options.interval(), this.#failures),
    );
  }

  #abort(): void {
    this.#clearTimer();
    this.#inFlight?.controller.abort();
    this.#inFlight = undefined;
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
