/**
 * `MerchantClient`: a typed, signed client for every operation of the merchant API.
 * Requests are validated before anything is sent, answers after they arrive.
 */
import type * as z from 'zod/mini';
import {
  CancelInvoiceResponseSchema,
  CreateInvoiceRequestSchema,
  CreateInvoiceResponseSchema,
  CreateWithdrawalRequestSchema,
  CreateWithdrawalResponseSchema,
  GetInvoiceResponseSchema,
  GetWithdrawalResponseSchema,
  PaymentVariantsResponseSchema,
  UUID_PATTERN,
  safeParse,
  type CanceledInvoice,
  type CreateInvoiceRequest,
  type CreateWithdrawalRequest,
  type Invoice,
  type InvoiceLookup,
  type PaymentVariant,
  type Withdrawal,
} from '../schemas/index.js';
import {
  MerchantApiError,
  MerchantNetworkError,
  MerchantResponseError,
  MerchantTimeoutError,
  MerchantValidationError,
} from './errors.js';
import { BodyTooLargeError, abortable, readTextLimited } from './body.js';
import { signRequest } from './signing.js';

/** The path prefix of the merchant API under the service's `{base_url}`. */
export const MERCHANT_API_PREFIX = '/api/merchant';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
const EXCERPT_CHARS = 500;

export interface MerchantClientOptions {
  /** The service's `{base_url}` (scheme, host and any path prefix); the client adds `/api/merchant/…`. */
  baseUrl: string | URL;
  /** The shop's API key, sent as `X-Identity`. */
  apiKey: string;
  /** The shop's secret key; signs every request and is never sent. */
  secretKey: string;
  /** A `fetch` to use instead of the global one (a mock's in-process `fetch`, an instrumented one). */
  fetch?: (request: Request) => Promise<Response>;
  /** Abort a request that has not fully answered within this many milliseconds (default 10 000). */
  timeoutMs?: number;
  /** Refuse answers larger than this many bytes (default 1 MiB). */
  maxResponseBytes?: number;
}

export interface RequestOptions {
  /** Aborts the request (e.g. the browser that asked the proxy went away). */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
}

/** A body for {@link MerchantClient.request}: JSON text, a value to serialise as JSON, or multipart form data. */
export type RawRequestBody = string | FormData | Record<string, unknown> | unknown[] | undefined;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Call<Schema extends z.ZodMiniType | undefined> {
  operation: string;
  method: Method;
  path: string;
  body?: string | FormData | undefined;
  schema: Schema;
  options?: RequestOptions | undefined;
}

class TimeoutSignal extends Error {}

export class MerchantClient {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly #apiKey: string;
  readonly #secretKey: string;
  readonly #fetch: (request: Request) => Promise<Response>;
  readonly #maxResponseBytes: number;

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
    if (typeof secretKey !== 'string' || !secretKey) {
      throw new TypeError('MerchantClient: secretKey must be a non-empty string');
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!(timeoutMs > 0)) throw new TypeError('MerchantClient: timeoutMs must be a positive number');
    base.search = '';
    base.hash = '';
    this.baseUrl = base.href.replace(/\/+$/, '');
    this.timeoutMs = timeoutMs;
    this.#apiKey = apiKey;
    this.#secretKey = secretKey;
    this.#fetch = options.fetch ?? ((request) => fetch(request));
    this.#maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  /** `POST /api/merchant/invoices`: creates a pay-in or pay-out invoice. */
  async createInvoice(request: CreateInvoiceRequest, options?: RequestOptions): Promise<Invoice> {
    const body = this.#validate('createInvoice', CreateInvoiceRequestSchema, request);
    return this.#call({
      operation: 'createInvoice',
      method: 'POST',
      path: '/invoices',
      body: JSON.stringify(body),
      schema: CreateInvoiceResponseSchema,
      options,
    });
  }

  /** `POST /api/merchant/invoices/{id}/cancel`: cancels the invoice's active deal. */
  async cancelInvoice(id: string, options?: RequestOptions): Promise<CanceledInvoice> {
    return this.#call({
      operation: 'cancelInvoice',
      method: 'POST',
      path: `/invoices/${this.#uuidParam('cancelInvoice', 'id', id)}/cancel`,
      schema: CancelInvoiceResponseSchema,
      options,
    });
  }

  /** `GET /api/merchant/invoices/internal-id/{internalId}`: the invoice with its deals. */
  async getInvoiceByInternalId(internalId: string, options?: RequestOptions): Promise<InvoiceLookup> {
    if (typeof internalId !== 'string' || internalId.length === 0) {
      throw new MerchantValidationError('getInvoiceByInternalId', [
        { field: 'internalId', message: 'must be a non-empty string' },
      ]);
    }
    return this.#call({
      operation: 'getInvoiceByInternalId',
      method: 'GET',
      path: `/invoices/internal-id/${encodeURIComponent(internalId)}`,
      schema: GetInvoiceResponseSchema,
      options,
    });
  }

  /** `GET /api/merchant/invoices/{id}/available-payment-variants`. */
  async listPaymentVariants(id: string, options?: RequestOptions): Promise<PaymentVariant[]> {
    return this.#call({
      operation: 'listPaymentVariants',
      method: 'GET',
      path: `/invoices/${this.#uuidParam('listPaymentVariants', 'id', id)}/available-payment-variants`,
      schema: PaymentVariantsResponseSchema,
      options,
    });
  }

  /** `POST /api/merchant/withdrawals`: withdraws funds from an account (needs `code2FA`). */
  async createWithdrawal(request: CreateWithdrawalRequest, options?: RequestOptions): Promise<Withdrawal> {
    const body = this.#validate('createWithdrawal', CreateWithdrawalRequestSchema, request);
    return this.#call({
      operation: 'createWithdrawal',
      method: 'POST',
      path: '/withdrawals',
      body: JSON.stringify(body),
      schema: CreateWithdrawalResponseSchema,
      options,
    });
  }

  /** `GET /api/merchant/withdrawals/{id}`. */
  async getWithdrawal(id: string, options?: RequestOptions): Promise<Withdrawal> {
    return this.#call({
      operation: 'getWithdrawal',
      method: 'GET',
      path: `/withdrawals/${this.#uuidParam('getWithdrawal', 'id', id)}`,
      schema: GetWithdrawalResponseSchema,
      options,
    });
  }

  /**
   * A signed request to an operation whose shapes the reference does not show, e.g.
   * `request('GET', '/accounts')` or `request('POST', `/invoices/${id}/dispute`, formData)`.
   * `path` is relative to `/api/merchant` and may carry a query. A string body is sent as
   * JSON text, an object or array is serialised to JSON, a `FormData` goes as multipart.
   * Resolves to the parsed JSON answer (the text when it is not JSON, `null` when empty).
   */
  async request(method: Method, path: string, body?: RawRequestBody, options?: RequestOptions): Promise<unknown> {
    const operation = `request ${method} ${path}`;
    if (!/^(GET|POST|PUT|PATCH|DELETE)$/.test(method)) {
      throw new MerchantValidationError(operation, [{ field: 'method', message: 'must be GET, POST, PUT, PATCH or DELETE' }]);
    }
    const relative = path.startsWith(`${MERCHANT_API_PREFIX}/`) ? path.slice(MERCHANT_API_PREFIX.length) : path;
    // The signature authorises exactly one URL on the service; never let a path walk out of
    // the merchant API or point at another host.
    if (!/^\/[^\\#]*$/.test(relative) || relative.startsWith('//') || /(^|\/)\.\.?(\/|\?|$)/.test(relative) || /%2e/i.test(relative)) {
      throw new MerchantValidationError(operation, [
        { field: 'path', message: 'must be an absolute path under /api/merchant without dot segments, e.g. "/accounts"' },
      ]);
    }
    let encoded: string | FormData | undefined;
    if (body === undefined || typeof body === 'string' || body instanceof FormData) encoded = body;
    else encoded = JSON.stringify(body);
    if (method === 'GET' && encoded !== undefined) {
      throw new MerchantValidationError(operation, [{ field: 'body', message: 'a GET request has no body' }]);
    }
    return this.#call({ operation, method, path: relative, body: encoded, schema: undefined, options });
  }

  #validate<Schema extends z.ZodMiniType>(operation: string, schema: Schema, value: unknown): z.output<Schema> {
    const result = safeParse(schema, value);
    if (!result.success) throw new MerchantValidationError(operation, result.issues);
    return result.data;
  }

  #uuidParam(operation: string, field: string, value: string): string {
    if (typeof value !== 'string' || !UUID_PATTERN.test(value)) {
      throw new MerchantValidationError(operation, [
        { field, message: `must be a UUID, got ${typeof value === 'string' ? JSON.stringify(value.slice(0, 60)) : typeof value}` },
      ]);
    }
    return encodeURIComponent(value);
  }

  async #call<Schema extends z.ZodMiniType | undefined>(
    call: Call<Schema>,
  ): Promise<Schema extends z.ZodMiniType ? z.output<Schema> : unknown> {
    const { operation, method, body, options } = call;
    const url = `${this.baseUrl}${MERCHANT_API_PREFIX}${call.path}`;
    const timeoutMs = options?.timeoutMs ?? this.timeoutMs;
    const callerSignal = options?.signal;
    if (callerSignal?.aborted) throw new MerchantNetworkError(operation, 'aborted by the caller', { aborted: true });

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new TimeoutSignal()), timeoutMs);
    const onCallerAbort = () => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    const failure = (error: unknown): Error => {
      if (controller.signal.reason instanceof TimeoutSignal) return new MerchantTimeoutError(operation, timeoutMs);
      if (controller.signal.aborted) return new MerchantNetworkError(operation, 'aborted by the caller', { cause: error, aborted: true });
      return new MerchantNetworkError(operation, `request failed: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    };

    try {
      const signature = await signRequest({ method, url, body }, this.#secretKey);
      const headers = new Headers({ Accept: 'application/json', 'X-Identity': this.#apiKey, 'X-Signature': signature });
      if (typeof body === 'string') headers.set('Content-Type', 'application/json');
      let response: Response;
      try {
        // Raced with the signal too: a `fetch` that ignores its signal (an in-process handler)
        // must not outlive the timeout.
        response = await abortable(
          this.#fetch(new Request(url, { method, headers, body: body ?? null, signal: controller.signal })),
          controller.signal,
        );
      } catch (error) {
        throw failure(error);
      }
      let text: string;
      try {
        text = await readTextLimited(response, this.#maxResponseBytes, { signal: controller.signal });
      } catch (error) {
        if (error instanceof BodyTooLargeError) {
          throw new MerchantResponseError(operation, response.status, [
            { field: '', message: `answer exceeds ${this.#maxResponseBytes} bytes` },
          ]);
        }
        throw failure(error);
      }
      if (!response.ok) throw new MerchantApiError(operation, response.status, this.#excerpt(text, signature));

      let json: unknown = null;
      if (text.trim() !== '') {
        try {
          json = JSON.parse(text);
        } catch {
          if (!call.schema) return text as never;
          throw new MerchantResponseError(operation, response.status, [
            { field: '', message: `answer is not JSON: ${this.#excerpt(text, signature, 80)}` },
          ]);
        }
      }
      if (!call.schema) return json as never;
      const parsed = safeParse(call.schema, json);
      if (!parsed.success) throw new MerchantResponseError(operation, response.status, parsed.issues);
      return parsed.data as never;
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /** The start of an answer for an error message, with the keys and the signature cut out (an echoing service). */
  #excerpt(text: string, signature: string, length = EXCERPT_CHARS): string {
    let excerpt = text;
    for (const secret of [this.#secretKey, this.#apiKey, signature]) excerpt = excerpt.split(secret).join('[redacted]');
    excerpt = excerpt.length > length ? `${excerpt.slice(0, length)}…` : excerpt;
    return excerpt.replace(/\s+/g, ' ').trim();
  }
}
