/**
 * `createCheckoutHandler`: the merchant's signing proxy for `<merchant-checkout>`. It serves
 * exactly the routes of the checkout protocol (docs/ARCHITECTURE.md) and nothing else: every
 * other path, method or body is answered here without any upstream call. The payer's browser
 * never holds a key; the merchant's `authorize` hook decides whose invoice a request may
 * touch; answers are allow-listed projections (`projection.ts`), never upstream objects.
 */
import {
  CheckoutDisputeFormSchema,
  GetInvoiceResponseSchema,
  RECEIPTS_POLICIES,
  StartDealRequestSchema,
  safeParse,
  type CheckoutDisputeAnswer,
  type CheckoutProxyErrorCode,
  type CheckoutReceiptsPolicy,
  type Deal,
  type DisputeReason,
  type Invoice,
} from '../schemas/index.js';
import { Hono, type Context, type Next } from 'hono';
import { cors as corsMiddleware } from 'hono/cors';
import type { MerchantClient } from './client.js';
import {
  MerchantApiError,
  MerchantNetworkError,
  MerchantResponseError,
  MerchantTimeoutError,
  MerchantValidationError,
} from './errors.js';
import { ROUTE_METHOD, ROUTE_TEMPLATE, UPLOAD_ROUTES, basePathSegments, matchCheckoutRoute, type CheckoutRoute } from './checkout-route.js';
import { checkoutRoute, countRead, observeStreams } from './telemetry.js';
import {
  CheckoutHttpError,
  Deadline,
  announcesBody,
  baseHeaderPairs,
  baseHeaders,
  DEFAULT_BODY_TIMEOUT_MS,
  errorAnswer,
  jsonAnswer,
  readBodyLimited,
} from './proxy-http.js';
import { declareRequestLimits, declaredLength } from './body.js';
import { requestPath } from './node-adapter.js';
import { remember } from './remember.js';
import { createBankNames } from './bank-names.js';
import { projectCanceledInvoice, projectInvoice, projectVariants, withReceiptsPolicy } from './projection.js';
import {
  createUploadFlight,
  receiptLimit,
  DEFAULT_CHECKOUT_MAX_UPLOAD_BYTES,
  DEFAULT_UPLOAD_TIMEOUT_MS,
  formFields,
  readUploadForm,
  receiptOf,
  requireMultipart,
} from './uploads.js';
import { createInvoiceEvents, validateEventsOptions, type CheckoutEventsOptions } from './invoice-events.js';
import { createInvoiceReader, type InvoiceReader } from './invoice-reader.js';
import { createMemoryStore } from './store/memory.js';
import type { CheckoutStore } from './store/types.js';

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
  | CheckoutReceiptsPolicy
  | ((invoice: Invoice, request: Request) => CheckoutReceiptsPolicy | Promise<CheckoutReceiptsPolicy>);

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
   * `authorize`; see the migration note in the README.
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
   * merchant's logs. Default: nothing is logged.
   */
  onError?: (error: unknown, request: Request) => void;
}

/** What the proxy's Hono app keeps per request: the route and invoice id its path guard matched. */
type ProxyEnv = { Variables: { match: { route: CheckoutRoute; id: string } } };

/** How many invoices' receipt policies the proxy remembers (for their event streams). */
const MAX_REMEMBERED_POLICIES = 10_000;

/**
 * The service's refusals a payer can act on, by the client's stable code (`MerchantApiError.code`),
 * with the protocol code the element shows in the payer's words.
 */
const SERVICE_TO_CHECKOUT_ERROR: Readonly<Record<string, readonly [CheckoutProxyErrorCode, string]>> = {
  no_requisites: ['no_requisites', 'this bank has no free requisites right now'],
  option_not_allowed: ['option_not_allowed', 'this payment option is not available for the invoice'],
  method_not_allowed: ['bank_not_allowed', 'this bank is not available for the invoice'],
  pay_in_disabled: ['service_unavailable', 'payments are switched off for this shop right now'],
};

const fail = (code: CheckoutProxyErrorCode, message: string): never => {
  throw new CheckoutHttpError(code, message);
};

const upstreamUnavailable = () => new CheckoutHttpError('upstream_error', 'the payment service failed to answer');

/** How long a dispute's claim is held beyond the time budget when its outcome is not known (the service did not answer). */
const DISPUTE_CLAIM_MARGIN_MS = 60_000;

/** Deal statuses a payer can no longer have paid to unnoticed: a settled deal, or one already disputed. */
const UNDISPUTABLE_DEAL_STATUSES: readonly string[] = ['completed', 'dispute'];

const DISPUTE_DECISIONS: readonly string[] = ['forward', 'notify', 'refuse'];

const CLIENT_METHODS = ['getInvoice', 'listPaymentVariants', 'cancelInvoice', 'startDeal'] as const;
const isClient = (value: unknown): value is MerchantClient =>
  typeof value === 'object' && value !== null && CLIENT_METHODS.every((name) => typeof (value as Record<string, unknown>)[name] === 'function');

/** Checks the proxy's options; `who` names the factory in the messages. @internal */
export const validateCheckoutOptions = (options: CheckoutHandlerOptions, who = 'createCheckoutHandler') => {
  try {
    validateOptions(options);
  } catch (error) {
    if (error instanceof TypeError && who !== 'createCheckoutHandler') throw new TypeError(error.message.replace('createCheckoutHandler', who));
    throw error;
  }
};

const validateOptions = (options: CheckoutHandlerOptions) => {
  const { client, clientFor, authorize, resolveInternalId, startDeal, timeoutMs, maxBodyBytes, cors, receipts, dispute, maxUploadBytes, uploadTimeoutMs } =
    options ?? ({} as CheckoutHandlerOptions);
  const clients = Array.isArray(client) ? client : [client];
  if (clients.length === 0 || !clients.every(isClient)) {
    throw new TypeError('createCheckoutHandler: client must be a MerchantClient or a non-empty array of them');
  }
  if (clientFor !== undefined && typeof clientFor !== 'function') throw new TypeError('createCheckoutHandler: clientFor must be a function');
  if (authorize !== undefined && typeof authorize !== 'function') throw new TypeError('createCheckoutHandler: authorize must be a function');
  if (resolveInternalId !== undefined && typeof resolveInternalId !== 'function') {
    throw new TypeError('createCheckoutHandler: resolveInternalId must be a function');
  }
  if (authorize === undefined && resolveInternalId === undefined) {
    throw new TypeError('createCheckoutHandler: authorize (or the older resolveInternalId) is required: it decides which invoices a payer may see');
  }
  if (startDeal !== undefined && typeof startDeal !== 'function') {
    throw new TypeError('createCheckoutHandler: startDeal must be a function');
  }
  if (receipts !== undefined && typeof receipts !== 'function' && !RECEIPTS_POLICIES.includes(receipts)) {
    throw new TypeError(`createCheckoutHandler: receipts must be "off", "optional", "required" or a function, got ${JSON.stringify(receipts)}`);
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
    if (cors.allowHeaders !== undefined && !(Array.isArray(cors.allowHeaders) && cors.allowHeaders.every((name) => /^[A-Za-z0-9-]+$/.test(name)))) {
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
};

/** The time budget of one request: one {@link Deadline}, which an upload route starts again once its body has arrived. */
class Budget {
  deadline: Deadline;
  /** True once an upload was read to its end (an error answer then need not close the connection). */
  bodyRead = false;
  readonly #timeoutMs: number;
  readonly #parent: AbortSignal;

  constructor(timeoutMs: number, parent: AbortSignal) {
    this.#timeoutMs = timeoutMs;
    this.#parent = parent;
    this.deadline = new Deadline(timeoutMs, parent);
  }

  /** A fresh deadline for the work after the upload (the one before is disposed). */
  restart(): Deadline {
    this.deadline.dispose();
    this.deadline = new Deadline(this.#timeoutMs, this.#parent);
    return this.deadline;
  }
}

/**
 * Creates the checkout proxy: `(request: Request) => Promise<Response>`. Mount it in a Fetch
 * runtime directly, or in node:http / Express with `toNodeHandler`.
 *
 * | request | upstream | answer |
 * |---|---|---|
 * | `GET /invoices/{id}` | `authorize(id)`, then `getInvoice(id)` | the invoice's projection |
 * | `GET /invoices/{id}/available-payment-variants` | the invoice check, then `listPaymentVariants(id)` | `[{option, method}]` |
 * | `POST /invoices/{id}/cancel` | the invoice check, then `cancelInvoice(id)` | the cancel answer's projection |
 * | `POST /invoices/{id}/deal` `{option, method}` | the invoice check, then `startDeal(id, …)` (or the hook) | the invoice's projection |
 * | `GET /invoices/{id}/events` | the invoice check (a watched invoice is not read again) | `text/event-stream` of the projection (invoice-events.ts) |
 * | `POST /invoices/{id}/receipt` (multipart `attachment`) | the invoice check, then `confirmTransfer(id, file)` | the invoice's projection |
 * | `POST /invoices/{id}/dispute` (multipart `reason`, `amount`, `attachment`) | the invoice check, the dispute claim, the `dispute` hook, then `openDispute` | `{ outcome, invoice }` |
 * | `GET /banks?currency=` | none (public); the first client's `listPaymentMethods`, cached an hour | `[{code, name}]` |
 */
export const createCheckoutHandler = (options: CheckoutHandlerOptions): ((request: Request) => Promise<Response>) => {
  validateOptions(options);
  const clients: readonly MerchantClient[] = Array.isArray(options.client) ? options.client : [options.client as MerchantClient];
  return createProxy({ reader: createInvoiceReader(clients), store: options.store ?? createMemoryStore() }, options);
};

/**
 * The proxy over the reads and store it shares (the kit's, or its own): what
 * {@link createCheckoutHandler} and the kit's `checkout` are.
 * @internal
 */
export const createProxy = (
  shared: { reader: InvoiceReader; store: CheckoutStore },
  options: Omit<CheckoutHandlerOptions, 'client' | 'store'>,
): ((request: Request) => Promise<Response>) => {
  const { clientFor, authorize: authorizeHook, resolveInternalId, startDeal, cors, onError, dispute: disputeHook } = options;
  const { reader, store } = shared;
  const clients = reader.clients;
  const base = basePathSegments(options.basePath);
  const timeoutMs = options.timeoutMs ?? Math.max(...clients.map((client) => client.timeoutMs));
  const bankNames = options.bankNames === false ? undefined : createBankNames();
  const withBankNames = bankNames ? bankNames.fill : (invoice: Invoice) => Promise.resolve(invoice);
  const receipts = options.receipts ?? 'optional';
  /** The policy a function answered last per invoice: what the event stream (one projection per state) carries. */
  const receiptsOf = new Map<string, CheckoutReceiptsPolicy>();
  const upload = { maxBytes: options.maxUploadBytes ?? DEFAULT_CHECKOUT_MAX_UPLOAD_BYTES, timeoutMs: options.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS };
  /** What the element may promise the payer: a receipt that fits this proxy's upload cap with its framing. */
  const receiptMaxBytes = receiptLimit(upload.maxBytes);
  /** One confirm-transfer per invoice at a time, whoever sends the receipt. */
  const uploadFlight = createUploadFlight();
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_CHECKOUT_MAX_BODY_BYTES;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const allowedOrigins = new Set(cors?.origins ?? []);
  const report = (error: unknown, request: Request) => {
    try {
      onError?.(error, request);
    } catch {
      // A failing logger must not change the answer.
    }
  };

  /**
   * Refuses a state-changing request sent from another site (a form or `fetch` on an
   * attacker's page riding on the payer's cookies), unless its origin is listed in
   * `cors.origins`. A browser's `Sec-Fetch-Site: same-origin` (or `none`) is believed; without
   * that header (older browsers), an `Origin` that is present must be this proxy's own. A
   * request with neither (a server, curl) passes: `authorize` is still the authorization.
   */
  const checkSameSite = (request: Request) => {
    const origin = request.headers.get('origin');
    if (origin !== null && allowedOrigins.has(origin)) return;
    const site = request.headers.get('sec-fetch-site');
    if (site === 'same-origin' || site === 'none') return;
    if (site === null && (origin === null || origin === new URL(request.url).origin)) return;
    fail('forbidden', 'cross-site requests are not allowed');
  };

  /** Whether this caller may see `id` (else a 404), and the internal id the older hook answered. */
  const authorize = async (id: string, request: Request, deadline: Deadline): Promise<{ internalId?: string }> => {
    if (authorizeHook) {
      if ((await deadline.race(authorizeHook(id, request))) !== true) fail('not_found', 'unknown invoice');
      if (!resolveInternalId) return {};
    }
    const internalId = await deadline.race(resolveInternalId!(id, request));
    if (internalId === null || internalId === undefined || internalId === '') fail('not_found', 'unknown invoice');
    if (typeof internalId !== 'string') {
      throw new TypeError(`resolveInternalId must answer a string or nothing, got ${typeof internalId}`);
    }
    return { internalId };
  };

  const events =
    options.events === false
      ? undefined
      : createInvoiceEvents(
          {
            store,
            read: async (client, id) => (await reader.read(id, { client }))?.invoice ?? fail('not_found', 'unknown invoice'),
            withBankNames: async (invoice, client) =>
              withReceiptsPolicy(
                await withBankNames(invoice, client, {}),
                typeof receipts === 'function' ? receiptsOf.get(invoice.id.toLowerCase()) : receipts,
                receiptMaxBytes,
              ),
            report: (error) => report(error, new Request('http://checkout.invalid/events')),
            sent: () => countRead('push'),
          },
          options.events,
        );

  /** The invoice `id` read from its terminal, with that terminal; a 404 when none knows it. */
  const invoiceAndClient = async (id: string, request: Request, deadline: Deadline): Promise<{ invoice: Invoice; client: MerchantClient }> => {
    const chosen = clientFor ? await deadline.race(clientFor(id, request)) : undefined;
    if (clientFor && !isClient(chosen)) fail('not_found', 'unknown invoice');
    const found = await reader.read(id, { client: chosen ?? undefined, signal: deadline.signal });
    if (!found) return fail('not_found', 'unknown invoice');
    events?.observe(found.invoice);
    return found;
  };

  /**
   * The invoice `id` for this caller. It must be `id` (a service or a hook that answers
   * another invoice must not hand it out), and with the older `resolveInternalId` its
   * `internalId` must be the one answered (an over-broad lookup must not widen access).
   */
  const verifiedInvoice = async (id: string, request: Request, deadline: Deadline, watched = false) =>
    checkedInvoice(id, request, deadline, (await authorize(id, request, deadline)).internalId, watched);

  /** The invoice `id` for a caller already authorized (see {@link verifiedInvoice}). */
  const checkedInvoice = async (id: string, request: Request, deadline: Deadline, internalId: string | undefined, watched = false) => {
    const found = (watched ? await watchedInvoice(id, request, deadline) : undefined) ?? (await invoiceAndClient(id, request, deadline));
    if (found.invoice.id.toLowerCase() !== id) {
      report(new Error(`the service answered invoice ${found.invoice.id} for ${id}`), request);
      fail('not_found', 'unknown invoice');
    }
    if (internalId !== undefined && found.invoice.internalId !== internalId) {
      report(
        new Error(`resolveInternalId answered ${JSON.stringify(internalId)} for invoice ${id}, whose internalId is ${JSON.stringify(found.invoice.internalId)}`),
        request,
      );
      fail('not_found', 'unknown invoice');
    }
    return found;
  };

  /** The state an open stream of `id` already holds (a stream need not read it again), if its terminal is the one `clientFor` picks. */
  const watchedInvoice = async (id: string, request: Request, deadline: Deadline) => {
    const watched = events?.current(id, request.headers.get('last-event-id'));
    if (!watched || (clientFor && (await deadline.race(clientFor(id, request))) !== watched.client)) return undefined;
    return watched;
  };

  const readDealRequest = async (request: Request) => {
    const type = request.headers.get('content-type') ?? '';
    const [mediaType = '', ...parameters] = type.split(';').map((part) => part.trim().toLowerCase());
    const charset = parameters.find((parameter) => parameter.startsWith('charset='))?.slice('charset='.length);
    if (mediaType !== 'application/json' || (charset !== undefined && charset.replace(/"/g, '') !== 'utf-8')) {
      fail('unsupported_media_type', 'the body must be application/json');
    }
    const text = await readBodyLimited(request, maxBodyBytes, bodyTimeoutMs);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      fail('bad_request', 'the body is not JSON');
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) fail('bad_request', 'the body must be a JSON object');
    const parsed = safeParse(StartDealRequestSchema, json);
    if (!parsed.success) return fail('bad_request', `invalid body: ${parsed.message}`);
    return parsed.data;
  };

  /** The receipt policy for this invoice and caller: the option, or what its function answers (checked). */
  const receiptsPolicy = async (invoice: Invoice, request: Request, deadline: Deadline): Promise<CheckoutReceiptsPolicy> => {
    if (typeof receipts !== 'function') return receipts;
    const answer: unknown = await deadline.race(receipts(invoice, request));
    if (typeof answer !== 'string' || !(RECEIPTS_POLICIES as readonly string[]).includes(answer)) {
      throw new TypeError(`receipts must answer "off", "optional" or "required", got ${JSON.stringify(answer)}`);
    }
    const policy = answer as CheckoutReceiptsPolicy;
    const key = invoice.id.toLowerCase();
    remember(receiptsOf, key, policy, MAX_REMEMBERED_POLICIES);
    return policy;
  };

  /** The invoice's projection for this caller: bank names filled in, the receipt policy (asked, unless known) added. */
  const projected = async (invoice: Invoice, client: MerchantClient, request: Request, deadline: Deadline, known?: CheckoutReceiptsPolicy) => {
    const policy = known ?? (await receiptsPolicy(invoice, request, deadline));
    return projectInvoice(await withBankNames(invoice, client, { signal: deadline.signal, timeoutMs: deadline.remaining() }), { receipts: policy, receiptMaxBytes });
  };

  /** An answer of a state change about `id`: it must be that invoice, then every stream hears it. */
  const changed = (invoice: Invoice, id: string, request: Request, source: string): Invoice => {
    if (invoice.id.toLowerCase() !== id) {
      report(new Error(`${source} answered invoice ${invoice.id} for ${id}`), request);
      throw upstreamUnavailable();
    }
    events?.observe(invoice);
    return invoice;
  };

  /** A deal started for the payer: the invoice must be `id` and show an active deal, else the bank had no requisites. */
  const dealStarted = (invoice: Invoice, id: string, request: Request, source: string, client: MerchantClient, deadline: Deadline) => {
    if (invoice.id.toLowerCase() === id && !invoice.deals.some((deal) => deal.isActive)) fail('no_requisites', 'this bank has no free requisites right now');
    return projected(changed(invoice, id, request, source), client, request, deadline);
  };

  /**
   * The deal a payer's report is about: the active deal, else the most recent one they could
   * have paid to (not completed, not already disputed): latest by its deadline (`canceledAt`),
   * then by its place in `deals`. Only a deal with an id can be named to the service.
   */
  const disputedDeal = (invoice: Invoice): Deal | undefined => {
    const candidates = invoice.deals
      .map((deal, index) => ({ deal, index, at: deal.canceledAt ? Date.parse(deal.canceledAt) : Number.NEGATIVE_INFINITY }))
      .filter(({ deal }) => deal.id && !UNDISPUTABLE_DEAL_STATUSES.includes(deal.status));
    const active = candidates.find(({ deal }) => deal.isActive);
    if (active) return active.deal;
    candidates.sort((a, b) => a.at - b.at || a.index - b.index);
    return candidates.at(-1)?.deal;
  };

  /** Reads and checks the dispute form: reason, amount (with `invalid_sum`) and the receipt. */
  const readDisputeForm = async (request: Request, budget: Budget) => {
    const form = await readUploadForm(request, upload);
    budget.bodyRead = true;
    const fields = formFields(form, ['reason', 'amount', 'attachment'], 'attachment');
    const attachment = await receiptOf(form);
    const parsed = safeParse(CheckoutDisputeFormSchema, { ...fields, attachment });
    if (!parsed.success) return fail('bad_request', `invalid form: ${parsed.message}`);
    return parsed.data;
  };

  /**
   * `POST /invoices/{id}/receipt`: the payer's receipt for the active deal, through the
   * service's confirm-transfer. The caller is authorized before the upload is read; the time
   * budget of the upstream work starts once it has arrived.
   */
  const serveReceipt = async (id: string, request: Request, budget: Budget) => {
    if (receipts === 'off') fail('receipts_off', 'this shop takes no receipts');
    requireMultipart(request);
    const { internalId } = await authorize(id, request, budget.deadline);
    const form = await readUploadForm(request, upload);
    budget.bodyRead = true;
    formFields(form, ['attachment'], 'attachment');
    const attachment = await receiptOf(form);
    const deadline = budget.restart();
    const { invoice, client } = await checkedInvoice(id, request, deadline, internalId);
    const policy = await receiptsPolicy(invoice, request, deadline);
    if (policy === 'off') fail('receipts_off', 'this shop takes no receipts for this invoice');
    const deal = invoice.deals.find((each) => each.isActive);
    // Sent again (the answer was lost, a second tap): the transfer is confirmed already.
    if (deal?.status === 'transfer_confirmed') return projected(invoice, client, request, deadline, policy);
    if (!deal || UNDISPUTABLE_DEAL_STATUSES.includes(deal.status)) fail('no_deal', 'no deal of this invoice waits for a transfer');
    let confirmed: Invoice;
    try {
      // Not the payer's signal: a receipt that arrived whole is delivered even if its sender
      // went away, and a repeat of it (a second tap, a POST the browser sent again) joins it.
      confirmed = await deadline.race(uploadFlight(id, () => client.confirmTransfer(id, attachment, { timeoutMs })));
    } catch (error) {
      if (error instanceof MerchantApiError && error.status >= 400 && error.status < 500 && ![401, 403].includes(error.status)) {
        // Refused: perhaps because another instance delivered it just now. The invoice says.
        const now = (await reader.read(id, { client, signal: deadline.signal }).catch(() => undefined))?.invoice;
        if (now?.deals.find((each) => each.isActive)?.status === 'transfer_confirmed') return projected(now, client, request, deadline, policy);
        report(error, request);
        fail('no_deal', 'the payment service refused the receipt: the deal no longer waits for a transfer; read the invoice again');
      }
      throw error;
    }
    return projected(changed(confirmed, id, request, 'confirm-transfer'), client, request, deadline, policy);
  };

  /**
   * `POST /invoices/{id}/dispute`: the payer reports a payment that went missing. At most one
   * dispute per invoice across instances (the store's claim): the claim is kept once a dispute
   * is made (forwarded, or reported by the hook), released when the hook or the service
   * refused, and left to lapse when the outcome is unknown (the service did not answer).
   */
  const serveDispute = async (id: string, request: Request, budget: Budget): Promise<CheckoutDisputeAnswer> => {
    requireMultipart(request);
    const { internalId } = await authorize(id, request, budget.deadline);
    const { reason, amount, attachment } = await readDisputeForm(request, budget);
    const deadline = budget.restart();
    const { invoice, client } = await checkedInvoice(id, request, deadline, internalId);
    if (invoice.status === 'dispute' || invoice.deals.some((deal) => deal.status === 'dispute')) {
      fail('dispute_exists', 'a dispute about this invoice is open already');
    }
    if (invoice.status === 'canceled' || invoice.status === 'paid') fail('dispute_not_allowed', `a ${invoice.status} invoice cannot be disputed`);
    const decimals = amount?.split('.')[1]?.length ?? 0;
    if (decimals > invoice.sum.subunit) {
      fail('bad_request', `invalid form: amount: must have at most ${invoice.sum.subunit} digits after the point in ${invoice.sum.currency}`);
    }
    const deal = disputedDeal(invoice) ?? fail('no_deal', 'this invoice has no deal the payer could have paid to');
    const claim = (await deadline.race(store.claimDispute(id, timeoutMs + DISPUTE_CLAIM_MARGIN_MS))) ?? fail('dispute_exists', 'this invoice has its dispute already');
    const settle = async (outcome: 'kept' | 'released') => {
      try {
        await claim.settle(outcome);
      } catch (error) {
        // The claim then lapses by itself; the payer's answer stands.
        report(error, request);
      }
    };
    let decision: string;
    try {
      decision = disputeHook
        ? await deadline.race(disputeHook({ id, internalId: invoice.internalId, invoice, deal, reason, amount, attachment, request, signal: deadline.signal, client }))
        : 'forward';
      if (!DISPUTE_DECISIONS.includes(decision)) throw new TypeError(`dispute must answer "forward", "notify" or "refuse", got ${JSON.stringify(decision)}`);
    } catch (error) {
      await settle('released');
      throw error;
    }
    if (decision === 'refuse') {
      await settle('released');
      fail('dispute_refused', 'the shop does not take this report');
    }
    if (decision === 'notify') {
      await settle('kept');
      return { outcome: 'reported', invoice: await projected(invoice, client, request, deadline) };
    }
    let disputed: Invoice;
    try {
      disputed = await client.openDispute(id, { dealId: deal.id!, reason, amount, attachment }, { signal: deadline.signal, timeoutMs: deadline.remaining() });
    } catch (error) {
      if ((error instanceof MerchantApiError && error.status < 500) || error instanceof MerchantValidationError) {
        // Refused: nothing was opened, the payer may try again.
        await settle('released');
        if (error instanceof MerchantApiError && ![401, 403].includes(error.status)) {
          report(error, request);
          fail('dispute_not_allowed', 'the payment service refused the dispute: the invoice can no longer be disputed');
        }
      } else if (error instanceof MerchantResponseError && error.status >= 200 && error.status < 300) {
        // Accepted, though the answer is unreadable: the dispute is open.
        await settle('kept');
      }
      throw error;
    }
    await settle('kept');
    return { outcome: 'forwarded', invoice: await projected(changed(disputed, id, request, 'dispute'), client, request, deadline) };
  };

  /** `GET /banks?currency=`: the service's banks of a currency, public, from the shared cache. */
  const serveBanks = async (request: Request, deadline: Deadline): Promise<Response> => {
    const currencies = new URL(request.url).searchParams.getAll('currency');
    const currency = currencies.length === 1 ? currencies[0]! : '';
    if (!/^[A-Z]{3,5}$/.test(currency)) fail('bad_request', 'currency: must be one currency code of 3 to 5 capital letters, like "RUB"');
    const list = await deadline.race(bankNames!.banks(clients[0]!, currency));
    const answer = jsonAnswer(200, list.map(({ code, name }) => ({ code, name })));
    answer.headers.set('cache-control', 'public, max-age=3600');
    return answer;
  };

  const serve = async (c: Context<ProxyEnv>, route: CheckoutRoute, id: string, budget: Budget): Promise<unknown> => {
    const request = c.req.raw;
    const deadline = budget.deadline;
    const upstream = () => ({ signal: deadline.signal, timeoutMs: deadline.remaining() });
    switch (route) {
      case 'invoice': {
        const { invoice, client } = await verifiedInvoice(id, request, deadline);
        return projected(invoice, client, request, deadline);
      }
      case 'variants': {
        const { client } = await verifiedInvoice(id, request, deadline);
        return projectVariants(await client.listPaymentVariants(id, upstream()));
      }
      case 'cancel': {
        // The service describes no body; one is read (within the limit) and ignored.
        await readBodyLimited(request, maxBodyBytes, bodyTimeoutMs);
        const { client } = await verifiedInvoice(id, request, deadline);
        try {
          return projectCanceledInvoice(await client.cancelInvoice(id, upstream()));
        } catch (error) {
          if (error instanceof MerchantApiError && error.status >= 400 && error.status < 500 && ![401, 403, 404].includes(error.status)) {
            report(error, request);
            fail('cancel_refused', 'the payment service refused to cancel; the invoice may have changed');
          }
          throw error;
        }
      }
      case 'deal': {
        const { option, method } = await readDealRequest(request);
        const { invoice, client } = await verifiedInvoice(id, request, deadline);
        if (!startDeal) {
          const started = await client.startDeal(id, { paymentOption: option, paymentMethod: method }, upstream());
          return dealStarted(started, id, request, 'start-deal', client, deadline);
        }
        const answer = await deadline.race(
          startDeal({ id, internalId: invoice.internalId, option, method, invoice, request, signal: deadline.signal, client }),
        );
        const parsed = safeParse(GetInvoiceResponseSchema, answer);
        if (!parsed.success) {
          report(new Error(`startDeal answered an invalid invoice: ${parsed.message}`), request);
          throw upstreamUnavailable();
        }
        return dealStarted(parsed.data, id, request, 'startDeal', client, deadline);
      }
      case 'events': {
        const { invoice, client } = await verifiedInvoice(id, request, deadline, true);
        // The stream's projections carry the policy this payer is answered.
        if (typeof receipts === 'function') await receiptsPolicy(invoice, request, deadline);
        return events!.respond(c, id, invoice, client, request);
      }
      case 'receipt':
        return serveReceipt(id, request, budget);
      case 'dispute':
        return serveDispute(id, request, budget);
      case 'banks':
        return serveBanks(request, deadline);
    }
  };

  /** The checkout error a failure is answered with; never the upstream's text. */
  const toCheckoutError = (error: unknown, deadline: Deadline | undefined): CheckoutHttpError => {
    if (error instanceof CheckoutHttpError) return error;
    if (deadline?.exceeded || error instanceof MerchantTimeoutError) {
      return new CheckoutHttpError('upstream_timeout', 'the payment service did not answer in time');
    }
    if (error instanceof MerchantApiError) {
      const known = SERVICE_TO_CHECKOUT_ERROR[error.code];
      if (known) return new CheckoutHttpError(known[0], known[1]);
      return upstreamUnavailable();
    }
    if (error instanceof MerchantNetworkError) return upstreamUnavailable();
    if (error instanceof MerchantResponseError) {
      return new CheckoutHttpError('upstream_invalid', 'the payment service answered something unexpected');
    }
    return new CheckoutHttpError('internal_error', 'internal error');
  };

  /** CORS for the listed origins only (Hono's middleware), with the one method of the route. */
  const corsFor = new Map<CheckoutRoute, (c: Context<ProxyEnv>, next: Next) => Promise<Response | void>>(
    (Object.keys(ROUTE_METHOD) as CheckoutRoute[]).map((route) => [
      route,
      corsMiddleware({
        origin: (origin: string) => (allowedOrigins.has(origin) ? origin : null),
        allowMethods: [ROUTE_METHOD[route]],
        allowHeaders: ['Content-Type', ...(options.cors?.allowHeaders ?? [])],
        // `Date` is not a CORS-safelisted response header, and the element reads it.
        exposeHeaders: ['Date'],
        maxAge: options.cors?.maxAgeSeconds ?? 600,
        credentials: options.cors?.credentials ?? false,
      }) as (c: Context<ProxyEnv>, next: Next) => Promise<Response | void>,
    ]),
  );

  const app = new Hono<ProxyEnv>();

  // Every answer, errors included: `Date`, `no-store`, `nosniff`, `Vary: Origin` with CORS on;
  // a HEAD answer without a body, whatever the runtime does with one.
  app.use('*', async (c: Context<ProxyEnv>, next: Next) => {
    await next();
    const headers = c.res.headers;
    for (const [name, value] of baseHeaderPairs()) if (!headers.has(name)) headers.set(name, value);
    if (cors && !/\borigin\b/i.test(headers.get('vary') ?? '')) headers.append('vary', 'Origin');
    if (c.req.method === 'HEAD' && c.res.body) {
      await c.res.body.cancel();
      c.res = new Response(null, { status: c.res.status, headers: c.res.headers });
    }
  });

  // The path is judged on its decoded segments before any route sees it (checkout-route.ts):
  // unknown → 404, malformed → 400, another method → 405 with Allow, a non-UUID id → 400.
  app.use('*', async (c: Context<ProxyEnv>, next: Next) => {
    const request = c.req.raw;
    const match = matchCheckoutRoute(requestPath(request), base);
    if (match.kind === 'unknown' || (match.kind !== 'malformed' && ((match.route === 'events' && !events) || (match.route === 'banks' && !bankNames)))) {
      return errorAnswer('not_found', 'no such checkout operation');
    }
    if (match.kind === 'malformed') return errorAnswer('bad_request', match.message);
    const method = ROUTE_METHOD[match.route];
    const origin = request.headers.get('origin');
    const preflight = request.method === 'OPTIONS';
    const corsAllowed = cors && origin !== null && allowedOrigins.has(origin);
    if (preflight) {
      const answer = jsonAnswer(204, null);
      answer.headers.set('allow', `${method}, OPTIONS`);
      if (!corsAllowed || request.headers.get('access-control-request-method') !== method) return answer;
      c.res = answer;
      return corsFor.get(match.route)!(c, () => Promise.resolve());
    }
    if (request.method !== method) {
      const headers = baseHeaders();
      headers.set('allow', `${method}, OPTIONS`);
      return errorAnswer('method_not_allowed', `use ${method}`, headers);
    }
    if (match.kind === 'bad_id') return errorAnswer('bad_request', 'the invoice id must be a UUID');
    if (request.method === 'GET' && announcesBody(request)) return errorAnswer('bad_request', 'a GET request has no body');
    if (UPLOAD_ROUTES.has(match.route)) {
      if (declaredLength(request) > upload.maxBytes) {
        // Answered at once, the connection closed: the upload is not read.
        void request.body?.cancel().catch(() => undefined);
        const headers = baseHeaders();
        headers.set('connection', 'close');
        return errorAnswer('payload_too_large', `the upload exceeds ${upload.maxBytes} bytes`, headers);
      }
    } else if (declaredLength(request) > maxBodyBytes) {
      return errorAnswer('payload_too_large', `request body exceeds ${maxBodyBytes} bytes`);
    }
    c.set('match', { route: match.route, id: match.id });
    if (corsAllowed) return corsFor.get(match.route)!(c, next);
    return next();
  });

  /**
   * Serves one route within the request's time budget; failures become checkout errors. An
   * upload route starts its budget again once the upload has arrived (`budget.restart()`), and
   * an error answer before its body was read to its end closes the connection: the rest of the
   * upload is not read.
   */
  const route = (name: CheckoutRoute) => (c: Context<ProxyEnv>) => {
    if (!streamsObserved && events) {
      streamsObserved = true;
      observeStreams(() => events.stats().streams);
    }
    if (name === 'invoice') countRead('poll');
    return checkoutRoute(`${prefix}${ROUTE_TEMPLATE[name]}`, ROUTE_METHOD[name], () => serveRoute(name, c));
  };
  let streamsObserved = false;

  const serveRoute = async (name: CheckoutRoute, c: Context<ProxyEnv>): Promise<Response> => {
    const request = c.req.raw;
    const budget = new Budget(timeoutMs, request.signal);
    try {
      if (request.method === 'POST') checkSameSite(request);
      const answer = await serve(c, name, c.get('match').id, budget);
      return answer instanceof Response ? answer : jsonAnswer(200, answer, baseHeaders(), request);
    } catch (error) {
      const answer = toCheckoutError(error, budget.deadline);
      // A payer who went away is no failure worth a log line.
      if (!request.signal.aborted && (answer.status >= 500 || !(error instanceof CheckoutHttpError))) report(error, request);
      if (!UPLOAD_ROUTES.has(name) || budget.bodyRead) return errorAnswer(answer.code, answer.message);
      void request.body?.cancel().catch(() => undefined);
      const headers = baseHeaders();
      headers.set('connection', 'close');
      return errorAnswer(answer.code, answer.message, headers);
    } finally {
      budget.deadline.dispose();
    }
  };

  const prefix = base.length ? `/${base.join('/')}` : '';
  app.get(`${prefix}/invoices/:id`, route('invoice'));
  app.get(`${prefix}/invoices/:id/available-payment-variants`, route('variants'));
  app.post(`${prefix}/invoices/:id/cancel`, route('cancel'));
  app.post(`${prefix}/invoices/:id/deal`, route('deal'));
  if (events) app.get(`${prefix}/invoices/:id/events`, route('events'));
  app.post(`${prefix}/invoices/:id/receipt`, route('receipt'));
  app.post(`${prefix}/invoices/:id/dispute`, route('dispute'));
  if (bankNames) app.get(`${prefix}/banks`, route('banks'));
  // The guard matched a route that Hono's router reads differently (percent-encoded letters).
  app.notFound(() => errorAnswer('not_found', 'no such checkout operation'));
  app.onError((error, c) => {
    report(error, c.req.raw);
    return errorAnswer('internal_error', 'internal error');
  });

  // An adapter in front (`toNodeHandler`, `createNodeServer`) lets in what the proxy accepts.
  return declareRequestLimits(async (request: Request): Promise<Response> => app.fetch(request), {
    maxBodyBytes: Math.max(upload.maxBytes, maxBodyBytes),
    bodyTimeoutMs: Math.max(upload.timeoutMs, bodyTimeoutMs),
  });
};
