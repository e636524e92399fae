import { clockOffset } from '../poll-policy.js';

/**
 * The service's clock as one invoice's session knows it: how far the device's clock is off
 * (from the answers' `Date` headers), and when, in server time, the invoice shown was last
 * known to be current (a read's start, a push's arrival).
 */
export class ServerClock {
  /** Server clock − device clock, once an answer said. */
  #offset: number | undefined;
  #readAt: number | undefined;

  /** Server clock − device clock, 0 until an answer said. */
  get offset(): number {
    return this.#offset ?? 0;
  }

  /** When (server time) the invoice shown was last known to be current. */
  get readAt(): number | undefined {
    return this.#readAt;
  }

  /** The server's time now. */
  now(): number {
    return Date.now() + this.offset;
  }

  /** A read sent at `started` (device time) was answered with the `Date` header `date`: the state is as of its start at the earliest. */
  answered(date: string | null | undefined, started: number): void {
    this.#offset = clockOffset(date, Date.now(), this.#offset);
    this.#readAt = started + this.offset;
  }

  /** A state was pushed: current as of now. */
  pushed(): void {
    this.#readAt = this.now();
  }
}
