/**
 * What the parts of one kit share (docs/ARCHITECTURE.md, "The merchant's books"): the store,
 * the reads of invoices (single flight, through the terminal that owns each), the books, and
 * the tracking of every invoice met until it is settled. `learn` is the one path by which a
 * whole invoice read from the service reaches the event streams, the books and the
 * reconciler's schedule; the notification receiver and the reconciler call it, and a kit's
 * clients feed it every invoice the shop creates or a payer reads (`observe`).
 */
import type { Invoice } from '../../schemas/index.js';
import type { MerchantClient } from '../client/merchant-client.js';
import { instant } from '../fingerprint.js';
import { createInvoiceReader, type InvoiceReader } from '../client/invoice-reader.js';
import { remember } from '../remember.js';
import type { CheckoutStore } from '../store/types.js';
import { createBooks, type ApplyOptions, type ApplyOutcome, type Books, type InvoiceChange } from './ledger.js';
import { nextReadAt, scheduleOf, type ReconcileSchedule } from './schedule.js';
import { snapshotOf, snapshotPrint } from '../store/snapshot.js';
import { errorContext, type CheckoutErrorHandler } from '../http/error-context.js';

/** What a core is made of. */
export interface CoreOptions {
  clients: readonly MerchantClient[];
  store: CheckoutStore;
  /** The shop's handler of changes (none: the books still keep the states, nothing is told). */
  onChange?: ((change: InvoiceChange) => void | Promise<void>) | undefined;
  /** How long `onChange` may take, in ms. */
  handlerTimeoutMs: number;
  schedule?: ReconcileSchedule | undefined;
  /** The clock of the reconciler's schedule (ms since the epoch). */
  now?: (() => number) | undefined;
  /** Told of failures nobody waits for. */
  report: CheckoutErrorHandler;
}

export interface KitCore {
  readonly store: CheckoutStore;
  readonly reader: InvoiceReader;
  readonly books: Books;
  readonly schedule: Required<ReconcileSchedule>;
  readonly now: () => number;
  readonly report: CheckoutErrorHandler;
  /**
   * A state of an invoice from the service (or, with verification off, a notification's):
   * every event stream hears it, the books compare it and tell the shop of a change, and the
   * reconciler reads it next when its state says (or stops once it is settled).
   */
  learn(invoice: Invoice, client: MerchantClient | undefined, options: ApplyOptions): Promise<ApplyOutcome>;
  /**
   * A state the proxy read or was answered (its one writer, proxy/context.ts `record`), or the
   * shop's own call answered: {@link learn}ed as a read, unless this process learned that state
   * last.
   */
  readonly learnRead: (invoice: Invoice, client: MerchantClient | undefined) => Promise<void>;
  /** Tracks an invoice met without its state (a notification about to be verified). */
  track(id: string, client: MerchantClient | undefined): Promise<void>;
  /**
   * Feeds every invoice the shop's own calls answer into `learn` (the kit; what a part of the kit
   * reads, it records itself); answers a function that stops it.
   */
  observe(): () => void;
}

/** How many invoices' last learned states a core remembers, to skip the same state read again. */
const KNOWN_STATES = 10_000;

export const createCore = (options: CoreOptions): KitCore => {
  const { store, report } = options;
  // Whoever reads through the kit's reader records what it read (`learn`, `learnRead`).
  const reader = createInvoiceReader(options.clients, true);
  const schedule = scheduleOf(options.schedule);
  const now = options.now ?? Date.now;
  const onChange = options.onChange ?? (() => undefined);
  /** Tells `report` of a failure recording invoice `invoiceId` that no answer waits for. */
  const booksFailed = (invoiceId: string) => (error: unknown) => report(error, errorContext('books', undefined, invoiceId));
  const books = createBooks({ store, onChange, handlerTimeoutMs: options.handlerTimeoutMs, report: booksFailed });
  /** The state (its print) each invoice was last learned in by this process: a read of the same state needs nothing. */
  const known = new Map<string, string>();

  const learn = async (invoice: Invoice, client: MerchantClient | undefined, applyOptions: ApplyOptions): Promise<ApplyOutcome> => {
    const id = invoice.id.toLowerCase();
    const snapshot = snapshotOf(invoice);
    remember(known, id, snapshotPrint(snapshot), KNOWN_STATES);
    if (client) reader.own(id, client);
    // The payers' streams hear it at once; their failure is not the shop's.
    store.record({ invoice, source: applyOptions.partial ? 'notification' : 'read' }).catch(booksFailed(invoice.id));
    let outcome: ApplyOutcome;
    try {
      outcome = await books.apply(invoice, applyOptions);
    } catch (error) {
      known.delete(id);
      throw error;
    }
    const due = nextReadAt(snapshot, now(), schedule, { fallbackSince: instant(invoice.expireAt) ?? instant(invoice.createdAt) });
    if (due === undefined) await store.untrack(id);
    else await store.track(id, client?.terminal, due);
    return outcome;
  };

  const track = (id: string, client: MerchantClient | undefined) =>
    store.track(id.toLowerCase(), client?.terminal, now() + schedule.openIntervalMs);

  const learnRead = async (invoice: Invoice, client: MerchantClient | undefined): Promise<void> => {
    if (known.get(invoice.id.toLowerCase()) === snapshotPrint(snapshotOf(invoice))) return;
    await learn(invoice, client, { source: 'read', verified: true });
  };

  /**
   * The shop's own calls. A part of the kit that made the call (`recorded`) learns what it read
   * itself: the receiver as a notification, the reconciler as a reconcile, the proxy through
   * `learnRead`. A new invoice is in the store before its create answers: a process killed
   * right after the answer still reconciles it after its restart.
   */
  const observer = (invoice: Invoice, _operation: string, client: MerchantClient, created: boolean, recorded: boolean) => {
    if (recorded) return undefined;
    if (!created) return void learnRead(invoice, client).catch(booksFailed(invoice.id));
    return track(invoice.id, client).then(() => void learnRead(invoice, client).catch(booksFailed(invoice.id)));
  };

  return {
    store,
    reader,
    books,
    schedule,
    now,
    report,
    learn,
    learnRead,
    track,
    observe: () => {
      const stops = options.clients.map((client) => client.onInvoice(observer));
      return () => stops.forEach((stop) => stop());
    },
  };
};
