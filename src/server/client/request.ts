/**
 * Requests as they will be signed and sent: an operation's row and the caller's input, or a
 * raw path of `MerchantClient.request`, made into one {@link Call}. Everything is checked
 * here, before anything is signed: the body against the row's schema, each path parameter and
 * the raw path (no lone surrogate, no `.` or `..` segment, nothing outside the merchant API).
 */
import type * as z from 'zod/mini';
import { MERCHANT_API_PREFIX, OPERATIONS, safeParse, type OperationName, type OperationRow, type Signing } from '../../schemas/index.js';
import { MerchantValidationError } from './errors.js';
import type { RawRequestBody, SharedReadOptions } from './options.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One request, ready to be signed and sent. */
export interface Call {
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
  /** Undefined for a raw request: the answer is returned as parsed. */
  answer?: z.ZodMiniType | undefined;
  answerType: OperationRow['answerType'];
  options?: SharedReadOptions | undefined;
}

/** What a client method hands its row: path parameters, query parameters, the body. */
export interface Input {
  params?: Record<string, unknown>;
  /** Each query parameter: left out when undefined, else a non-empty string. */
  query?: Record<string, unknown>;
  body?: unknown;
}

/** The template traces give raw paths. */
export const RAW_TEMPLATE = `${MERCHANT_API_PREFIX}/*`;

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

/** One path parameter, percent-encoded whole: `/`, `?`, `#`, `%` and spaces stay inside it. */
const segment = (operation: string, field: string, value: unknown): string => {
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
};

const validate = (operation: string, schema: z.ZodMiniType, value: unknown): unknown => {
  const result = safeParse(schema, value);
  if (!result.success) throw new MerchantValidationError(operation, result.issues);
  return result.data;
};

/** A `Blob` as a `File` (the form schema checks files); anything else is left for the schema to refuse. */
export const asFile = (value: unknown): unknown =>
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

/** One operation of {@link OPERATIONS} as a call: its URL built and its body validated. */
export const operationCall = (baseUrl: string, name: OperationName, input: Input, options: SharedReadOptions | undefined): Call => {
  const row: OperationRow = OPERATIONS[name];
  const path = row.path.replace(/\{(\w+)\}/g, (_, key: string) => segment(name, key, input.params?.[key]));
  const url = new URL(`${baseUrl}${path}`);
  for (const key of row.query ?? []) {
    const value = input.query?.[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value === '') {
      throw new MerchantValidationError(name, [{ field: key, message: 'must be a non-empty string when given' }]);
    }
    refuseLoneSurrogate(name, key, value);
    url.searchParams.set(key, value);
  }
  let body: string | FormData | undefined;
  if (row.request && row.signing === 'json') body = JSON.stringify(validate(name, row.request, input.body));
  if (row.request && row.signing === 'multipart') body = toFormData(validate(name, row.request, input.body) as Record<string, unknown>);
  return {
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
  };
};

/** A raw path of the merchant API as a call (see `MerchantClient.request`), refused when it could leave the API. */
export const rawCall = (
  baseUrl: string,
  method: Method,
  path: string,
  body: RawRequestBody,
  options: SharedReadOptions | undefined,
): Call => {
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
    throw new MerchantValidationError(operation, [
      { field: 'path', message: 'must be an absolute path under /api/merchant, e.g. "/accounts"' },
    ]);
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
  const href = new URL(`${baseUrl}${MERCHANT_API_PREFIX}${relative}`).href;
  const signing: Signing = encoded instanceof FormData ? 'multipart' : typeof encoded === 'string' ? 'json' : 'url';
  return { operation, method, template: RAW_TEMPLATE, href, body: encoded, signing, answerType: 'application/json', options };
};
