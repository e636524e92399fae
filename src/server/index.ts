/**
 * `merchant-checkout/server`: request signing, the typed merchant API client, the checkout
 * proxy with its allow-listed projections, the notification receiver and the Node adapter. Runs in Node ≥ 22 and
 * any runtime with Web `fetch`, `Request`, `Response` and `crypto`.
 */
import { nodeDefaultFetch } from './node/fetch.js';
import { setDefaultFetch } from './runtime-seam.js';

export { signRequest, verifySignature, stringToSign, type SignableRequest } from './client/signing.js';
export {
  OPERATIONS,
  OPERATION_LIST,
  MERCHANT_API_PREFIX,
  PUBLIC_API_PREFIX,
  type OperationRow,
  type OperationName,
  type OperationAnswer,
  type Signing,
} from '../schemas/operations.js';
export { MerchantClient, type InvoiceObserver } from './client/merchant-client.js';
export {
  DEFAULT_TIMEOUT_MS,
  type MerchantClientOptions,
  type RequestOptions,
  type RawRequestBody,
  type OpenDisputeRequest,
} from './client/options.js';
export {
  MerchantClientError,
  MerchantApiError,
  MerchantValidationError,
  MerchantResponseError,
  MerchantTimeoutError,
  MerchantNetworkError,
  MerchantTrackingError,
} from './client/errors.js';
export {
  SERVICE_ERROR_CODES,
  classifyServiceError,
  serviceErrorMessages,
  readServiceError,
  isServiceErrorCode,
  type ServiceErrorCode,
  type ServiceError,
} from './client/service-errors.js';
export type * from '../schemas/index.js';
export {
  toNodeHandler,
  createNodeServer,
  type NodeServerOptions,
  PayloadTooLargeError,
  DEFAULT_MAX_BODY_BYTES,
  type FetchHandler,
  type NodeHandlerOptions,
} from './node/adapter.js';
export {
  createCheckoutHandler,
  DEFAULT_CHECKOUT_MAX_BODY_BYTES,
  type CheckoutHandlerOptions,
  type CheckoutCorsOptions,
  type StartDealContext,
  type ReceiptsOption,
  type DisputeDecision,
  type DisputeContext,
} from './proxy/handler.js';
export { DEFAULT_CHECKOUT_MAX_UPLOAD_BYTES, DEFAULT_UPLOAD_TIMEOUT_MS } from './proxy/uploads.js';
export { CheckoutHttpError } from './proxy/http.js';
export {
  createNotificationHandler,
  DEFAULT_NOTIFICATION_HANDLER_TIMEOUT_MS,
  type NotificationHandlerOptions,
  type NotificationReceiverOptions,
  type NotificationTokenSource,
  type RawNotification,
  type UnconfirmedNotification,
} from './notifications/receiver.js';
export {
  createCheckoutServer,
  DEFAULT_NOTIFICATIONS_PATH,
  type CheckoutServer,
  type CheckoutServerOptions,
  type KitNotificationOptions,
  type KitReconcileOptions,
  type KitHandler,
} from './kit.js';
export { DEFAULT_CRON_BUDGET_MS, DEFAULT_CRON_PATH, MIN_CRON_SECRET_LENGTH, type KitCronOptions } from './books/cron.js';
export { ChangeHandlerTimeoutError, BooksBusyError, type InvoiceChange, type ChangeSource, type ApplyOutcome } from './books/ledger.js';
export type { ChangeKind, FieldChange, InvoiceSnapshot, DealSnapshot, SnapshotClaim } from './books/snapshot.js';
export {
  DEFAULT_RECONCILE_TICK_MS,
  type Reconciler,
  type ReconcilerOptions,
  type ReconcileReport,
  type ReconcileFinding,
  type ReconcileFindingKind,
  type ReconcileRequest,
  type DrainOptions,
  type DrainReport,
} from './books/reconciler.js';
export { DEFAULT_OPEN_INTERVAL_MS, DEFAULT_FINAL_FIRST_MS, DEFAULT_SETTLE_AFTER_MS, type ReconcileSchedule } from './books/schedule.js';
export { createInvoiceReader, type InvoiceReader, type InvoiceReadOptions, type ReadInvoice } from './client/invoice-reader.js';
export {
  CHECKOUT_TOKEN_HEADER,
  signCheckoutToken,
  verifyCheckoutToken,
  checkoutTokenAuthorizer,
  type CheckoutTokenAuthorizerOptions,
  type CheckoutTokenRefusal,
} from './proxy/checkout-token.js';
export {
  createWebhookSender,
  signWebhook,
  webhookBody,
  WEBHOOK_RETRY_DELAYS_MS,
  type WebhookSender,
  type WebhookSenderOptions,
  type WebhookPayload,
} from './notifications/webhooks.js';
export { projectInvoice, projectCanceledInvoice, projectDeal, projectVariants, type InvoiceProjectionExtras } from './proxy/projection.js';
export { createNodeFetch, type NodeFetchOptions } from './node/fetch.js';
export {
  createMemoryStore,
  DEFAULT_MEMORY_STORE_BOOKS,
  DEFAULT_MEMORY_STORE_ENTRIES,
  type CheckoutStore,
  type DisputeClaim,
  type InvoiceMark,
  type InvoiceUpdate,
  type BooksClaim,
  type BooksEntry,
  type TrackedInvoice,
  type OutboxMessage,
  type OutboxOutcome,
  type StoreListener,
  type StoreSubscription,
  type MemoryStoreOptions,
} from './store/index.js';
export {
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_REFRESH_INTERVAL_MS,
  DEFAULT_RETRY_MS,
  type CheckoutEventsOptions,
} from './events/invoice-events.js';

// This entry is built for Node (dist/node/server.js): a client given no `fetch` uses the Node
// one (runtime-seam.ts); under Deno and Bun, and without an entry that names one, the global `fetch`.
setDefaultFetch(nodeDefaultFetch);
