// The payer's side of the demo without its QA panel: the element registered from the npm
// build, as a shop's bundler takes it (bench/checkout-server.ts builds this page with Vite).
import 'merchant-checkout/define';
