import type { ReactiveControllerHost } from 'lit';
import { CheckoutErrorEvent, CheckoutTimingEvent, type CheckoutTimingDetail } from '../events.js';
import { isAbortError, toCheckoutError } from '../protocol-client.js';

/**
 * The events a session dispatches on its element once the screen they speak of is rendered,
 * never after the session ended: `checkout-timing` (`ready` and `requisites` once per invoice,
 * every error) and `checkout-error` among them.
 */
export class SessionEvents {
  readonly #host: ReactiveControllerHost & EventTarget;
  readonly #work: () => AbortSignal;
  /** When the session began (`performance.now()`), and the moments `checkout-timing` has told of. */
  readonly #started = performance.now();
  readonly #timed = new Set<string>();

  constructor(host: ReactiveControllerHost & EventTarget, work: () => AbortSignal) {
    this.#host = host;
    this.#work = work;
  }

  /** Dispatches `event` after the update under way, unless the session's work ended meanwhile. */
  afterRender(event: Event | (() => Event)): void {
    const work = this.#work();
    void this.#host.updateComplete.then(() => {
      if (!work.aborted) this.#host.dispatchEvent(typeof event === 'function' ? event() : event);
    });
  }

  /** `checkout-timing` once the screen is rendered: `ready` and `requisites` once per invoice, every error. */
  time(name: CheckoutTimingDetail['name'], code?: CheckoutTimingDetail['code']): void {
    if (name !== 'error' && this.#timed.has(name)) return;
    this.#timed.add(name);
    this.afterRender(() => new CheckoutTimingEvent({ name, ms: Math.round(performance.now() - this.#started), ...(code ? { code } : {}) }));
  }

  /** `checkout-error` (and its timing) for a failed request; nothing for an abort. */
  error(error: unknown): void {
    if (isAbortError(error)) return;
    const failure = toCheckoutError(error);
    this.afterRender(new CheckoutErrorEvent({ code: failure.code, message: failure.message, retryable: failure.retryable }));
    this.time('error', failure.code);
  }
}
