/**
 * `MerchantClient`: a typed, signed client for every documented operation of the payment
 * service. The operations are declared once, as rows of {@link OPERATIONS}
 * (src/schemas/operations.ts); each method is made from its row (operation-methods.ts), and the
 * few that do more than their row are written here over the row's call. Requests are
 * validated before anything is sent (request.ts), signed and sent (transport.ts), and answers
 * read tolerantly after they arrive (answer.ts); errors carry the service's own words.
 */
import {
  DISPUTE_AMOUNT_FIELD,
  OPERATIONS,
  OPERATION_LIST,
  type CreateInvoiceRequest,
  type Invoice,
  type MerchantStartDealRequest,
  type OperationAnswer,
  type OperationName,
  type OperationRow,
} from '../../schemas/index.js';
import {
  MerchantApiError,
  MerchantNetworkError,
  MerchantResponseError,
  MerchantTimeoutError,
  MerchantTrackingError,
  MerchantValidationError,
} from './errors.js';
import { fingerprint } from '../fingerprint.js';
import { requireRuntime, webPlatform, type ServerPlatform } from '../http/platform.js';
import { checkOptions } from '../options-check.js';
import {
  DEFAULT_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  MERCHANT_CLIENT_OPTIONS,
  type MerchantClientOptions,
  recordedByCaller,
  type OpenDisputeRequest,
  type RawRequestBody,
  type RequestOptions,
} from './options.js';
import { WRAPPED_OPERATIONS, rowArguments, type PlainOperationMethods } from './operation-methods.js';
import { RAW_TEMPLATE, asFile, operationCall, rawCall, type Call, type Input, type Method } from './request.js';
import { upstreamCall } from '../telemetry.js';
import { Transport } from './transport.js';

/**
 * Told of every whole invoice a client's call answered (see {@link MerchantClient.onInvoice}).
 * `created` is true when the call made it (a create, or `createInvoiceOnce` finding its lost
 * answer): the caller gets the invoice only once the promise this answers has resolved.
 * `recorded` is true when a part of the kit made the call and records the invoice itself (its
 * reads of invoices, its proxy's state changes).
 */
export type InvoiceObserver = (
  invoice: Invoice,
  operation: OperationName,
  client: MerchantClient,
  created: boolean,
  recorded: boolean,
) => void | Promise<void>;

/** Caller names of the dispute's wire fields, for validation messages. */
const DISPUTE_FIELD_NAMES: Record<string, string> = { disputeReason: 'reason', [DISPUTE_AMOUNT_FIELD]: 'amount' };

/** A create whose outcome is unknown: it may have happened (see {@link MerchantClient.createInvoiceOnce}). */
const outcomeUnknown = (error: unknown): boolean =>
  error instanceof MerchantTimeoutError ||
  (error instanceof MerchantNetworkError && !error.aborted) ||
  (error instanceof MerchantResponseError && error.status >= 200 && error.status < 300) ||
  (error instanceof MerchantApiError && error.status >= 500);

// The plain operations' methods are the rows' (operation-methods.ts), put on the prototype by
// the class's static block: the interface declares them, as a mixin's are.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface MerchantClient extends PlainOperationMethods {}

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
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class MerchantClient {
  static {
    const wrapped: readonly string[] = WRAPPED_OPERATIONS;
    for (const row of OPERATION_LIST) {
      if (wrapped.includes(row.name)) continue;
      const argumentsOf = rowArguments(row);
      const { [row.name]: method } = {
        [row.name](this: MerchantClient, ...args: unknown[]) {
          const { input, options } = argumentsOf(args);
          return this.#run(row.name, input, options);
        },
      };
      Object.defineProperty(MerchantClient.prototype, row.name, { value: method, writable: true, configurable: true });
    }
  }

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
  readonly #transport: Transport;
  readonly #observers = new Set<InvoiceObserver>();

  /**
   * @param platform The runtime's HMAC and default `fetch` (default: the entry's:
   * `merchant-checkout/server` passes Node's on Node, Bun and Deno, Web Crypto's and the global
   * `fetch` elsewhere). A runtime without Web Crypto's HMAC, or without a `fetch` when none is
   * given, is refused here, naming what is missing.
   */
  constructor(options: MerchantClientOptions, platform: ServerPlatform = webPlatform()) {
    checkOptions('MerchantClient', options, MERCHANT_CLIENT_OPTIONS);
    if (options.fetch === undefined && platform.defaultFetch() === undefined) requireRuntime('MerchantClient', ['fetch']);
    const { baseUrl, apiKey, secretKey } = options;
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
    if (!/^[\x21-\x7E]+$/.test(apiKey))
      throw new TypeError('MerchantClient: apiKey must be visible ASCII (it is sent as the X-Identity header)');
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
    this.#transport = new Transport({
      apiKey,
      secretKey,
      fetch: options.fetch,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      platform,
    });
  }

  /**
   * Calls `observer` with every whole invoice this client's calls answer (create, reads,
   * start-deal, confirm-transfer, dispute), synchronously, before the caller gets it; answers a
   * function that stops it. The kit (`createCheckoutServer`) observes its clients so that every
   * invoice the shop creates or a payer reads is tracked until it is settled. An observer's
   * failure never fails a read; a new invoice (`created`) is answered only once every
   * observer's promise resolved, and when one rejects the call throws a
   * {@link MerchantTrackingError} naming the invoice (it exists: never create it again).
   */
  onInvoice(observer: InvoiceObserver): () => void {
    this.#observers.add(observer);
    return () => void this.#observers.delete(observer);
  }

  // ── Invoices ───────────────────────────────────────────────────────────────────────

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
  async createInvoiceOnce(request: CreateInvoiceRequest, options?: RequestOptions): Promise<OperationAnswer<'createInvoice'>> {
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
        found = await this.#run('getInvoiceByInternalId', { params: { internalId } }, options, true);
      } catch (lookup) {
        if (lookup instanceof MerchantApiError && lookup.status === 404) return this.createInvoice(request, options);
        throw error;
      }
      return found;
    }
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

  // ── Anything else ──────────────────────────────────────────────────────────────────

  /**
   * A signed request to a path of the merchant API that has no method here, e.g.
   * `request('GET', '/accounts')`. `path` is relative to `/api/merchant` and may carry a
   * query; it is signed exactly as it goes on the wire (percent-encoded by URL rules). A string
   * body is sent as JSON text, an object or array is serialised to JSON, a `FormData` goes as
   * multipart. Resolves to the parsed JSON answer (the text when it is not JSON, `null` when empty).
   */
  async request(method: Method, path: string, body?: RawRequestBody, options?: RequestOptions): Promise<unknown> {
    return this.#send(rawCall(this.baseUrl, method, path, body, options));
  }

  // ── Plumbing ───────────────────────────────────────────────────────────────────────

  /** Builds, validates and sends one operation of {@link OPERATIONS}. */
  async #run<Name extends OperationName>(
    name: Name,
    input: Input,
    options: RequestOptions | undefined,
    created = false,
  ): Promise<OperationAnswer<Name>> {
    const answer = (await this.#send(operationCall(this.baseUrl, name, input, options))) as OperationAnswer<Name>;
    const row: OperationRow = OPERATIONS[name];
    if (row.answersInvoice && this.#observers.size > 0)
      await this.#observe(answer as Invoice, name, created || row.createsInvoice === true, recordedByCaller(options));
    return answer;
  }

  /** Tells every observer; a new invoice waits for them all (a read never does, nor fails by them). */
  async #observe(invoice: Invoice, operation: OperationName, created: boolean, recordedByCaller: boolean): Promise<void> {
    const recorded: Promise<void>[] = [];
    for (const observer of this.#observers) {
      try {
        const result = observer(invoice, operation, this, created, recordedByCaller);
        if (created && result) recorded.push(result);
        else result?.catch(() => undefined);
      } catch (error) {
        if (created) recorded.push(Promise.reject(error instanceof Error ? error : new Error(String(error))));
      }
    }
    if (recorded.length === 0) return;
    const failed = (await Promise.allSettled(recorded)).find((outcome) => outcome.status === 'rejected');
    if (failed) throw new MerchantTrackingError(operation, invoice, failed.reason);
  }

  /** {@link #sendTraced} in a span, with the upstream metrics (telemetry.ts; a no-op without an SDK). */
  #send(call: Call): Promise<unknown> {
    return upstreamCall(
      // A raw path's operation names its path (and ids): traced as `request`.
      {
        operation: call.template === RAW_TEMPLATE ? 'request' : call.operation,
        method: call.method,
        template: call.template,
        terminal: this.terminal,
        parent: call.options?.traceContext,
      },
      () => this.#sendTraced(call),
      (error) =>
        error instanceof MerchantApiError
          ? { status: error.status, code: error.code }
          : error instanceof MerchantResponseError
            ? { status: error.status, code: 'invalid_answer' }
            : {
                code:
                  error instanceof MerchantTimeoutError ? 'timeout' : error instanceof MerchantNetworkError ? 'network' : 'invalid_request',
              },
    );
  }

  #sendTraced(call: Call): Promise<unknown> {
    return this.#transport.send(call, call.options?.timeoutMs ?? this.timeoutMs);
  }
}
