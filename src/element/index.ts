/**
 * `merchant-checkout`: the `<merchant-checkout>` element, its events, protocol client,
 * translations and formatters. No side effects: nothing here touches `window`, `document` or
 * `customElements` when imported (safe in server rendering); `merchant-checkout/define` or
 * `defineMerchantCheckout()` registers the tag.
 */
export { MerchantCheckout } from './merchant-checkout.js';
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
export type { CopyField, Screen, Translation } from './i18n/translation.js';
export { en } from './i18n/en.js';
export { ru } from './i18n/ru.js';
export { translationFor } from './i18n/locale.js';
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
