/**
 * The proxy's one router, built from the table of routes (`CHECKOUT_ROUTES`): the path is
 * judged on its decoded segments (route-match.ts), then the method, the id, the body's
 * announced size and CORS, and the request goes to its route's handler (`ROUTE_HANDLERS`,
 * one file per route under routes/), within the request's time budget. Hono carries the
 * middleware (the headers of every answer, CORS); nothing else routes.
 */
import type { Context as TraceContext } from '@opentelemetry/api';
import { Hono, type Context, type Next } from 'hono';
import { cors as corsMiddleware } from 'hono/cors';
import { CHECKOUT_ROUTES, CHECKOUT_ROUTE_NAMES, type CheckoutRouteName } from '../../schemas/checkout-routes.js';
import { requestPath } from '../http/runtime-seam.js';
import { declaredLength } from '../http/body.js';
import { checkoutRoute, countRead, observeStreams } from '../telemetry.js';
import type { ProxyContext } from './context.js';
import { Budget, toCheckoutError } from './failures.js';
import { CheckoutHttpError, announcesBody, baseHeaderPairs, baseHeaders, errorAnswer, errorAnswerOf, jsonAnswer } from '../http/answers.js';
import { UPLOAD_ROUTES, basePathSegments, matchCheckoutRoute } from './route-match.js';
import { ROUTE_HANDLERS } from './routes/index.js';

/** What the proxy's Hono app keeps per request: the route and invoice id its path guard matched. */
type ProxyEnv = { Variables: { match: { route: CheckoutRouteName; id: string } } };
type Middleware = (c: Context<ProxyEnv>, next: Next) => Promise<Response | void>;

/** An answer that closes the connection: the rest of an upload is not read. */
const closing = (request: Request, answer: (headers: Headers) => Response): Response => {
  void request.body?.cancel().catch(() => undefined);
  const headers = baseHeaders();
  headers.set('connection', 'close');
  return answer(headers);
};

/** CORS for the listed origins only (Hono's middleware), with the one method of each route. */
const corsByRoute = (proxy: ProxyContext): ReadonlyMap<CheckoutRouteName, Middleware> => {
  const { cors } = proxy.options;
  return new Map(
    CHECKOUT_ROUTE_NAMES.map((route) => [
      route,
      corsMiddleware({
        origin: (origin: string) => (proxy.allowedOrigins.has(origin) ? origin : null),
        allowMethods: [CHECKOUT_ROUTES[route].method],
        allowHeaders: ['Content-Type', ...(cors?.allowHeaders ?? [])],
        // `Date` is not a CORS-safelisted response header, and the element reads it.
        exposeHeaders: ['Date'],
        maxAge: cors?.maxAgeSeconds ?? 600,
        credentials: cors?.credentials ?? false,
      }) as Middleware,
    ]),
  );
};

/**
 * The router: `(request) => Promise<Response>`, serving exactly the routes of the table that
 * this proxy has enabled (a route's `enabled`, e.g. `events: false`).
 */
export const createRouter = (proxy: ProxyContext): ((request: Request) => Promise<Response>) => {
  const base = basePathSegments(proxy.options.basePath);
  const prefix = base.length ? `/${base.join('/')}` : '';
  const enabled = new Set(CHECKOUT_ROUTE_NAMES.filter((name) => ROUTE_HANDLERS[name].enabled?.(proxy) ?? true));
  const corsFor = corsByRoute(proxy);
  const cors = proxy.options.cors;
  const { maxBodyBytes, upload } = proxy;

  // The path is judged on its decoded segments before any route sees it (route-match.ts):
  // unknown → 404, malformed → 400, another method → 405 with Allow, a non-UUID id → 400.
  const guard = async (c: Context<ProxyEnv>, next: Next): Promise<Response | void> => {
    const request = c.req.raw;
    const match = matchCheckoutRoute(requestPath(request), base);
    if (match.kind === 'unknown' || (match.kind !== 'malformed' && !enabled.has(match.route)))
      return errorAnswer('not_found', 'no such checkout operation');
    if (match.kind === 'malformed') return errorAnswer('bad_request', match.message);
    const { method } = CHECKOUT_ROUTES[match.route];
    const origin = request.headers.get('origin');
    const corsAllowed = cors && origin !== null && proxy.allowedOrigins.has(origin);
    if (request.method === 'OPTIONS') {
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
      // Answered at once, the connection closed: the upload is not read.
      if (declaredLength(request) > upload.maxBytes) {
        return closing(request, (headers) =>
          errorAnswer('payload_too_large', `the upload exceeds ${upload.maxBytes} bytes`, headers, upload.maxBytes),
        );
      }
    } else if (declaredLength(request) > maxBodyBytes) {
      return errorAnswer('payload_too_large', `request body exceeds ${maxBodyBytes} bytes`, undefined, maxBodyBytes);
    }
    c.set('match', { route: match.route, id: match.id });
    if (corsAllowed) return corsFor.get(match.route)!(c, next);
    return next();
  };

  /**
   * Serves one route within the request's time budget; failures become checkout errors. An
   * upload route starts its budget again once the upload has arrived (`budget.restart()`), and
   * an error answer before its body was read to its end closes the connection: the rest of the
   * upload is not read.
   */
  const serveRoute = async (
    name: CheckoutRouteName,
    id: string,
    c: Context<ProxyEnv>,
    traceContext: TraceContext | undefined,
  ): Promise<Response> => {
    const request = c.req.raw;
    const budget = new Budget(proxy.timeoutMs, request.signal, traceContext);
    try {
      if (request.method === 'POST') proxy.checkSameSite(request);
      const answer = await ROUTE_HANDLERS[name].serve(proxy, { request, id, budget, c });
      return answer instanceof Response ? answer : jsonAnswer(200, answer, baseHeaders(), request);
    } catch (error) {
      const answer = toCheckoutError(error, budget.deadline);
      // A payer who went away is no failure worth a log line.
      if (!request.signal.aborted && (answer.status >= 500 || !(error instanceof CheckoutHttpError)))
        proxy.report(error, request, id || undefined);
      if (!UPLOAD_ROUTES.has(name) || budget.bodyRead) return errorAnswerOf(answer);
      return closing(request, (headers) => errorAnswerOf(answer, headers));
    } finally {
      budget.deadline.dispose();
    }
  };

  /** Each route's path under the mount: what traces and metrics name it by. */
  const templates = Object.fromEntries(CHECKOUT_ROUTE_NAMES.map((name) => [name, `${prefix}${CHECKOUT_ROUTES[name].path}`])) as Record<
    CheckoutRouteName,
    string
  >;
  let streamsObserved = false;
  const route = (c: Context<ProxyEnv>): Promise<Response> => {
    const { route: name, id } = c.get('match');
    if (!streamsObserved && proxy.events) {
      streamsObserved = true;
      const { events } = proxy;
      observeStreams(() => events.stats().streams);
    }
    if (name === 'invoice') countRead('poll');
    return checkoutRoute(templates[name], CHECKOUT_ROUTES[name].method, (traceContext) => serveRoute(name, id, c, traceContext));
  };

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
  app.use('*', guard);
  app.all('*', route);
  app.onError((error, c) => {
    proxy.report(error, c.req.raw);
    return errorAnswer('internal_error', 'internal error');
  });
  return async (request: Request): Promise<Response> => app.fetch(request);
};
