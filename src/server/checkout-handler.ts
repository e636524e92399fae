/**
 * `createCheckoutHandler`: the merchant's signing proxy for `<merchant-checkout>`. It serves
 * exactly the routes of the checkout protocol (docs/ARCHITECTURE.md) and nothing else: every
 * other path, method or body is answered here without any upstream call. The payer's browser
 * never holds a key; the merchant's `authorize` hook decides whose invoice a request may
 * touch; answers are allow-listed projections (`projection.ts`), never upstream objects.
 */
import {
  GetInvoiceResponseSchema,
  StartDealRequestSchema,
  safeParse,
  type CheckoutProxyErrorCode,
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
} from './errors.js';
import { ROUTE_METHOD, basePathSegments, matchCheckoutRoute, type CheckoutRoute } from './checkout-route.js';
import {
  CheckoutHttpError,
  Deadline,
  announcesBody,
  baseHeaders,
  DEFAULT_BODY_TIMEOUT_MS,
  errorAnswer,
  jsonAnswer,
  readBodyLimited,
} from './proxy-http.js';
import { declaredLength } from './body.js';
import { createBankNames } from './bank-names.js';
import { projectCanceledInvoice, projectInvoice, projectVariants } from './projection.js';
import { createInvoiceEvents, validateEventsOptions, type CheckoutEventsOptions } from './invoice-events.js';
import { createSingleFlight } from './single-flight.js';
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
  /** The invoice as the service shows it right now (already checked to be `id`). */
  invoice: Invoice;
  /** The payer's request (cookies, session). */
  request: Request;
  /** Aborts when the time budget runs out or the payer goes away; forward it to `client`. */
  signal: AbortSignal;
  /** The client of the invoice's terminal, to call the service with. */
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
   * Fill in a deal's bank name from the service's payment-methods list when the answer has
   * none (one read per terminal, currency and hour). Default true; false sends the code only.
   */
  bankNames?: boolean;
  /**
   * Time budget of one request in milliseconds, covering the merchant's hooks and every
   * upstream call; when it runs out the answer is 504. Default: the client's `timeoutMs`.
   */
  timeoutMs?: number;
  /** How long a request body may take to arrive, in ms (default 10 000): a body trickled in slowly is answered 408. */
  bodyTimeoutMs?: number;
  /** Largest request body accepted, in bytes (default 16 KiB; the deal body is a few dozen). → 413 */
  maxBodyBytes?: number;
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

/** How many invoice → terminal answers the proxy remembers (several API keys only). */
const MAX_REMEMBERED_TERMINALS = 10_000;

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

const CLIENT_METHODS = ['getInvoice', 'listPaymentVariants', 'cancelInvoice', 'startDeal'] as const;
const isClient = (value: unknown): value is MerchantClient =>
  typeof value === 'object' && value !== null && CLIENT_METHODS.every((name) => typeof (value as Record<string, unknown>)[name] === 'function');

const validateOptions = (options: CheckoutHandlerOptions) => {
  const { client, clientFor, authorize, resolveInternalId, startDeal, timeoutMs, maxBodyBytes, cors } = options ?? ({} as CheckoutHandlerOptions);
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
 */
export const createCheckoutHandler = (options: CheckoutHandlerOptions): ((request: Request) => Promise<Response>) => {
  validateOptions(options);
  const { clientFor, authorize: authorizeHook, resolveInternalId, startDeal, cors, onError } = options;
  const clients: readonly MerchantClient[] = Array.isArray(options.client) ? options.client : [options.client as MerchantClient];
  const base = basePathSegments(options.basePath);
  const timeoutMs = options.timeoutMs ?? Math.max(...clients.map((client) => client.timeoutMs));
  /** Which terminal answered for an invoice, so only its first read probes several. */
  const terminalOf = new Map<string, MerchantClient>();
  const withBankNames = options.bankNames === false ? (invoice: Invoice) => Promise.resolve(invoice) : createBankNames();
  /** One upstream read of an invoice per terminal at a time, whoever asks (checkout-handler's routes, the streams' refresher). */
  const flight = createSingleFlight();
  const store = options.store ?? createMemoryStore();
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

  const readInvoice = async (client: MerchantClient, id: string, deadline: Deadline | undefined): Promise<Invoice | undefined> => {
    try {
      return await flight(client, id, deadline?.signal, (signal) => client.getInvoice(id, { signal }));
    } catch (error) {
      if (error instanceof MerchantApiError && error.status === 404) return undefined;
      throw error;
    }
  };

  const events =
    options.events === false
      ? undefined
      : createInvoiceEvents(
          {
            store,
            read: async (client, id) => (await readInvoice(client, id, undefined)) ?? fail('not_found', 'unknown invoice'),
            withBankNames: (invoice, client) => withBankNames(invoice, client, {}),
            report: (error) => report(error, new Request('http://checkout.invalid/events')),
          },
          options.events,
        );

  /** The invoice `id` read from its terminal, with that terminal; a 404 when none knows it. */
  const invoiceAndClient = async (id: string, request: Request, deadline: Deadline): Promise<{ invoice: Invoice; client: MerchantClient }> => {
    const chosen = clientFor ? await deadline.race(clientFor(id, request)) : terminalOf.get(id);
    if (clientFor && !isClient(chosen)) fail('not_found', 'unknown invoice');
    for (const client of chosen ? [chosen] : clients) {
      const invoice = await readInvoice(client, id, deadline);
      if (!invoice) continue;
      events?.observe(invoice);
      if (clients.length > 1 && !clientFor) {
        if (terminalOf.size >= MAX_REMEMBERED_TERMINALS) terminalOf.delete(terminalOf.keys().next().value as string);
        terminalOf.set(id, client);
      }
      return { invoice, client };
    }
    return fail('not_found', 'unknown invoice');
  };

  /**
   * The invoice `id` for this caller. It must be `id` (a service or a hook that answers
   * another invoice must not hand it out), and with the older `resolveInternalId` its
   * `internalId` must be the one answered (an over-broad lookup must not widen access).
   */
  const verifiedInvoice = async (id: string, request: Request, deadline: Deadline, watched = false) => {
    const { internalId } = await authorize(id, request, deadline);
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

  /** A deal started for the payer: the invoice must be `id` and show an active deal, else the bank had no requisites. */
  const dealStarted = (invoice: Invoice, id: string, request: Request, source: string) => {
    if (invoice.id.toLowerCase() !== id) {
      report(new Error(`${source} answered invoice ${invoice.id} for ${id}`), request);
      throw upstreamUnavailable();
    }
    if (!invoice.deals.some((deal) => deal.isActive)) fail('no_requisites', 'this bank has no free requisites right now');
    events?.observe(invoice);
    return projectInvoice(invoice);
  };

  const serve = async (c: Context<ProxyEnv>, route: CheckoutRoute, id: string, deadline: Deadline): Promise<unknown> => {
    const request = c.req.raw;
    const upstream = () => ({ signal: deadline.signal, timeoutMs: deadline.remaining() });
    switch (route) {
      case 'invoice': {
        const { invoice, client } = await verifiedInvoice(id, request, deadline);
        return projectInvoice(await withBankNames(invoice, client, upstream()));
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
          return dealStarted(await withBankNames(started, client, upstream()), id, request, 'start-deal');
        }
        const answer = await deadline.race(
          startDeal({ id, internalId: invoice.internalId, option, method, invoice, request, signal: deadline.signal, client }),
        );
        const parsed = safeParse(GetInvoiceResponseSchema, answer);
        if (!parsed.success) {
          report(new Error(`startDeal answered an invalid invoice: ${parsed.message}`), request);
          throw upstreamUnavailable();
        }
        return dealStarted(await withBankNames(parsed.data, client, upstream()), id, request, 'startDeal');
      }
      case 'events': {
        const { invoice, client } = await verifiedInvoice(id, request, deadline, true);
        return events!.respond(c, id, invoice, client, request);
      }
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
    for (const [name, value] of baseHeaders()) if (!c.res.headers.has(name)) c.res.headers.set(name, value);
    if (cors && !/\borigin\b/i.test(c.res.headers.get('vary') ?? '')) c.res.headers.append('vary', 'Origin');
    if (c.req.method === 'HEAD' && c.res.body) {
      await c.res.body.cancel();
      c.res = new Response(null, { status: c.res.status, headers: c.res.headers });
    }
  });

  // The path is judged on its decoded segments before any route sees it (checkout-route.ts):
  // unknown → 404, malformed → 400, another method → 405 with Allow, a non-UUID id → 400.
  app.use('*', async (c: Context<ProxyEnv>, next: Next) => {
    const request = c.req.raw;
    const match = matchCheckoutRoute(new URL(request.url).pathname, base);
    if (match.kind === 'unknown' || (match.kind !== 'malformed' && match.route === 'events' && !events)) {
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
    if (declaredLength(request) > maxBodyBytes) return errorAnswer('payload_too_large', `request body exceeds ${maxBodyBytes} bytes`);
    c.set('match', { route: match.route, id: match.id });
    if (corsAllowed) return corsFor.get(match.route)!(c, next);
    return next();
  });

  /** Serves one route within the request's time budget; failures become checkout errors. */
  const route = (name: CheckoutRoute) => async (c: Context<ProxyEnv>) => {
    const request = c.req.raw;
    const deadline = new Deadline(timeoutMs, request.signal);
    try {
      if (request.method === 'POST') checkSameSite(request);
      const answer = await serve(c, name, c.get('match').id, deadline);
      return answer instanceof Response ? answer : jsonAnswer(200, answer);
    } catch (error) {
      const answer = toCheckoutError(error, deadline);
      // A payer who went away is no failure worth a log line.
      if (!request.signal.aborted && (answer.status >= 500 || !(error instanceof CheckoutHttpError))) report(error, request);
      return errorAnswer(answer.code, answer.message);
    } finally {
      deadline.dispose();
    }
  };

  const prefix = base.length ? `/${base.join('/')}` : '';
  app.get(`${prefix}/invoices/:id`, route('invoice'));
  app.get(`${prefix}/invoices/:id/available-payment-variants`, route('variants'));
  app.post(`${prefix}/invoices/:id/cancel`, route('cancel'));
  app.post(`${prefix}/invoices/:id/deal`, route('deal'));
  if (events) app.get(`${prefix}/invoices/:id/events`, route('events'));
  // The guard matched a route that Hono's router reads differently (percent-encoded letters).
  app.notFound(() => errorAnswer('not_found', 'no such checkout operation'));
  app.onError((error, c) => {
    report(error, c.req.raw);
    return errorAnswer('internal_error', 'internal error');
  });

  return async (request: Request): Promise<Response> => app.fetch(request);
};
