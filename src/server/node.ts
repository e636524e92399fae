/**
 * `merchant-checkout/server` on Node, Bun and Deno (the `node` export condition; built as
 * dist/node/server.js): everything of the runtime-neutral entry (index.ts), with Node's
 * platform (node/platform.ts: `node:crypto`'s synchronous HMAC, the keep-alive `fetch` as the
 * clients' default) instead of Web Crypto's and the global `fetch`, and the Node adapter
 * (`toNodeHandler`, `createNodeServer`, `createNodeFetch`). Importing this module changes nothing.
 */
import { checkoutTokensFor } from './proxy/checkout-token.js';
import { signingFor } from './client/signing.js';
import { MerchantClient as NeutralMerchantClient } from './client/merchant-client.js';
import type { MerchantClientOptions } from './client/options.js';
import type { ServerPlatform } from './http/platform.js';
import { nodePlatform } from './node/platform.js';

export * from './index.js';
export { nodePlatform };
export {
  toNodeHandler,
  createNodeServer,
  type NodeServerOptions,
  PayloadTooLargeError,
  DEFAULT_MAX_BODY_BYTES,
  type NodeHandlerOptions,
} from './node/adapter.js';
export { createNodeFetch, type NodeFetchOptions } from './node/fetch.js';

const signing = signingFor(nodePlatform);
const tokens = checkoutTokensFor(nodePlatform);
/** {@inheritDoc RequestSigning.signRequest} */
export const signRequest = signing.signRequest;
/** {@inheritDoc RequestSigning.verifySignature} */
export const verifySignature = signing.verifySignature;
/** {@inheritDoc CheckoutTokens.signCheckoutToken} */
export const signCheckoutToken = tokens.signCheckoutToken;
/** {@inheritDoc CheckoutTokens.verifyCheckoutToken} */
export const verifyCheckoutToken = tokens.verifyCheckoutToken;
/** {@inheritDoc CheckoutTokens.checkoutTokenAuthorizer} */
export const checkoutTokenAuthorizer = tokens.checkoutTokenAuthorizer;

/**
 * The typed client of the service's merchant API (src/server/client/merchant-client.ts: one
 * method per row of `OPERATIONS`), with Node's platform: `node:crypto`'s HMAC and, when given
 * no `fetch`, one shared `createNodeFetch()` (the global `fetch` under Bun and Deno).
 *
 * @example
 * ```ts
 * const client = new MerchantClient({ baseUrl: process.env.SERVICE_URL!, apiKey, secretKey });
 * const invoice = await client.getInvoice(id);
 * ```
 */
export class MerchantClient extends NeutralMerchantClient {
  /** @param platform The runtime's HMAC and default `fetch` (default Node's, {@link nodePlatform}). */
  constructor(options: MerchantClientOptions, platform: ServerPlatform = nodePlatform()) {
    super(options, platform);
  }
}
