/**
 * The checkout protocol as the browser speaks it (docs/ARCHITECTURE.md, "The checkout protocol"): a
 * small client the element is given (`client` property) or builds from `endpoint`. The
 * element never calls `fetch` itself. Whatever a client returns is validated here with the
 * shared schemas before the element sees it, so a merchant's own client cannot feed it junk.
 *
 * The browser validates with the JSON Schemas generated from the shared zod schemas
 * (`src/schemas/browser.generated.ts`) rather than with zod itself: the same definitions, held
 * to zod's verdicts by a property test, for about 2 KB gzip instead of 9.
 */
import { CHECKOUT_TOKEN_HEADER } from '../schemas/headers.js';
import {
  CHECKOUT_ROUTE_NAMES,
  CHECKOUT_ROUTES,
  checkoutPath,
  type CheckoutRouteBody,
  type CheckoutRouteName,
  type CheckoutRouteRow,
} from '../schemas/checkout-routes.js';
import {
  canceledInvoiceJsonSchema,
  checkoutErrorJsonSchema,
  bankListJsonSchema,
  invoiceJsonSchema,
  paymentVariantsJsonSchema,
} from '../schemas/browser.generated.js';
import type {
  CheckoutBank,
  CheckoutCanceledInvoice,
  CheckoutErrorBody,
  CheckoutErrorCode,
  CheckoutInvoice,
  StartDealRequest,
} from '../schemas/checkout.js';
import type { PaymentVariant } from '../schemas/invoice.js';
import { validateJson } from '../schemas/json-schema.js';
import { type SafeParseResult, unwrapSingleton, unwrapVariantList } from '../schemas/patterns.js';

/** Options of one protocol call. */
export interface CheckoutRequestOptions {
  /** Aborted when the element no longer needs the answer (another invoice, removed from the page). */
  signal?: AbortSignal;
}

/** One answer of the protocol: the parsed JSON body and the server's `Date` header. */
export interface CheckoutAnswer {
  /** The parsed JSON body, checked by the element against the protocol's schema. */
  data: unknown;
  /** The `Date` response header, used to correct the countdown for a wrong device clock. */
  date?: string | null;
}

/**
 * What the element needs from the merchant's side. The default (`createCheckoutClient`) speaks
 * HTTP to `endpoint`; a merchant may pass any object with these methods. Failures should be
 * thrown as `CheckoutError`; anything else thrown counts as a `network_error`.
 */
export interface CheckoutClient {
  /** `GET /invoices/{id}` → InvoiceDTO. */
  getInvoice(invoiceId: string, options?: CheckoutRequestOptions): Promise<CheckoutAnswer>;
  /** `GET /invoices/{id}/available-payment-variants` → PaymentVariantDTO[]. */
  getPaymentVariants(invoiceId: string, options?: CheckoutRequestOptions): Promise<CheckoutAnswer>;
  /** `POST /invoices/{id}/cancel` → the cancel variant of the invoice. */
  cancelInvoice(invoiceId: string, options?: CheckoutRequestOptions): Promise<CheckoutAnswer>;
  /** `POST /invoices/{id}/deal` with `{ option, method }` → InvoiceDTO; 501 when the merchant has no such hook. */
  startDeal(invoiceId: string, variant: StartDealRequest, options?: CheckoutRequestOptions): Promise<CheckoutAnswer>;
  /** Optional: `GET /banks?currency=` → `[{ code, name }]`, the service's bank names. Without it `readBanks` fails `not_implemented`. */
  getBanks?(currency: string, options?: CheckoutRequestOptions): Promise<CheckoutAnswer>;
  /** Optional: `POST /invoices/{id}/receipt`, multipart `attachment` → the invoice (its deal `transfer_confirmed`). */
  sendReceipt?(invoiceId: string, file: Blob, options?: CheckoutRequestOptions): Promise<CheckoutAnswer>;
  /** Optional: `POST /invoices/{id}/dispute`, multipart `reason`, `amount`, `attachment` → `{ outcome, invoice }`. */
  reportPayment?(invoiceId: string, report: PaymentReportRequest, options?: CheckoutRequestOptions): Promise<CheckoutAnswer>;
  /**
   * Optional: `GET /invoices/{id}/events` (Server-Sent Events). Calls `handlers.data` with the
   * parsed data of each `invoice` event (validated like a `getInvoice` answer) until `signal`
   * aborts, or calls `handlers.error` once when the stream failed, was refused or ended, and
   * closes it. `handlers.alive` is called whenever anything arrives (heartbeats included): a
   * stream that said it was alive and then stays silent for twice its heartbeat is taken as
   * dead, closed and opened again. A client without this method is polled.
   */
  watch?(invoiceId: string, handlers: CheckoutWatchHandlers, options: { signal: AbortSignal }): void;
}

/**
 * A payer's report of a payment that went missing (`POST /invoices/{id}/dispute`): `no_payment`,
 * or `invalid_sum` with the `amount` really sent (decimal text). The proxy requires the receipt
 * (`attachment`: JPEG, PNG, WebP, HEIC/HEIF or PDF, at most 10 MB) and answers 400 without it.
 */
export interface PaymentReportRequest {
  reason: 'no_payment' | 'invalid_sum';
  amount?: string | undefined;
  attachment?: Blob | undefined;
}

/** Where `watch` reports to. */
export interface CheckoutWatchHandlers {
  data: (data: unknown) => void;
  error: (error: unknown) => void;
  /**
   * Bytes arrived (an event, a heartbeat, the answer's headers): the connection lives.
   * `heartbeatMs` is the period of the proxy's heartbeats when the stream states it.
   */
  alive: (heartbeatMs?: number) => void;
}

/** Codes of `checkout-error`: the proxy's own (CHECKOUT_ERROR_STATUS) or any other code a proxy sent. */
export type CheckoutErrorKind = CheckoutErrorCode | (string & {});

/** A failed protocol call, with what a payer-facing screen needs to know. */
export class CheckoutError extends Error {
  /** Always `CheckoutError`. */
  override name = 'CheckoutError';
  /** What failed: the browser's own code (`network_error`, `invalid_response`, `http_error`) or the proxy's. */
  readonly code: CheckoutErrorKind;
  /** HTTP status of the answer, when there was one. */
  readonly status: number | undefined;
  /** Whether trying the same call again may succeed (network trouble, 5xx, timeouts). */
  readonly retryable: boolean;
  /**
   * For `payload_too_large`: the limit that refused the upload, in bytes, as the answer said it
   * (`error.maxBytes`); undefined when it said none (another server in front answered 413).
   */
  readonly maxBytes: number | undefined;

  constructor(code: CheckoutErrorKind, message: string, options: { status?: number; retryable?: boolean; maxBytes?: number } = {}) {
    super(message);
    this.code = code;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
    this.maxBytes = options.maxBytes;
  }
}

export const isAbortError = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';

/** Any failure as a `CheckoutError` (a custom client may throw anything). */
export const toCheckoutError = (error: unknown): CheckoutError =>
  error instanceof CheckoutError
    ? error
    : new CheckoutError('network_error', error instanceof Error ? error.message : String(error), { retryable: true });

/** One signal aborted by whichever of `signals` aborts first. */
export const anySignal = (signals: readonly (AbortSignal | undefined)[]): AbortSignal => {
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  if (present.length === 1 && present[0]) return present[0];
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(present);
  const controller = new AbortController();
  for (const signal of present) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true, signal: controller.signal });
  }
  return controller.signal;
};

/** What `createCheckoutClient` is given. */
export interface CheckoutClientOptions {
  /** Base URL of the merchant's checkout proxy, relative to the page or absolute. */
  endpoint: string;
  /** `fetch` to use (default: the global one, looked up at call time). */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Milliseconds before a request counts as failed (`network_error`, retryable). Default 15000. */
  timeoutMs?: number;
  /** The same for an upload (a receipt, a report), which a phone on a slow network needs longer for. Default 120000. */
  uploadTimeoutMs?: number;
  /**
   * Extra request headers (e.g. a CSRF token, or the gateway's `X-Checkout-Token`), the event
   * stream's included; a function is asked at every request, so a renewed token is sent from the
   * next request on.
   */
  headers?: Record<string, string> | (() => Record<string, string>);
  /** `credentials` of every request (default `same-origin`); `include` opens the event stream `withCredentials`. */
  credentials?: RequestCredentials;
}

export { CHECKOUT_TOKEN_HEADER };

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_UPLOAD_TIMEOUT_MS = 120_000;

const retryableStatus = (status: number) => status >= 500 || status === 408 || status === 429;

/**
 * The default client: HTTP to `{endpoint}/invoices/{id}…`. Error answers become a
 * `CheckoutError` with the code of the `{ "error": { "code", "message" } }` body (`http_error`
 * when there is none); a request that fails or times out is a retryable `network_error`.
 * For a cross-origin `endpoint` the proxy must expose the `Date` header to CORS
 * (`Access-Control-Expose-Headers: Date`), or the countdown trusts the device clock.
 */
export const createCheckoutClient = (options: CheckoutClientOptions): CheckoutClient => {
  const base = options.endpoint.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const uploadTimeoutMs = options.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS;
  const extraHeaders = (): Record<string, string> => (typeof options.headers === 'function' ? options.headers() : options.headers) ?? {};

  /**
   * One call of `route` (its method and path from the protocol's table, `CHECKOUT_ROUTES`) about
   * invoice `id`. `body`: a value sent as JSON, or a form sent as multipart (the runtime writes
   * its boundary).
   */
  const call = async (
    route: CheckoutRouteName,
    id: string,
    body: unknown,
    signal: AbortSignal | undefined,
    ms = timeoutMs,
    query = '',
  ): Promise<CheckoutAnswer> => {
    const { method } = CHECKOUT_ROUTES[route];
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), ms);
    const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders() };
    const form = body instanceof FormData;
    if (body !== undefined && !form) headers['content-type'] = 'application/json';
    try {
      const response = await (options.fetch ?? fetch)(`${base}${checkoutPath(route, id)}${query}`, {
        method,
        headers,
        body: body === undefined ? null : form ? body : JSON.stringify(body),
        credentials: options.credentials ?? 'same-origin',
        signal: anySignal([signal, timeout.signal]),
      });
      const text = await response.text();
      if (!response.ok) {
        const parsed = validateJson<CheckoutErrorBody>(checkoutErrorJsonSchema, parseJson(text));
        const said = parsed.success ? parsed.data.error.maxBytes : undefined;
        // A 413 of a server in front of the proxy (nginx's `client_max_body_size`) says it in HTML.
        const bare = response.status === 413 ? 'payload_too_large' : 'http_error';
        throw new CheckoutError(
          parsed.success ? parsed.data.error.code : bare,
          parsed.success ? parsed.data.error.message : `HTTP ${response.status}`,
          {
            status: response.status,
            retryable: retryableStatus(response.status),
            ...(typeof said === 'number' && said >= 1 ? { maxBytes: Math.floor(said) } : {}),
          },
        );
      }
      const data = parseJson(text);
      if (data === undefined) {
        throw new CheckoutError('invalid_response', 'the answer is not JSON', { status: response.status, retryable: true });
      }
      return { data, date: response.headers.get('date') };
    } catch (error) {
      if (error instanceof CheckoutError) throw error;
      if (signal?.aborted) throw signal.reason ?? error;
      const message = timeout.signal.aborted ? `no answer within ${ms} ms` : 'the request failed';
      throw new CheckoutError('network_error', message, { retryable: true });
    } finally {
      clearTimeout(timer);
    }
  };

  // One method per row of the protocol's table, as the proxy's router has one route per row (the
  // row's `client` says how it is called); the event stream's `watch` is written out below.
  const methods: Partial<Record<RouteMethod, unknown>> = {};
  for (const name of CHECKOUT_ROUTE_NAMES) {
    const row: CheckoutRouteRow = CHECKOUT_ROUTES[name];
    if (name === 'events') continue;
    const takesBody = row.body !== 'none';
    methods[row.client as RouteMethod] = (key: string, ...rest: unknown[]): Promise<CheckoutAnswer> => {
      const { signal } = ((takesBody ? rest[1] : rest[0]) ?? {}) as CheckoutRequestOptions;
      const query = row.query ? `?${row.query}=${encodeURIComponent(key)}` : '';
      const upload = row.body === 'multipart';
      return call(
        name,
        row.path.includes('{id}') ? key : '',
        bodyOf(row.body, rest[0]),
        signal,
        upload ? uploadTimeoutMs : timeoutMs,
        query,
      );
    };
  }
  const client = methods as CheckoutClient;
  if (typeof ReadableStream === 'function' && typeof TextDecoder === 'function') {
    // The reader loads with the first stream (a chunk of its own in the CDN build): the first
    // render never needs it.
    client.watch = (id, handlers, { signal }) => {
      if (signal.aborted) return;
      const init: RequestInit = {
        method: CHECKOUT_ROUTES.events.method,
        headers: { accept: 'text/event-stream', ...extraHeaders() },
        credentials: options.credentials ?? 'same-origin',
        cache: 'no-store',
      };
      const fail = () => {
        if (!signal.aborted)
          handlers.error(new CheckoutError('network_error', 'the event stream reader did not load', { retryable: true }));
      };
      import('./sse.js').then(
        ({ readEventStream }) =>
          readEventStream(
            {
              fetch: options.fetch ?? ((input, request) => fetch(input, request)),
              url: `${base}${checkoutPath('events', id)}`,
              init,
              timeoutMs,
              parseJson,
            },
            handlers,
            signal,
            (message, status) => new CheckoutError('network_error', message, { retryable: true, ...(status ? { status } : {}) }),
          ),
        fail,
      );
    };
  }
  return client;
};

/**
 * The global `fetch`, looked up at call time, for the element's one read outside the protocol
 * (the merchant's SBP bank list, `sbp-banks`): the element itself never names `fetch`.
 */
export const fetchText = (input: string, init: RequestInit): Promise<Response> => fetch(input, init);

/** The method names of `CheckoutClient`, each a row's `client` (src/schemas/checkout-routes.ts). */
type RouteMethod = (typeof CHECKOUT_ROUTES)[CheckoutRouteName]['client'];

/**
 * The request body of a row's `body` kind from the method's argument: JSON as given, a form of
 * the fields given for a multipart upload (a file alone is the form's `attachment`).
 */
const bodyOf = (kind: CheckoutRouteBody, value: unknown): unknown =>
  kind === 'none'
    ? undefined
    : kind === 'json'
      ? value
      : formOf(value instanceof Blob ? { attachment: value } : (value as Record<string, string | Blob | undefined>));

/** A multipart form of the fields given; a file keeps its name (a bare `Blob` is named `receipt`). */
const formOf = (fields: Record<string, string | Blob | undefined>): FormData => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(name, value);
    else if (value) form.append(name, value, value instanceof File ? value.name : 'receipt');
  }
  return form;
};

/** JSON text as a value; `undefined` for anything that is not JSON. */
export const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** The validated answer, or an `invalid_response` error naming the bad field. */
export const valid = <T>(result: SafeParseResult<T>): T => {
  if (result.success) return result.data;
  throw new CheckoutError('invalid_response', result.message, { retryable: true });
};

/** The answer must be about the invoice asked for: a proxy that mixes invoices up is broken. */
export const sameInvoice = <T extends { id: string }>(invoice: T, invoiceId: string): T => {
  if (invoice.id.toLowerCase() !== invoiceId.toLowerCase()) {
    throw new CheckoutError('invalid_response', `id: the answer is about invoice ${invoice.id}`, { retryable: true });
  }
  return invoice;
};

export interface Validated<T> {
  value: T;
  date: string | null | undefined;
}

/** Calls the client and validates its answer; every failure is a `CheckoutError` (aborts stay aborts). */
export const validated = async <T>(request: () => Promise<CheckoutAnswer>, check: (data: unknown) => T): Promise<Validated<T>> => {
  let answer: CheckoutAnswer;
  try {
    answer = await request();
  } catch (error) {
    throw isAbortError(error) ? error : toCheckoutError(error);
  }
  return { value: check(answer.data), date: answer.date };
};

export const checkInvoice = (data: unknown, invoiceId: string): CheckoutInvoice =>
  sameInvoice(valid(validateJson<CheckoutInvoice>(invoiceJsonSchema, unwrapSingleton(data))), invoiceId);

export const readInvoice = (client: CheckoutClient, invoiceId: string, signal: AbortSignal) =>
  validated<CheckoutInvoice>(
    () => client.getInvoice(invoiceId, { signal }),
    (data) => checkInvoice(data, invoiceId),
  );

/**
 * Follows the invoice's event stream through `client.watch`, each event validated like a
 * `getInvoice` answer; an invalid event ends it as a failure. `onError` is called at most
 * once, never after `signal` aborted. `false` when the client cannot stream.
 */
export const watchInvoice = (
  client: CheckoutClient,
  invoiceId: string,
  onInvoice: (invoice: CheckoutInvoice) => void,
  onError: (error: CheckoutError) => void,
  onAlive: (heartbeatMs?: number) => void,
  signal: AbortSignal,
): boolean => {
  if (typeof client.watch !== 'function') return false;
  let failed = false;
  const fail = (error: unknown) => {
    if (failed || signal.aborted) return;
    failed = true;
    onError(toCheckoutError(error));
  };
  try {
    client.watch(
      invoiceId,
      {
        data: (data) => {
          if (failed || signal.aborted) return;
          let invoice: CheckoutInvoice;
          try {
            invoice = checkInvoice(data, invoiceId);
          } catch (error) {
            fail(error);
            return;
          }
          onInvoice(invoice);
        },
        error: fail,
        alive: (heartbeatMs) => {
          if (!failed && !signal.aborted) onAlive(typeof heartbeatMs === 'number' ? heartbeatMs : undefined);
        },
      },
      { signal },
    );
  } catch (error) {
    fail(error);
  }
  return true;
};

export const readVariants = (client: CheckoutClient, invoiceId: string, signal: AbortSignal) =>
  validated<PaymentVariant[]>(
    () => client.getPaymentVariants(invoiceId, { signal }),
    (data) => valid(validateJson<PaymentVariant[]>(paymentVariantsJsonSchema, unwrapVariantList(data))),
  );

export const cancelInvoice = (client: CheckoutClient, invoiceId: string, signal: AbortSignal) =>
  validated<CheckoutCanceledInvoice>(
    () => client.cancelInvoice(invoiceId, { signal }),
    (data) => sameInvoice(valid(validateJson<CheckoutCanceledInvoice>(canceledInvoiceJsonSchema, unwrapSingleton(data))), invoiceId),
  );

export const startDeal = (client: CheckoutClient, invoiceId: string, variant: StartDealRequest, signal: AbortSignal) =>
  validated<CheckoutInvoice>(
    () => client.startDeal(invoiceId, variant, { signal }),
    (data) => checkInvoice(data, invoiceId),
  );

/** A custom client without the optional method: the element then does without (bundled bank names, no upload). */
export const notImplemented = (what: string): Promise<never> =>
  Promise.reject(new CheckoutError('not_implemented', `this checkout client cannot ${what}`, { status: 501 }));

/** `GET /banks?currency=`: the service's names of the banks of `currency`, `[{ code, name }]`. */
export const readBanks = (client: CheckoutClient, currency: string, signal: AbortSignal) =>
  validated<CheckoutBank[]>(
    () => (client.getBanks ? client.getBanks(currency, { signal }) : notImplemented('read the banks')),
    (data) => valid(validateJson<CheckoutBank[]>(bankListJsonSchema, data)),
  );
