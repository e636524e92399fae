/**
 * `createNotificationHandler`: receives the service's invoice status notifications.
 *
 * ASSUMPTION (see `src/schemas/notification.ts`): the reference shows neither the format nor
 * how the token travels. The default is the format the mock sends, a JSON
 * `{ event, invoice, previousStatus, sentAt }` (a bare InvoiceDTO is accepted too) with the
 * invoice's `notificationToken` in `X-Notification-Token`; where the token is read from is a
 * setting.
 */
import {
  InvoiceLookupSchema,
  InvoiceNotificationSchema,
  NOTIFICATION_TOKEN_HEADER,
  safeParse,
  type InvoiceLookup,
  type InvoiceNotification,
} from '../schemas/index.js';
import { CheckoutHttpError, baseHeaders, errorAnswer, jsonAnswer, readBodyLimited, secretMatcher, secretsEqual } from './proxy-http.js';

/**
 * Where the presented token is read from: a request header (default
 * `{ header: 'X-Notification-Token' }`), a query parameter of the notification URL, a
 * dotted field of the JSON body (`'invoice.notificationToken'`), or a function.
 */
export type NotificationTokenSource =
  | { header: string }
  | { query: string }
  | { field: string }
  | ((request: Request, body: unknown) => string | null | undefined);

export interface NotificationHandlerOptions {
  /**
   * The `notificationToken` the invoices were created with: one string for all of them, or a
   * function answering the token of one invoice (per-invoice tokens; nothing → 401).
   */
  token: string | ((invoice: InvoiceLookup, request: Request) => string | null | undefined | Promise<string | null | undefined>);
  /**
   * Called with the invoice of every authentic notification, and the whole notification (null
   * when the body was a bare InvoiceDTO). The answer is 2xx only once it resolves; if it
   * throws, the answer is 500 so that the service delivers it again. Make it idempotent: a
   * notification may come more than once (see `dedupe`).
   */
  onNotification: (invoice: InvoiceLookup, notification: InvoiceNotification | null, request: Request) => void | Promise<void>;
  /** Where the token is read from (default: the `X-Notification-Token` header). */
  tokenFrom?: NotificationTokenSource;
  /** Largest body accepted, in bytes (default 1 MiB). → 413 */
  maxBodyBytes?: number;
  /**
   * How many handled notifications (invoice id + status + `updatedAt` + event) to remember so
   * that a repeat is answered 200 without calling `onNotification` again; a repeat that
   * arrives while the first is still being handled waits for it. `false` turns this off.
   * Memory only: across restarts or processes `onNotification` still sees repeats. Default 1000.
   */
  dedupe?: number | false;
  /** Told about every failure of `onNotification` and of `token` (the service only sees a 500). */
  onError?: (error: unknown, request: Request) => void;
}

const DEFAULT_DEDUPE_ENTRIES = 1000;
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

const readField = (body: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>(
    (value, key) =>
      typeof value === 'object' && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined,
    body,
  );

const presentedToken = (source: NotificationTokenSource, request: Request, body: unknown): string | null => {
  let value: unknown;
  if (typeof source === 'function') value = source(request, body);
  else if ('header' in source) value = request.headers.get(source.header);
  else if ('query' in source) value = new URL(request.url).searchParams.get(source.query);
  else value = readField(body, source.field);
  return typeof value === 'string' && value !== '' ? value : null;
};

const parseNotification = (body: unknown): { invoice: InvoiceLookup; notification: InvoiceNotification | null } | string => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body must be a JSON object';
  if (Object.hasOwn(body, 'invoice')) {
    const parsed = safeParse(InvoiceNotificationSchema, body);
    return parsed.success ? { invoice: parsed.data.invoice, notification: parsed.data } : parsed.message;
  }
  const parsed = safeParse(InvoiceLookupSchema, body);
  return parsed.success ? { invoice: parsed.data, notification: null } : parsed.message;
};

/**
 * Creates the receiver of status notifications: `(request: Request) => Promise<Response>`.
 * `POST` only (405 otherwise); a wrong or missing token is 401 (compared in constant time,
 * before the body is validated when the token does not depend on it); a malformed body 400;
 * then `onNotification`, and 200 `{"ok":true}` once it resolved, 500 if it failed.
 */
export const createNotificationHandler = (options: NotificationHandlerOptions): ((request: Request) => Promise<Response>) => {
  const { token, onNotification, onError } = options ?? ({} as NotificationHandlerOptions);
  if (!(typeof token === 'function' || (typeof token === 'string' && token !== ''))) {
    throw new TypeError('createNotificationHandler: token must be a non-empty string or a function');
  }
  if (typeof onNotification !== 'function') throw new TypeError('createNotificationHandler: onNotification must be a function');
  const source = options.tokenFrom ?? { header: NOTIFICATION_TOKEN_HEADER };
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const dedupeEntries = options.dedupe === false ? 0 : (options.dedupe ?? DEFAULT_DEDUPE_ENTRIES);
  const matchesToken = typeof token === 'string' ? secretMatcher(token) : undefined;
  const handled = new Set<string>();
  const inFlight = new Map<string, Promise<void>>();

  const report = (error: unknown, request: Request) => {
    try {
      onError?.(error, request);
    } catch {
      // A failing logger must not change the answer.
    }
  };

  const remember = (key: string) => {
    handled.add(key);
    if (handled.size > dedupeEntries) handled.delete(handled.values().next().value as string);
  };

  /** Runs `onNotification` once per key at a time; a success is remembered. */
  const deliver = (key: string, run: () => Promise<void>): Promise<void> => {
    if (dedupeEntries === 0) return run();
    if (handled.has(key)) return Promise.resolve();
    let pending = inFlight.get(key);
    if (!pending) {
      pending = run()
        .then(() => remember(key))
        .finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return pending;
  };

  const unauthorized = () => new CheckoutHttpError('unauthorized', 'missing or wrong notification token');

  const handle = async (request: Request): Promise<Response> => {
    if (request.method !== 'POST') {
      const headers = baseHeaders();
      headers.set('allow', 'POST');
      return errorAnswer('method_not_allowed', 'use POST', headers);
    }
    const text = await readBodyLimited(request, maxBodyBytes);
    let body: unknown;
    let json = true;
    try {
      body = JSON.parse(text);
    } catch {
      json = false;
    }
    const presented = presentedToken(source, request, body);
    // With one token for all invoices, authenticate before saying anything about the body.
    if (matchesToken && !(await matchesToken(presented))) throw unauthorized();
    if (!json) throw new CheckoutHttpError('bad_request', 'the body is not JSON');
    const parsed = parseNotification(body);
    if (typeof parsed === 'string') throw new CheckoutHttpError('bad_request', `invalid notification: ${parsed}`);
    const { invoice, notification } = parsed;
    if (typeof token === 'function') {
      const expected = await token(invoice, request);
      if (typeof expected !== 'string' || expected === '' || !(await secretsEqual(expected, presented))) throw unauthorized();
    }
    const key = [invoice.id, invoice.status, invoice.updatedAt, notification?.event ?? ''].join('\n');
    await deliver(key, async () => onNotification(invoice, notification, request));
    return jsonAnswer(200, { ok: true });
  };

  return async (request: Request): Promise<Response> => {
    try {
      return await handle(request);
    } catch (error) {
      if (error instanceof CheckoutHttpError && error.status < 500) return errorAnswer(error.code, error.message);
      report(error, request);
      return errorAnswer('internal_error', 'the notification could not be handled');
    }
  };
};
