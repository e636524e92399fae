/**
 * `MerchantClient`: a typed, signed client for every documented operation of the payment
 * service. The operations are declared once, as rows of {@link OPERATIONS}; each method is a
 * thin typed call of its row. Requests are validated before anything is sent, answers read
 * tolerantly after they arrive, errors carry the service's own words.
 */
import type * as z from 'zod/mini';
import {
  AccountListSchema,
  CancelInvoiceResponseSchema,
  ConfirmTransferFormSchema,
  CreateInvoiceRequestSchema,
  CreateInvoiceResponseSchema,
  CreateWithdrawalRequestSchema,
  CreateWithdrawalResponseSchema,
  CurrencyRatesSchema,
  DISPUTE_AMOUNT_FIELD,
  GetInvoiceResponseSchema,
  GetWithdrawalResponseSchema,
  MerchantStartDealRequestSchema,
  OpenDisputeFormSchema,
  PaymentMethodListSchema,
  PaymentOptionListSchema,
  PaymentVariantsResponseSchema,
  QrCodeSvgSchema,
  safeParse,
  unwrapSingleton,
  type CreateInvoiceRequest,
  type CreateWithdrawalRequest,
  type DisputeReason,
  type FieldIssue,
  type Invoice,
  type MerchantStartDealRequest,
} from '../schemas/index.js';
import {
  MerchantApiError,
  MerchantNetworkError,
  MerchantResponseError,
  MerchantTimeoutError,
  MerchantValidationError,
} from './errors.js';
import { BodyTooLargeError, abortable, readTextLimited } from './body.js';
import { readServiceError } from './service-errors.js';
import { deepFreeze } from './immutable.js';
import { remember } from './remember.js';
import { SEND_TEXT, UpstreamDeadlineError, createNodeFetch, type NodeFetch } from './node-fetch.js';
import { signRequest } from './signing.js';
import { fingerprint } from './fingerprint.js';
import { upstreamCall } from './telemetry.js';

/** The path prefix of the merchant API under the service's `{base_url}`. */
export const MERCHANT_API_PREFIX = '/api/merchant';
/** The path prefix of the public API (no `X-Identity`, no signature). */
export const PUBLIC_API_PREFIX = '/api/public';

/** The client's default `timeoutMs`: a request that has not fully answered in 10 s is aborted. */
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * A read the checkout proxy makes on a payer's behalf, flagged by this (internal, not
 * exported from the kit) option: an answer whose text is exactly the last one this client
 * read from the same URL gives back the value that text was read into, frozen, instead of
 * parsing and checking it again. Payers poll; most reads of an invoice answer what the last
 * one did (bench/profile.ts: the tolerant reader was an eighth of the proxy's CPU).
 * @internal
 */
export const SHARED_ANSWER: unique symbol = Symbol('merchant-checkout.client.sharedAnswer');
/** {@link RequestOptions} with the internal {@link SHARED_ANSWER} flag. @internal */
export type SharedReadOptions = RequestOptions & { [SHARED_ANSWER]?: true };
/** How many URLs' last answers a client keeps for {@link SHARED_ANSWER} reads (oldest first out). */
const SHARED_ANSWERS = 1024;
/** How many bodyless calls' signatures a client keeps (oldest first out). */
const SIGNATURES = 1024;
const EXCERPT_CHARS = 500;
/** The template traces give {@link MerchantClient.request}'s raw paths. */
const RAW_TEMPLATE = `${MERCHANT_API_PREFIX}/*`;

// ── The operations, declared once ────────────────────────────────────────────────────

/**
 * How a request is authenticated (the service's "Authorization" page):
 * - `json`: `X-Signature` over METHOD + URL + the JSON body text;
 * - `url`: over METHOD + URL only (GET, and a POST without a body);
 * - `multipart`: over METHOD + URL only, the body is `multipart/form-data`;
 * - `public`: no `X-Identity`, no `X-Signature`.
 */
export type Signing = 'json' | 'url' | 'multipart' | 'public';

/** One operation of the service: everything the client, the mock, OpenAPI and the tests need to know of it. */
export interface OperationRow {
  /** The HTTP method. */
  method: 'GET' | 'POST';
  /** The path under `{base_url}`, with `{name}` for each path parameter. */
  path: `/api/${string}`;
  /** Query parameters (all optional), inside the signed URL. */
  query?: readonly string[];
  /** What is signed: the JSON body, the URL only (GET, body-less POST, multipart), or nothing (public). */
  signing: Signing;
  /** The JSON body (`json`) or the form fields by their wire names (`multipart`); none for the others. */
  request?: z.ZodMiniType;
  /** The answer, read tolerantly; its output is what the method resolves to. */
  answer: z.ZodMiniType;
  /** Media type of a 2xx answer. */
  answerType: 'application/json' | 'image/svg+xml';
  /**
   * True when the operation moves money or changes an invoice: it is never retried blindly,
   * and an unreadable 2xx answer to it is reported with its `body` and `id`.
   */
  changesState: boolean;
  /** One line for humans (OpenAPI `summary`). */
  summary: string;
  /** The answer is one whole invoice: the client's invoice observers ({@link MerchantClient.onInvoice}) see it. */
  answersInvoice?: true;
}

const defineOperations = <const Rows extends Record<string, OperationRow>>(rows: Rows) =>
  Object.freeze(
    Object.fromEntries(Object.entries(rows).map(([name, row]) => [name, Object.freeze({ name, ...row })])),
  ) as { readonly [Name in keyof Rows]: Readonly<Rows[Name] & { name: Name }> };

/**
 * Every documented operation of the service, one row each. The client's methods are built
 * from these rows; the mock's routes, the OpenAPI file and the tests' tables read them too.
 */
export const OPERATIONS = defineOperations({
  createInvoice: {
    method: 'POST',
    path: '/api/merchant/invoices',
    signing: 'json',
    request: CreateInvoiceRequestSchema,
    answer: CreateInvoiceResponseSchema,
    answerType: 'application/json',
    changesState: true,
    summary: 'Create a pay-in or pay-out invoice',
    answersInvoice: true,
  },
  getInvoice: {
    method: 'GET',
    path: '/api/merchant/invoices/{id}',
    signing: 'url',
    answer: GetInvoiceResponseSchema,
    answerType: 'application/json',
    changesState: false,
    summary: 'Read an invoice by the service’s id',
    answersInvoice: true,
  },
  getInvoiceByInternalId: {
    method: 'GET',
    path: '/api/merchant/invoices/internal-id/{internalId}',
    signing: 'url',
    answer: GetInvoiceResponseSchema,
    answerType: 'application/json',
    changesState: false,
    summary: 'Read an invoice by the merchant’s own id',
    answersInvoice: true,
  },
  listPaymentVariants: {
    method: 'GET',
    path: '/api/merchant/invoices/{id}/available-payment-variants',
    signing: 'url',
    answer: PaymentVariantsResponseSchema,
    answerType: 'application/json',
    changesState: false,
    summary: 'List the payment variants (option and bank) an invoice can be paid with',
  },
  startDeal: {
    method: 'POST',
    path: '/api/merchant/invoices/{id}/start-deal',
    signing: 'json',
    request: MerchantStartDealRequestSchema,
    answer: GetInvoiceResponseSchema,
    answerType: 'application/json',
    changesState: true,
    summary: 'Start a deal for a variant (null: any free requisites)',
    answersInvoice: true,
  },
  confirmTransfer: {
    method: 'POST',
    path: '/api/merchant/invoices/{id}/confirm-transfer',
    signing: 'multipart',
    request: ConfirmTransferFormSchema,
    answer: GetInvoiceResponseSchema,
    answerType: 'application/json',
    changesState: true,
    summary: 'The payer confirms the transfer, with a receipt',
    answersInvoice: true,
  },
  openDispute: {
    method: 'POST',
    path: '/api/merchant/invoices/{id}/dispute',
    signing: 'multipart',
    request: OpenDisputeFormSchema,
    answer: GetInvoiceResponseSchema,
    answerType: 'application/json',
    changesState: true,
    summary: 'Open a dispute on a deal that was paid but not confirmed',
    answersInvoice: true,
  },
  cancelInvoice: {
    method: 'POST',
    path: '/api/merchant/invoices/{id}/cancel',
    signing: 'url',
    answer: CancelInvoiceResponseSchema,
    answerType: 'application/json',
    changesState: true,
    summary: 'Cancel an invoice’s active deal',
  },
  listPaymentMethods: {
    method: 'GET',
    path: '/api/merchant/payment-methods',
    query: ['currency'],
    signing: 'url',
    answer: PaymentMethodListSchema,
    answerType: 'application/json',
    changesState: false,
    summary: 'List the banks (code, name, currency)',
  },
  listPaymentOptions: {
    method: 'GET',
    path: '/api/merchant/payment-options',
    signing: 'url',
    answer: PaymentOptionListSchema,
    answerType: 'application/json',
    changesState: false,
    summary: 'List the payment options (code, name, currency)',
  },
  getCurrencyRates: {
    method: 'GET',
    path: '/api/merchant/currency-rates/current',
    signing: 'url',
    answer: CurrencyRatesSchema,
    answerType: 'application/json',
    changesState: false,
    summary: 'The current pay-in and pay-out rates',
  },
  listAccounts: {
    method: 'GET',
    path: '/api/merchant/accounts',
    signing: 'url',
    answer: AccountListSchema,
    answerType: 'application/json',
    changesState: false,
    summary: 'The store’s accounts and balances',
  },
  createWithdrawal: {
    method: 'POST',
    path: '/api/merchant/withdrawals',
    signing: 'json',
    request: CreateWithdrawalRequestSchema,
    answer: CreateWithdrawalResponseSchema,
    answerType: 'application/json',
    changesState: true,
    summary: 'Withdraw funds from an account (needs code2FA)',
  },
  getWithdrawal: {
    method: 'GET',
    path: '/api/merchant/withdrawals/{id}',
    signing: 'url',
    answer: GetWithdrawalResponseSchema,
    answerType: 'application/json',
    changesState: false,
    summary: 'Read a withdrawal',
  },
  listPublicPaymentMethods: {
    method: 'GET',
    path: '/api/public/payment-methods/{currency}',
    signing: 'public',
    answer: PaymentMethodListSchema,
    answerType: 'application/json',
    changesState: false,
    summary: 'List the banks of a currency (code, name), unsigned',
  },
  getInvoiceQrCode: {
    method: 'GET',
    path: '/api/public/invoices/{id}/qr-code',
    signing: 'public',
    answer: QrCodeSvgSchema,
    answerType: 'image/svg+xml',
    changesState: false,
    summary: 'The invoice’s QR code as SVG, unsigned',
  },
});

/** The name of an operation: a key of {@link OPERATIONS} and the name of its `MerchantClient` method. */
export type OperationName = keyof typeof OPERATIONS;
/** The rows of {@link OPERATIONS} as a list, typed alike, for generators (OpenAPI, the mock's and tests' tables). */
export const OPERATION_LIST: readonly Readonly<OperationRow & { name: OperationName }>[] = Object.values(OPERATIONS);
/** What an operation's method resolves to. */
export type OperationAnswer<Name extends OperationName> = z.output<(typeof OPERATIONS)[Name]['answer']>;

// ── Options ──────────────────────────────────────────────────────────────────────────

/** How a {@link MerchantClient} reaches the service and signs its requests. */
export interface MerchantClientOptions {
  /** The service's `{base_url}` (scheme, host and any path prefix); the client adds `/api/merchant/…`. */
  baseUrl: string | URL;
  /** The shop's API key, sent as `X-Identity`. */
  apiKey: string;
  /** The shop's secret key; signs every request and is never sent. */
  secretKey: string;
  /**
   * A `fetch` to use (a mock's in-process `fetch`, an instrumented one). Default: one shared
   * `createNodeFetch()` on Node, the global `fetch` elsewhere. It gets a `Request` that carries
   * the signal and `redirect: 'manual'`; honour both.
   */
  fetch?: (request: Request) => Promise<Response>;
  /** Abort a request that has not fully answered within this many milliseconds (default 10 000). */
  timeoutMs?: number;
  /** Refuse answers larger than this many bytes (default 1 MiB). */
  maxResponseBytes?: number;
}

/** Told of every whole invoice a client's call answered (see {@link MerchantClient.onInvoice}). */
export type InvoiceObserver = (invoice: Invoice, operation: OperationName, client: MerchantClient) => void;

/** Per-call options of every {@link MerchantClient} method. */
export interface RequestOptions {
  /** Aborts the request (e.g. the browser that asked the proxy went away). */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
}

/** A body for {@link MerchantClient.request}: JSON text, a value to serialise as JSON, or multipart form data. */
export type RawRequestBody = string | FormData | Record<string, unknown> | unknown[] | undefined;

/** What {@link MerchantClient.openDispute} takes. */
export interface OpenDisputeRequest {
  /** The deal disputed (an invoice's `deals[].id`). */
  dealId: string;
  /** `no_payment`, or `invalid_sum` with the `amount` the payer really sent. */
  reason: DisputeReason;
  /** Decimal text, e.g. `"1000.00"`; required with `invalid_sum`, not sent otherwise. */
  amount?: string | undefined;
  /** Proof of the transfer (a receipt), at most 10 MB. */
  attachment: Blob;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Call {
  operation: string;
  method: Method;
  /** The path's template (`/api/merchant/invoices/{id}`): what traces name, never the path with its ids. */
  template: string;
  /** The URL exactly as signed and sent. */
  href: string;
  /** `href` parsed, when the caller has it (the node fetch then need not parse it again). */
  url?: URL | undefined;
  body?: string | FormData | undefined;
  signing: Signing;
  /** Undefined for {@link MerchantClient.request}: the answer is returned as parsed. */
  answer?: z.ZodMiniType | undefined;
  answerType: OperationRow['answerType'];
  options?: SharedReadOptions | undefined;
}

interface Input {
  params?: Record<string, unknown>;
  query?: Record<string, string | null | undefined>;
  body?: unknown;
}

class TimeoutSignal extends Error {}

/** An upstream answer as the client reads it, whichever way it was fetched. */
interface RawAnswer {
  status: number;
  /** A redirect (an opaque one has status 0), never followed. */
  redirect?: boolean;
  location?: string | undefined;
  text: string;
}

// ── URLs that are signed as they are sent ────────────────────────────────────────────

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A lone surrogate has no UTF-8 form: URL encoding would turn it into U+FFFD, so the service
 * would see (and the signature would cover) another value than the caller gave.
 */
const refuseLoneSurrogate = (operation: string, field: string, value: string): void => {
  if (LONE_SURROGATE.test(value)) {
    throw new TypeError(
      `${operation}: ${field} contains a lone UTF-16 surrogate (at index ${value.search(LONE_SURROGATE)}), which no URL can carry; pass well-formed text`,
    );
  }
};

/** `.` and `..` (plain or percent-encoded) would be resolved away by URL parsing, or by a server that decodes `%2F`. */
const isDotSegment = (segment: string): boolean => /^(?:\.|%2e){1,2}$/i.test(segment);

/** The `id` a 2xx answer carries (top level, or in a one-element array), so that a lost result can be found. */
const idOf = (json: unknown): string | undefined => {
  const value = unwrapSingleton(json);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const id = (value as Record<string, unknown>).id;
  return typeof id === 'string' && id !== '' ? id : typeof id === 'number' ? String(id) : undefined;
};

/** A create whose outcome is unknown: it may have happened (see {@link MerchantClient.createInvoiceOnce}). */
const outcomeUnknown = (error: unknown): boolean =>
  error instanceof MerchantTimeoutError ||
  (error instanceof MerchantNetworkError && !error.aborted) ||
  (error instanceof MerchantResponseError && error.status >= 200 && error.status < 300) ||
  (error instanceof MerchantApiError && error.status >= 500);

let nodeFetch: ((request: Request) => Promise<Response>) | undefined;

/**
 * The `fetch` a client uses when given none: on Node (≥ 20.16) one shared `createNodeFetch()`,
 * whose aborted calls close their sockets at once (Node's global fetch, undici, completes the
 * connects that were under way when the abort came and keeps them idle for 4 s: 200 timed-out
 * calls left 200 sockets open on the service 2 s later) and which costs less CPU per call;
 * elsewhere (Deno, Bun, edge runtimes) the global `fetch`.
 */
const defaultFetch = (): ((request: Request) => Promise<Response>) | undefined => {
  const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown; versions?: { node?: string; bun?: string; deno?: string } } }).process;
  if (typeof runtime?.getBuiltinModule !== 'function' || !runtime.versions?.node || runtime.versions.bun || runtime.versions.deno) return undefined;
  nodeFetch ??= createNodeFetch();
  return nodeFetch;
};

/**
 * The typed client of the service's merchant API: one method per row of {@link OPERATIONS}.
 * Each request is checked against its schema before it is signed (`X-Identity`, `X-Signature`)
 * and sent, and each answer is read tolerantly into the normalized types (`Invoice`, …).
 * Failures are typed: {@link MerchantApiError} (the service refused, with a stable `code`),
 * {@link MerchantValidationError}, {@link MerchantResponseError}, {@link MerchantTimeoutError},
 * {@link MerchantNetworkError}; all extend {@link MerchantClientError}.
 *
 * @example
 * ```ts
 * const client = new MerchantClient({ baseUrl: process.env.SERVICE_URL!, apiKey, secretKey });
 * const invoice = await client.getInvoice(id);
 * ```
 */
export class MerchantClient {
  /** The service's `{base_url}`, without a trailing slash. */
  readonly baseUrl: string;
  /** The default time limit of a request, in milliseconds. */
  readonly timeoutMs: number;
  /**
   * A tag of this terminal (16 hex digits, a fingerprint of the base URL and the API key, not
   * the key): what the store keeps to know which terminal an invoice belongs to, and what logs
   * and traces may show.
   */
  readonly terminal: string;
  readonly #apiKey: string;
  readonly #secretKey: string;
  readonly #fetch: (href: string, init: RequestInit) => Promise<Response>;
  /** A node fetch's entry that reads a JSON or empty call's answer whole into text, with no `Response` (bench/profile.ts). */
  readonly #fetchText: NodeFetch[typeof SEND_TEXT] | undefined;
  readonly #maxResponseBytes: number;
  /** The last answer of each URL read with {@link SHARED_ANSWER}: its text and the frozen value it was read into. */
  readonly #shared = new Map<string, { text: string; value: unknown }>();
  /** Signatures of calls without a body, by method and URL (a deterministic HMAC of those two). */
  readonly #signatures = new Map<string, string>();
  readonly #observers = new Set<InvoiceObserver>();

  constructor(options: MerchantClientOptions) {
    const { baseUrl, apiKey, secretKey } = options ?? ({} as MerchantClientOptions);
    let base: URL;
    try {
      base = new URL(String(baseUrl));
    } catch {
      throw new TypeError(`MerchantClient: baseUrl must be an absolute URL, got ${JSON.stringify(String(baseUrl))}`);
    }
    if (base.protocol !== 'https:' && base.protocol !== 'http:') {
      throw new TypeError(`MerchantClient: baseUrl must be http(s), got ${base.protocol}`);
    }
    if (typeof apiKey !== 'string' || !apiKey) throw new TypeError('MerchantClient: apiKey must be a non-empty string');
    // It travels as the `X-Identity` header, which carries visible ASCII only.
    if (!/^[\x21-\x7E]+$/.test(apiKey)) throw new TypeError('MerchantClient: apiKey must be visible ASCII (it is sent as the X-Identity header)');
    if (typeof secretKey !== 'string' || !secretKey) {
      throw new TypeError('MerchantClient: secretKey must be a non-empty string');
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!(timeoutMs > 0)) throw new TypeError('MerchantClient: timeoutMs must be a positive number');
    base.search = '';
    base.hash = '';
    this.baseUrl = base.href.replace(/\/+$/, '');
    this.timeoutMs = timeoutMs;
    this.terminal = fingerprint(`${this.baseUrl}\n${apiKey}`);
    this.#apiKey = apiKey;
    this.#secretKey = secretKey;
    const custom = options.fetch ?? defaultFetch();
    // A node fetch takes a JSON or empty call as it is, and answers its text (no `Request` or
    // `Response` built: they cost CPU on every proxied answer); a multipart one goes as a `Request`.
    this.#fetchText = custom && SEND_TEXT in custom ? (custom as NodeFetch)[SEND_TEXT] : undefined;
    // The global fetch gets the signal in its own init: undici does not reliably abort the
    // socket for a signal that only rides inside a `Request` it is handed.
    this.#fetch = custom ? (href, init) => custom(new Request(href, init)) : (href, init) => fetch(href, init);
    this.#maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  /**
   * Calls `observer` with every whole invoice this client's calls answer (create, reads,
   * start-deal, confirm-transfer, dispute), synchronously, before the caller gets it; answers a
   * function that stops it. The kit (`createCheckoutServer`) observes its clients so that every
   * invoice the shop creates or a payer reads is tracked until it is settled. An observer's
   * throw is ignored: it never fails the call.
   */
  onInvoice(observer: InvoiceObserver): () => void {
    this.#observers.add(observer);
    return () => void this.#observers.delete(observer);
  }

  // ── Invoices ───────────────────────────────────────────────────────────────────────

  /**
   * `POST /api/merchant/invoices`: creates a pay-in or pay-out invoice.
   *
   * A timeout, a cut connection or an unreadable 2xx answer leave it unknown whether the
   * invoice exists: never simply call this again. A `MerchantResponseError` carries the
   * answer's `body` and `id`; otherwise look the invoice up by its `internalId`. Or let
   * {@link MerchantClient.createInvoiceOnce} do that recovery.
   */
  createInvoice(request: CreateInvoiceRequest, options?: RequestOptions): Promise<OperationAnswer<'createInvoice'>> {
    return this.#run('createInvoice', { body: request }, options);
  }

  /**
   * Creates an invoice at most once, whatever happens on the way: `createInvoice`, and when its
   * outcome is unknown (a timeout, a network error, a 5xx or an unreadable 2xx answer) the
   * invoice is looked up by `internalId` (required here) and returned if the service has it;
   * only when the lookup answers "not found" is the create sent once more. A caller's abort,
   * a 4xx or a failed lookup are thrown as they are.
   *
   * The service does not deduplicate by `internalId` itself, so a create still being processed
   * when the lookup runs could in principle be made twice; give `timeoutMs` room.
   */
  async createInvoiceOnce(
    request: CreateInvoiceRequest,
    options?: RequestOptions,
  ): Promise<OperationAnswer<'createInvoice'>> {
    const internalId = (request as { internalId?: unknown } | null | undefined)?.internalId;
    if (typeof internalId !== 'string' || internalId === '') {
      throw new MerchantValidationError('createInvoiceOnce', [
        { field: 'internalId', message: 'is required: a lost answer is found again by it' },
      ]);
    }
    try {
      return await this.createInvoice(request, options);
    } catch (error) {
      if (!outcomeUnknown(error)) throw error;
      let found: OperationAnswer<'createInvoice'>;
      try {
        found = await this.getInvoiceByInternalId(internalId, options);
      } catch (lookup) {
        if (lookup instanceof MerchantApiError && lookup.status === 404) return this.createInvoice(request, options);
        throw error;
      }
      return found;
    }
  }

  /** `GET /api/merchant/invoices/{id}`: the invoice with its deals. */
  getInvoice(id: string, options?: RequestOptions): Promise<OperationAnswer<'getInvoice'>> {
    return this.#run('getInvoice', { params: { id } }, options);
  }

  /** `GET /api/merchant/invoices/internal-id/{internalId}`: the invoice with its deals. */
  getInvoiceByInternalId(internalId: string, options?: RequestOptions): Promise<OperationAnswer<'getInvoiceByInternalId'>> {
    return this.#run('getInvoiceByInternalId', { params: { internalId } }, options);
  }

  /** `GET /api/merchant/invoices/{id}/available-payment-variants`. */
  listPaymentVariants(id: string, options?: RequestOptions): Promise<OperationAnswer<'listPaymentVariants'>> {
    return this.#run('listPaymentVariants', { params: { id } }, options);
  }

  /**
   * `POST /api/merchant/invoices/{id}/start-deal`: starts a deal for a variant; a `null` or
   * missing `paymentMethod` / `paymentOption` takes any free requisites. The answer's `deals`
   * holds the new deal, or nothing when no requisites are free.
   */
  startDeal(id: string, variant: MerchantStartDealRequest = {}, options?: RequestOptions): Promise<OperationAnswer<'startDeal'>> {
    // Both fields always go, `null` when not chosen: the documented body's form.
    const body = variant !== null && typeof variant === 'object' ? { paymentMethod: null, paymentOption: null, ...variant } : variant;
    return this.#run('startDeal', { params: { id }, body }, options);
  }

  /**
   * `POST /api/merchant/invoices/{id}/confirm-transfer` (multipart): the payer confirms the
   * transfer with a receipt (a `Blob` or `File`, at most 10 MB, checked before sending).
   */
  confirmTransfer(id: string, attachment: Blob, options?: RequestOptions): Promise<OperationAnswer<'confirmTransfer'>> {
    return this.#run('confirmTransfer', { params: { id }, body: { attachment: asFile(attachment) } }, options);
  }

  /**
   * `POST /api/merchant/invoices/{id}/dispute` (multipart): opens a dispute on a deal the payer
   * paid but the service did not confirm. The service answers 404 (`not_found`) when the
   * invoice is canceled.
   */
  async openDispute(id: string, dispute: OpenDisputeRequest, options?: RequestOptions): Promise<OperationAnswer<'openDispute'>> {
    const { dealId, reason, amount, attachment } = dispute ?? ({} as OpenDisputeRequest);
    const form = { dealId, disputeReason: reason, [DISPUTE_AMOUNT_FIELD]: amount, attachment: asFile(attachment) };
    try {
      return await this.#run('openDispute', { params: { id }, body: form }, options);
    } catch (error) {
      // Name the fields as the caller passed them.
      if (!(error instanceof MerchantValidationError)) throw error;
      const renamed = error.issues.map((issue) => ({ ...issue, field: DISPUTE_FIELD_NAMES[issue.field] ?? issue.field }));
      throw new MerchantValidationError('openDispute', renamed);
    }
  }

  /** `POST /api/merchant/invoices/{id}/cancel`: cancels the invoice's active deal. */
  cancelInvoice(id: string, options?: RequestOptions): Promise<OperationAnswer<'cancelInvoice'>> {
    return this.#run('cancelInvoice', { params: { id } }, options);
  }

  // ── Reference data and balances ────────────────────────────────────────────────────

  /** `GET /api/merchant/payment-methods[?currency=…]`: the banks, with their names. */
  listPaymentMethods(currency?: string, options?: RequestOptions): Promise<OperationAnswer<'listPaymentMethods'>> {
    if (currency !== undefined && (typeof currency !== 'string' || currency === '')) {
      return Promise.reject(new MerchantValidationError('listPaymentMethods', [{ field: 'currency', message: 'must be a non-empty string when given' }]));
    }
    return this.#run('listPaymentMethods', { query: { currency } }, options);
  }

  /** `GET /api/merchant/payment-options`: the payment options, with their names. */
  listPaymentOptions(options?: RequestOptions): Promise<OperationAnswer<'listPaymentOptions'>> {
    return this.#run('listPaymentOptions', {}, options);
  }

  /** `GET /api/merchant/currency-rates/current`: `{ in: { pair, rate }, out: { pair, rate } }`. */
  getCurrencyRates(options?: RequestOptions): Promise<OperationAnswer<'getCurrencyRates'>> {
    return this.#run('getCurrencyRates', {}, options);
  }

  /** `GET /api/merchant/accounts`: the store's accounts (an `id` is a withdrawal's `accountId`). */
  listAccounts(options?: RequestOptions): Promise<OperationAnswer<'listAccounts'>> {
    return this.#run('listAccounts', {}, options);
  }

  // ── Withdrawals ────────────────────────────────────────────────────────────────────

  /** `POST /api/merchant/withdrawals`: withdraws funds from an account (needs `code2FA`). */
  createWithdrawal(request: CreateWithdrawalRequest, options?: RequestOptions): Promise<OperationAnswer<'createWithdrawal'>> {
    return this.#run('createWithdrawal', { body: request }, options);
  }

  /** `GET /api/merchant/withdrawals/{id}`. */
  getWithdrawal(id: string, options?: RequestOptions): Promise<OperationAnswer<'getWithdrawal'>> {
    return this.#run('getWithdrawal', { params: { id } }, options);
  }

  // ── Public API (no key, no signature) ──────────────────────────────────────────────

  /** `GET /api/public/payment-methods/{currency}`: `[{ code, name }]`, unsigned. */
  listPublicPaymentMethods(currency: string, options?: RequestOptions): Promise<OperationAnswer<'listPublicPaymentMethods'>> {
    return this.#run('listPublicPaymentMethods', { params: { currency } }, options);
  }

  /** `GET /api/public/invoices/{id}/qr-code`: the invoice's QR code as SVG text, unsigned. */
  getInvoiceQrCode(id: string, options?: RequestOptions): Promise<OperationAnswer<'getInvoiceQrCode'>> {
    return this.#run('getInvoiceQrCode', { params: { id } }, options);
  }

  // ── Anything else ──────────────────────────────────────────────────────────────────

  /**
   * A signed request to a path of the merchant API that has no method here, e.g.
   * `request('GET', '/accounts')`. `path` is relative to `/api/merchant` and may carry a
   * query; it is signed exactly as it goes on the wire (percent-encoded by URL rules). A string
   * body is sent as JSON text, an object or array is serialised to JSON, a `FormData` goes as
   * multipart. Resolves to the parsed JSON answer (the text when it is not JSON, `null` when empty).
   */
  async request(method: Method, path: string, body?: RawRequestBody, options?: RequestOptions): Promise<unknown> {
    const operation = `request ${method} ${path}`;
    if (!/^(GET|POST|PUT|PATCH|DELETE)$/.test(method)) {
      throw new MerchantValidationError(operation, [{ field: 'method', message: 'must be GET, POST, PUT, PATCH or DELETE' }]);
    }
    if (typeof path !== 'string') throw new MerchantValidationError(operation, [{ field: 'path', message: 'must be a string' }]);
    refuseLoneSurrogate(operation, 'path', path);
    const relative = path.startsWith(`${MERCHANT_API_PREFIX}/`) ? path.slice(MERCHANT_API_PREFIX.length) : path;
    // The signature authorises exactly one URL on the service; never let a path walk out of
    // the merchant API or point at another host.
    if (!/^\/[^\\#]*$/.test(relative) || relative.startsWith('//')) {
      throw new MerchantValidationError(operation, [{ field: 'path', message: 'must be an absolute path under /api/merchant, e.g. "/accounts"' }]);
    }
    if (relative.split('?', 1)[0]!.split('/').some(isDotSegment)) {
      throw new TypeError(`${operation}: path must not contain "." or ".." segments (plain or %2e-encoded): they would be resolved away`);
    }
    let encoded: string | FormData | undefined;
    if (body === undefined || typeof body === 'string' || body instanceof FormData) encoded = body;
    else encoded = JSON.stringify(body);
    if (method === 'GET' && encoded !== undefined) {
      throw new MerchantValidationError(operation, [{ field: 'body', message: 'a GET request has no body' }]);
    }
    const href = new URL(`${this.baseUrl}${MERCHANT_API_PREFIX}${relative}`).href;
    const signing: Signing = encoded instanceof FormData ? 'multipart' : typeof encoded === 'string' ? 'json' : 'url';
    return this.#send({ operation, method, template: RAW_TEMPLATE, href, body: encoded, signing, answerType: 'application/json', options });
  }

  // ── Plumbing ───────────────────────────────────────────────────────────────────────

  /** Builds, validates and sends one operation of {@link OPERATIONS}. */
  async #run<Name extends OperationName>(name: Name, input: Input, options: RequestOptions | undefined): Promise<OperationAnswer<Name>> {
    const row: OperationRow = OPERATIONS[name];
    const path = row.path.replace(/\{(\w+)\}/g, (_, key: string) => this.#segment(name, key, input.params?.[key]));
    const url = new URL(`${this.baseUrl}${path}`);
    for (const key of row.query ?? []) {
      const value = input.query?.[key];
      if (value === undefined || value === null) continue;
      refuseLoneSurrogate(name, key, value);
      url.searchParams.set(key, value);
    }
    let body: string | FormData | undefined;
    if (row.request && row.signing === 'json') body = JSON.stringify(this.#validate(name, row.request, input.body));
    if (row.request && row.signing === 'multipart') body = toFormData(this.#validate(name, row.request, input.body) as Record<string, unknown>);
    const answer = (await this.#send({
      operation: name,
      method: row.method,
      template: row.path,
      href: url.href,
      url,
      body,
      signing: row.signing,
      answer: row.answer,
      answerType: row.answerType,
      options,
    })) as OperationAnswer<Name>;
    if (row.answersInvoice && this.#observers.size > 0) this.#observe(answer as Invoice, name);
    return answer;
  }

  #observe(invoice: Invoice, operation: OperationName): void {
    for (const observer of this.#observers) {
      try {
        observer(invoice, operation, this);
      } catch {
        // An observer never fails the call.
      }
    }
  }

  #validate(operation: string, schema: z.ZodMiniType, value: unknown): unknown {
    const result = safeParse(schema, value);
    if (!result.success) throw new MerchantValidationError(operation, result.issues);
    return result.data;
  }

  /** One path parameter, percent-encoded whole: `/`, `?`, `#`, `%` and spaces stay inside it. */
  #segment(operation: string, field: string, value: unknown): string {
    if (typeof value !== 'string' || value === '') {
      throw new MerchantValidationError(operation, [
        { field, message: `must be a non-empty string, got ${typeof value === 'string' ? '""' : typeof value}` },
      ]);
    }
    refuseLoneSurrogate(operation, field, value);
    if (value.split(/[/\\]/).some(isDotSegment)) {
      throw new TypeError(
        `${operation}: ${field} must not be "." or ".." or contain such a segment, got ${JSON.stringify(value.slice(0, 60))}: URL parsing (or a server decoding "%2F") would resolve it to another path`,
      );
    }
    return encodeURIComponent(value);
  }

  /** {@link #sendTraced} in a span, with the upstream metrics (telemetry.ts; a no-op without an SDK). */
  #send(call: Call): Promise<unknown> {
    return upstreamCall(
      // A raw path's operation names its path (and ids): traced as `request`.
      { operation: call.template === RAW_TEMPLATE ? 'request' : call.operation, method: call.method, template: call.template, terminal: this.terminal },
      () => this.#sendTraced(call),
      (error) =>
        error instanceof MerchantApiError
          ? { status: error.status, code: error.code }
          : error instanceof MerchantResponseError
            ? { status: error.status, code: 'invalid_answer' }
            : { code: error instanceof MerchantTimeoutError ? 'timeout' : error instanceof MerchantNetworkError ? 'network' : 'invalid_request' },
    );
  }

  async #sendTraced(call: Call): Promise<unknown> {
    const { operation, method, href, body, options } = call;
    const timeoutMs = options?.timeoutMs ?? this.timeoutMs;
    const callerSignal = options?.signal;
    if (callerSignal?.aborted) throw new MerchantNetworkError(operation, 'aborted by the caller', { aborted: true });
    const headers: Record<string, string> = { accept: call.answerType };
    let signature = '';
    if (call.signing !== 'public') {
      // Exactly the URL that goes on the wire, and the JSON text exactly as sent. A call without
      // a body signs method + URL only, the same every time: its signature is made once.
      const bodyless = body === undefined;
      const key = `${method} ${href}`;
      signature = (bodyless ? this.#signatures.get(key) : undefined) ?? (await signRequest({ method, url: href, body: call.signing === 'json' ? body : undefined }, this.#secretKey));
      if (bodyless && !this.#signatures.has(key)) remember(this.#signatures, key, signature, SIGNATURES);
      headers['x-identity'] = this.#apiKey;
      headers['x-signature'] = signature;
    }
    // A FormData body gets its Content-Type (with the boundary) from the runtime.
    if (typeof body === 'string') headers['content-type'] = 'application/json';
    // The caller may have gone while the request was signed.
    if (callerSignal?.aborted) throw new MerchantNetworkError(operation, 'aborted by the caller', { cause: callerSignal.reason, aborted: true });
    const answer =
      this.#fetchText && !(body instanceof FormData)
        ? await this.#sendText(call, headers, timeoutMs, callerSignal)
        : await this.#sendFetch(call, headers, timeoutMs, callerSignal);
    const { status, text } = answer;
    if (answer.redirect || (status >= 300 && status < 400)) {
      const location = (answer.location ?? '').slice(0, 200);
      throw new MerchantResponseError(operation, status, [
        { field: '', message: `a redirect${location ? ` to ${location}` : ''} is not followed: the signature is for this URL only` },
      ]);
    }
    if (status < 200 || status >= 300) {
      const said = readServiceError(status, text);
      said.messages = said.messages.map((message) => this.#redact(message, signature));
      throw new MerchantApiError(operation, status, this.#excerpt(text, signature), said);
    }
    return this.#readShared(call, status, text, signature);
  }

  /** A failed call as the client's error: past its time limit, aborted by the caller, or a network failure. */
  #failure(call: Call, error: unknown, timedOut: boolean, timeoutMs: number, aborted: boolean): Error {
    if (timedOut) return new MerchantTimeoutError(call.operation, timeoutMs);
    if (aborted) return new MerchantNetworkError(call.operation, 'aborted by the caller', { cause: error, aborted: true });
    return new MerchantNetworkError(call.operation, `request failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }

  /** The answer's size over `maxResponseBytes`, as the error of a readable status. */
  #tooLarge(call: Call, status: number): MerchantResponseError {
    return new MerchantResponseError(call.operation, status, [{ field: '', message: `answer exceeds ${this.#maxResponseBytes} bytes` }]);
  }

  /**
   * One call through the node fetch's text entry: no `Request`, `Response`, web stream or
   * `AbortController` (bench/profile.ts): the caller's signal and the time limit go to the
   * request itself, which closes its socket on either.
   */
  async #sendText(call: Call, headers: Record<string, string>, timeoutMs: number, signal: AbortSignal | undefined): Promise<RawAnswer> {
    try {
      const init = { method: call.method, headers, body: call.body as string | undefined, signal, timeoutMs };
      const answer = await this.#fetchText!(call.url ?? call.href, init, this.#maxResponseBytes);
      return { status: answer.status, location: answer.header('location'), text: answer.text };
    } catch (error) {
      if (error instanceof BodyTooLargeError) throw this.#tooLarge(call, (error as BodyTooLargeError & { status?: number }).status ?? 0);
      throw this.#failure(call, error, error instanceof UpstreamDeadlineError, timeoutMs, signal?.aborted === true);
    }
  }

  /** One call through a `fetch`: the answer's status, its `Location` and its text within the size limit and the time limit. */
  async #sendFetch(call: Call, headers: Record<string, string>, timeoutMs: number, callerSignal: AbortSignal | undefined): Promise<RawAnswer> {
    const controller = new AbortController();
    const { signal } = controller;
    const timer = setTimeout(() => controller.abort(new TimeoutSignal()), timeoutMs);
    const onCallerAbort = () => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    const failure = (error: unknown) => this.#failure(call, error, signal.reason instanceof TimeoutSignal, timeoutMs, signal.aborted);
    try {
      let response: Response;
      try {
        // Raced with the signal too: a `fetch` that ignores its signal (an in-process handler)
        // must not outlive the timeout.
        response = await abortable(
          this.#fetch(call.href, { method: call.method, headers: new Headers(headers), body: call.body ?? null, signal, redirect: 'manual' }),
          signal,
        );
      } catch (error) {
        throw failure(error);
      }
      if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
        await response.body?.cancel().catch(() => undefined);
        return { status: response.status, redirect: true, location: response.headers.get('location') ?? undefined, text: '' };
      }
      try {
        return { status: response.status, text: await readTextLimited(response, this.#maxResponseBytes, { signal }) };
      } catch (error) {
        if (error instanceof BodyTooLargeError) throw this.#tooLarge(call, response.status);
        throw failure(error);
      }
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /** A 2xx answer, parsed and checked; what cannot be read is thrown with the answer as it came. */
  #read(call: Call, status: number, text: string, signature: string): unknown {
    const { operation, answer } = call;
    const invalid = (issues: readonly FieldIssue[], body: unknown) =>
      new MerchantResponseError(operation, status, issues, { body, id: idOf(body) });
    let value: unknown = text;
    if (call.answerType === 'application/json') {
      value = null;
      if (text.trim() !== '') {
        try {
          value = JSON.parse(text);
        } catch {
          if (!answer) return text;
          throw invalid([{ field: '', message: `answer is not JSON: ${this.#excerpt(text, signature, 80)}` }], text);
        }
      }
    }
    if (!answer) return value;
    const parsed = safeParse(answer, value);
    if (!parsed.success) throw invalid(parsed.issues, value);
    return parsed.data;
  }

  /** {@link #read}, or for a {@link SHARED_ANSWER} read of the same text as last time, the value it gave then. */
  #readShared(call: Call, status: number, text: string, signature: string): unknown {
    if (!call.options?.[SHARED_ANSWER]) return this.#read(call, status, text, signature);
    const last = this.#shared.get(call.href);
    if (last?.text === text) return last.value;
    const value = deepFreeze(this.#read(call, status, text, signature));
    remember(this.#shared, call.href, { text, value }, SHARED_ANSWERS);
    return value;
  }

  #redact(text: string, signature: string): string {
    let out = text;
    for (const secret of [this.#secretKey, this.#apiKey, signature]) if (secret) out = out.split(secret).join('[redacted]');
    return out;
  }

  /** The start of an answer for an error message, with the keys and the signature cut out (an echoing service). */
  #excerpt(text: string, signature: string, length = EXCERPT_CHARS): string {
    const excerpt = this.#redact(text, signature);
    return (excerpt.length > length ? `${excerpt.slice(0, length)}…` : excerpt).replace(/\s+/g, ' ').trim();
  }
}

/** Caller names of the dispute's wire fields, for validation messages. */
const DISPUTE_FIELD_NAMES: Record<string, string> = { disputeReason: 'reason', [DISPUTE_AMOUNT_FIELD]: 'amount' };

/** A `Blob` as a `File` (the form schema checks files); anything else is left for the schema to refuse. */
const asFile = (value: unknown): unknown =>
  value instanceof Blob && !(value instanceof File) ? new File([value], 'attachment', { type: value.type }) : value;

const toFormData = (fields: Record<string, unknown>): FormData => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    if (value instanceof File) form.set(key, value, value.name || 'attachment');
    // The form schema lets only text through besides the file.
    else form.set(key, value as string);
  }
  return form;
};
