/**
 * The mock's clock: a time source plus an offset that `advance` moves, and timers on that
 * clock. A timer fires when real time reaches it (unless the clock is frozen) or at once when
 * `advance` passes it, so expiries and notification retries are testable without waiting.
 * Imports nothing of the mock.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Timer {
  at: number;
  run: () => void | Promise<void>;
  real: ReturnType<typeof setTimeout> | undefined;
}

export class MockClock {
  readonly #source: () => number;
  readonly #frozen: boolean;
  #offset: number;
  readonly #timers = new Set<Timer>();
  #closed = false;

  constructor(source: () => number, options: { start?: number; frozen?: boolean } = {}) {
    this.#source = options.frozen ? () => 0 : source;
    this.#frozen = options.frozen ?? false;
    this.#offset = options.start === undefined ? (options.frozen ? source() : 0) : options.start - this.#source();
  }

  now(): number {
    return this.#source() + this.#offset;
  }

  /** Runs `run` once the clock reaches `at`; answers a function that cancels it. */
  at(at: number, run: () => void | Promise<void>): () => void {
    const timer: Timer = { at, run, real: undefined };
    this.#timers.add(timer);
    this.#arm(timer);
    return () => this.#cancel(timer);
  }

  /** Moves the clock on by `ms`, firing every timer it passes, in order; resolves once their work is done. */
  async advance(ms: number): Promise<void> {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError(`advanceClock: ms must be a finite number ≥ 0, got ${ms}`);
    const end = this.#offset + ms;
    const target = this.now() + ms;
    const work: Promise<void>[] = [];
    for (;;) {
      const due = [...this.#timers].filter((timer) => timer.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      // Each timer runs with the clock at its own time, so what it schedules from "now" (a retry) lands where it would have.
      if (due.at > this.now()) this.#offset += due.at - this.now();
      this.#cancel(due);
      work.push(Promise.resolve(due.run()));
    }
    this.#offset = end;
    await Promise.all(work);
  }

  close(): void {
    this.#closed = true;
    for (const timer of [...this.#timers]) this.#cancel(timer);
  }

  #arm(timer: Timer): void {
    if (this.#frozen || this.#closed) return;
    timer.real = setTimeout(
      () => {
        timer.real = undefined;
        if (!this.#timers.has(timer)) return;
        // The source may be a test's own clock: fire only what it says is due, else look again.
        if (this.now() >= timer.at) {
          this.#cancel(timer);
          void timer.run();
        } else this.#arm(timer);
      },
      Math.min(Math.max(timer.at - this.now(), 0), MAX_TIMER_MS),
    );
    timer.real.unref?.();
  }

  #cancel(timer: Timer): void {
    if (timer.real) clearTimeout(timer.real);
    this.#timers.delete(timer);
  }
}
