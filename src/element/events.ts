/**
 * The events of `<merchant-checkout>` (docs/ARCHITECTURE.md, "The element"): `CustomEvent`s with a typed
 * `detail`, all `bubbles` and `composed`, so they reach listeners outside any shadow root.
 * Each class declares its literal `type`, so a union of them narrows by `event.type` or
 * `instanceof` (their details alone overlap: a status detail is also a ready detail).
 */
import type { CheckoutCanceledInvoice, CheckoutDeal, CheckoutInvoice } from '../schemas/checkout.js';
import type { PaymentOption, PaymentMethod } from '../schemas/invoice.js';
import type { CheckoutErrorKind } from './protocol-client.js';
import type { CopyField } from './i18n/translation.js';
import type { Change } from './screen.js';

const init = <T>(detail: T, cancelable = false): CustomEventInit<T> => ({ detail, bubbles: true, composed: true, cancelable });

/** The detail of `checkout-ready`. */
export interface CheckoutReadyDetail {
  /** The invoice as first rendered. */
  invoice: CheckoutInvoice;
}
/** The first data of an invoice is on screen. */
export class CheckoutReadyEvent extends CustomEvent<CheckoutReadyDetail> {
  declare readonly type: 'checkout-ready';

  constructor(detail: CheckoutReadyDetail) {
    super('checkout-ready', init(detail));
  }
}

/** The detail of `checkout-status`. */
export interface CheckoutStatusDetail {
  /** The new status, as the service wrote it. */
  status: string;
  /** The status shown before. */
  previous: string;
  /** The invoice as it is now. */
  invoice: CheckoutInvoice;
  /**
   * How the new status arrived: `push` (the proxy's event stream), `poll` (a re-read), `load`
   * (`retry()`), `deal`, `cancel`, `receipt` or `report` (the answer of the payer's own request).
   */
  source: 'push' | 'poll' | 'load' | 'deal' | 'cancel' | 'receipt' | 'report';
}
/** The invoice's status changed (pushed by the event stream, read by polling, or after a cancel or a new deal). */
export class CheckoutStatusEvent extends CustomEvent<CheckoutStatusDetail> {
  declare readonly type: 'checkout-status';

  constructor(detail: CheckoutStatusDetail) {
    super('checkout-status', init(detail));
  }
}

/** The detail of `checkout-canceled`. */
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

/** The detail of `checkout-expired`. */
export interface CheckoutExpiredDetail {
  /** The invoice, read at the deadline and found unpaid. */
  invoice: CheckoutInvoice;
}
/** The countdown to `expireAt` (server time) reached zero. */
export class CheckoutExpiredEvent extends CustomEvent<CheckoutExpiredDetail> {
  declare readonly type: 'checkout-expired';

  constructor(detail: CheckoutExpiredDetail) {
    super('checkout-expired', init(detail));
  }
}

/** The detail of `checkout-variant-select`. */
export interface CheckoutVariantSelectDetail {
  /** The payment option picked (`SBP`, `TO_CARD`, …). */
  option: PaymentOption;
  /** The bank picked (its code). */
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

/** The detail of `checkout-copy`. */
export interface CheckoutCopyDetail {
  /** What was copied: `amount`, `requisites` or another copyable field. */
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

/** The detail of `checkout-error`. */
export interface CheckoutErrorDetail {
  /** `network_error`, `invalid_response`, `http_error`, or the proxy's code (`not_found`, `upstream_error`, …). */
  code: CheckoutErrorKind;
  /** What went wrong, for the console (not shown to the payer as it is). */
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
export type CheckoutAmountChangedDetail = Change & {
  /** The invoice as it is now. */
  invoice: CheckoutInvoice;
};
/** The amount, requisites or holder changed under the payer's eyes (one event per field); the element shows it too. */
export class CheckoutAmountChangedEvent extends CustomEvent<CheckoutAmountChangedDetail> {
  declare readonly type: 'checkout-amount-changed';

  constructor(detail: CheckoutAmountChangedDetail) {
    super('checkout-amount-changed', init(detail));
  }
}

/** The detail of `checkout-payer-confirmed`. */
export interface CheckoutPayerConfirmedDetail {
  /** The invoice as it is now. */
  invoice: CheckoutInvoice;
  /** The deal the payer says was paid. */
  deal: CheckoutDeal;
}
/** The payer pressed "I have paid". Nothing was sent: the element shows the check and keeps following the status. */
export class CheckoutPayerConfirmedEvent extends CustomEvent<CheckoutPayerConfirmedDetail> {
  declare readonly type: 'checkout-payer-confirmed';

  constructor(detail: CheckoutPayerConfirmedDetail) {
    super('checkout-payer-confirmed', init(detail));
  }
}

/** The detail of `checkout-receipt`. */
export interface CheckoutReceiptDetail {
  /** The invoice after the receipt: its deal `transfer_confirmed`. */
  invoice: CheckoutInvoice;
}
/** The payer's receipt reached the service (`confirm-transfer` through the proxy). */
export class CheckoutReceiptEvent extends CustomEvent<CheckoutReceiptDetail> {
  declare readonly type: 'checkout-receipt';

  constructor(detail: CheckoutReceiptDetail) {
    super('checkout-receipt', init(detail));
  }
}

/** The detail of `checkout-report`. */
export interface CheckoutReportDetail {
  /** `forwarded`: the service opened a dispute; `reported`: the merchant's proxy kept the report for the shop. */
  outcome: 'forwarded' | 'reported';
  /** The invoice after the report. */
  invoice: CheckoutInvoice;
}
/** The payer reported a payment that went missing, and the proxy took the report. */
export class CheckoutReportEvent extends CustomEvent<CheckoutReportDetail> {
  declare readonly type: 'checkout-report';

  constructor(detail: CheckoutReportDetail) {
    super('checkout-report', init(detail));
  }
}

/** The detail of `checkout-return`. */
export interface CheckoutReturnDetail {
  /** Where the payer goes: the invoice's `successUrl`/`cancelUrl`, else the `return-url`/`cancel-url` attribute. */
  url: string;
  /** The final status shown: `paid`, `canceled` or `expired`. */
  status: string;
  /** True when the `auto-return` countdown ran out, false when the payer pressed the link. */
  automatic: boolean;
}
/**
 * The payer is about to go back to the shop. Cancelable: `preventDefault()` keeps the payer
 * here (the page navigates itself, e.g. with its router).
 */
export class CheckoutReturnEvent extends CustomEvent<CheckoutReturnDetail> {
  declare readonly type: 'checkout-return';

  constructor(detail: CheckoutReturnDetail) {
    super('checkout-return', init(detail, true));
  }
}

/** The detail of `checkout-timing`. */
export interface CheckoutTimingDetail {
  /**
   * `ready`: the first screen of the invoice is rendered; `requisites`: where to send the money
   * is rendered for the first time; `error`: a request failed (`code` as in `checkout-error`).
   */
  name: 'ready' | 'requisites' | 'error';
  /** Milliseconds since the element started loading this invoice (`performance.now()`). */
  ms: number;
  /** The failed request's code, for `error`. */
  code?: CheckoutErrorKind;
}
/** A moment of the payer's checkout, timed for the shop's real-user monitoring. */
export class CheckoutTimingEvent extends CustomEvent<CheckoutTimingDetail> {
  declare readonly type: 'checkout-timing';

  constructor(detail: CheckoutTimingDetail) {
    super('checkout-timing', init(detail));
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
    'checkout-payer-confirmed': CheckoutPayerConfirmedEvent;
    'checkout-receipt': CheckoutReceiptEvent;
    'checkout-report': CheckoutReportEvent;
    'checkout-return': CheckoutReturnEvent;
    'checkout-timing': CheckoutTimingEvent;
  }
}
