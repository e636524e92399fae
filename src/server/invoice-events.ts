/**
 * The event stream of the checkout protocol, `GET /invoices/{id}/events` (docs/ARCHITECTURE.md,
 * "The checkout protocol", "The store"): Server-Sent Events through Hono's `streamSSE`.
 *
 * One watch per invoice per instance, shared by every payer streaming it: it holds the
 * invoice's latest state, hears new states from the store (notifications, and reads made by
 * any instance), and, when nothing was heard for `refreshIntervalMs`, reads the invoice from
 * the service — one read per invoice per interval across all instances, by the store's turn.
 *
 * Each state is one `invoice` event carrying the allow-listed projection, with
 * `id: {updatedAt ms}-{fingerprint of the projection}`. A client that reconnects sends that id
 * as `Last-Event-ID`: the same state is not sent again, any other state is sent at once (read
 * anew first when the id is newer than what this instance knows), so nothing is missed. A
 * terminal status ends the stream; a reconnect that already saw it is answered 204, which
 * tells `EventSource` to stop.
 */
import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { Invoice } from '../schemas/index.js';
import type { MerchantClient } from './client.js';
import { projectInvoice } from './projection.js';
import { baseHeaders } from './proxy-http.js';
import {
  fingerprint,
  isStale,
  isTerminal,
  markOf,
  nextMark,
  type CheckoutStore,
  type InvoiceMark,
  type InvoiceUpdate,
  type StoreSubscription,
} from './store/types.js';

/** The proxy's `events` option. */
export interface CheckoutEventsOptions {
  /** A comment line this often keeps idle connections (and the proxies between) open, in ms. Default 15 000. */
  heartbeatMs?: number;
  /**
   * How long a watched invoice may go without news before it is read from the service, in ms.
   * Default 60 000: one read per invoice per minute across all instances, however many payers
   * stream it (bench/events.ts: ≥ 50× fewer upstream calls than polling every 5 s).
   */
  refreshIntervalMs?: number;
  /** The `retry:` advice: how long a browser waits before reconnecting, in ms. Default 3 000. */
  retryMs?: number;
}

/** How often a comment line keeps an idle stream open, by default (ms). */
export const DEFAULT_HEARTBEAT_MS = 15_000;
/** How long a watched invoice may go without news before it is read again, by default (ms). */
export const DEFAULT_REFRESH_INTERVAL_MS = 60_000;
/** The `retry:` advice sent to browsers, by default (ms). */
export const DEFAULT_RETRY_MS = 3_000;

interface State {
  invoice: Invoice;
  mark: InvoiceMark;
  eventId: string;
  terminal: boolean;
  /** The event's data (the projection with bank names), made once per state. */
  data?: Promise<string>;
}

type Listener = (state: State) => void;

interface Watch {
  id: string;
  client: MerchantClient;
  state: State;
  listeners: Set<Listener>;
  timer: ReturnType<typeof setTimeout> | undefined;
  refreshing: boolean;
}

export interface InvoiceEventsDeps {
  store: CheckoutStore;
  /** Reads the invoice from the service (single flight); may reject. */
  read: (client: MerchantClient, id: string) => Promise<Invoice>;
  /** Fills in bank names (never rejects). */
  withBankNames: (invoice: Invoice, client: MerchantClient) => Promise<Invoice>;
  report: (error: unknown) => void;
}

/** `{updatedAt ms}-{fingerprint}` of a `Last-Event-ID`, or nothing. */
const parseEventId = (value: string | null): { updatedAt: number; id: string } | undefined => {
  const match = value === null ? null : /^(\d{1,15})-([0-9a-f]{16})$/.exec(value);
  return match ? { updatedAt: Number(match[1]), id: value! } : undefined;
};

const definedFields = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;

/**
 * A notification's invoice over the whole invoice known before: a notification carries one
 * `deal` and fewer fields (no `paymentMethod`, `paymentOption`, …), so what it leaves out is
 * kept, and its deal replaces the known deal with the same id (or is added).
 */
export const mergeNotified = (known: Invoice | undefined, notified: Invoice): Invoice => {
  if (!known) return notified;
  const deals = [...known.deals];
  for (const deal of notified.deals) {
    const index = deal.id ? deals.findIndex((each) => each.id === deal.id) : -1;
    if (index >= 0) deals[index] = { ...deals[index]!, ...definedFields(deal) };
    else deals.push(deal);
  }
  return { ...known, ...definedFields(notified), deals };
};

const positive = (value: number | undefined, fallback: number, name: string): number => {
  const chosen = value ?? fallback;
  if (!(chosen > 0 && Number.isFinite(chosen))) throw new TypeError(`createCheckoutHandler: events.${name} must be a positive number of milliseconds`);
  return chosen;
};

export const validateEventsOptions = (options: CheckoutEventsOptions | false | undefined): void => {
  if (options === false || options === undefined) return;
  if (typeof options !== 'object' || options === null) throw new TypeError('createCheckoutHandler: events must be false or an object');
  positive(options.heartbeatMs, DEFAULT_HEARTBEAT_MS, 'heartbeatMs');
  positive(options.refreshIntervalMs, DEFAULT_REFRESH_INTERVAL_MS, 'refreshIntervalMs');
  positive(options.retryMs, DEFAULT_RETRY_MS, 'retryMs');
};

export interface InvoiceEvents {
  /** A whole invoice just read from the service by any route: watches and other instances learn it. */
  observe(invoice: Invoice): void;
  /** The watched state of `id`, unless a client resuming from `lastEventId` has seen newer. */
  current(id: string, lastEventId: string | null): { invoice: Invoice; client: MerchantClient } | undefined;
  /** The event stream of an invoice the caller was authorized for. */
  respond(c: Context, id: string, invoice: Invoice, client: MerchantClient, request: Request): Response;
  /** How many invoices are watched and streams open (for tests and benchmarks). */
  stats(): { watches: number; streams: number };
}

export const createInvoiceEvents = (deps: InvoiceEventsDeps, options: CheckoutEventsOptions = {}): InvoiceEvents => {
  const heartbeatMs = positive(options.heartbeatMs, DEFAULT_HEARTBEAT_MS, 'heartbeatMs');
  const refreshIntervalMs = positive(options.refreshIntervalMs, DEFAULT_REFRESH_INTERVAL_MS, 'refreshIntervalMs');
  const retryMs = positive(options.retryMs, DEFAULT_RETRY_MS, 'retryMs');
  const { store } = deps;
  const watches = new Map<string, Watch>();
  let streams = 0;
  let subscription: Promise<StoreSubscription | undefined> | undefined;

  /** Store failures are reported at most once per 5 s: during an outage every read would tell it again. */
  let lastStoreReport = 0;
  const storeFailed = (error: unknown) => {
    const now = Date.now();
    if (now - lastStoreReport < 5000) return;
    lastStoreReport = now;
    deps.report(error);
  };

  const stateOf = (invoice: Invoice, last: InvoiceMark | undefined): State => {
    const mark = nextMark(markOf(invoice), last);
    const print = fingerprint(JSON.stringify(projectInvoice(invoice)));
    return { invoice, mark, eventId: `${mark.updatedAt ?? 0}-${print}`, terminal: isTerminal(invoice.status) };
  };

  const dataOf = (watch: Watch, state: State): Promise<string> =>
    (state.data ??= deps
      .withBankNames(state.invoice, watch.client)
      .catch(() => state.invoice)
      .then((invoice) => JSON.stringify(projectInvoice(invoice))));

  const schedule = (watch: Watch) => {
    clearTimeout(watch.timer);
    // Spread over ±10 %, so that invoices watched since the same moment are not read in one burst.
    watch.timer = setTimeout(() => void refresh(watch), refreshIntervalMs * (0.9 + Math.random() * 0.2));
  };

  /** Takes a new state into the watch; false when it is older news or the same state again. */
  const apply = (watch: Watch, invoice: Invoice, source: InvoiceUpdate['source']): boolean => {
    const merged = source === 'notification' ? mergeNotified(watch.state.invoice, invoice) : invoice;
    if (isStale(markOf(merged), watch.state.mark)) return false;
    const state = stateOf(merged, watch.state.mark);
    if (state.eventId === watch.state.eventId) return false;
    watch.state = state;
    schedule(watch);
    for (const listener of watch.listeners) listener(state);
    return true;
  };

  const refresh = async (watch: Watch) => {
    if (watch.refreshing || watches.get(watch.id) !== watch) return;
    watch.refreshing = true;
    try {
      let turn = true;
      try {
        turn = await store.claimRefresh(watch.id, refreshIntervalMs);
      } catch (error) {
        // The store is away: every instance reads for itself until it is back.
        storeFailed(error);
      }
      if (turn) observe(await deps.read(watch.client, watch.id));
    } catch (error) {
      deps.report(error);
    } finally {
      watch.refreshing = false;
      if (watches.get(watch.id) === watch) schedule(watch);
    }
  };

  const subscribe = () =>
    (subscription ??= store
      .subscribe({
        update: (update) => {
          const watch = watches.get(update.invoice.id.toLowerCase());
          if (watch) apply(watch, update.invoice, update.source);
        },
        // Updates may have been missed while the store was away.
        resumed: () => {
          for (const watch of watches.values()) void refresh(watch);
        },
      })
      .catch((error: unknown) => {
        subscription = undefined;
        storeFailed(error);
        return undefined;
      }));

  const observe = (invoice: Invoice) => {
    const watch = watches.get(invoice.id.toLowerCase());
    if (watch) apply(watch, invoice, 'read');
    store.record({ invoice, source: 'read' }).catch(storeFailed);
  };

  /** The watch of `id`, made with `invoice` when there is none, else given it as a read. */
  const open = (id: string, invoice: Invoice, client: MerchantClient): Watch => {
    let watch = watches.get(id);
    if (watch) {
      apply(watch, invoice, 'read');
      return watch;
    }
    watch = { id, client, state: stateOf(invoice, undefined), listeners: new Set(), timer: undefined, refreshing: false };
    watches.set(id, watch);
    schedule(watch);
    void subscribe();
    return watch;
  };

  const release = (watch: Watch) => {
    if (watch.listeners.size > 0 || watches.get(watch.id) !== watch) return;
    clearTimeout(watch.timer);
    watches.delete(watch.id);
  };

  const respond = (c: Context, id: string, invoice: Invoice, client: MerchantClient, request: Request): Response => {
    const watch = open(id, invoice, client);
    const lastEventId = request.headers.get('last-event-id');
    if (watch.state.terminal && lastEventId === watch.state.eventId) {
      // The browser saw the end already: 204 tells EventSource not to reconnect.
      release(watch);
      return new Response(null, { status: 204, headers: baseHeaders() });
    }
    const response = streamSSE(c, (stream: SSEStreamingApi) => {
      streams++;
      let sent = lastEventId;
      let queue = Promise.resolve();
      let finish: () => void = () => undefined;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        watch.listeners.delete(listener);
        clearInterval(heartbeat);
        request.signal.removeEventListener('abort', end);
        release(watch);
        finish();
      };
      const listener: Listener = (state) => {
        queue = queue
          .then(async () => {
            // Only the newest state is worth sending; an older one queued behind it is skipped.
            if (state !== watch.state || state.eventId === sent || !watch.listeners.has(listener)) return;
            const data = await dataOf(watch, state);
            await stream.writeSSE({ event: 'invoice', id: state.eventId, data, retry: retryMs });
            sent = state.eventId;
            if (state.terminal) end();
          })
          .catch(end);
      };
      watch.listeners.add(listener);
      const heartbeat = setInterval(() => void stream.write(': heartbeat\n\n').catch(end), heartbeatMs);
      request.signal.addEventListener('abort', end, { once: true });
      stream.onAbort(end);
      if (request.signal.aborted) end();
      else listener(watch.state);
      return finished.finally(() => void streams--);
    });
    // The runtime frames the body itself (HTTP/2 forbids these headers); nothing may cache or buffer it.
    response.headers.delete('transfer-encoding');
    response.headers.delete('connection');
    response.headers.set('cache-control', 'no-store');
    response.headers.set('x-accel-buffering', 'no');
    return response;
  };

  return {
    observe,
    current: (id, lastEventId) => {
      const watch = watches.get(id);
      if (!watch) return undefined;
      const resumed = parseEventId(lastEventId);
      // The client saw a newer state than this instance knows: read again rather than go back.
      if (resumed && resumed.id !== watch.state.eventId && resumed.updatedAt > (watch.state.mark.updatedAt ?? 0)) return undefined;
      return { invoice: watch.state.invoice, client: watch.client };
    },
    respond,
    stats: () => ({ watches: watches.size, streams }),
  };
};
