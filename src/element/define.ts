/**
 * Registers `<merchant-checkout>`: the only module of the package with a side effect. Import it
 * once (`import 'merchant-checkout/define'`), or load `dist/cdn/merchant-checkout.js`. Exports
 * the element's API without the translation objects (`en`, `ru`, …, `TRANSLATIONS`,
 * `translationFor`), which `merchant-checkout` exports.
 */
import { defineMerchantCheckout } from './register.js';

// The API without the translation objects (as the CDN file): with them, a bundler that keeps
// this module for its side effect kept all ten languages in the page's first file, not the one
// the payer needs on demand. They stay exported by `merchant-checkout`.
export * from './api.js';

defineMerchantCheckout();
