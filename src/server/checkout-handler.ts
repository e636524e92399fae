/**
 * `createCheckoutHandler`: the merchant's signing proxy for `<merchant-checkout>`. It serves
 * exactly the four routes of the checkout protocol (DESIGN.md) and nothing else: every other
 * path, method or body is answered here without any upstream call. The payer's browser never
 * holds a key; the merchant's `resolveInternalId` decides whose invoice a request may touch.
 */
import {
  GetInvoiceResponseSchema,
  StartDealRequestSchema,
  safeParse,
  type CanceledInvoice,
  type CheckoutProxyErrorCode,
  type InvoiceLookup,
  type PaymentVariant,
} from '../schemas/index.js';
import type { MerchantClient } from './client.js';
import {
  MerchantApiError,
  MerchantNetworkError,
  MerchantResponseError,
  MerchantTimeoutError,
} from './errors.js';
import { ROUTE_METHOD, basePathSegments, matchCheckoutRoute, type CheckoutRoute } from './checkout-route.js';
import {
  CheckoutHttpError,
  Deadline,
  announcesBody,
  baseHeaders,
  errorAnswer,
  jsonAnswer,
  readBodyLimited,
} from './proxy-http.js';
import { declaredLength } from './body.js';

/** Default request body limit: the only body of the protocol, `{ option, method }`, is tiny. */
export const DEFAULT_CHECKOUT_MAX_BODY_BYTES = 16 * 1024;

/** What the `startDeal` hook is given. */
export interface StartDealContext {
  /** The invoice id from the path (a UUID, lower-case). */
  id: string;
  /** What `resolveInternalId` answered for it. */
  internalId: string;
  /** The payer's choice, validated: non-empty strings. */
  option: string;
  method: string;
  /** The invoice as the service shows it right now (already checked to be `id`). */
  invoice: InvoiceLookup;
  request: Request;
  /** Aborts when the time budget runs out or the payer goes away; forward it to `client`. */
  signal: AbortSignal;
  client: MerchantClient;
}

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

export interface CheckoutHandlerOptions {
  /** Signs and sends the upstream calls. */
  client: MerchantClient;
  /**
   * The merchant's database lookup AND authorization in one: given the invoice id from the
   * browser (a lower-case UUID) and the request (cookies, session), answer the merchant's
   * internal id of that invoice if this caller may see it, and nothing otherwise (→ 404, no
   * upstream call). May throw a {@link CheckoutHttpError} to answer something else.
   */
  resolveInternalId: (id: string, request: Request) => string | null | undefined | Promise<string | null | undefined>;
  /** The path prefix the handler is mounted under, e.g. `/checkout-api` (default: none). */
  basePath?: string;
  /**
   * Starts a deal for the payer's chosen variant (the service shows no operation for it);
   * answers the InvoiceDTO, which is validated and must be the same invoice. Without it,
   * `POST /invoices/{id}/deal` is 501.
   */
  startDeal?: (context: StartDealContext) => Promise<unknown>;
  /**
   * Time budget of one request in milliseconds, covering the merchant's hooks and every
   * upstream call; when it runs out the answer is 504. Default: the client's `timeoutMs`.
   */
  timeoutMs?: number;
  /** Largest request body accepted, in bytes (default 16 KiB; the deal body is a few dozen). → 413 */
  maxBodyBytes?: number;
  /** Cross-origin access; off unless given. */
  cors?: CheckoutCorsOptions;
  /**
   * Told about every failure the browser only sees as a generic error (5xx, an upstream
   * error, an invoice id that `resolveInternalId` mapped to another invoice), for the
   * merchant's logs. Default: nothing is logged.
   */
  onError?: (error: unknown, request: Request) => void;
}

const errorWithHeaders = (error: CheckoutHttpError, headers: Headers) =>
  errorAnswer(error.code, error.message, headers);

const fail = (code: CheckoutProxyErrorCode, message: string): never => {
  throw new CheckoutHttpError(code, message);
};

const upstreamUnavailable = () => new CheckoutHttpError('upstream_error', 'the payment service failed to answer');

const validateOptions = (options: CheckoutHandlerOptions) => {
  const { client, resolveInternalId, startDeal, timeoutMs, maxBodyBytes, cors } = options ?? ({} as CheckoutHandlerOptions);
  const clientMethods = ['getInvoiceByInternalId', 'listPaymentVariants', 'cancelInvoice'] as const;
  if (!client || clientMethods.some((name) => typeof client[name] !== 'function')) {
    throw new TypeError('createCheckoutHandler: client must be a MerchantClient');
  }
  if (typeof resolveInternalId !== 'function') throw new TypeError('createCheckoutHandler: resolveInternalId must be a function');
  if (startDeal !== undefined && typeof startDeal !== 'function') {
    throw new TypeError('createCheckoutHandler: startDeal must be a function');
  }
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

/**
 * Creates the checkout proxy: `(request: Request) => Promise<Response>`. Mount it in a Fetch
 * runtime directly, or in node:http / Express with `toNodeHandler`.
 *
 * | request | upstream | answer |
 * |---|---|---|
 * | `GET /invoices/{id}` | `getInvoiceByInternalId(resolveInternalId(id))` | InvoiceDTO, only if its `id` is `{id}` |
 * | `GET /invoices/{id}/available-payment-variants` | the invoice check, then `listPaymentVariants(id)` | PaymentVariantDTO[] |
 * | `POST /invoices/{id}/cancel` | the invoice check, then `cancelInvoice(id)` | the cancel variant |
 * | `POST /invoices/{id}/deal` `{option, method}` | the invoice check, then the `startDeal` hook | InvoiceDTO, 501 without hook |
 */
export const createCheckoutHandler = (options: CheckoutHandlerOptions): ((request: Request) => Promise<Response>) => {
  validateOptions(options);
  const { client, resolveInternalId, startDeal, cors, onError } = options;
  const base = basePathSegments(options.basePath);
  const timeoutMs = options.timeoutMs ?? client.timeoutMs;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_CHECKOUT_MAX_BODY_BYTES;
  const allowedOrigins = new Set(cors?.origins ?? []);
  const report = (error: unknown, request: Request) => {
    try {
      onError?.(error, request);
    } catch {
      // A failing logger must not change the answer.
    }
  };

  /** The headers of every answer, with CORS ones when the request's origin is allowed. */
  const answerHeaders = (request: Request): Headers => {
    const headers = baseHeaders();
    if (!cors) return headers;
    headers.set('vary', 'Origin');
    const origin = request.headers.get('origin');
    if (origin !== null && allowedOrigins.has(origin)) {
      headers.set('access-control-allow-origin', origin);
      // `Date` is not a CORS-safelisted response header, and the element reads it.
      headers.set('access-control-expose-headers', 'Date');
      if (cors.credentials) headers.set('access-control-allow-credentials', 'true');
    }
    return headers;
  };

  /**
   * Refuses a state-changing request that a browser marks as sent by another site (a form
   * or `fetch` on an attacker's page riding on the payer's cookies), unless that origin is
   * explicitly allowed. Requests without `Sec-Fetch-Site` (non-browsers, old browsers) pass:
   * `resolveInternalId` is still the authorization.
   */
  const checkSameSite = (request: Request) => {
    const site = request.headers.get('sec-fetch-site');
    if (site === null || site === 'same-origin' || site === 'none') return;
    const origin = request.headers.get('origin');
    if (origin !== null && allowedOrigins.has(origin)) return;
    fail('forbidden', 'cross-site requests are not allowed');
  };

  const preflight = (request: Request, route: CheckoutRoute, headers: Headers): Response => {
    const method = ROUTE_METHOD[route];
    headers.set('allow', `${method}, OPTIONS`);
    const origin = request.headers.get('origin');
    const requested = request.headers.get('access-control-request-method');
    if (cors && origin !== null && allowedOrigins.has(origin) && requested === method) {
      headers.set('access-control-allow-methods', method);
      headers.set('access-control-allow-headers', ['Content-Type', ...(cors.allowHeaders ?? [])].join(', '));
      headers.set('access-control-max-age', String(cors.maxAgeSeconds ?? 600));
    }
    return jsonAnswer(204, null, headers);
  };

  /** The internal id of `id` for this caller, or a 404. */
  const authorize = async (id: string, request: Request, deadline: Deadline): Promise<string> => {
    const internalId = await deadline.race(resolveInternalId(id, request));
    if (internalId === null || internalId === undefined || internalId === '') fail('not_found', 'unknown invoice');
    if (typeof internalId !== 'string') {
      throw new TypeError(`resolveInternalId must answer a string or nothing, got ${typeof internalId}`);
    }
    return internalId;
  };

  /**
   * The invoice behind `internalId`, which must be `id`: a `resolveInternalId` that maps an
   * id to another order's internal id (a bug, or an over-broad lookup) must not hand out or
   * act on that other invoice.
   */
  const verifiedInvoice = async (id: string, internalId: string, request: Request, deadline: Deadline) => {
    let invoice: InvoiceLookup;
    try {
      invoice = await client.getInvoiceByInternalId(internalId, { signal: deadline.signal, timeoutMs: deadline.remaining() });
    } catch (error) {
      if (error instanceof MerchantApiError && error.status === 404) fail('not_found', 'unknown invoice');
      throw error;
    }
    if (invoice.id.toLowerCase() !== id) {
      report(
        new Error(`resolveInternalId mapped invoice ${id} to internal id ${JSON.stringify(internalId)}, which is invoice ${invoice.id}`),
        request,
      );
      fail('not_found', 'unknown invoice');
    }
    return invoice;
  };

  const readDealRequest = async (request: Request) => {
    const type = request.headers.get('content-type') ?? '';
    const [mediaType = '', ...parameters] = type.split(';').map((part) => part.trim().toLowerCase());
    const charset = parameters.find((parameter) => parameter.startsWith('charset='))?.slice('charset='.length);
    if (mediaType !== 'application/json' || (charset !== undefined && charset.replace(/"/g, '') !== 'utf-8')) {
      fail('unsupported_media_type', 'the body must be application/json');
    }
    const text = await readBodyLimited(request, maxBodyBytes);
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

  const serve = async (request: Request, route: CheckoutRoute, id: string, deadline: Deadline): Promise<unknown> => {
    const upstream = () => ({ signal: deadline.signal, timeoutMs: deadline.remaining() });
    switch (route) {
      case 'invoice': {
        const internalId = await authorize(id, request, deadline);
        return verifiedInvoice(id, internalId, request, deadline);
      }
      case 'variants': {
        await verifiedInvoice(id, await authorize(id, request, deadline), request, deadline);
        return client.listPaymentVariants(id, upstream()) satisfies Promise<PaymentVariant[]>;
      }
      case 'cancel': {
        // The service describes no body; one is read (within the limit) and ignored.
        await readBodyLimited(request, maxBodyBytes);
        await verifiedInvoice(id, await authorize(id, request, deadline), request, deadline);
        return client.cancelInvoice(id, upstream()) satisfies Promise<CanceledInvoice>;
      }
      case 'deal': {
        if (!startDeal) return fail('not_implemented', 'starting a deal is not enabled on this server');
        const { option, method } = await readDealRequest(request);
        const internalId = await authorize(id, request, deadline);
        const invoice = await verifiedInvoice(id, internalId, request, deadline);
        const answer = await deadline.race(
          startDeal({ id, internalId, option, method, invoice, request, signal: deadline.signal, client }),
        );
        const parsed = safeParse(GetInvoiceResponseSchema, answer);
        if (!parsed.success) {
          report(new Error(`startDeal answered an invalid invoice: ${parsed.message}`), request);
          throw upstreamUnavailable();
        }
        if (parsed.data.id.toLowerCase() !== id) {
          report(new Error(`startDeal answered invoice ${parsed.data.id} for ${id}`), request);
          throw upstreamUnavailable();
        }
        return parsed.data;
      }
    }
  };

  /** The checkout error a failure is answered with; never the upstream's text. */
  const toCheckoutError = (error: unknown, deadline: Deadline | undefined): CheckoutHttpError => {
    if (error instanceof CheckoutHttpError) return error;
    if (deadline?.exceeded || error instanceof MerchantTimeoutError) {
      return new CheckoutHttpError('upstream_timeout', 'the payment service did not answer in time');
    }
    if (error instanceof MerchantApiError || error instanceof MerchantNetworkError) return upstreamUnavailable();
    if (error instanceof MerchantResponseError) {
      return new CheckoutHttpError('upstream_error', 'the payment service answered something invalid');
    }
    return new CheckoutHttpError('internal_error', 'internal error');
  };

  const handle = async (request: Request, headers: Headers): Promise<Response> => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return errorAnswer('bad_request', 'malformed request URL', headers);
    }
    const match = matchCheckoutRoute(url.pathname, base);
    if (match.kind === 'unknown') return errorAnswer('not_found', 'no such checkout operation', headers);
    if (match.kind === 'malformed') return errorAnswer('bad_request', match.message, headers);
    const { route } = match;
    if (request.method === 'OPTIONS') return preflight(request, route, headers);
    if (request.method !== ROUTE_METHOD[route]) {
      headers.set('allow', `${ROUTE_METHOD[route]}, OPTIONS`);
      return errorAnswer('method_not_allowed', `use ${ROUTE_METHOD[route]}`, headers);
    }
    if (match.kind === 'bad_id') return errorAnswer('bad_request', 'the invoice id must be a UUID', headers);
    if (request.method === 'GET' && announcesBody(request)) {
      return errorAnswer('bad_request', 'a GET request has no body', headers);
    }
    if (declaredLength(request) > maxBodyBytes) {
      return errorAnswer('payload_too_large', `request body exceeds ${maxBodyBytes} bytes`, headers);
    }

    const deadline = new Deadline(timeoutMs, request.signal);
    try {
      if (request.method === 'POST') checkSameSite(request);
      return jsonAnswer(200, await serve(request, route, match.id, deadline), headers);
    } catch (error) {
      const answer = toCheckoutError(error, deadline);
      // A payer who went away is no failure worth a log line.
      if (!request.signal.aborted && (answer.status >= 500 || !(error instanceof CheckoutHttpError))) report(error, request);
      return errorWithHeaders(answer, headers);
    } finally {
      deadline.dispose();
    }
  };

  return async (request: Request): Promise<Response> => {
    const headers = answerHeaders(request);
    let response: Response;
    try {
      response = await handle(request, headers);
    } catch (error) {
      report(error, request);
      response = errorAnswer('internal_error', 'internal error', headers);
    }
    // A HEAD answer has no body, whatever the runtime does with one.
    if (request.method === 'HEAD' && response.body) {
      await response.body.cancel();
      return new Response(null, { status: response.status, headers: response.headers });
    }
    return response;
  };
};
