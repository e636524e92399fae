/**
 * The screen model's types: what `screen(session, now)` (screen.ts) takes and gives, and the
 * names of the screens and copy fields the translations are keyed by. Types only (nothing of
 * it is in any bundle), so the translations, the session, the views and screen.ts all import
 * it without importing each other.
 */
import type { CheckoutInvoice } from '../schemas/checkout.js';
import type { Money, PaymentVariant } from '../schemas/invoice.js';
import type { RequisitesKind } from '../schemas/requisites-kind.js';

/** The screens the element has; also the value of `data-screen` on its base part. */
export type Screen =
  'idle' | 'loading' | 'waiting' | 'checking' | 'picker' | 'payout' | 'paid' | 'canceled' | 'expired' | 'dispute' | 'other' | 'error';

/** What a copy button copies: the amount, the requisites, an Indian account's IFSC, or the payment's number to quote to the shop. */
export type CopyField = 'amount' | 'requisites' | 'ifsc' | 'reference';

/** Why the picker's last deal did not start, in the payer's terms. */
export type DealNotice = 'unsupported' | 'failed' | 'no_requisites' | 'not_allowed';

/**
 * The cancel block: asking for confirmation, the POST on its way, the invoice being read again
 * after a failed cancel (no cancel is offered until it is), and why the last cancel did not
 * happen (`refused`: the service said no or answered another status; `failed`: no answer).
 */
export interface CancelState {
  readonly confirming: boolean;
  readonly pending: boolean;
  readonly checking: boolean;
  readonly notice: 'failed' | 'refused' | undefined;
}

/**
 * What changed under the payer's eyes: the amount (or its currency), or the active deal's
 * requisites or holder (without bidi controls). `previous` is undefined when the service says
 * the amount was changed (`isSumChanged`) before the payer first saw it.
 */
export type Change =
  | { readonly field: 'amount'; readonly previous: Money | undefined; readonly current: Money }
  | { readonly field: 'requisites' | 'holder'; readonly previous: string; readonly current: string };

/** Whether the merchant's proxy takes receipts: not at all, when the payer chooses, or before "I have paid" counts. */
export type ReceiptPolicy = 'off' | 'optional' | 'required';

/** A request the payer starts from a form (a receipt, a report): its form open, on its way, done, or failed with a code. */
export interface FormState {
  readonly state: 'closed' | 'open' | 'sending' | 'done' | 'failed';
  /** The `checkout-error` code of the last failure. */
  readonly code?: string | undefined;
  /** For a `payload_too_large` refusal: the limit the proxy (or the server in front of it) said refused the upload, in bytes. */
  readonly maxBytes?: number | undefined;
}

/** The report of a payment: as a form, plus what the proxy did with it (`forwarded` to the service, or `reported` to the shop only). */
export interface ReportState extends FormState {
  readonly outcome?: 'forwarded' | 'reported' | undefined;
}

/** Everything one invoice's session knows at a moment: the input of {@link screen}. */
export interface SessionSnapshot {
  /** The first read of the invoice: not asked (no id), on its way, failed with a `checkout-error` code, or done. */
  readonly load: { readonly state: 'idle' | 'loading' | 'done' } | { readonly state: 'failed'; readonly code: string };
  /** The latest valid invoice: from the first read, polling, a new deal or a cancel. */
  readonly invoice: CheckoutInvoice | undefined;
  readonly variants: 'loading' | 'failed' | readonly PaymentVariant[];
  /** The variant whose deal is being started. */
  readonly pendingVariant: PaymentVariant | undefined;
  readonly dealNotice: DealNotice | undefined;
  /** The field whose copy button says "Copied" for now. */
  readonly copied: CopyField | undefined;
  /** The field the clipboard refused: its text is selected for copying by hand. */
  readonly copyByHand: CopyField | undefined;
  readonly cancel: CancelState;
  /** Changes the payer has not dismissed yet. */
  readonly changes: readonly Change[];
  /** The last status read failed (the element keeps trying). */
  readonly connectionLost: boolean;
  /** The device is offline (`navigator.onLine` false): nothing can be read until it is back. */
  readonly offline: boolean;
  /**
   * When (server time, epoch ms) the invoice shown was last known to be current: a read's
   * start, a push's arrival. A deadline past it is read before anything says "expired".
   */
  readonly readAt: number | undefined;
  /** Server clock − device clock, in ms. */
  readonly clockOffset: number;
  /** The deal (its {@link dealKey}) the payer said "I have paid" for. */
  readonly payerConfirmed: string | undefined;
  /** The payer went back from "checking" to the payment details (the confirmation stays). */
  readonly showDetails: boolean;
  readonly receipt: FormState;
  readonly report: ReportState;
  /** When the automatic return to the shop happens (device time, ms), or `stopped` by the payer. */
  readonly autoReturn: number | 'stopped' | undefined;
  /** A bank's name from the proxy's list, the bundled directory or the merchant's `banks`, if known. */
  readonly bankName: (code: string) => string | undefined;
  /** A bank's lettermark colour (the merchant's or the directory's), if known. */
  readonly bankColor: (code: string) => string | undefined;
  /** The SBP bank picker is open. */
  readonly bankPicker: boolean;
}

/** What the page around the element says: where "back to the shop" leads, and the device. */
export interface ScreenEnvironment {
  /** The `return-url` attribute: back to the shop after paying, when the invoice has no `successUrl`. */
  readonly returnUrl?: string | undefined;
  /** The `cancel-url` attribute: back to the shop after a cancel or expiry, when the invoice has no `cancelUrl` (else `returnUrl`). */
  readonly cancelUrl?: string | undefined;
  /** The page's URL, which relative return URLs are resolved against. */
  readonly baseUrl?: string | undefined;
  /** A touch device (`pointer: coarse`): bank links and the bank picker are offered. */
  readonly touch?: boolean | undefined;
}

/** The status line: the screen in words, or the service's own word for a status unknown here. */
export interface StatusLine {
  readonly screen: Screen;
  readonly raw: string;
  readonly asWritten: boolean;
}

/** A value with a copy button. */
export interface CopyModel {
  readonly field: CopyField;
  /** The raw value copied (the exact amount, the ungrouped number). */
  readonly value: string;
  readonly kind: RequisitesKind;
  readonly copied: boolean;
  readonly byHand: boolean;
}

export interface DealModel {
  readonly amount: CopyModel;
  /** The bank's name for the payer (never a raw code) and its code (for its lettermark or logo). */
  readonly bank: string;
  readonly bankCode: string;
  /**
   * Where to send the money. A `url` is a payment page to open (`href`), never text to copy;
   * `qr` data is drawn as a QR code and a `qr-image` shown as the picture it links to; every
   * other kind is text with a copy button (a Telegram bot's also opens, an Indian account's
   * IFSC is copied apart).
   */
  readonly requisites: {
    readonly text: string;
    readonly kind: RequisitesKind;
    readonly copy: CopyModel | undefined;
    readonly href: string | undefined;
    readonly ifsc: CopyModel | undefined;
  };
  readonly holder: string;
  /** The deal's `https:` link (QR code, bank app), if it has a safe one. */
  readonly link: string | undefined;
  /** What the QR code shows: the deal's link, or the QR data of a QR option; `image` is the service's own picture of it. */
  readonly qr: { readonly text: string; readonly image: boolean } | undefined;
  /** An SBP payment link (`qr.nspk.ru`) on a touch device: the bank picker is offered. */
  readonly sbpLink: string | undefined;
  /**
   * The deal's link as "Open in bank app" on a touch device (beside the bank picker's button
   * for an SBP link). With it or the picker, the QR code is secondary: the payer is on the
   * phone that would have to scan it.
   */
  readonly bankLink: string | undefined;
  /** The bank picker is open (instead of its button). */
  readonly pickerOpen: boolean;
  /** A cross-border deal: the currency the payer's bank sends and the card's country (ISO 3166 code), where known. */
  readonly crossBorder: { readonly currency: string | undefined; readonly country: string | undefined } | undefined;
}

/** The way back to the shop on a final screen: the URL, whether it is the success or the cancel one, and the seconds to an automatic return. */
export interface ReturnModel {
  readonly url: string;
  readonly kind: 'success' | 'cancel';
  /** Seconds until the element returns by itself (paid only, `auto-return`); undefined when off or stopped. */
  readonly autoIn: number | undefined;
}

export interface VariantGroup {
  method: string;
  bankName: string;
  variants: PaymentVariant[];
}

export type PickerModel =
  | { readonly state: 'loading' }
  | { readonly state: 'failed' }
  | {
      readonly state: 'ready';
      readonly groups: readonly VariantGroup[];
      /** While a deal is being started every variant is inert. */
      readonly pending: PaymentVariant | undefined;
      readonly notice: DealNotice | undefined;
    };

export type InvoiceScreenName = Exclude<Screen, 'idle' | 'loading' | 'error'>;

export interface InvoiceScreenModel {
  readonly screen: InvoiceScreenName;
  readonly payee: string | undefined;
  readonly status: StatusLine;
  /** The amount shown: to send (the service's `amountDue`, else `sum`), settled once paid (`amountPaid`), else `sum`. */
  readonly sum: Money;
  /** The order's amount (`sum`), when the amount shown differs from it. */
  readonly asked: Money | undefined;
  /** What the amount is: to send (waiting, picker), paid, or just the amount. */
  readonly amountLabel: 'send' | 'paid' | 'sum';
  /** Where the explanation paragraph goes: above the amount on the final and pay-out screens, below it on `other`. */
  readonly explanation: 'above' | 'below' | undefined;
  /** Where to send the money (`waiting` only). */
  readonly deal: DealModel | undefined;
  /** The variants beside the deal, the deal's own marked (`waiting`, once they are loaded). */
  readonly variants:
    { readonly groups: readonly VariantGroup[]; readonly current: { option: string | null; method: string | null } } | undefined;
  readonly picker: PickerModel | undefined;
  readonly connectionLost: boolean;
  /** The device is offline: the screen may be stale until it is back (an honest notice, not "retrying"). */
  readonly offline: boolean;
  /** Milliseconds left to pay, where the countdown shows. */
  readonly remaining: number | undefined;
  /** The cancel block (`waiting` only; the element may hide it). */
  readonly cancel: CancelState | undefined;
  readonly changes: readonly Change[];
  /** "I have paid" is offered (waiting). */
  readonly confirmOffered: boolean;
  /** After "I have paid": minutes the check may take, the receipt's form and whether the payer may look at the details again. */
  readonly checking:
    | {
        readonly minutes: number | undefined;
        readonly transferConfirmed: boolean;
        readonly receipts: ReceiptPolicy;
        readonly receipt: FormState;
      }
    | undefined;
  /**
   * "Report a payment": offered when the deal the payer said was paid ended unconfirmed
   * (`confirmed`), or on the expired screen to any payer (`maybe`: "I have already paid").
   */
  readonly report: (ReportState & { readonly prompt: 'confirmed' | 'maybe' }) | undefined;
  /** The payment's number to quote to the shop, with a copy button (expired, dispute). */
  readonly reference: CopyModel | undefined;
  readonly returnTo: ReturnModel | undefined;
}

export type ScreenModel =
  { readonly screen: 'idle' } | { readonly screen: 'loading' } | { readonly screen: 'error'; readonly code: string } | InvoiceScreenModel;
