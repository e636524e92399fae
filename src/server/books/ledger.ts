/**
 * The merchant's books (docs/ARCHITECTURE.md, "The merchant's books"): every state of an
 * invoice the kit learns, from any channel (a notification, the reconciler, a proxy's read),
 * is compared with the last one the shop was told of, and a change is handed to the shop's
 * `onChange` exactly once across every instance that shares the store:
 *
 * 1. claim the invoice's books in the store (one caller per invoice at a time);
 * 2. compare: older news by the service's `updatedAt` is dropped, the same snapshot is no
 *    news, anything else is a change with what changed (previous and new values);
 * 3. run `onChange` within its time limit; only once it resolved is the new state committed.
 *
 * A failed or timed-out `onChange` commits nothing: the next notification, read or
 * reconciliation pass delivers the same change again (same `change.id`).
 */
import type { Invoice } from '../../schemas/index.js';
import type { RawNotification } from './raw-notification.js';
import type { BooksEntry, CheckoutStore } from '../store/types.js';
import {
  changeKind,
  diffSnapshots,
  isOlder,
  mergeSnapshot,
  snapshotOf,
  snapshotPrint,
  type ChangeKind,
  type FieldChange,
  type InvoiceSnapshot,
} from '../store/snapshot.js';

/** Where the kit learned of a state: the service's notification, the reconciler's read, or a read made for a payer or by the shop's own client call. */
export type ChangeSource = 'notification' | 'reconcile' | 'read';

/** A change of an invoice's money or state, as the shop's `onChange` receives it. */
export interface InvoiceChange {
  /**
   * Stable for this state of this invoice (`{invoice id}:{fingerprint}`): the same change
   * reached by another channel, or delivered again after a failure, has the same id. Keep it
   * with the credit to make crediting idempotent.
   */
  id: string;
  /** The service's invoice id. */
  invoiceId: string;
  /** The shop's own order id (`internalId`), or null. */
  internalId: string | null;
  /** What kind of change, for a `switch` (see {@link ChangeKind}). */
  kind: ChangeKind;
  /** Where the kit learned of it. */
  source: ChangeSource;
  /**
   * True when the state was read from the service (signed, by id); false only for a
   * notification taken at its word because verification is off.
   */
  verified: boolean;
  /** The whole invoice as the service showed it (normalized; frozen when shared). */
  invoice: Invoice;
  /** The state the shop was told of before (null: none). */
  previous: InvoiceSnapshot | null;
  /** The state now. */
  current: InvoiceSnapshot;
  /** Every field that changed, with its previous and new value. */
  changes: FieldChange[];
  /** The notification that prompted this, exactly as it arrived, when one did. */
  notification: RawNotification | null;
  /** The request the notification came in, when one did. */
  request: Request | null;
}

/** What the books did with a state (`learn`, and the receiver's answer). */
export type ApplyOutcome =
  /** A change, handed to `onChange` and committed. */
  | {
      /** `delivered`. */
      outcome: 'delivered';
      /** What was handed to `onChange`. */
      change: InvoiceChange;
    }
  /** The same state as the books hold: no news. */
  | {
      /** `unchanged`. */
      outcome: 'unchanged';
    }
  /** Older than the state the books hold, by the service's timestamps: not news. */
  | {
      /** `older`. */
      outcome: 'older';
    }
  /** The first state of an unpaid invoice seen through a read: kept, nothing to tell. */
  | {
      /** `recorded`. */
      outcome: 'recorded';
    };

/** How a state is applied. */
export interface ApplyOptions {
  source: ChangeSource;
  /** Read from the service (true), or a notification's own word (false). */
  verified: boolean;
  /** A notification's invoice carries one deal: merge it over the deals the books know. */
  partial?: boolean;
  notification?: RawNotification | null;
  request?: Request | null;
  /**
   * Stops waiting for another caller's claim of the same invoice when it aborts (a scheduler's
   * call past its budget, one that left): its reason is thrown and the caller puts the invoice
   * back. A claim held by an instance that died lapses only after `handlerTimeoutMs` + 5 s.
   */
  signal?: AbortSignal | undefined;
}

export interface BooksOptions {
  store: CheckoutStore;
  /** The shop's handler of changes; may return a promise. */
  onChange: (change: InvoiceChange) => void | Promise<void>;
  /** How long `onChange` may take, in ms. */
  handlerTimeoutMs: number;
  /** The reporter of a failure about invoice `invoiceId` nobody waits for (a late success that could not be committed). */
  report: (invoiceId: string) => (error: unknown) => void;
}

export interface Books {
  /** Compares `invoice` with the books and, if it is a change, tells the shop once. */
  apply(invoice: Invoice, options: ApplyOptions): Promise<ApplyOutcome>;
}

/** `onChange` did not settle within its time limit. */
export class ChangeHandlerTimeoutError extends Error {
  /** The class's name, for logs. */
  override name = 'ChangeHandlerTimeoutError';
}

/** Another instance held the invoice's books longer than the caller could wait. */
export class BooksBusyError extends Error {
  /** The class's name, for logs. */
  override name = 'BooksBusyError';
}

/** How much longer than the handler's time limit a claim of the books is held (store round trips). */
const CLAIM_MARGIN_MS = 5_000;
/** How long between looks at a claim another instance holds, in ms. */
const BUSY_POLL_MS = 25;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const createBooks = (options: BooksOptions): Books => {
  const { store, onChange, handlerTimeoutMs, report } = options;
  const holdMs = handlerTimeoutMs + CLAIM_MARGIN_MS;

  /** `work`, or a {@link ChangeHandlerTimeoutError} once the time limit passed. */
  const limited = (work: Promise<void>): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new ChangeHandlerTimeoutError(`onChange took longer than ${handlerTimeoutMs} ms`)),
        handlerTimeoutMs,
      );
      work.then(resolve, reject).finally(() => clearTimeout(timer));
    });

  /** Claims the invoice's books, waiting while another caller holds them: at most a claim's hold, and not once `signal` aborted. */
  const claim = async (id: string, signal: AbortSignal | undefined) => {
    const until = Date.now() + holdMs;
    for (;;) {
      const claimed = await store.claimBooks(id, holdMs);
      if (claimed.state === 'claimed') return claimed;
      signal?.throwIfAborted();
      if (Date.now() >= until) throw new BooksBusyError(`the books of invoice ${id} are held by another delivery`);
      await sleep(BUSY_POLL_MS);
    }
  };

  const apply = async (invoice: Invoice, applyOptions: ApplyOptions): Promise<ApplyOutcome> => {
    const id = invoice.id.toLowerCase();
    const held = await claim(id, applyOptions.signal);
    let settled = false;
    try {
      const last = held.last?.snapshot;
      const notified = snapshotOf(invoice);
      const next = applyOptions.partial ? mergeSnapshot(last, notified) : notified;
      if (isOlder(next, last)) return { outcome: 'older' };
      const print = snapshotPrint(next);
      const entry: BooksEntry = { snapshot: next, print };
      if (held.last?.print === print) {
        // The same news, later: keep its newer timestamp, so that what it superseded stays older.
        if (next.updatedAt !== null && next.updatedAt !== last?.updatedAt) settled = await held.commit(entry);
        return { outcome: 'unchanged' };
      }
      const changes = diffSnapshots(last, next);
      const kind = changeKind(last, changes, next);
      // An unpaid invoice seen first through a read (the shop's own create, a payer's poll) needs no telling.
      if (kind === 'first_seen' && applyOptions.source !== 'notification') {
        settled = await held.commit(entry);
        return { outcome: 'recorded' };
      }
      const change: InvoiceChange = {
        id: `${id}:${print}`,
        invoiceId: invoice.id,
        internalId: invoice.internalId,
        kind,
        source: applyOptions.source,
        verified: applyOptions.verified,
        invoice,
        previous: last ?? null,
        current: next,
        changes,
        notification: applyOptions.notification ?? null,
        request: applyOptions.request ?? null,
      };
      let timedOut = false;
      const running = Promise.resolve().then(() => onChange(change));
      // Cut by the time limit but finished later: commit then, unless another delivery decides by now.
      running.then(
        () => (timedOut ? held.commit(entry).catch(report(invoice.id)) : undefined),
        () => undefined,
      );
      try {
        await limited(running);
      } catch (error) {
        timedOut = error instanceof ChangeHandlerTimeoutError;
        throw error;
      }
      settled = await held.commit(entry);
      return { outcome: 'delivered', change };
    } finally {
      if (!settled) await held.release().catch(report(invoice.id));
    }
  };

  return { apply };
};
