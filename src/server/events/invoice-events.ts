/**
 * The event stream of the checkout protocol, `GET /invoices/{id}/events` (docs/ARCHITECTURE.md,
 * "The checkout protocol", "The store"): Server-Sent Events.
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
 *
 * Each stream is one `ReadableStream` with a high-water mark of 0 whose source is the stream's
 * state (event-stream.ts): when the reader asks, the newest state not yet sent goes, else a due heartbeat, else
 * the next of either as it comes. A slow payer gets the newest state, never a queue of old
 * ones. One heartbeat timer serves every stream of the handler; an event's bytes are made once
 * per state for all its streams. Hono's `streamSSE` was the helper before: an idle stream cost
 * 35 KB with it (a `TransformStream` and a second `ReadableStream` per stream, a timer each,
 * and the Hono context, request and answer they kept alive), against the goal of 10,000 idle
 * streams in under 200 MB (bench/events.ts). The framing is {@link sseEvent}, the same bytes as
 * Hono's `writeSSE` (test/server/invoice-events-sse.test.ts).
 */
import type { Context } from 'hono';
import type { Invoice } from '../../schemas/index.js';
import type { MerchantClient } from '../client/merchant-client.js';
import { projectInvoice } from './projection.js';
import { jsonText } from '../immutable.js';
import type { OptionShapeOf } from '../options-check.js';
import { baseHeaders } from '../http/answers.js';
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
} from '../store/types.js';
import { EventStream, Heartbeats, type State, type StreamHost, type Watch } from './event-stream.js';

/** The proxy's `events` option. */
export interface CheckoutEventsOptions {
  /**
   * A comment line this often keeps idle connections (and the proxies between) open, and tells
   * the element the stream is alive, in ms. Default 15 000. Each says its period
   * (`: heartbeat 15000`), and one follows a stream's first event at once, so the element
   * knows how long a silence means a dead connection (twice the period).
   */
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

/** The keys `events` takes (options-check.ts). */
export const CHECKOUT_EVENTS_OPTIONS = {
  heartbeatMs: true,
  refreshIntervalMs: true,
  retryMs: true,
} as const satisfies OptionShapeOf<CheckoutEventsOptions>;

/** How often a comment line keeps an idle stream open, by default (ms). */
export const DEFAULT_HEARTBEAT_MS = 15_000;
/** How long a watched invoice may go without news before it is read again, by default (ms). */
export const DEFAULT_REFRESH_INTERVAL_MS = 60_000;
/** The `retry:` advice sent to browsers, by default (ms). */
export const DEFAULT_RETRY_MS = 3_000;

/** One Server-Sent Events message, as Hono's `SSEMessage`. */
export interface SseMessage {
  event?: string;
  id?: string;
  data: string;
  retry?: number;
}

/**
 * The text of one event: `event:`, one `data:` line per line of `data`, `id:`, `retry:`, and
 * the blank line that ends it; the same bytes as Hono's `writeSSE`. An `event` or `id` with a
 * line break would end the field early, so it throws.
 */
export const sseEvent = (message: SseMessage): string => {
  for (const key of ['event', 'id'] as const) {
    const value = message[key];
    if (value && /[\r\n]/.test(value)) throw new Error(`${key} must not contain "\\r" or "\\n"`);
  }
  let text = message.event ? `event: ${message.event}\n` : '';
  text += `data: ${message.data.split(/\r\n|\r|\n/).join('\ndata: ')}`;
  if (message.id !== undefined) text += `\nid: ${message.id}`;
  if (message.retry !== undefined) text += `\nretry: ${message.retry}`;
  return `${text}\n\n`;
};

/** A comment line (`: text`), which `EventSource` ignores: the heartbeat. */
export const sseComment = (text: string): string => {
  if (/[\r\n]/.test(text)) throw new Error('a comment must not contain "\\r" or "\\n"');
  return `: ${text}\n\n`;
};

const encoder = new TextEncoder();

export interface InvoiceEventsDeps {
  store: CheckoutStore;
  /** Reads the invoice from the service (single flight); may reject. */
  read: (client: MerchantClient, id: string) => Promise<Invoice>;
  /** Fills in bank names (never rejects). */
  withBankNames: (invoice: Invoice, client: MerchantClient) => Promise<Invoice>;
  /** Told of a failure of the streams' own work (about invoice `invoiceId`, when one). */
  report: (error: unknown, invoiceId?: string) => void;
  /** Records a state a watch read again (the proxy's one writer, proxy/context.ts `record`). */
  record: (invoice: Invoice, client: MerchantClient) => void;
  /** Told of each state sent to a payer's stream (metrics: reads by push). */
  sent?: () => void;
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
  if (!(chosen > 0 && Number.isFinite(chosen)))
    throw new TypeError(`createCheckoutHandler: events.${name} must be a positive number of milliseconds`);
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
  /** A whole invoice just read from the service by any route: this instance's watch of it takes it (the proxy records it). */
  observe(invoice: Invoice): void;
  /** The watched state of `id`, unless a client resuming from `lastEventId` has seen newer. */
  current(id: string, lastEventId: string | null): { invoice: Invoice; client: MerchantClient } | undefined;
  /** The event stream of an invoice the caller was authorized for. */
  respond(c: Context, id: string, invoice: Invoice, client: MerchantClient, request: Request): Response;
  /** How many invoices are watched and streams open (for tests and benchmarks). */
  stats(): { watches: number; streams: number };
}

/** `report`, at most once per `ms`. */
export const throttled = <Args extends unknown[]>(report: (...args: Args) => void, ms: number) => {
  let last = 0;
  return (...args: Args): void => {
    const now = Date.now();
    if (now - last < ms) return;
    last = now;
    report(...args);
  };
};

export const createInvoiceEvents = (deps: InvoiceEventsDeps, options: CheckoutEventsOptions = {}): InvoiceEvents => {
  const heartbeatMs = positive(options.heartbeatMs, DEFAULT_HEARTBEAT_MS, 'heartbeatMs');
  const refreshIntervalMs = positive(options.refreshIntervalMs, DEFAULT_REFRESH_INTERVAL_MS, 'refreshIntervalMs');
  const retryMs = positive(options.retryMs, DEFAULT_RETRY_MS, 'retryMs');
  const heartbeatBytes = encoder.encode(sseComment(`heartbeat ${Math.round(heartbeatMs)}`));
  const { store } = deps;
  const watches = new Map<string, Watch>();
  let subscription: Promise<StoreSubscription | undefined> | undefined;

  /** Store failures are reported at most once per 5 s: during an outage every read would tell it again. */
  const storeFailed = throttled(deps.report, 5000);

  const stateOf = (invoice: Invoice, last: InvoiceMark | undefined): State => {
    const mark = nextMark(markOf(invoice), last);
    const print = fingerprint(jsonText(projectInvoice(invoice)));
    return { invoice, mark, eventId: `${mark.updatedAt ?? 0}-${print}`, terminal: isTerminal(invoice.status) };
  };

  const eventOf = (watch: Watch, state: State): Promise<Uint8Array> =>
    (state.event ??= deps
      .withBankNames(state.invoice, watch.client)
      .catch(() => state.invoice)
      .then((invoice) =>
        encoder.encode(sseEvent({ event: 'invoice', id: state.eventId, data: jsonText(projectInvoice(invoice)), retry: retryMs })),
      ));

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
    for (const listener of watch.listeners) listener.notify();
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
        storeFailed(error, watch.id);
      }
      if (turn) {
        const invoice = await deps.read(watch.client, watch.id);
        observe(invoice);
        deps.record(invoice, watch.client);
      }
    } catch (error) {
      deps.report(error, watch.id);
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
  };

  /** The watch of `id`, made with `invoice` when there is none, else given it as a read. */
  const openWatch = (id: string, invoice: Invoice, client: MerchantClient): Watch => {
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

  const heartbeats = new Heartbeats(heartbeatMs);
  const host: StreamHost = { heartbeats, heartbeatBytes, eventOf, release, sent: () => deps.sent?.() };

  const respond = (c: Context, id: string, invoice: Invoice, client: MerchantClient, request: Request): Response => {
    const watch = openWatch(id, invoice, client);
    const lastEventId = request.headers.get('last-event-id');
    if (watch.state.terminal && lastEventId === watch.state.eventId) {
      // The browser saw the end already: 204 tells EventSource not to reconnect.
      release(watch);
      return new Response(null, { status: 204, headers: baseHeaders() });
    }
    // A high-water mark of 0: nothing is made before the runtime asks for it, so a payer who
    // reads slowly gets the newest state when it can take it.
    const body = new ReadableStream<Uint8Array>(new EventStream(host, watch, lastEventId, request.signal), { highWaterMark: 0 });
    // The runtime frames the body itself (no Transfer-Encoding, no Connection: HTTP/2 forbids
    // them); nothing may cache or buffer it.
    return c.body(body, 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
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
    stats: () => ({ watches: watches.size, streams: heartbeats.streams }),
  };
};
