/**
 * `merchant-checkout`: the `<merchant-checkout>` element, its events, protocol client,
 * translations and formatters. No side effects: nothing here touches `window`, `document` or
 * `customElements` when imported (safe in server rendering); `merchant-checkout/define` or
 * `defineMerchantCheckout()` registers the tag.
 */
export * from './api.js';
export { en } from './i18n/en.js';
export { ru } from './i18n/ru.js';
export { translationFor } from './i18n/locale.js';
