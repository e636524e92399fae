import type { ReactiveControllerHost } from 'lit';
import { CountdownController } from '../controllers/countdown-controller.js';
import { CheckoutReturnEvent } from '../events.js';
import type { ReturnModel } from '../screen-model.js';

/**
 * The way back to the shop from a final screen, once per invoice: the automatic return's
 * countdown (`auto-return`, paid only) and the page's say over it (`checkout-return`, which
 * may be canceled).
 */
export class ShopReturn {
  readonly #element: EventTarget;
  readonly #update: () => void;
  /** When the automatic return happens (device time, ms), or `stopped` by the payer. */
  #at: number | 'stopped' | undefined;
  /** The return happened (automatic or not): never twice. */
  #returned = false;
  readonly #timer: CountdownController;

  /** `session` hosts the countdown; `element` is where `checkout-return` is dispatched. */
  constructor(session: ReactiveControllerHost, element: EventTarget, update: () => void) {
    this.#element = element;
    this.#update = update;
    // Ticks the seconds; at zero the element returns (it knows where to).
    this.#timer = new CountdownController(session, { onTick: update, onZero: update });
  }

  get at(): number | 'stopped' | undefined {
    return this.#at;
  }

  /** Starts the automatic return in `seconds` (0: off), once per invoice; true if it started. */
  start(seconds: number): boolean {
    if (seconds <= 0 || this.#at !== undefined) return false;
    this.#at = Date.now() + seconds * 1000;
    this.#timer.set(this.#at, 0);
    return true;
  }

  /** The payer stays: no automatic return. */
  stop(): void {
    this.#at = 'stopped';
    this.#timer.stop();
    this.#update();
  }

  /**
   * Asks the page whether the payer may go back to the shop (`checkout-return`): true to go,
   * false when the page took it over. Never more than once per invoice.
   */
  leave(to: ReturnModel, status: string, automatic: boolean): boolean {
    if (this.#returned) return false;
    const event = new CheckoutReturnEvent({ url: to.url, status, automatic });
    this.#element.dispatchEvent(event);
    if (event.defaultPrevented) {
      if (automatic) this.stop();
      return false;
    }
    this.#returned = true;
    return true;
  }
}
