/**
 * One API request from arrival to answer: logged, delayed or broken by faults, matched to its
 * route, its body read with the route's cap (JSON small, multipart up to the upload limit),
 * its signature checked (`verifySignature`: METHOD + URL with query + JSON body, the URL only
 * for GET, body-less and multipart requests), then handled; errors in the configured shape.
 * Imports api, public-api, routes, faults, http, errors, records and the shared signing.
 */
import { verifySignature } from '../server/signing.js';
import { MERCHANT_ROUTES, type ApiEnv } from './api.js';
import { MockControlError } from './errors.js';
import type { Faults } from './faults.js';
import { errorResponse, mediaType, parseJson, parseMultipart, readBytes, type FormPart } from './http.js';
import { PUBLIC_ROUTES } from './public-api.js';
import type { MerchantRecord } from './records.js';
import { matchRoute, type Route, type Signing } from './routes.js';

export interface MockRequestRecord {
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
  log: MockRequestRecord[];
}

export const MERCHANT_PREFIX = '/api/merchant';
export const PUBLIC_PREFIX = '/api/public';

const authenticate = async (o: PipelineOptions, request: Request, url: string, body: string): Promise<MerchantRecord> => {
  const identity = request.headers.get('x-identity');
  const merchant = identity ? o.merchants.get(identity) : undefined;
  const signed = { method: request.method, url, body: mediaType(request) === 'application/json' && body !== '' ? body : undefined };
  // Verify against a throwaway key for an unknown identity too, so both take the same time.
  const valid = await verifySignature(signed, request.headers.get('x-signature'), merchant?.secretKey ?? `unknown:${identity}`);
  if (!merchant || !valid) throw new MockControlError(401, 'unauthorized', 'Unauthorized');
  return merchant;
};

const readBody = async (o: PipelineOptions, request: Request, signing: Signing): Promise<{ text: string; form: FormPart[] }> => {
  if (signing === 'multipart') {
    const bytes = await readBytes(request, o.maxMultipartBytes);
    if (bytes.byteLength === 0) return { text: '', form: [] };
    if (mediaType(request) !== 'multipart/form-data') throw new MockControlError(415, 'unsupported_media_type', 'Content-Type must be multipart/form-data');
    return { text: '', form: await parseMultipart(bytes, request.headers.get('content-type') ?? '') };
  }
  return { text: new TextDecoder().decode(await readBytes(request, o.maxBodyBytes)), form: [] };
};

const jsonOf = (request: Request, text: string) => (): unknown => {
  if (mediaType(request) !== 'application/json') throw new MockControlError(415, 'unsupported_media_type', 'Content-Type must be application/json');
  return parseJson(text);
};

/** Answers one request under `/api/merchant` or `/api/public`; `apiPath` starts with the prefix. */
export const serveApi = async (o: PipelineOptions, request: Request, apiPath: string, search: string): Promise<Response> => {
  const record: MockRequestRecord = {
    method: request.method.toUpperCase(),
    path: apiPath,
    query: search,
    headers: Object.fromEntries(request.headers),
    body: '',
    status: 0,
  };
  o.log.push(record);
  const answer = (response: Response): Response => {
    record.status = response.status;
    return response;
  };
  const faulty = await o.faults.before(request, o.errorFormat);
  if (faulty) return answer(faulty);
  try {
    const isPublic = apiPath.startsWith(PUBLIC_PREFIX);
    const routes = (isPublic ? PUBLIC_ROUTES : MERCHANT_ROUTES) as readonly Route<unknown>[];
    const { route, params } = matchRoute(routes, record.method, apiPath.slice((isPublic ? PUBLIC_PREFIX : MERCHANT_PREFIX).length));
    const { text, form } = await readBody(o, request, route.signing);
    record.body = route.signing === 'multipart' ? { parts: form } : text;
    const base = { env: o.env, query: new URLSearchParams(search), json: jsonOf(request, text), form };
    if (isPublic) {
      const apiKey = request.headers.get('x-identity');
      const merchant = apiKey ? o.merchants.get(apiKey) : undefined;
      return answer(await route.handle({ ...base, identity: apiKey && merchant ? { apiKey, merchant } : null }, params));
    }
    const merchant = await authenticate(o, request, `${o.publicBaseUrl}${apiPath}${search}`, text);
    return answer(await route.handle({ ...base, merchant, apiKey: merchant.apiKey }, params));
  } catch (error) {
    if (error instanceof MockControlError) return answer(errorResponse(error, o.errorFormat));
    throw error;
  }
};
