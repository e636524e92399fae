import { announcementStep } from '../poll-policy.js';

/**
 * When a session speaks up unasked: the time left, each time the countdown crosses a step
 * (`announcementStep`), and "the time ran out", once, when the expired screen first follows
 * another open one.
 */
export class Announcements {
  /** The countdown's step at its last tick. */
  #step: number | undefined;
  /** The screen after the last state taken. */
  #screen: string | undefined;

  /** A tick of the countdown with `remaining` ms: whether the time left is to be announced. */
  tick(remaining: number): boolean {
    const step = announcementStep(remaining);
    const cross = this.#step !== undefined && step !== this.#step && remaining > 0;
    this.#step = step;
    return cross;
  }

  /** The screen after a state was taken: whether it is the expired screen following another open one (the payer watched the time run out). */
  expired(screen: string): boolean {
    const before = this.#screen;
    this.#screen = screen;
    return screen === 'expired' && before !== undefined && !['expired', 'paid', 'canceled'].includes(before);
  }
}
