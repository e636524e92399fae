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
}

/**
 * Re-reads something on an interval: never two reads at once, exponential backoff with jitter
 * after failures, paused while the page is hidden and read at once when it is shown again
 * (the payer comes back from the bank app), and nothing left behind when the host disconnects.
 */
export class PollController implements ReactiveController {
  readonly #options: PollControllerOptions;
  #active = false;
  #connected = false;
  #failures = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inFlight: AbortController | undefined;

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

  hostConnected(): void {
    this.#connected = true;
    document.addEventListener('visibilitychange', this.#onVisibilityChange);
    // Back on the page after a while away: what is on screen may be stale.
    this.readNow();
  }

  hostDisconnected(): void {
    this.#connected = false;
    document.removeEventListener('visibilitychange', this.#onVisibilityChange);
    this.#abort();
  }

  readonly #onVisibilityChange = (): void => {
    if (document.visibilityState === 'hidden') this.#clearTimer();
    else this.readNow();
  };

  async #perform(): Promise<void> {
    const controller = new AbortController();
    this.#inFlight = controller;
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
    if (!this.#active || !this.#connected || document.visibilityState === 'hidden') return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.readNow();
    }, nextPollDelay(this.#options.interval(), this.#failures));
  }

  #abort(): void {
    this.#clearTimer();
    this.#inFlight?.abort();
    this.#inFlight = undefined;
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
