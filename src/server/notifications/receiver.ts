/**
 * The receiver of the service's invoice notifications (see docs/ARCHITECTURE.md,
 * "The merchant's books"). A notification is a hint, never the truth: the service authenticates it with a
 * static token and no signature, gives up after three tries in two minutes, and repeats
 * `paid` with corrected amounts. So the receiver
 *
 * 1. authenticates the token (constant time) and reads the invoice id, and nothing else it
 *    does not need: a body is refused only for a wrong token or when no invoice id can be read;
 * 2. tracks the invoice for the reconciler (so nothing is lost if everything after fails);
 * 3. reads the invoice from the service (signed, through its terminal, single flight with the
 *    proxy's reads) and takes THAT state to the merchant's books, which tell the shop of a
 *    change once (`onChange`);
 * 4. answers 200 only once the books have it; 409 `unconfirmed` when the service does not show
 *    what the notification says (a forged `paid`, or one that came early: the service delivers
 *    it again), 5xx when the service or the shop's handler failed.
 *
 * With `verify: false` the notification's own word is taken (documented with its risk).
 */
import { Hono } from 'hono';
import { requireRuntime } from '../http/platform.js';
import { errorContext, tellError, type CheckoutErrorHandler } from '../http/error-context.js';
import {
  InvoiceSchema,
  NOTIFICATION_TOKEN_HEADER,
  NotifiedInvoiceSchema,
  UUID_PATTERN,
  safeParse,
  type Invoice,
  type NotifiedInvoice,
} from '../../schemas/index.js';
import type { MerchantClient } from '../client/merchant-client.js';
import { MerchantApiError, MerchantTimeoutError } from '../client/errors.js';
import { createCore, type KitCore } from '../books/core.js';
import { contradictions, snapshotOf, type FieldChange, type InvoiceSnapshot, type SnapshotClaim } from '../store/snapshot.js';
import type { ApplyOutcome, InvoiceChange } from '../books/ledger.js';
import { STORE_OPTION, createMemoryStore } from '../store/memory.js';
import { clientsOf } from '../client/clients.js';
import { CLIENT_OPTION } from '../client/options.js';
import { checkOptions, type OptionShapeOf } from '../options-check.js';
import type { CheckoutStore } from '../store/types.js';
import {
  CheckoutHttpError,
  baseHeaders,
  errorAnswer,
  errorAnswerOf,
  jsonAnswer,
  readBodyLimited,
  secretMatcher,
  secretsEqual,
} from '../http/answers.js';
import type { Context as TraceContext } from '@opentelemetry/api';
import { notificationSpan, type NotificationOutcome } from '../telemetry.js';
import type { RawNotification } from '../books/raw-notification.js';

export type { RawNotification } from '../books/raw-notification.js';

type Outcome = (value: NotificationOutcome, kind?: string) => void;
/** One notification being handled: its request, where its outcome goes, its span (the parent of the reads it makes). */
interface Handling {
  request: Request;
  outcome: Outcome;
  traceContext: TraceContext | undefined;
  /** The invoice the body names, once read (for `onError`). */
  invoiceId?: string;
}

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

/** A notification the service did not confirm: told to `onUnconfirmed`; nothing of it was credited. */
export interface UnconfirmedNotification {
  /** The invoice id the notification named. */
  invoiceId: string;
  /** `not_found`: no terminal knows the invoice; `differs`: the service shows the invoice otherwise. */
  reason: 'not_found' | 'differs';
  /** What the notification said, as far as it could be read (null: a field it did not state readably). */
  claimed: SnapshotClaim;
  /** What the service shows (null when it does not know the invoice). */
  actual: InvoiceSnapshot | null;
  /** Each field the notification states otherwise than the service (`from`: the service's, `to`: the notification's). */
  contradictions: FieldChange[];
  /** The notification exactly as it arrived. */
  notification: RawNotification;
  /** The request it came in (its headers, for a log). */
  request: Request;
}

/**
 * What the receiver tells the kit's journal of each notification (src/server/journal/): the
 * invoice it named, whether its token was accepted, and the verdict with its reason. Never the
 * token, nor the body.
 * @internal
 */
export type NotificationNote = (
  invoiceId: string,
  details: {
    tokenCheck: 'accepted' | 'wrong';
    verdict: 'verified' | 'refused' | 'unconfirmed' | 'taken_unverified' | 'not_checked';
    reason?: string | undefined;
    claimedStatus?: string | null | undefined;
    outcome?: string | undefined;
  },
) => void;

/** The receiver's own options, the same in the kit (`createCheckoutServer`'s `notifications`) and alone. */
export interface NotificationReceiverOptions {
  /**
   * The `notificationToken` the invoices were created with: one string for all of them, a
   * list (several terminals or a token being rotated: any of them passes), or a function
   * answering the token of one invoice (per-invoice or per-store tokens, e.g. by
   * `invoice.storeId`; nothing → 401).
   */
  token:
    | string
    | readonly string[]
    | ((invoice: NotifiedInvoice, request: Request) => string | null | undefined | Promise<string | null | undefined>);
  /** Where the token is read from (default: the `X-Notification-Token` header). */
  tokenFrom?: NotificationTokenSource;
  /**
   * Read the invoice from the service before anything is believed (default true). With
   * `false`, a notification's own word is taken: anyone who learns the token (it travels in
   * every notification, unsigned) can then post `paid` for any invoice, and it is handed to
   * `onChange` as `verified: false`. Turn it off only where the service cannot be reached.
   */
  verify?: boolean;
  /** Told of every notification the service does not confirm (see {@link UnconfirmedNotification}): a forged one, or an early one. */
  onUnconfirmed?: (notification: UnconfirmedNotification) => void;
  /** Largest body accepted, in bytes (default 1 MiB). → 413 */
  maxBodyBytes?: number;
  /** How long the body may take to arrive, in ms (default 10 000); a slower one is answered 408. */
  bodyTimeoutMs?: number;
}

/**
 * The keys of the receiver's options (options-check.ts). `tokenFrom` is one of `{ header }`,
 * `{ query }`, `{ field }` or a function: its keys are checked as one object.
 */
export const NOTIFICATION_RECEIVER_OPTIONS = {
  token: true,
  tokenFrom: { header: true, query: true, field: true },
  verify: true,
  onUnconfirmed: true,
  maxBodyBytes: true,
  bodyTimeoutMs: true,
} as const satisfies OptionShapeOf<NotificationReceiverOptions>;

/** What `createNotificationHandler` is given: the receiver's options, and what the kit would otherwise own. */
export interface NotificationHandlerOptions extends NotificationReceiverOptions {
  /**
   * The shop's terminals, to verify each notification with the service (required unless
   * `verify: false`; then they only re-read what a notification leaves out).
   */
  client?: MerchantClient | readonly MerchantClient[];
  /** Told of every change of an invoice's money or state, once (see `InvoiceChange`). */
  onChange?: (change: InvoiceChange) => void | Promise<void>;
  /**
   * The older hook: called with the invoice of every change (the service's state), the
   * notification as it arrived and its request. Prefer `onChange`, which says what changed.
   */
  onNotification?: (invoice: Invoice, notification: RawNotification | null, request: Request) => void | Promise<void>;
  /**
   * Where the books and the tracked invoices are kept: give the kit's (or every instance the
   * same Redis store). Default: a memory store of this handler's own.
   */
  store?: CheckoutStore;
  /**
   * How long `onChange` may take, in milliseconds (default 10 000). Past it the answer is
   * 500, so the service delivers again.
   */
  handlerTimeoutMs?: number;
  /** Told about every failure of `onChange` and of `token` (the service only sees a 500): `source` `notification`, the request. */
  onError?: CheckoutErrorHandler;
}

/** The keys `createNotificationHandler` takes (options-check.ts). */
export const NOTIFICATION_HANDLER_OPTIONS = {
  ...NOTIFICATION_RECEIVER_OPTIONS,
  client: CLIENT_OPTION,
  onChange: true,
  onNotification: true,
  store: STORE_OPTION,
  handlerTimeoutMs: true,
  onError: true,
} as const satisfies OptionShapeOf<NotificationHandlerOptions>;

/** How long `onChange` (and the older `onNotification`) may take, by default (ms). */
export const DEFAULT_NOTIFICATION_HANDLER_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

const readField = (body: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
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

const badRequest = (message: string): never => {
  throw new CheckoutHttpError('bad_request', message);
};

/** The notified invoice (the envelope's `invoice`, or a bare invoice) and its id, or a 400 naming what is missing. */
const notifiedOf = (body: unknown): { raw: unknown; id: string; notification: RawNotification | null } => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return badRequest('the body must be a JSON object');
  const enveloped = Object.hasOwn(body, 'invoice');
  const raw = enveloped ? (body as RawNotification).invoice : body;
  const id = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>).id : undefined;
  if (typeof id !== 'string' || !UUID_PATTERN.test(id)) {
    return badRequest(
      `invalid notification: ${enveloped ? 'invoice.' : ''}id: must be the invoice's UUID, got ${JSON.stringify(id ?? null)?.slice(0, 60)}`,
    );
  }
  return { raw, id: id.toLowerCase(), notification: enveloped ? (body as RawNotification) : null };
};

const validateReceiverOptions = (options: NotificationReceiverOptions, clients: readonly MerchantClient[]) => {
  const { token } = options ?? ({} as NotificationReceiverOptions);
  const tokens = typeof token === 'string' ? [token] : Array.isArray(token) ? (token as readonly unknown[]) : undefined;
  if (!(typeof token === 'function' || (tokens && tokens.length > 0 && tokens.every((one) => typeof one === 'string' && one !== '')))) {
    throw new TypeError('notifications: token must be a non-empty string, a list of them, or a function');
  }
  if (options.verify !== false && clients.length === 0) {
    throw new TypeError(
      'notifications: give client (the terminals) so that each notification is verified with the payment service, or verify: false to take notifications at their word',
    );
  }
  return tokens as readonly string[] | undefined;
};

/**
 * What a notification states: its invoice's snapshot when it reads as one, else whatever of
 * its status and timestamp can be read (a forged body need not be well formed to be refused).
 */
const claimOf = (raw: unknown, parsed: NotifiedInvoice | undefined): SnapshotClaim => {
  if (parsed) return snapshotOf(parsed);
  const fields = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  const updatedAt = text(fields.updatedAt);
  return {
    status: text(fields.status),
    sum: null,
    receivedSumFromTaker: null,
    receivedSumFromMaker: null,
    deals: [],
    updatedAt: updatedAt !== null && !Number.isNaN(Date.parse(updatedAt)) ? updatedAt : null,
  };
};

/** What the journal is told of a notification the service did not confirm. */
const unconfirmedNote = (details: Omit<UnconfirmedNotification, 'request' | 'notification'>): Parameters<NotificationNote>[1] => ({
  tokenCheck: 'accepted',
  verdict: 'unconfirmed',
  reason:
    details.reason === 'not_found'
      ? 'not_found'
      : `differs: ${details.contradictions.map((change) => `${change.field} ${change.to ?? '-'} (service: ${change.from ?? '-'})`).join('; ')}`,
  claimedStatus: details.claimed.status,
});

/** The invoice id a body names (the envelope's or a bare invoice's), lower case, when it is a UUID. */
const namedInvoice = (body: unknown): string | undefined => {
  const raw = typeof body === 'object' && body !== null ? ((body as { invoice?: unknown }).invoice ?? body) : undefined;
  const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
  return typeof id === 'string' && UUID_PATTERN.test(id) ? id.toLowerCase() : undefined;
};

/** A missing or wrong token's refusal, told to the journal of the invoice the body names (when it names one). */
const wrongToken = (note: NotificationNote, body: unknown): CheckoutHttpError => {
  const id = namedInvoice(body);
  if (id) note(id, { tokenCheck: 'wrong', verdict: 'refused', reason: 'missing or wrong token' });
  return new CheckoutHttpError('unauthorized', 'missing or wrong notification token');
};

/** How a failure to verify is answered: the service then delivers again, and the reconciler reads the invoice anyway. */
const upstreamFailure = (error: unknown): CheckoutHttpError =>
  error instanceof MerchantTimeoutError
    ? new CheckoutHttpError('upstream_timeout', 'the payment service did not answer in time; deliver again later', { cause: error })
    : new CheckoutHttpError('upstream_error', 'the payment service could not be asked about this invoice; deliver again later', {
        cause: error,
      });

/**
 * The receiver over a kit's core: `(request: Request) => Promise<Response>`. `POST` only
 * (405 otherwise); 401 for a wrong or missing token (before the body is judged, when the token
 * does not depend on it); 400 only for a body that is not JSON or names no invoice id.
 * @internal
 */
export const createReceiver = (
  core: KitCore,
  options: NotificationReceiverOptions,
  report: CheckoutErrorHandler,
  note: NotificationNote = () => undefined,
): ((request: Request) => Promise<Response>) => {
  const tokens = validateReceiverOptions(options, core.reader.clients);
  const { token, onUnconfirmed } = options;
  const verify = options.verify !== false;
  const source = options.tokenFrom ?? { header: NOTIFICATION_TOKEN_HEADER };
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const matchers = tokens?.map((one) => secretMatcher(one));
  /** Every token is compared (no early exit), so the time taken says nothing about which matched. */
  const matchesToken = matchers
    ? async (presented: string | null) => (await Promise.all(matchers.map((matches) => matches(presented)))).includes(true)
    : undefined;

  const unconfirmed = (
    details: Omit<UnconfirmedNotification, 'request' | 'notification'>,
    notification: RawNotification,
    { request, outcome }: Handling,
  ): Response => {
    outcome('unconfirmed');
    note(details.invoiceId, unconfirmedNote(details));
    try {
      onUnconfirmed?.({ ...details, notification, request });
    } catch (error) {
      report(error, errorContext('notification', request, details.invoiceId));
    }
    const what =
      details.reason === 'not_found'
        ? 'the payment service does not know this invoice'
        : 'the payment service shows this invoice otherwise';
    return errorAnswer('unconfirmed', `${what}; nothing was credited`);
  };

  const answered = (id: string, applied: ApplyOutcome, outcome: Outcome, verdict: 'verified' | 'taken_unverified') => {
    const kind = applied.outcome === 'delivered' ? applied.change.kind : null;
    note(id, { tokenCheck: 'accepted', verdict, outcome: kind ?? 'no news' });
    outcome(kind === null ? 'duplicate' : kind === 'amount_corrected' ? 'corrected' : 'changed', kind ?? undefined);
    return jsonAnswer(200, { ok: true, change: kind });
  };

  /** The service's own state of the invoice, to the books; then whether it shows what the notification said. */
  const verified = async (id: string, claim: SnapshotClaim, notification: RawNotification, at: Handling) => {
    const { request, outcome } = at;
    let found;
    try {
      found = await core.reader.read(id, { traceContext: at.traceContext });
    } catch (error) {
      note(id, { tokenCheck: 'accepted', verdict: 'not_checked', reason: 'the payment service could not be asked; it delivers again' });
      throw error instanceof MerchantApiError && error.status === 401 ? error : upstreamFailure(error);
    }
    if (!found)
      return unconfirmed({ invoiceId: id, reason: 'not_found', claimed: claim, actual: null, contradictions: [] }, notification, at);
    const applied = await core.learn(found.invoice, found.client, { source: 'notification', verified: true, notification, request });
    const actual = snapshotOf(found.invoice);
    const contradicted = contradictions(claim, actual);
    // A notification no newer than the service's state (by the service's own timestamps, which
    // count whole seconds) is old news, not a forgery: the state it told of has passed.
    const older = claim.updatedAt && actual.updatedAt && Date.parse(claim.updatedAt) <= Date.parse(actual.updatedAt);
    if (contradicted.length > 0 && !older) {
      return unconfirmed({ invoiceId: id, reason: 'differs', claimed: claim, actual, contradictions: contradicted }, notification, at);
    }
    return answered(id, applied, outcome, 'verified');
  };

  /** `verify: false`: the notification's word, re-read only for what it leaves out. */
  const trusted = async (id: string, raw: unknown, notification: RawNotification | null, { request, outcome, traceContext }: Handling) => {
    const parsed = safeParse(InvoiceSchema, raw, notification ? 'invoice' : undefined);
    if (parsed.success) {
      return answered(
        id,
        await core.learn(parsed.data, undefined, { source: 'notification', verified: false, partial: true, notification, request }),
        outcome,
        'taken_unverified',
      );
    }
    if (core.reader.clients.length === 0) return badRequest(`invalid notification: ${parsed.message}`);
    const found = await core.reader.read(id, { traceContext }).catch((error: unknown) => Promise.reject(upstreamFailure(error)));
    if (!found) return badRequest(`invalid notification: ${parsed.message}; and the payment service does not know the invoice`);
    return answered(
      id,
      await core.learn(found.invoice, found.client, { source: 'notification', verified: true, notification, request }),
      outcome,
      'verified',
    );
  };

  const receive = async (at: Handling): Promise<Response> => {
    const { request } = at;
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
    if (matchesToken && !(await matchesToken(presented))) throw wrongToken(note, body);
    if (!json) badRequest('the body is not JSON');
    const { raw, id, notification } = notifiedOf(body);
    at.invoiceId = id;
    const lenient = safeParse(NotifiedInvoiceSchema, raw, notification ? 'invoice' : undefined);
    const claimed = lenient.success ? lenient.data : undefined;
    if (typeof token === 'function') {
      if (!claimed) badRequest(`invalid notification: ${lenient.success ? '' : lenient.message}`);
      const expected = await token(claimed!, request);
      if (typeof expected !== 'string' || expected === '' || !(await secretsEqual(expected, presented))) throw wrongToken(note, body);
    }
    // Recorded before anything else: whatever fails next, the reconciler reads this invoice.
    await core.track(id, undefined);
    const whole = notification ?? (body as RawNotification);
    return verify ? verified(id, claimOf(raw, claimed), whole, at) : trusted(id, raw, notification, at);
  };

  // Mounted at whatever path the merchant gave the service as `notificationUrl`: every path is this one route.
  const app = new Hono();
  /** How a failure is answered: the receiver's refusals as they are, anything else a 5xx so that the service delivers again. */
  const failure = (error: unknown, request: Request, invoiceId?: string): Response => {
    if (error instanceof CheckoutHttpError && error.status < 500) return errorAnswerOf(error);
    report(error, errorContext('notification', request, invoiceId));
    if (error instanceof CheckoutHttpError) return errorAnswerOf(error);
    return errorAnswer('internal_error', 'the notification could not be handled');
  };

  // Each notification in a span of its own, its outcome counted (telemetry.ts).
  app.post('*', (c) =>
    notificationSpan(async (outcome, traceContext) => {
      const at: Handling = { request: c.req.raw, outcome, traceContext };
      try {
        return await receive(at);
      } catch (error) {
        return failure(error, c.req.raw, at.invoiceId);
      }
    }),
  );
  app.all('*', () => {
    const headers = baseHeaders();
    headers.set('allow', 'POST');
    return errorAnswer('method_not_allowed', 'use POST', headers);
  });
  app.onError((error, c) => failure(error, c.req.raw));

  return async (request: Request): Promise<Response> => app.fetch(request);
};

/**
 * Creates the receiver of the service's notifications on its own: `(request: Request) =>
 * Promise<Response>`. Prefer the kit (`createCheckoutServer`), which gives it the same store,
 * reads and books as the proxy and the reconciler; this is the advanced path.
 *
 * ```ts
 * const notifications = createNotificationHandler({ client, token, onChange: (change) => credit(change) });
 * ```
 */
export const createNotificationHandler = (options: NotificationHandlerOptions): ((request: Request) => Promise<Response>) => {
  checkOptions('createNotificationHandler', options, NOTIFICATION_HANDLER_OPTIONS);
  requireRuntime('createNotificationHandler', ['timers', 'hmac']); // its deadline; the token compared by HMAC
  const { client, onChange, onNotification, onError } = options;
  const clients = clientsOf(client, 'createNotificationHandler', true);
  if (onChange !== undefined && typeof onChange !== 'function')
    throw new TypeError('createNotificationHandler: onChange must be a function');
  if (onNotification !== undefined && typeof onNotification !== 'function')
    throw new TypeError('createNotificationHandler: onNotification must be a function');
  if (onChange === undefined && onNotification === undefined)
    throw new TypeError('createNotificationHandler: give onChange (or the older onNotification)');
  const handlerTimeoutMs = options.handlerTimeoutMs ?? DEFAULT_NOTIFICATION_HANDLER_TIMEOUT_MS;
  if (!(handlerTimeoutMs > 0 && Number.isFinite(handlerTimeoutMs))) {
    throw new TypeError('createNotificationHandler: handlerTimeoutMs must be a positive number of milliseconds');
  }
  const report: CheckoutErrorHandler = (error, context) => tellError(onError, error, context);
  const core = createCore({
    clients,
    store: options.store ?? createMemoryStore(),
    handlerTimeoutMs,
    onChange: async (change) => {
      await onChange?.(change);
      if (onNotification && change.request) await onNotification(change.invoice, change.notification, change.request);
    },
    report,
  });
  return createReceiver(core, options, report);
};
