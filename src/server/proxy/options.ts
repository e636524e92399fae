/**
 * The options of the checkout proxy (`createCheckoutHandler`, the kit's `checkout`): the
 * merchant's hooks, limits and CORS, with the types its hooks are given, and their checks.
 */
import { RECEIPTS_POLICIES, type CheckoutReceiptsPolicy, type Deal, type DisputeReason, type Invoice } from '../../schemas/index.js';
import type { MerchantClient } from '../client/merchant-client.js';
import { clientsOf } from '../client/clients.js';
import { CLIENT_OPTION } from '../client/options.js';
import { CHECKOUT_EVENTS_OPTIONS, validateEventsOptions, type CheckoutEventsOptions } from '../events/invoice-events.js';
import type { OptionShapeOf } from '../options-check.js';
import { STORE_OPTION } from '../store/memory.js';
import type { CheckoutStore } from '../store/types.js';
// Named by the hooks' documentation ({@link}), which the API docs resolve.
// eslint-disable-next-line @typescript-eslint/no-unused-vars
import type { CheckoutHttpError } from '../http/answers.js';
import type { CheckoutErrorHandler } from '../http/error-context.js';

/** Default request body limit: the only body of the protocol, `{ option, method }`, is tiny. */
export const DEFAULT_CHECKOUT_MAX_BODY_BYTES = 16 * 1024;

/** What the `startDeal` hook is given. */
export interface StartDealContext {
  /** The invoice id from the path (a UUID, lower-case). */
  id: string;
  /** The invoice's internal id (the merchant's order id), or null. */
  internalId: string | null;
  /** The payment option the payer picked (validated: a non-empty string). */
  option: string;
  /** The bank code the payer picked (validated: a non-empty string). */
  method: string;
  /** The invoice as the service shows it right now (already checked to be `id`); frozen: other payers' reads share it. */
  invoice: Invoice;
  /** The payer's request (cookies, session). */
  request: Request;
  /** Aborts when the time budget runs out or the payer goes away; forward it to `client`. */
  signal: AbortSignal;
  /** The client of the invoice's terminal, to call the service with. */
  client: MerchantClient;
}

/**
 * The merchant's receipt policy: `off` (the receipt route answers 403 `receipts_off`),
 * `optional` (the payer may attach a receipt), `required` (the element opens the receipt form
 * as soon as the payer presses "I have paid", and labels it required); or a function deciding
 * per invoice and request (the invoice it is given is frozen: other payers' reads share it).
 * The projection of the invoice carries the answer as `receipts`.
 */
export type ReceiptsOption =
  CheckoutReceiptsPolicy | ((invoice: Invoice, request: Request) => CheckoutReceiptsPolicy | Promise<CheckoutReceiptsPolicy>);

/**
 * What the `dispute` hook decides about a payer's report: `forward` it to the service as a
 * dispute, `notify` (the hook has taken the report for the shop; nothing is sent to the
 * service, the payer is told it was reported), or `refuse` it (403 `dispute_refused`).
 */
export type DisputeDecision = 'forward' | 'notify' | 'refuse';

/** What the `dispute` hook is given: the payer's report, the invoice and the deal it is about. */
export interface DisputeContext {
  /** The invoice id from the path (a UUID, lower-case). */
  id: string;
  /** The invoice's internal id (the merchant's order id), or null. */
  internalId: string | null;
  /** The invoice as the service shows it right now; frozen: other payers' reads share it. */
  invoice: Invoice;
  /** The deal disputed: the invoice's most recent deal the payer could have paid to. */
  deal: Deal;
  /** `no_payment` (nothing was credited) or `invalid_sum` (another amount was sent). */
  reason: DisputeReason;
  /** With `invalid_sum`: the amount the payer says was sent, decimal text in the invoice's currency. */
  amount: string | undefined;
  /** The payer's receipt (type and content checked: JPEG, PNG, WebP, HEIC/HEIF or PDF, at most 10 MB). */
  attachment: Blob;
  /** The payer's request (cookies, session). */
  request: Request;
  /** Aborts when the time budget runs out or the payer goes away. */
  signal: AbortSignal;
  /** The client of the invoice's terminal. */
  client: MerchantClient;
}

/** Cross-origin access to the proxy, for a shop front on another origin than the proxy. */
export interface CheckoutCorsOptions {
  /** Exact origins (`https://shop.example`) allowed to call the proxy from another origin. `*` is refused. */
  origins: string[];
  /** Send `Access-Control-Allow-Credentials: true` (cookies of a cross-origin shop front). Default false. */
  credentials?: boolean;
  /** How long a browser may cache a preflight answer, in seconds (default 600). */
  maxAgeSeconds?: number;
  /** Request headers allowed besides `Content-Type`, e.g. `['X-CSRF-Token']` sent through the element's `headers`. */
  allowHeaders?: string[];
}

/** What `createCheckoutHandler` is given: the client(s), the authorization hook, and limits. */
export interface CheckoutHandlerOptions {
  /**
   * Signs and sends the upstream calls. Several terminals (API keys) of one shop: pass them
   * all; an invoice is visible only to the key that created it, so the proxy asks each in turn
   * the first time it meets an invoice and remembers which one answered (or use `clientFor`).
   */
  client: MerchantClient | readonly MerchantClient[];
  /** Picks the client (terminal) of an invoice yourself, e.g. from your order table; nothing → 404. */
  clientFor?: (id: string, request: Request) => MerchantClient | null | undefined | Promise<MerchantClient | null | undefined>;
  /**
   * Authorization of the payer for an invoice: given the invoice id from the browser (a
   * lower-case UUID) and the request (cookies, session), answer true if this caller may see and
   * act on it (anything else → 404, no upstream call). May throw a {@link CheckoutHttpError}.
   */
  authorize?: (id: string, request: Request) => boolean | Promise<boolean>;
  /**
   * The first round's authorization, still supported: answer the merchant's internal id of
   * the invoice if the caller may see it, nothing otherwise (→ 404). The proxy now reads the
   * invoice by its id and also checks that its `internalId` is the one answered. Prefer
   * `authorize`; see docs/migration.md.
   */
  resolveInternalId?: (id: string, request: Request) => string | null | undefined | Promise<string | null | undefined>;
  /** The path prefix the handler is mounted under, e.g. `/checkout-api` (default: none). */
  basePath?: string;
  /**
   * Overrides how a deal starts for the payer's chosen variant. By default the proxy calls
   * the service's `start-deal` with the payer's choice; a hook answers the InvoiceDTO itself
   * (validated, and it must be the same invoice).
   */
  startDeal?: (context: StartDealContext) => Promise<unknown>;
  /**
   * Bank names from the service's payment-methods list (one read per terminal, currency and
   * hour): a deal's name where the answer has none, and the route `GET /banks?currency=`.
   * Default true; false sends the code only and turns the route off (404).
   */
  bankNames?: boolean;
  /** The receipt policy (see {@link ReceiptsOption}); default `'optional'`. */
  receipts?: ReceiptsOption;
  /**
   * Decides about a payer's report of a payment that went missing (`POST /invoices/{id}/dispute`)
   * before anything is sent: see {@link DisputeDecision}. Default: every report is forwarded.
   * It runs at most once per invoice (the store's dispute claim); a throw is a 500.
   */
  dispute?: (context: DisputeContext) => DisputeDecision | Promise<DisputeDecision>;
  /**
   * Time budget of one request in milliseconds, covering the merchant's hooks and every
   * upstream call; when it runs out the answer is 504. Default: the client's `timeoutMs`.
   */
  timeoutMs?: number;
  /** How long a request body may take to arrive, in ms (default 10 000): a body trickled in slowly is answered 408. */
  bodyTimeoutMs?: number;
  /** Largest request body accepted, in bytes (default 16 KiB; the deal body is a few dozen). → 413 */
  maxBodyBytes?: number;
  /**
   * Largest upload (the multipart body of `…/receipt` and `…/dispute`), in bytes: default a
   * 10 MiB receipt plus 64 KiB of framing. → 413, the reading stopped. Mounted with
   * `toNodeHandler`, give it a `maxBodyBytes` at least as large.
   */
  maxUploadBytes?: number;
  /** How long an upload may take to arrive, in ms (default 120 000: a phone on a slow network). → 408 */
  uploadTimeoutMs?: number;
  /** Cross-origin access; off unless given. */
  cors?: CheckoutCorsOptions;
  /**
   * The event stream `GET /invoices/{id}/events` (Server-Sent Events): `false` turns it off
   * (404), an object tunes it (heartbeat, refresh interval, `retry:` advice). On by default.
   */
  events?: false | CheckoutEventsOptions;
  /**
   * What the event streams hear notifications from, and where the invoices' last states are
   * shared between instances: give `createNotificationHandler` the SAME store
   * (`createMemoryStore()` in one process, `createRedisStore()` for several). Default: a memory
   * store of this handler's own, which hears only this handler's reads.
   */
  store?: CheckoutStore;
  /**
   * Told about every failure the browser only sees as a generic error (5xx, an upstream
   * error, an invoice id that `resolveInternalId` mapped to another invoice), for the
   * merchant's logs, with where it happened: `source` `checkout` with the payer's `request` (the
   * one the handler was given) and the route's `invoiceId`; `events` (an event stream's refresh,
   * no request) or `books` (a state read that could not be recorded, no request). A logger that
   * throws changes no answer. Default: nothing is logged.
   */
  onError?: CheckoutErrorHandler;
}

/** The keys `cors` takes (options-check.ts). */
export const CHECKOUT_CORS_OPTIONS = {
  origins: true,
  credentials: true,
  maxAgeSeconds: true,
  allowHeaders: true,
} as const satisfies OptionShapeOf<CheckoutCorsOptions>;

/** The keys `createCheckoutHandler` takes (options-check.ts). */
export const CHECKOUT_HANDLER_OPTIONS = {
  client: CLIENT_OPTION,
  clientFor: true,
  authorize: true,
  resolveInternalId: true,
  basePath: true,
  startDeal: true,
  bankNames: true,
  receipts: true,
  dispute: true,
  timeoutMs: true,
  bodyTimeoutMs: true,
  maxBodyBytes: true,
  maxUploadBytes: true,
  uploadTimeoutMs: true,
  cors: CHECKOUT_CORS_OPTIONS,
  events: CHECKOUT_EVENTS_OPTIONS,
  store: STORE_OPTION,
  onError: true,
} as const satisfies OptionShapeOf<CheckoutHandlerOptions>;

/** Checks the proxy's options, answering its terminals; `who` names the factory in the messages. @internal */
export const validateCheckoutOptions = (options: CheckoutHandlerOptions, who = 'createCheckoutHandler'): readonly MerchantClient[] => {
  try {
    return validateOptions(options);
  } catch (error) {
    if (error instanceof TypeError && who !== 'createCheckoutHandler')
      throw new TypeError(error.message.replace('createCheckoutHandler', who));
    throw error;
  }
};

/** Checks the proxy's options; answers its terminals (`client` as a list). */
export const validateOptions = (options: CheckoutHandlerOptions): readonly MerchantClient[] => {
  const {
    client,
    clientFor,
    authorize,
    resolveInternalId,
    startDeal,
    timeoutMs,
    maxBodyBytes,
    cors,
    receipts,
    dispute,
    maxUploadBytes,
    uploadTimeoutMs,
  } = options;
  const clients = clientsOf(client, 'createCheckoutHandler');
  if (clientFor !== undefined && typeof clientFor !== 'function')
    throw new TypeError('createCheckoutHandler: clientFor must be a function');
  if (authorize !== undefined && typeof authorize !== 'function')
    throw new TypeError('createCheckoutHandler: authorize must be a function');
  if (resolveInternalId !== undefined && typeof resolveInternalId !== 'function') {
    throw new TypeError('createCheckoutHandler: resolveInternalId must be a function');
  }
  if (authorize === undefined && resolveInternalId === undefined) {
    throw new TypeError(
      'createCheckoutHandler: authorize (or the older resolveInternalId) is required: it decides which invoices a payer may see',
    );
  }
  if (startDeal !== undefined && typeof startDeal !== 'function') {
    throw new TypeError('createCheckoutHandler: startDeal must be a function');
  }
  if (receipts !== undefined && typeof receipts !== 'function' && !RECEIPTS_POLICIES.includes(receipts)) {
    throw new TypeError(
      `createCheckoutHandler: receipts must be "off", "optional", "required" or a function, got ${JSON.stringify(receipts)}`,
    );
  }
  if (dispute !== undefined && typeof dispute !== 'function') throw new TypeError('createCheckoutHandler: dispute must be a function');
  if (maxUploadBytes !== undefined && !(Number.isInteger(maxUploadBytes) && maxUploadBytes > 0)) {
    throw new TypeError('createCheckoutHandler: maxUploadBytes must be a positive integer');
  }
  if (uploadTimeoutMs !== undefined && !(uploadTimeoutMs > 0 && Number.isFinite(uploadTimeoutMs))) {
    throw new TypeError('createCheckoutHandler: uploadTimeoutMs must be a positive number');
  }
  validateEventsOptions(options.events);
  if (timeoutMs !== undefined && !(timeoutMs > 0 && Number.isFinite(timeoutMs))) {
    throw new TypeError('createCheckoutHandler: timeoutMs must be a positive number');
  }
  if (maxBodyBytes !== undefined && !(Number.isInteger(maxBodyBytes) && maxBodyBytes >= 0)) {
    throw new TypeError('createCheckoutHandler: maxBodyBytes must be a non-negative integer');
  }
  if (cors !== undefined) {
    if (!Array.isArray(cors?.origins)) throw new TypeError('createCheckoutHandler: cors.origins must be an array of origins');
    if (
      cors.allowHeaders !== undefined &&
      !(Array.isArray(cors.allowHeaders) && cors.allowHeaders.every((name) => /^[A-Za-z0-9-]+$/.test(name)))
    ) {
      throw new TypeError('createCheckoutHandler: cors.allowHeaders must be an array of header names');
    }
    for (const origin of cors.origins) {
      let canonical: string | undefined;
      try {
        canonical = new URL(origin).origin;
      } catch {
        canonical = undefined;
      }
      if (canonical !== origin || canonical === 'null') {
        throw new TypeError(
          `createCheckoutHandler: cors.origins must hold exact origins like "https://shop.example", got ${JSON.stringify(origin)}`,
        );
      }
    }
  }
  return clients;
};
