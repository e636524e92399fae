/**
 * `merchant-checkout`: the `<merchant-checkout>` element, its events, protocol client,
 * translations and formatters. No side effects: nothing here touches `window`, `document` or
 * `customElements` when imported (safe in server rendering); `merchant-checkout/define` or
 * `defineMerchantCheckout()` registers the tag.
 */
export * from './api.js';
export { az } from './i18n/az.js';
export { bn } from './i18n/bn.js';
export { en } from './i18n/en.js';
export { es } from './i18n/es.js';
export { kk } from './i18n/kk.js';
export { ko } from './i18n/ko.js';
export { ky } from './i18n/ky.js';
export { ru } from './i18n/ru.js';
export { tg } from './i18n/tg.js';
export { uz } from './i18n/uz.js';
export { TRANSLATIONS, translationFor } from './i18n/locale.js';
