/**
 * `createNotificationHandler`: receives the service's invoice notifications, in the format its
 * documentation shows (`{ notificationType: "invoice", notificationDate, invoice }` whose invoice
 * carries one `deal`, with the invoice's `notificationToken` in `X-Notification-Token`), and
 * hands the merchant one normalized `Invoice` (the same type every client method answers)
 * together with the notification exactly as it arrived. The service retries any answer other
 * than 200 twice, 60 s apart, so the answer is 200 only once `onNotification` resolved.
 */
import { Hono } from 'hono';
import {
  InvoiceNotificationSchema,
  InvoiceSchema,
  NOTIFICATION_TOKEN_HEADER,
  TERMINAL_INVOICE_STATUSES,
  safeParse,
  type Invoice,
} from '../schemas/index.js';
import { createMemoryStore, DEFAULT_MEMORY_STORE_ENTRIES } from './store/memory.js';
import { isStale, markOf, type CheckoutStore } from './store/types.js';

/**
 * A notification exactly as it arrived (the parsed JSON body): the documented
 * `{ notificationType, notificationDate, invoice }`, or whatever else the service sends.
 */
export interface RawNotification {
  /** `invoice` today. */
  notificationType?: unknown;
  /** When the service made the notification (ISO 8601). */
  notificationDate?: unknown;
  /** The invoice as the service wrote it (one `deal`, not `deals`). */
  invoice?: unknown;
  [field: string]: unknown;
}
import { CheckoutHttpError, baseHeaders, errorAnswer, jsonAnswer, readBodyLimited, secretMatcher, secretsEqual } from './proxy-http.js';

/**
 * Where the presented token is read from: a request header (default
 * `{ header: 'X-Notification-Token' }`), a query parameter of the notification URL, a
 * dotted field of the JSON body (`'invoice.notificationToken'`), or a function.
 */
export type NotificationTokenSource =
  | {
      /** A request header's name, e.g. `X-Notification-Token`. */
      header: string;
    }
  | {
      /** A query parameter of the notification URL. */
      query: string;
    }
  | {
      /** A dotted field of the JSON body, e.g. `invoice.notificationToken`. */
      field: string;
    }
  | ((request: Request, body: unknown) => string | null | undefined);

/** What `createNotificationHandler` is given: the tokens, the handler, and limits. */
export interface NotificationHandlerOptions {
  /**
   * The `notificationToken` the invoices were created with: one string for all of them, a
   * list (several terminals or a token being rotated: any of them passes), or a function
   * answering the token of one invoice (per-invoice or per-store tokens, e.g. by
   * `invoice.storeId`; nothing → 401).
   */
  token: string | readonly string[] | ((invoice: Invoice, request: Request) => string | null | undefined | Promise<string | null | undefined>);
  /**
   * Called with every authentic notification: the invoice, normalized (`deals` is a list, even
   * though a notification carries one `deal`; timestamps are RFC 3339), and the notification
   * as it arrived (null when the body was a bare invoice). The answer is 200 only once it
   * resolves; if it throws, the answer is 500 so that the service delivers it again. Credit
   * idempotently, keyed by the invoice id: a notification may come more than once (see `dedupe`).
   */
  onNotification: (invoice: Invoice, notification: RawNotification | null, request: Request) => void | Promise<void>;
  /** Where the token is read from (default: the `X-Notification-Token` header). */
  tokenFrom?: NotificationTokenSource;
  /** Largest body accepted, in bytes (default 1 MiB). → 413 */
  maxBodyBytes?: number;
  /** How long the body may take to arrive, in ms (default 10 000); a slower one is answered 408. */
  bodyTimeoutMs?: number;
  /**
   * How many handled notifications to remember so
   * that a repeat is answered 200 without calling `onNotification` again; a repeat that
   * arrives while the first is still being handled waits for it. `false` turns this off.
   * The number sizes the default memory store only; a `store` given keeps its own. Default 1000.
   */
  dedupe?: number | false;
  /**
   * Where handled notifications and each invoice's last state are kept (see `createMemoryStore`,
   * `createRedisStore`). Give the proxy (`createCheckoutHandler`) the SAME store, so that its
   * event streams hear every notification at once. With a Redis store, `onNotification` runs
   * once per notification across all instances, and while Redis is away every notification is
   * answered 500 (the service delivers it again). Default: a memory store of this handler's own.
   */
  store?: CheckoutStore;
  /**
   * How long `onNotification` may take, in milliseconds (default 10 000). Past it the answer is
   * 500, so the service delivers again, and a later delivery of the same notification runs
   * `onNotification` anew instead of waiting for the hung one.
   */
  handlerTimeoutMs?: number;
  /** Told about every failure of `onNotification` and of `token` (the service only sees a 500). */
  onError?: (error: unknown, request: Request) => void;
}

const DEFAULT_DEDUPE_ENTRIES = 1000;
const DEFAULT_HANDLER_TIMEOUT_MS = 10_000;

/** `onNotification` did not settle within `handlerTimeoutMs`. */
export class NotificationTimeoutError extends Error {
  override name = 'NotificationTimeoutError';
}

/** How much longer than `handlerTimeoutMs` a claim is held (a store's clock and its round trips). */
const CLAIM_MARGIN_MS = 5_000;

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

const parseNotification = (body: unknown): { invoice: Invoice; notification: RawNotification | null } | string => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body must be a JSON object';
  if (Object.hasOwn(body, 'invoice')) {
    const parsed = safeParse(InvoiceNotificationSchema, body);
    return parsed.success ? { invoice: parsed.data.invoice, notification: body as RawNotification } : parsed.message;
  }
  const parsed = safeParse(InvoiceSchema, body);
  return parsed.success ? { invoice: parsed.data, notification: null } : parsed.message;
};

/**
 * What makes two notifications "the same": a terminal status happens once per invoice (the
 * service has been seen to repeat `paid` with other timestamps); any other state is the
 * status, the deal's status and `updatedAt`.
 */
const notificationKey = (invoice: Invoice): string =>
  TERMINAL_INVOICE_STATUSES.includes(invoice.status)
    ? `${invoice.id}\n${invoice.status}`
    : [invoice.id, invoice.status, invoice.deals.map((deal) => deal.status).join(','), invoice.updatedAt ?? ''].join('\n');

/**
 * Creates the receiver of status notifications: `(request: Request) => Promise<Response>`.
 * `POST` only (405 otherwise); a wrong or missing token is 401 (compared in constant time,
 * before the body is validated when the token does not depend on it); a malformed body 400;
 * then `onNotification`, and 200 `{"ok":true}` once it resolved, 500 if it failed.
 */
export const createNotificationHandler = (options: NotificationHandlerOptions): ((request: Request) => Promise<Response>) => {
  const { token, onNotification, onError } = options ?? ({} as NotificationHandlerOptions);
  const tokens = typeof token === 'string' ? [token] : Array.isArray(token) ? (token as readonly unknown[]) : undefined;
  if (!(typeof token === 'function' || (tokens && tokens.length > 0 && tokens.every((one) => typeof one === 'string' && one !== '')))) {
    throw new TypeError('createNotificationHandler: token must be a non-empty string, a list of them, or a function');
  }
  if (typeof onNotification !== 'function') throw new TypeError('createNotificationHandler: onNotification must be a function');
  const source = options.tokenFrom ?? { header: NOTIFICATION_TOKEN_HEADER };
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const dedupeEntries = options.dedupe === false ? 0 : (options.dedupe ?? DEFAULT_DEDUPE_ENTRIES);
  const matchers = tokens?.map((one) => secretMatcher(one as string));
  /** Every token is compared (no early exit), so the time taken says nothing about which matched. */
  const matchesToken = matchers
    ? async (presented: string | null) => (await Promise.all(matchers.map((matches) => matches(presented)))).includes(true)
    : undefined;
  const handlerTimeoutMs = options.handlerTimeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS;
  if (!(handlerTimeoutMs > 0 && Number.isFinite(handlerTimeoutMs))) {
    throw new TypeError('createNotificationHandler: handlerTimeoutMs must be a positive number of milliseconds');
  }
  const store = options.store ?? createMemoryStore({ maxEntries: Math.max(1, dedupeEntries || DEFAULT_MEMORY_STORE_ENTRIES) });

  /** `work`, or a {@link NotificationTimeoutError} once `handlerTimeoutMs` passed. */
  const limited = (work: Promise<void>): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new NotificationTimeoutError(`onNotification took longer than ${handlerTimeoutMs} ms`)), handlerTimeoutMs);
      work.then(resolve, reject).finally(() => clearTimeout(timer));
    });

  const report = (error: unknown, request: Request) => {
    try {
      onError?.(error, request);
    } catch {
      // A failing logger must not change the answer.
    }
  };

  /**
   * Runs `onNotification` once per key across everything that shares the store, within
   * `handlerTimeoutMs`. The state is recorded (and reaches the proxy's event streams) before
   * the handler runs; the claim is settled as handled only once the handler resolved, so a
   * failure, a timeout or a store that went away answers 500 and the service delivers again.
   */
  const deliver = async (key: string, invoice: Invoice, run: () => Promise<void>): Promise<void> => {
    if (dedupeEntries === 0) {
      await store.record({ invoice, source: 'notification' });
      return limited(run());
    }
    const claim = await store.claimNotification(key, handlerTimeoutMs + CLAIM_MARGIN_MS);
    if (claim.state === 'handled') return;
    if (claim.state === 'busy') {
      if ((await claim.outcome(handlerTimeoutMs + CLAIM_MARGIN_MS)) === 'handled') return;
      throw new Error('another delivery of the same notification failed or is still being handled');
    }
    const release = () => claim.settle('failed').catch(() => undefined);
    try {
      await store.record({ invoice, source: 'notification' });
    } catch (error) {
      await release();
      throw error;
    }
    let timedOut = false;
    const running = run();
    // A run cut by the timeout may still succeed later: remember it then (its failure was told to `onError` already).
    running.then(
      () => (timedOut ? void claim.settle('handled').catch(() => undefined) : undefined),
      () => undefined,
    );
    try {
      await limited(running);
    } catch (error) {
      timedOut = error instanceof NotificationTimeoutError;
      await release();
      throw error;
    }
    await claim.settle('handled');
  };

  const unauthorized = () => new CheckoutHttpError('unauthorized', 'missing or wrong notification token');

  const receive = async (request: Request): Promise<Response> => {
    const text = await readBodyLimited(request, maxBodyBytes, options.bodyTimeoutMs);
    let body: unknown;
    let json = true;
    try {
      body = JSON.parse(text);
    } catch {
      json = false;
    }
    const presented = presentedToken(source, request, body);
    // With fixed tokens, authenticate before saying anything about the body.
    if (matchesToken && !(await matchesToken(presented))) throw unauthorized();
    if (!json) throw new CheckoutHttpError('bad_request', 'the body is not JSON');
    const parsed = parseNotification(body);
    if (typeof parsed === 'string') throw new CheckoutHttpError('bad_request', `invalid notification: ${parsed}`);
    const { invoice, notification } = parsed;
    if (typeof token === 'function') {
      const expected = await token(invoice, request);
      if (typeof expected !== 'string' || expected === '' || !(await secretsEqual(expected, presented))) throw unauthorized();
    }
    if (isStale(markOf(invoice), await store.lastSeen(invoice.id))) return jsonAnswer(200, { ok: true, ignored: 'older than the state already handled' });
    await deliver(notificationKey(invoice), invoice, async () => {
      await onNotification(invoice, notification, request);
    });
    return jsonAnswer(200, { ok: true });
  };

  // Mounted at whatever path the merchant gave the service as `notificationUrl`: every path is this one route.
  const app = new Hono();
  app.post('*', (c) => receive(c.req.raw));
  app.all('*', () => {
    const headers = baseHeaders();
    headers.set('allow', 'POST');
    return errorAnswer('method_not_allowed', 'use POST', headers);
  });
  app.onError((error, c) => {
    if (error instanceof CheckoutHttpError && error.status < 500) return errorAnswer(error.code, error.message);
    report(error, c.req.raw);
    return errorAnswer('internal_error', 'the notification could not be handled');
  });

  return async (request: Request): Promise<Response> => app.fetch(request);
};
