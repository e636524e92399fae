/**
 * The events of `<merchant-checkout>` (docs/ARCHITECTURE.md, "The element"): `CustomEvent`s with a typed
 * `detail`, all `bubbles` and `composed`, so they reach listeners outside any shadow root.
 * Each class declares its literal `type`, so a union of them narrows by `event.type` or
 * `instanceof` (their details alone overlap: a status detail is also a ready detail).
 */
import type { CheckoutCanceledInvoice, CheckoutInvoice } from '../schemas/checkout.js';
import type { PaymentOption, PaymentMethod } from '../schemas/invoice.js';
import type { CheckoutErrorKind } from './protocol-client.js';
import type { CopyField } from './i18n/translation.js';
import type { Change } from './screen.js';

const init = <T>(detail: T, cancelable = false): CustomEventInit<T> => ({ detail, bubbles: true, composed: true, cancelable });

export interface CheckoutReadyDetail {
  invoice: CheckoutInvoice;
}
/** The first data of an invoice is on screen. */
export class CheckoutReadyEvent extends CustomEvent<CheckoutReadyDetail> {
  declare readonly type: 'checkout-ready';

  constructor(detail: CheckoutReadyDetail) {
    super('checkout-ready', init(detail));
  }
}

export interface CheckoutStatusDetail {
  status: string;
  previous: string;
  invoice: CheckoutInvoice;
  /**
   * How the new status arrived: `push` (the proxy's event stream), `poll` (a re-read), `load`
   * (`retry()`), `deal` or `cancel` (the answer of the payer's own request).
   */
  source: 'push' | 'poll' | 'load' | 'deal' | 'cancel';
}
/** The invoice's status changed (pushed by the event stream, read by polling, or after a cancel or a new deal). */
export class CheckoutStatusEvent extends CustomEvent<CheckoutStatusDetail> {
  declare readonly type: 'checkout-status';

  constructor(detail: CheckoutStatusDetail) {
    super('checkout-status', init(detail));
  }
}

export interface CheckoutCanceledDetail {
  /** The cancel operation's own variant of the invoice. */
  invoice: CheckoutCanceledInvoice;
}
/** The payer canceled and the service confirmed it. */
export class CheckoutCanceledEvent extends CustomEvent<CheckoutCanceledDetail> {
  declare readonly type: 'checkout-canceled';

  constructor(detail: CheckoutCanceledDetail) {
    super('checkout-canceled', init(detail));
  }
}

export interface CheckoutExpiredDetail {
  invoice: CheckoutInvoice;
}
/** The countdown to `expireAt` (server time) reached zero. */
export class CheckoutExpiredEvent extends CustomEvent<CheckoutExpiredDetail> {
  declare readonly type: 'checkout-expired';

  constructor(detail: CheckoutExpiredDetail) {
    super('checkout-expired', init(detail));
  }
}

export interface CheckoutVariantSelectDetail {
  option: PaymentOption;
  method: PaymentMethod;
}
/**
 * The payer picked a payment variant. Cancelable: `preventDefault()` stops the element from
 * asking the merchant's proxy to start a deal (the page handles the choice itself).
 */
export class CheckoutVariantSelectEvent extends CustomEvent<CheckoutVariantSelectDetail> {
  declare readonly type: 'checkout-variant-select';

  constructor(detail: CheckoutVariantSelectDetail) {
    super('checkout-variant-select', init(detail, true));
  }
}

export interface CheckoutCopyDetail {
  field: CopyField;
  /** Exactly what went to the clipboard: the raw amount or requisites, not the formatted text. */
  value: string;
}
/** A value was copied to the clipboard. */
export class CheckoutCopyEvent extends CustomEvent<CheckoutCopyDetail> {
  declare readonly type: 'checkout-copy';

  constructor(detail: CheckoutCopyDetail) {
    super('checkout-copy', init(detail));
  }
}

export interface CheckoutErrorDetail {
  /** `network_error`, `invalid_response`, `http_error`, or the proxy's code (`not_found`, `upstream_error`, …). */
  code: CheckoutErrorKind;
  message: string;
  /** Whether the same request may succeed later (the element retries polls by itself). */
  retryable: boolean;
}
/** A request failed or its answer was invalid. */
export class CheckoutErrorEvent extends CustomEvent<CheckoutErrorDetail> {
  declare readonly type: 'checkout-error';

  constructor(detail: CheckoutErrorDetail) {
    super('checkout-error', init(detail));
  }
}

/**
 * One field that changed while the payer was looking: `field` is `amount` (`previous` and
 * `current` are the sum's Money, `previous` undefined when the service flagged the amount as
 * changed on the first read), `requisites` or `holder` (the active deal's text, without bidi
 * controls); `invoice` is the invoice as it is now.
 */
export type CheckoutAmountChangedDetail = Change & { invoice: CheckoutInvoice };
/** The amount, requisites or holder changed under the payer's eyes (one event per field); the element shows it too. */
export class CheckoutAmountChangedEvent extends CustomEvent<CheckoutAmountChangedDetail> {
  declare readonly type: 'checkout-amount-changed';

  constructor(detail: CheckoutAmountChangedDetail) {
    super('checkout-amount-changed', init(detail));
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'checkout-ready': CheckoutReadyEvent;
    'checkout-status': CheckoutStatusEvent;
    'checkout-canceled': CheckoutCanceledEvent;
    'checkout-expired': CheckoutExpiredEvent;
    'checkout-variant-select': CheckoutVariantSelectEvent;
    'checkout-copy': CheckoutCopyEvent;
    'checkout-error': CheckoutErrorEvent;
    'checkout-amount-changed': CheckoutAmountChangedEvent;
  }
}
