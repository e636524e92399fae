/**
 * `merchant-checkout/server` on any runtime with Web `fetch`, `Request`, `Response`, streams,
 * timers and `crypto.subtle` (the `default` export condition; Node, Bun and Deno load the Node
 * entry, node.ts, which adds the Node adapter and Node's HMAC and `fetch`): request signing,
 * the typed merchant API client, the checkout proxy with its allow-listed projections, the
 * notification receiver, the books and the kit. The platform (HMAC, default `fetch`) is Web
 * Crypto's and the global `fetch` (http/platform.ts), asked for when a client or a signature is
 * first made. Importing this module changes nothing.
 */
import { checkoutTokensFor } from './proxy/checkout-token.js';
import { signingFor } from './client/signing.js';
import { webPlatform } from './http/platform.js';

export { stringToSign, type SignableRequest, type RequestSigning } from './client/signing.js';
export { webPlatform, type ServerPlatform, type HmacHash } from './http/platform.js';
export { type CheckoutErrorContext, type CheckoutErrorHandler, type CheckoutErrorSource } from './http/error-context.js';
export type { UpstreamFetch } from './http/runtime-seam.js';

const signing = signingFor(webPlatform);
const tokens = checkoutTokensFor(webPlatform);
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
export type { FetchHandler } from './handler.js';
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
export { CheckoutHttpError } from './http/answers.js';
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
export type { ChangeKind, FieldChange, InvoiceSnapshot, DealSnapshot, SnapshotClaim } from './store/snapshot.js';
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
  type CheckoutTokens,
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
export { projectInvoice, projectCanceledInvoice, projectDeal, projectVariants, type InvoiceProjectionExtras } from './events/projection.js';
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
export type { JournalStore, JournalRecord, JournalAppend } from './store/types.js';
export {
  DEFAULT_JOURNAL_KEEP_DAYS,
  DEFAULT_JOURNAL_MAX_ENTRIES,
  DEFAULT_JOURNAL_MAX_ENTRY_BYTES,
  type Journal,
  type JournalMeta,
  type JournalOptions,
  type JournalView,
} from './journal/journal.js';
export { maskRequisites, type JournalEntry, type JournalKind, type JournalValue, type JournalDetails } from './journal/entry.js';
export { journalWebhookAttempt, type WebhookAttempt } from './journal/taps.js';
export {
  createJournalConsole,
  journalAnswer,
  forwardedClient,
  DEFAULT_CONSOLE_PATH,
  DEFAULT_CONSOLE_MAX_WRONG_KEYS,
  type JournalConsoleOptions,
} from './journal/console.js';
export {
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_REFRESH_INTERVAL_MS,
  DEFAULT_RETRY_MS,
  type CheckoutEventsOptions,
} from './events/invoice-events.js';
