/**
 * Every string the element shows or announces. Entries that depend on a value are functions
 * (plurals, amounts, the kind of requisites). One translation per language of `LANGUAGES`
 * (lang.ts), each typed by this interface, so a missing key fails the type check; a merchant
 * overrides any entry through the element's `strings` property.
 */
import type { KNOWN_PAYMENT_OPTIONS } from '../../schemas/invoice.js';
import type { RequisitesKind } from '../format.js';
import type { CopyField, ReceiptPolicy, Screen } from '../screen-model.js';

export type { CopyField, Screen } from '../screen-model.js';

/** A payment option of the service's documentation: each translation names every one. */
export type KnownPaymentOption = (typeof KNOWN_PAYMENT_OPTIONS)[number];

/** Every string of the screens in one language; `strings` on the element replaces any of them. */
export interface Translation {
  /** Primary language subtag of this translation (`en`, `ru`, `kk`, …). */
  readonly language: string;
  /** The loading screen's text. */
  loading: string;
  /** Heading of each screen. */
  title: (screen: Screen) => string;
  /** Who is paid: shown above the heading. */
  payee: (storeName: string) => string;
  /** The status line: the screen in words, or the service's own status text for `other`. */
  statusLabel: string;
  /** The status line's text for a screen (`rawStatus`: the service's own status). */
  status: (screen: Screen, rawStatus: string) => string;
  /** The paragraph under the heading of the final and `other` screens. */
  explanation: (screen: Screen, rawStatus: string) => string;
  /** The amount to send (waiting, picker, checking). */
  amountLabel: string;
  /** The amount on the paid screen. */
  amountPaidLabel: string;
  /** The amount on the other screens. */
  amountSumLabel: string;
  /** Under an amount to send that differs from the order's (`asked`, formatted): the service matches the transfer by it. */
  amountDueNote: (asked: string) => string;
  /** Under a paid amount that differs from the order's (`asked`, formatted): what the service settled after a correction or a dispute. */
  amountSettledNote: (asked: string) => string;
  /** The row of the bank. */
  bankLabel: string;
  /** The row of the requisites, named by their kind (card, phone, UPI ID, …). */
  requisitesLabel: (kind: RequisitesKind) => string;
  /** The row of an Indian account's IFSC (`imps` requisites). */
  ifscLabel: string;
  /** The row of the recipient's name. */
  holderLabel: string;
  /** Guidance for a P2P transfer; `amount` is already formatted. */
  guidance: (amount: string) => string;
  /** The visible text of a copy button. */
  copy: string;
  /** Accessible name of a copy button; starts with `copy` (the visible text). */
  copyLabel: (field: CopyField, kind: RequisitesKind) => string;
  /** A copy button's text once it copied. */
  copied: string;
  /** What screen readers hear once a value was copied. */
  copiedAnnouncement: (field: CopyField, kind: RequisitesKind) => string;
  /** Shown when the Clipboard API is missing or refused and the text was selected instead. */
  copyManually: string;
  /** Accessible name of the QR code. */
  qrLabel: string;
  /** Under the QR code: scan it with the bank app. */
  qrHint: string;
  /** The link that opens the payment in a bank app (touch devices). */
  openInBankApp: string;
  /** Label of the countdown. */
  timeLeftLabel: string;
  /** Spoken time left, at the steps of `announcementStep` (never every second). */
  timeLeftAnnouncement: (remainingMs: number) => string;
  /** Heading of the payment variants. */
  variantsLabel: string;
  /** Unfolds the ways to pay beside a running deal (folded, so the deal fits a phone's first screen). */
  changeBank: string;
  /** A payment option (`TO_CARD`, `SBP`, or one this element does not know, shown as written). */
  option: (option: string) => string;
  /** Marks the variant of the running deal. */
  currentVariant: string;
  /** While a deal is being started. */
  startingDeal: string;
  /** The proxy cannot start deals (501). */
  dealUnsupported: string;
  /** A deal could not be started. */
  dealFailed: string;
  /** The bank picked has no free requisites right now (the picker stays). */
  dealNoRequisites: string;
  /** The service does not offer the picked bank or option for this invoice. */
  dealNotAllowed: string;
  /** The payment variants could not be read. */
  variantsFailed: string;
  /** The cancel button. */
  cancel: string;
  /** The cancel confirmation's question. */
  cancelQuestion: string;
  /** Confirms the cancel. */
  confirmCancel: string;
  /** Steps back from the cancel confirmation. */
  keepPaying: string;
  /** While the cancel is being sent. */
  canceling: string;
  /** The cancel failed or was refused. */
  cancelFailed: string;
  /**
   * The first line of the notice of what changed while the payer was looking; a line per
   * change follows, `label: old → new` (the labels of the details).
   */
  changed: string;
  /** The button that closes the change notice. */
  changeSeen: string;
  /** The button a payer presses after sending the money: it sends nothing by itself. */
  confirmPaid: string;
  /** The checking screen: how long the check may take (`minutes` rounded up; undefined when unknown). */
  checkingExplanation: (minutes: number | undefined) => string;
  /** The deal is `transfer_confirmed`: the receipt arrived. */
  receiptReceived: string;
  /** Opens the receipt form; with the policy, so `required` can say so. */
  attachReceipt: (policy: ReceiptPolicy) => string;
  /** Back from the checking screen to the payment details. */
  showDetails: string;
  /** "Report a payment" when the deal the payer paid ended unconfirmed; "I have already paid" on the expired screen. */
  reportPayment: (prompt: 'confirmed' | 'maybe') => string;
  /** Above the report button: why it is offered. */
  reportIntro: (prompt: 'confirmed' | 'maybe') => string;
  /** The proxy kept the report for the shop (not sent to the service). */
  reportReported: string;
  /** The payment's number to quote to the shop. */
  referenceLabel: string;
  /** The way back to the shop on a final screen. */
  returnToShop: string;
  /** The automatic return after paying, in whole seconds. */
  autoReturn: (seconds: number) => string;
  /** Stops the automatic return. */
  stayHere: string;
  /** A requisite that is a payment page. */
  openPaymentPage: string;
  /** A requisite that is a Telegram bot. */
  openTelegram: string;
  /** Opens the SBP bank picker. */
  chooseBank: string;
  /** A cross-border deal: the currency to send and the card's country (ISO code or name), either may be unknown. */
  crossBorder: (currency: string | undefined, country: string | undefined) => string;
  /** Message of the error screen for a `checkout-error` code. */
  errorMessage: (code: string) => string;
  /** The error screen's retry button. */
  retry: string;
  /** Reading the status failed for now; the element keeps trying. */
  connectionTrouble: string;
  /** The device is offline: the status shown may be old, and is read again once it is back online. */
  offline: string;
}

/** Words for a count by the CLDR plural categories of a language; `other` serves the categories it leaves out. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & {
  /** The form every language has, used when the language's rule names a form not given. */
  other: string;
};

/** The form of `forms` for `count` under `rules` (an `Intl.PluralRules` of the translation's language). */
export const plural = (rules: Intl.PluralRules, count: number, forms: PluralForms): string => forms[rules.select(count)] ?? forms.other;

/** Words of a language for what a copy button copies, where it is not the label of the requisites' kind. */
export type CopyNames = Partial<Record<RequisitesKind | 'amount' | 'ifsc', string>>;

/**
 * What a copy button names: the field's own word (the amount, an IFSC) or the kind's (a bot is
 * copied as its link), else the label of the kind; `inSentence`, its first letter lower-cased
 * to run on in a sentence, unless it is written in capitals (`UPI ID`, `CVU`).
 */
export const copyName = (
  names: CopyNames,
  labels: Readonly<Record<RequisitesKind, string>>,
  field: string,
  kind: RequisitesKind,
  inSentence = true,
): string => {
  const name = own(names, field) ?? own(names, kind) ?? labels[kind];
  return inSentence ? name.replace(/^.(?=\p{Ll})/u, (first) => first.toLowerCase()) : name;
};

/** Whole minutes or seconds left, rounded up, for the announcement texts. */
export const timeLeftUnits = (remainingMs: number): { unit: 'minute' | 'second'; count: number } => {
  const seconds = Math.max(0, Math.ceil(remainingMs / 1000));
  return seconds >= 60 ? { unit: 'minute', count: Math.ceil(seconds / 60) } : { unit: 'second', count: seconds };
};

/**
 * An entry of a lookup table keyed by text from outside (an option, an error code), or
 * `undefined`: `own` keeps `constructor` or `__proto__` from finding the object's prototype.
 */
export const own = <T>(table: Record<string, T>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);

/** `base` with the merchant's replacements of its own keys (the `strings` property holds every part's). */
export const withStrings = <T extends object>(base: T, strings: object | undefined): T => {
  if (!strings) return base;
  const table: Record<string, unknown> = Object.fromEntries(Object.entries(base));
  const mine = Object.entries(strings).filter(([key]) => own(table, key) !== undefined);
  return { ...base, ...Object.fromEntries(mine) };
};
