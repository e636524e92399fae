/**
 * `createCheckoutServer`: the kit as one object (docs/ARCHITECTURE.md, "The server kit"). It
 * owns one store and one set of reads, and hands out everything that must share them: the
 * checkout proxy the element talks to, the receiver of the service's notifications, the
 * reconciler and the handler a scheduler calls to run it (`cron`), and one `fetch` that serves
 * every route for runtimes that mount one handler.
 * A shop wires it once and cannot split what must stay together (a receiver with its own
 * store would leave the payers' event streams deaf).
 */
import { createProxy, validateCheckoutOptions, type CheckoutHandlerOptions } from './proxy/handler.js';
import { CHECKOUT_HANDLER_OPTIONS } from './proxy/options.js';
import { createCore } from './books/core.js';
import type { InvoiceChange } from './books/ledger.js';
import { RECONCILER_OPTIONS, createReconciler, type Reconciler, type ReconcilerOptions } from './books/reconciler.js';
import { RECONCILE_SCHEDULE_OPTIONS, type ReconcileSchedule } from './books/schedule.js';
import { KIT_CRON_OPTIONS, createCronHandler, cronOptionsOf, type KitCronOptions } from './books/cron.js';
import {
  NOTIFICATION_RECEIVER_OPTIONS,
  createReceiver,
  DEFAULT_NOTIFICATION_HANDLER_TIMEOUT_MS,
  type NotificationReceiverOptions,
} from './notifications/receiver.js';
import { checkOptions, type OptionShapeOf } from './options-check.js';
import { requireRuntime } from './http/platform.js';
import { errorAnswer } from './http/answers.js';
import { tellError, type CheckoutErrorHandler } from './http/error-context.js';
import { createMemoryStore } from './store/memory.js';
import type { CheckoutStore } from './store/types.js';
import { JOURNAL_OPTIONS, createJournal, type Journal, type JournalOptions } from './journal/journal.js';
import { journalChanges, journalCreated, journalFindings, tapCheckout } from './journal/taps.js';

/** The kit's notification receiver: the receiver's options, and the path the combined `fetch` serves it at. */
export interface KitNotificationOptions extends NotificationReceiverOptions {
  /**
   * The path of the receiver in the kit's combined `fetch` (your invoices' `notificationUrl`
   * ends with it). Default `/merchant-checkout/notifications`. The `notifications` handler
   * itself answers on any path.
   */
  path?: string;
}

/** The kit's reconciler: its timing, its passes, and whether the kit runs them on a timer. */
export interface KitReconcileOptions extends ReconcilerOptions, ReconcileSchedule {
  /**
   * Whether the kit runs a pass every `tickMs` itself (default true). `false` on a host whose
   * instances sleep between requests: a scheduler calls the `cron` handler instead, and the
   * schedule and passes keep these options.
   */
  timer?: boolean;
}

/** What `createCheckoutServer` is given. */
export interface CheckoutServerOptions extends Omit<CheckoutHandlerOptions, 'store' | 'onError'> {
  /**
   * Where the kit keeps the merchant's books, the tracked invoices, the invoices' last states
   * and the dispute claims: `createSqliteStore()` from `merchant-checkout/sqlite` (one server,
   * durable) or `createRedisStore()` from `merchant-checkout/redis` (several instances). Without
   * it the kit keeps them in memory, which a restart loses (for tests; it says so when made).
   */
  store?: CheckoutStore;
  /**
   * Told of every change of an invoice's money or state, once across every instance sharing
   * the store, whichever channel found it (a notification, the reconciler, a payer's read):
   * what changed, with previous and new values (see `InvoiceChange`). Credit idempotently by
   * `change.id`. The notification is answered 200 only once this resolved.
   */
  onChange?: (change: InvoiceChange) => void | Promise<void>;
  /** How long `onChange` may take, in ms (default 10 000); past it the change is delivered again later. */
  handlerTimeoutMs?: number;
  /**
   * Told about every failure nobody waiting sees in full, for the shop's logs, with where it
   * happened (`CheckoutErrorContext`): its `source` (`checkout`, `events`, `notification`,
   * `cron`, `books`, `reconciler`, `journal`), the `request` being answered when there is one
   * (the very object the handler was given; none for the reconciler's timer, an event stream's
   * refresh, a journal's write) and the `invoiceId` concerned when there is one. A logger that
   * throws changes no answer. Default: nothing is logged.
   */
  onError?: CheckoutErrorHandler;
  /** The notification receiver (`token` at least). Without it `notifications` answers 404 and the reconciler alone finds changes. */
  notifications?: KitNotificationOptions;
  /**
   * The reconciler: every invoice met (created through the kit's clients, read for a payer, or
   * notified) is read again until it is settled. `false` (or `{ timer: false }`) turns the
   * kit's timer off: passes then run only when asked (the `cron` handler, `reconciler.pass()`),
   * and `reconcile` still works on demand.
   */
  reconcile?: false | KitReconcileOptions;
  /**
   * The handler a scheduler calls to reconcile (`secret` at least): on a serverless host, where
   * an instance's timer runs only while it is awake. Without it `cron` answers 404.
   */
  cron?: KitCronOptions;
  /** The clock of the reconciler's schedule, in ms since the epoch (a test's or the mock's). Default `Date.now`. */
  now?: () => number;
  /**
   * Each invoice's journal in the store (docs/console.md): its bounds, or `false` for none.
   * On by default in a store that keeps journals (the kit's three do).
   */
  journal?: false | JournalOptions;
}

/** The keys of the kit's `notifications` (options-check.ts). */
const KIT_NOTIFICATION_OPTIONS = { ...NOTIFICATION_RECEIVER_OPTIONS, path: true } as const satisfies OptionShapeOf<KitNotificationOptions>;

/**
 * The keys `createCheckoutServer` takes (options-check.ts): a key of `notifications` or
 * `reconcile` given at the top level is told where it belongs from these shapes.
 */
const CHECKOUT_SERVER_OPTIONS = {
  ...CHECKOUT_HANDLER_OPTIONS,
  onChange: true,
  handlerTimeoutMs: true,
  notifications: KIT_NOTIFICATION_OPTIONS,
  reconcile: { ...RECONCILER_OPTIONS, ...RECONCILE_SCHEDULE_OPTIONS, timer: true },
  cron: KIT_CRON_OPTIONS,
  now: true,
  journal: JOURNAL_OPTIONS,
} as const satisfies OptionShapeOf<CheckoutServerOptions>;

/** A handler the kit hands out: a Web `Request` in, a `Response` out. */
export type KitHandler = (request: Request) => Promise<Response>;

/** What `createCheckoutServer` answers. */
export interface CheckoutServer {
  /** The checkout proxy the element's `endpoint` points at (mounted under `basePath`). */
  checkout: KitHandler;
  /** The receiver of the service's notifications (any path). */
  notifications: KitHandler;
  /**
   * The handler a scheduler calls (`GET` or `POST`, any path, `Authorization: Bearer
   * <cron.secret>`): reconciliation passes until nothing is due or `cron.budgetMs` is spent,
   * answered as JSON (`passes`, `checked`, `changes`, `errors`, `stillDue`, `stopped`,
   * `findings`). 404 without the `cron` option.
   */
  cron: KitHandler;
  /** All of them: the receiver at `notifications.path`, the scheduler's handler at `cron.path`, everything else the proxy. */
  fetch: KitHandler;
  /** The reconciler: `reconcile({ ids, internalIds })` on demand, `pass()` for one scheduled pass. */
  reconciler: Reconciler;
  /** The store the kit owns (the one given, or its memory store). */
  store: CheckoutStore;
  /** Each invoice's journal: what the console and `GET /v1/invoices/{id}/journal` show (docs/console.md). */
  journal: Journal;
  /** Stops the reconciler, stops observing the clients, and closes a store the kit made itself. */
  close(): Promise<void>;
}

/** Where the kit's combined `fetch` serves the notification receiver, by default. */
export const DEFAULT_NOTIFICATIONS_PATH = '/merchant-checkout/notifications';

/**
 * The server kit as one object:
 *
 * ```ts
 * const kit = createCheckoutServer({
 *   client: new MerchantClient({ baseUrl, apiKey, secretKey }),
 *   basePath: '/checkout-api',
 *   authorize: async (invoiceId, request) => isThisVisitorsOrder(invoiceId, request),
 *   notifications: { token: process.env.PAYMENT_NOTIFICATION_TOKEN! },
 *   onChange: async (change) => orders.record(change),
 * });
 * createNodeServer(kit.fetch).listen(3000);
 * ```
 */
export const createCheckoutServer = (options: CheckoutServerOptions): CheckoutServer => {
  checkOptions('createCheckoutServer', options, CHECKOUT_SERVER_OPTIONS);
  // The reconciler's timers, the event streams, the receiver's and the scheduler's constant-time checks.
  requireRuntime('createCheckoutServer', ['timers', 'streams', 'hmac']);
  const clients = validateCheckoutOptions(options, 'createCheckoutServer');
  const { onChange, onError } = options;
  if (onChange !== undefined && typeof onChange !== 'function') throw new TypeError('createCheckoutServer: onChange must be a function');
  const handlerTimeoutMs = options.handlerTimeoutMs ?? DEFAULT_NOTIFICATION_HANDLER_TIMEOUT_MS;
  if (!(handlerTimeoutMs > 0 && Number.isFinite(handlerTimeoutMs))) {
    throw new TypeError('createCheckoutServer: handlerTimeoutMs must be a positive number of milliseconds');
  }
  const ownStore = options.store === undefined;
  const store = options.store ?? createMemoryStore();
  const report: CheckoutErrorHandler = (error, context) => tellError(onError, error, context);
  const { timer = true, ...reconcileOptions } = options.reconcile === false ? { timer: false } : (options.reconcile ?? {});
  if (typeof timer !== 'boolean') throw new TypeError('createCheckoutServer: reconcile.timer must be true or false');
  const cronOptions = options.cron === undefined ? undefined : cronOptionsOf(options.cron);
  // The journal: told by wrappers of the parts' own hooks (journal/taps.ts), never in their way.
  const journal = createJournal(store, options.journal, options.now ?? Date.now, report);
  const core = createCore({
    clients,
    store,
    onChange: journal.enabled ? journalChanges(journal, onChange) : onChange,
    handlerTimeoutMs,
    schedule: reconcileOptions,
    now: options.now,
    report,
  });
  // What the proxy reads or is answered, the books learn: their `learnRead` is its one writer.
  const proxy = createProxy({ reader: core.reader, store, record: core.learnRead }, options);
  const checkout = tapCheckout(proxy, options.basePath ?? '', journal);
  const notifications: KitHandler = options.notifications
    ? createReceiver(core, options.notifications, report, (id, details) => journal.note(id, 'notification', details))
    : () => Promise.resolve(errorAnswer('not_found', 'this kit has no notification receiver (give notifications.token)'));
  const notificationsPath = options.notifications?.path ?? DEFAULT_NOTIFICATIONS_PATH;
  const reconciler = createReconciler(
    core,
    journal.enabled ? { ...reconcileOptions, onReport: journalFindings(journal, reconcileOptions.onReport) } : reconcileOptions,
  );
  const cron: KitHandler = cronOptions
    ? createCronHandler(reconciler, cronOptions, report)
    : () => Promise.resolve(errorAnswer('not_found', 'this kit has no handler for a scheduler (give cron.secret)'));
  const stopObserving = core.observe();
  const stopJournaling = journal.enabled ? clients.map((client) => client.onInvoice(journalCreated(journal))) : [];
  if (timer) reconciler.start();

  return {
    checkout,
    notifications,
    cron,
    fetch: (request: Request) => {
      const pathname = options.notifications || cronOptions ? new URL(request.url).pathname : undefined;
      if (options.notifications && pathname === notificationsPath) return notifications(request);
      if (cronOptions && pathname === cronOptions.path) return cron(request);
      return checkout(request);
    },
    reconciler,
    store,
    journal,
    close: async () => {
      stopObserving();
      stopJournaling.forEach((stop) => stop());
      await reconciler.stop();
      await journal.idle();
      if (ownStore) await store.close();
    },
  };
};
