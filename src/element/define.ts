/**
 * Registers `<merchant-checkout>`: the only module of the package with a side effect. Import it
 * once (`import 'merchant-checkout/define'`), or load `dist/cdn/merchant-checkout.js`.
 */
import { defineMerchantCheckout } from './register.js';

export * from './index.js';

defineMerchantCheckout();
