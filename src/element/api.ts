/**
 * The element's API without its translation objects: what `merchant-checkout` (index.ts) and
 * the CDN file (cdn.ts) both export. The element loads its strings on demand; the translations
 * (`en`, `ru`, `kk`, …, `TRANSLATIONS`) and `translationFor` are exported by the npm entry
 * only, so the CDN file's first-render bundle carries none of them.
 */
export { MerchantCheckoutElement } from './merchant-checkout.js';
export { defineMerchantCheckout } from './register.js';
export { VERSION } from './version.js';
export * from './events.js';
export {
  type CheckoutAnswer,
  type CheckoutClient,
  type CheckoutClientOptions,
  type CheckoutErrorKind,
  type CheckoutRequestOptions,
  CheckoutError,
  createCheckoutClient,
} from './protocol-client.js';
export type { CopyField, KnownPaymentOption, PluralForms, Screen, Translation } from './i18n/translation.js';
export { LANGUAGES, type BootStrings, type Language } from './i18n/lang.js';
// Types only: the forms' and the bank picker's strings (the `strings` property takes them too); their modules load on demand.
export type { JourneyStrings } from './journey/strings.js';
export type { BankPickerStrings } from './banks/picker-view.js';
export {
  formatDecimal,
  formatDuration,
  formatMoney,
  formatRequisites,
  plainText,
  type FormattedRequisites,
  type RequisitesKind,
} from './format.js';
export { statusMeaning, isFinalStatus, type StatusMeaning } from './status.js';
export type { CheckoutCanceledInvoice, CheckoutDeal, CheckoutInvoice } from '../schemas/checkout.js';
export type { Money, PaymentVariant } from '../schemas/invoice.js';
/** @deprecated The element's invoice is the proxy's projection: {@link CheckoutInvoice}. */
export type { CheckoutInvoice as InvoiceLookup, CheckoutCanceledInvoice as CanceledInvoice } from '../schemas/checkout.js';
