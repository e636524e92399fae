/**
 * The CDN file's entry (`dist/cdn/merchant-checkout.js`): registers `<merchant-checkout>` like
 * define.ts and exports the element's API, but not the translation objects (`en`, `ru`,
 * `translationFor`): the element loads the payer's language on demand, and pages that want the
 * objects themselves import the npm package.
 */
import { defineMerchantCheckout } from './register.js';

export * from './api.js';

defineMerchantCheckout();
