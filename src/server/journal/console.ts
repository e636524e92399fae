/**
 * The console of the journal (docs/console.md): "where is my payment?" for the shop's support
 * desk, at `/console` of the gateway or wherever a Node shop mounts it. Behind a key of its own
 * (never a checkout token): a sign-in form sets a session cookie (HMAC of the key, 12 hours,
 * `HttpOnly`, `SameSite=Strict`, path of the console), or a script presents `Authorization:
 * Bearer <key>`. Wrong keys are counted per client: past `maxWrongKeys` in 15 minutes that
 * client gets 429 until the window ends, and each refusal is told to `onRefused`.
 *
 * Server-rendered pages with no script, a strict Content-Security-Policy (`default-src 'none'`,
 * the one style sheet by its hash); every action (a read from the service, a redelivery) is
 * written to the invoice's journal before it is answered. The same data as JSON:
 * `{path}/api/invoices/{id}/journal` and `{path}/api/orders/{orderId}/journal`.
 */
import { UUID_PATTERN } from '../../schemas/index.js';
import type { WebhookSender } from '../notifications/webhooks.js';
import type { Reconciler } from '../books/reconciler.js';
import { checkOptions, type OptionShapeOf } from '../options-check.js';
import { consoleKeys } from './console-keys.js';
import type { Journal, JournalView } from './journal.js';
import { consoleText, type ConsoleText } from './console-text.js';
import { CONSOLE_CSS, homePage, invoicePage, link, loginPage, orderPage, page, message, type PageContext } from './console-page.js';

/** What {@link createJournalConsole} is given. */
export interface JournalConsoleOptions {
  /** The kit (`createCheckoutServer`): its journal and its reconciler. */
  kit: { journal: Journal; reconciler: Pick<Reconciler, 'reconcile'> };
  /** The console's key (at least 16 characters): not a checkout token, not the service's keys. */
  key: string;
  /** Where it is mounted (default `/console`). */
  path?: string;
  /** The shop's webhooks, when the kit sends them: lists failed and pending, and "deliver again". */
  webhooks?: WebhookSender;
  /** Who a request comes from, for counting wrong keys (default: the first `X-Forwarded-For` address, else one client `direct`). */
  clientOf?: (request: Request) => string;
  /** How many wrong keys one client may present in 15 minutes before it gets 429 (default 5). */
  maxWrongKeys?: number;
  /** Told of each refused key (the client, how many in the window, whether it is now held off). */
  onRefused?: (refusal: { client: string; count: number; locked: boolean }) => void;
  /** The clock (ms since the epoch; default `Date.now`). */
  now?: () => number;
}

/** The keys `createJournalConsole` takes (options-check.ts). */
const JOURNAL_CONSOLE_OPTIONS = {
  kit: true,
  key: true,
  path: true,
  webhooks: true,
  clientOf: true,
  maxWrongKeys: true,
  onRefused: true,
  now: true,
} as const satisfies OptionShapeOf<JournalConsoleOptions>;

/** Where the console is mounted by default. */
export const DEFAULT_CONSOLE_PATH = '/console';
/** How many wrong keys a client may present in the window by default. */
export const DEFAULT_CONSOLE_MAX_WRONG_KEYS = 5;
/** The longest search or id taken. */
const MAX_QUERY = 200;
const ORDER_ID = /^[\p{L}\p{N}._:/#@+-]{1,200}$/u;

const encoder = new TextEncoder();

/** The console's Content-Security-Policy: nothing but its own style sheet (by hash), forms to itself. */
const policy = crypto.subtle
  .digest('SHA-256', encoder.encode(CONSOLE_CSS))
  .then(
    (digest) =>
      `default-src 'none'; style-src 'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  );

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { 'cache-control': 'no-store', ...headers } });
const refusedJson = (status: number, code: string, messageText: string, headers: Record<string, string> = {}) =>
  json(status, { error: { code, message: messageText } }, headers);

/** Whether `text` reads as an invoice id or an order id (else a clear 400). */
export const queryKind = (text: string): 'invoice' | 'order' | 'malformed' => {
  if (text.length === 0 || text.length > MAX_QUERY) return 'malformed';
  if (UUID_PATTERN.test(text)) return 'invoice';
  return ORDER_ID.test(text) ? 'order' : 'malformed';
};

/**
 * One invoice's journal, or the journals of an order's invoices, as JSON: 200, 400 for an id
 * that cannot be one, 404 when nothing is known. The gateway's `/v1` and the console's `/api` answer it.
 */
export const journalAnswer = async (journal: Journal, asked: { invoiceId: string } | { orderId: string }): Promise<Response> => {
  if ('invoiceId' in asked) {
    if (queryKind(asked.invoiceId) !== 'invoice') return refusedJson(400, 'bad_request', 'the id must be an invoice UUID');
    const view = await journal.read(asked.invoiceId);
    return view.total === 0 ? refusedJson(404, 'not_found', 'no journal for this invoice') : json(200, view);
  }
  if (queryKind(asked.orderId) !== 'order')
    return refusedJson(400, 'bad_request', 'the order id must be 1 to 200 letters, digits or ._:/#@+-');
  const ids = await journal.find(asked.orderId);
  if (ids.length === 0) return refusedJson(404, 'not_found', 'no journal names this order id');
  const invoices: JournalView[] = (await Promise.all(ids.map((id) => journal.read(id)))).filter((view) => view.total > 0);
  if (invoices.length === 0) return refusedJson(404, 'not_found', 'no journal names this order id');
  return json(200, { orderId: asked.orderId, invoices });
};

/** The first address of `X-Forwarded-For`, else one client for every direct caller. */
export const forwardedClient = (request: Request): string =>
  request.headers.get('x-forwarded-for')?.split(',')[0]?.trim().slice(0, 64) || 'direct';

const headersFor = async (extra: Record<string, string> = {}) => ({
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': await policy,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  ...extra,
});
const html = async (status: number, body: string, extra: Record<string, string> = {}) =>
  new Response(body, { status, headers: await headersFor(extra) });
const seeOther = (to: string, extra: Record<string, string> = {}) =>
  new Response(null, { status: 303, headers: { location: to, 'cache-control': 'no-store', ...extra } });

/** A POST from another site (a form posted from elsewhere) is refused whatever its cookie. */
const crossSite = (request: Request, url: URL): boolean => {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') return true;
  const origin = request.headers.get('origin');
  return origin !== null && origin !== 'null' && origin !== url.origin;
};

/** What the page says after an action (the `done` of its redirect). */
const notices = (text: ConsoleText, done: string | null): string | undefined => {
  if (done === null) return undefined;
  const [what, detail] = done.split(':');
  if (what === 'read') return `${text.values.read_now}: ${detail ?? ''}`;
  if (what === 'redelivered') return `${text.deliverAgain}: ${text.values.ok}`;
  if (what === 'not_redelivered') return `${text.deliverAgain}: ${text.none}`;
  return undefined;
};

/** The console as one handler: `(request) => Promise<Response>`, for paths under `path`. */
export const createJournalConsole = (options: JournalConsoleOptions): ((request: Request) => Promise<Response>) => {
  checkOptions('createJournalConsole', options, JOURNAL_CONSOLE_OPTIONS);
  const { kit, webhooks } = options;
  if (typeof options.key !== 'string' || options.key.length < 16)
    throw new TypeError('createJournalConsole: key must be at least 16 characters');
  const path = (options.path ?? DEFAULT_CONSOLE_PATH).replace(/\/+$/, '');
  if (!path.startsWith('/')) throw new TypeError('createJournalConsole: path must start with /');
  const maxWrongKeys = options.maxWrongKeys ?? DEFAULT_CONSOLE_MAX_WRONG_KEYS;
  if (!(Number.isInteger(maxWrongKeys) && maxWrongKeys > 0))
    throw new TypeError('createJournalConsole: maxWrongKeys must be a positive whole number');
  const clientOf = options.clientOf ?? forwardedClient;
  const now = options.now ?? Date.now;
  const keys = consoleKeys({ key: options.key, path, maxWrongKeys, now, onRefused: options.onRefused });
  const { keyMatches, matchesSession, heldOff, refuse, cookieOf, bearerOf, cookieFor } = keys;

  const lists = async () => ({
    failed: webhooks ? await webhooks.list('failed', 50) : undefined,
    pending: webhooks ? await webhooks.list('pending', 50) : undefined,
    overdue: await kit.journal.overdue(50),
    enabled: kit.journal.enabled,
  });

  const search = async (context: PageContext, query: string): Promise<Response> => {
    const kind = queryKind(query);
    const shown = query.length > MAX_QUERY ? `${query.slice(0, 40)}…` : query;
    if (kind === 'malformed') return html(400, homePage(context, await lists(), { text: context.text.malformed, bad: true, query: shown }));
    if (kind === 'invoice') {
      const view = await kit.journal.read(query);
      if (view.total > 0) return seeOther(link(context, `/invoices/${view.invoiceId}`));
    } else {
      const ids = await kit.journal.find(query);
      if (ids.length === 1) return seeOther(link(context, `/invoices/${ids[0]}`));
      if (ids.length > 1) return html(200, orderPage(context, query, ids));
    }
    return html(404, homePage(context, await lists(), { text: context.text.notFound(shown), bad: true, query: shown }));
  };

  const serve = async (request: Request, url: URL, text: ConsoleText, rest: string): Promise<Response> => {
    const context: PageContext = { text, path, signedIn: true };
    const method = request.method;
    if (rest === '' && method === 'GET') {
      const query = url.searchParams.get('q');
      if (query !== null) return search(context, query.trim());
      return html(200, homePage(context, await lists()));
    }
    if (rest === '/logout' && method === 'POST') return seeOther(link(context, ''), { 'set-cookie': keys.clearCookie });
    const invoice = /^\/invoices\/([^/]+)(\/read)?$/.exec(rest);
    if (invoice) {
      const id = decodeURIComponent(invoice[1]!);
      if (queryKind(id) !== 'invoice') return html(400, homePage(context, await lists(), { text: text.malformed, bad: true }));
      if (invoice[2] && method === 'POST') {
        const report = await kit.reconciler.reconcile({ ids: [id] });
        const finding = report.findings[0];
        await kit.journal.write(id, 'action', {
          action: 'read_now',
          by: 'console',
          finding: finding?.finding ?? null,
          status: finding?.status ?? null,
        });
        return seeOther(`${link(context, `/invoices/${id.toLowerCase()}`, { done: `read:${finding?.finding ?? '-'}` })}`);
      }
      if (invoice[2] || method !== 'GET')
        return html(405, page(context, '405', message('405', true)), { allow: invoice[2] ? 'POST' : 'GET' });
      const view = await kit.journal.read(id);
      if (view.total === 0) return html(404, homePage(context, await lists(), { text: text.notFound(id), bad: true, query: id }));
      return html(
        200,
        invoicePage(context, view, { webhooks: webhooks !== undefined, notice: notices(text, url.searchParams.get('done')) }),
      );
    }
    const redeliver = /^\/webhooks\/([^/]+)\/redeliver$/.exec(rest);
    if (redeliver && method === 'POST') {
      const changeId = decodeURIComponent(redeliver[1]!);
      const invoiceId = changeId.split(':')[0] ?? '';
      if (!webhooks || queryKind(invoiceId) !== 'invoice' || changeId.length > MAX_QUERY)
        return html(404, homePage(context, await lists(), { text: text.notFound(changeId.slice(0, 80)), bad: true }));
      const found = await webhooks.redeliver(changeId);
      await kit.journal.write(invoiceId, 'action', {
        action: 'redeliver',
        by: 'console',
        change: changeId,
        outcome: found ? 'ok' : 'none',
      });
      return seeOther(link(context, `/invoices/${invoiceId.toLowerCase()}`, { done: found ? 'redelivered' : 'not_redelivered' }));
    }
    const api = /^\/api\/(invoices|orders)\/([^/]+)\/journal$/.exec(rest);
    if (api && method === 'GET') {
      const id = decodeURIComponent(api[2]!);
      return journalAnswer(kit.journal, api[1] === 'invoices' ? { invoiceId: id } : { orderId: id });
    }
    return html(404, page(context, '404', message(text.notFound(rest.slice(0, 80)), true)));
  };

  return async (request) => {
    const url = new URL(request.url);
    const text = consoleText(request, url);
    if (url.pathname !== path && !url.pathname.startsWith(`${path}/`)) return html(404, page({ text, path, signedIn: false }, '404', ''));
    const rest = url.pathname.slice(path.length).replace(/\/$/, '');
    const signedOut: PageContext = { text, path, signedIn: false };
    const client = clientOf(request);
    const isApi = rest.startsWith('/api/');
    if (request.method === 'POST' && crossSite(request, url)) return html(403, loginPage(signedOut, text.wrongKey));
    if (rest === '/login' && request.method === 'POST') {
      const wait = heldOff(client);
      if (wait > 0) {
        refuse(client);
        return html(429, loginPage(signedOut, text.tooMany(Math.ceil(wait / 60_000))), { 'retry-after': String(Math.ceil(wait / 1000)) });
      }
      const form = await request
        .text()
        .then((body) => new URLSearchParams(body.slice(0, 4096)))
        .catch(() => new URLSearchParams());
      if (!(await keyMatches(form.get('key')))) {
        refuse(client);
        return html(401, loginPage(signedOut, text.wrongKey));
      }
      return seeOther(link(signedOut, ''), { 'set-cookie': await cookieFor(url) });
    }
    const bearer = bearerOf(request);
    const presented = bearer !== undefined || (cookieOf(request) !== undefined && !(await matchesSession(cookieOf(request))));
    const allowed = bearer !== undefined ? heldOff(client) === 0 && (await keyMatches(bearer)) : await matchesSession(cookieOf(request));
    if (!allowed) {
      const wait = heldOff(client);
      if (presented) refuse(client);
      if (wait > 0)
        return isApi
          ? refusedJson(429, 'too_many_requests', 'too many wrong keys from this client', { 'retry-after': String(Math.ceil(wait / 1000)) })
          : html(429, loginPage(signedOut, text.tooMany(Math.ceil(wait / 60_000))), { 'retry-after': String(Math.ceil(wait / 1000)) });
      return isApi
        ? refusedJson(401, 'unauthorized', 'missing or wrong console key', { 'www-authenticate': 'Bearer' })
        : html(401, loginPage(signedOut, presented ? text.wrongKey : undefined));
    }
    try {
      return await serve(request, url, text, rest);
    } catch (error) {
      const problem = error instanceof Error ? error.message : String(error);
      return isApi
        ? refusedJson(503, 'store_unavailable', `the journal could not be read: ${problem}`)
        : html(503, page({ text, path, signedIn: true }, '503', message(problem, true)));
    }
  };
};
