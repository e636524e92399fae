/**
 * The APIs on Hono: the merchant and public rows registered under their prefixes, with the
 * middleware every API request passes, in this order: the request log, faults (latency,
 * fail, hang, malform), then per row the body read with the row's cap and deadline (JSON
 * small, multipart up to the upload limit), the signature (`verifySignature`: METHOD + URL
 * with query + JSON body, the URL only for GET, body-less and multipart requests; merchant
 * rows only), and the handler. Errors are thrown as `MockControlError`s for `onError`.
 * Imports api, public-api, routes, faults, http, errors, records and the shared signing.
 */
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { MERCHANT_API_PREFIX, PUBLIC_API_PREFIX, type Signing } from '../schemas/operations.js';
import { signingFor } from '../server/client/signing.js';
import { nodePlatform } from '../server/node/platform.js';
import { MERCHANT_ROUTES, type ApiEnv } from './api.js';
import { MockControlError } from './errors.js';
import type { Faults } from './faults.js';
import { mediaType, parseJson, readBody, type FormPart, type RequestBody } from './http.js';
import { PUBLIC_ROUTES } from './public-api.js';
import type { MerchantRecord } from './records.js';

/** The service's check of a signature, with Node's HMAC (the mock runs on Node). */
const { verifySignature } = signingFor(nodePlatform);
import { honoPath, refuseOtherMethods } from './routes.js';

/** One API request the mock received, as {@link MockService.requests} lists it. */
export interface MockRequestRecord {
  /** The HTTP method. */
  method: string;
  /** From `/api/merchant` (or `/api/public`) on, without the query. */
  path: string;
  /** The query string with its `?`, or empty. */
  query: string;
  /** Every header as received, the signature included. */
  headers: Record<string, string>;
  /** The body as text; for multipart a summary of the parts (files by name, type and size). */
  body: string | { parts: FormPart[] };
  /** The status answered; 0 while unanswered (a hanging request). */
  status: number;
}

export interface PipelineOptions {
  env: ApiEnv;
  merchants: Map<string, MerchantRecord>;
  publicBaseUrl: string;
  faults: Faults;
  errorFormat: 'documented' | 'legacy';
  maxBodyBytes: number;
  maxMultipartBytes: number;
  /** How long a request body may take to arrive once reading starts. */
  bodyTimeoutMs: number;
  log: MockRequestRecord[];
}

/** What the middleware hands on to the next one. */
export interface MockEnv {
  Variables: { record: MockRequestRecord; body: RequestBody; merchant: MerchantRecord };
}

type Middleware = MiddlewareHandler<MockEnv>;

export const MERCHANT_PREFIX = MERCHANT_API_PREFIX;
export const PUBLIC_PREFIX = PUBLIC_API_PREFIX;

const logRequest =
  (o: PipelineOptions): Middleware =>
  async (c, next) => {
    const record: MockRequestRecord = {
      method: c.req.method.toUpperCase(),
      path: c.req.path,
      query: new URL(c.req.url).search,
      headers: Object.fromEntries(c.req.raw.headers),
      body: '',
      status: 0,
    };
    o.log.push(record);
    c.set('record', record);
    await next();
    record.status = c.res.status;
  };

const injectFaults =
  (o: PipelineOptions): Middleware =>
  async (c, next) => {
    const faulty = await o.faults.before(c.req.raw, o.errorFormat);
    if (faulty) return faulty;
    await next();
  };

const readRowBody =
  (o: PipelineOptions, signing: Signing): Middleware =>
  async (c, next) => {
    const form = signing === 'multipart';
    const body = await readBody(c.req.raw, { limit: form ? o.maxMultipartBytes : o.maxBodyBytes, timeoutMs: o.bodyTimeoutMs, form });
    c.get('record').body = form ? { parts: body.form } : body.text;
    c.set('body', body);
    await next();
  };

const checkSignature =
  (o: PipelineOptions): Middleware =>
  async (c, next) => {
    const request = c.req.raw;
    const identity = request.headers.get('x-identity');
    const merchant = identity ? o.merchants.get(identity) : undefined;
    const { text } = c.get('body');
    const url = `${o.publicBaseUrl}${c.req.path}${c.get('record').query}`;
    const signed = { method: request.method, url, body: mediaType(request) === 'application/json' && text !== '' ? text : undefined };
    // Verify against a throwaway key for an unknown identity too, so both take the same time.
    const valid = await verifySignature(signed, request.headers.get('x-signature'), merchant?.secretKey ?? `unknown:${identity}`);
    if (!merchant || !valid) throw new MockControlError(401, 'unauthorized', 'Unauthorized');
    c.set('merchant', merchant);
    await next();
  };

/** What every handler gets besides the caller: the query and the body, JSON parsed on demand. */
const requestParts = (o: PipelineOptions, c: Context<MockEnv>) => {
  const { text, form } = c.get('body');
  const json = (): unknown => {
    if (mediaType(c.req.raw) !== 'application/json')
      throw new MockControlError(415, 'unsupported_media_type', 'Content-Type must be application/json');
    return parseJson(text);
  };
  return { env: o.env, query: new URLSearchParams(c.get('record').query), json, form };
};

/** Registers the merchant API and the public API on `app`, each row with its middleware. */
export const registerApi = (app: Hono<MockEnv>, o: PipelineOptions): void => {
  for (const prefix of [MERCHANT_PREFIX, PUBLIC_PREFIX]) app.use(`${prefix}/*`, logRequest(o), injectFaults(o));
  for (const route of MERCHANT_ROUTES) {
    app.on(route.method, MERCHANT_PREFIX + honoPath(route.path), readRowBody(o, route.signing), checkSignature(o), (c) => {
      const merchant = c.get('merchant');
      return route.handle({ ...requestParts(o, c), merchant, apiKey: merchant.apiKey }, c.req.param());
    });
  }
  for (const route of PUBLIC_ROUTES) {
    app.on(route.method, PUBLIC_PREFIX + honoPath(route.path), readRowBody(o, route.signing), (c) => {
      const apiKey = c.req.header('x-identity');
      const merchant = apiKey ? o.merchants.get(apiKey) : undefined;
      return route.handle({ ...requestParts(o, c), identity: apiKey && merchant ? { apiKey, merchant } : null }, c.req.param());
    });
  }
  const rows = [
    ...MERCHANT_ROUTES.map(({ method, path }) => ({ method, path: MERCHANT_PREFIX + honoPath(path) })),
    ...PUBLIC_ROUTES.map(({ method, path }) => ({ method, path: PUBLIC_PREFIX + honoPath(path) })),
  ];
  refuseOtherMethods(app, rows, (allowed) => `Method not allowed; use ${allowed}`);
};
