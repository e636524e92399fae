/**
 * `merchant-checkout/server`: request signing, the typed merchant API client and (in later
 * parts) the checkout proxy, notification receiver and Node adapter. Runs in Node ≥ 20 and
 * any runtime with Web `fetch`, `Request`, `Response` and `crypto`.
 */
export { signRequest, verifySignature, stringToSign, type SignableRequest } from './signing.js';
export {
  MerchantClient,
  MERCHANT_API_PREFIX,
  DEFAULT_TIMEOUT_MS,
  type MerchantClientOptions,
  type RequestOptions,
  type RawRequestBody,
} from './client.js';
export {
  MerchantClientError,
  MerchantApiError,
  MerchantValidationError,
  MerchantResponseError,
  MerchantTimeoutError,
  MerchantNetworkError,
} from './errors.js';
export type * from '../schemas/index.js';
export {
  toNodeHandler,
  PayloadTooLargeError,
  DEFAULT_MAX_BODY_BYTES,
  type FetchHandler,
  type NodeHandlerOptions,
} from './node-adapter.js';
export {
  createCheckoutHandler,
  DEFAULT_CHECKOUT_MAX_BODY_BYTES,
  type CheckoutHandlerOptions,
  type CheckoutCorsOptions,
  type StartDealContext,
} from './checkout-handler.js';
export { CheckoutHttpError } from './proxy-http.js';
export {
  createNotificationHandler,
  type NotificationHandlerOptions,
  type NotificationTokenSource,
} from './notifications.js';
export { createNodeFetch, type NodeFetchOptions } from './node-fetch.js';
