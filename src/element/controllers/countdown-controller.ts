import type { ReactiveController, ReactiveControllerHost } from 'lit';

export interface CountdownControllerOptions {
  /** Every second of the countdown (and once when it is set), with the time left in ms. */
  onTick: (remainingMs: number) => void;
  /** Once per deadline, when the time left reaches zero. */
  onZero: () => void;
}

/**
 * Counts down to a deadline in the server's time: `offset` is how far the server's clock is
 * ahead of the device's, so a phone whose clock is wrong still counts the real time left.
 * Ticks on the second boundaries of the time left; holds no timer while disconnected.
 */
export class CountdownController implements ReactiveController {
  readonly #options: CountdownControllerOptions;
  #deadline: number | undefined;
  #offset = 0;
  #zeroReached = false;
  #connected = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(host: ReactiveControllerHost, options: CountdownControllerOptions) {
    this.#options = options;
    host.addController(this);
  }

  /** Milliseconds left (never negative), or `undefined` when no deadline is set. */
  get remaining(): number | undefined {
    return this.#deadline === undefined ? undefined : Math.max(0, this.#deadline - (Date.now() + this.#offset));
  }

  /** Counts down to `deadline` (epoch ms, server time); `offset` = server clock − device clock. */
  set(deadline: number, offset: number): void {
    if (!Number.isFinite(deadline)) {
      this.stop();
      return;
    }
    if (deadline !== this.#deadline) this.#zeroReached = false;
    this.#deadline = deadline;
    this.#offset = offset;
    this.#tick();
  }

  stop(): void {
    this.#deadline = undefined;
    this.#clearTimer();
  }

  hostConnected(): void {
    this.#connected = true;
    this.#tick();
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.#clearTimer();
  }

  readonly #tick = (): void => {
    this.#clearTimer();
    const remaining = this.remaining;
    if (remaining === undefined || !this.#connected) return;
    this.#options.onTick(remaining);
    if (remaining > 0) {
      // Wake when the displayed second changes (the display rounds up; timers never fire early).
      this.#timer = setTimeout(this.#tick, remaining % 1000 || 1000);
    } else if (!this.#zeroReached) {
      this.#zeroReached = true;
      this.#options.onZero();
    }
  };

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
