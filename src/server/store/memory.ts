/**
 * The store in memory: one process, for the demo and the tests. A restart loses everything in
 * it, which it says when it is made. The kit (`createCheckoutServer`) makes one when it is given
 * no store; a shop gives it `createSqliteStore` (one server) or `createRedisStore` (several).
 */
import {
  fingerprint,
  isStale,
  markOf,
  nextMark,
  withoutSecrets,
  type BooksClaim,
  type BooksEntry,
  type CheckoutStore,
  type DisputeClaim,
  type InvoiceMark,
  type InvoiceUpdate,
  type OutboxMessage,
  type StoreListener,
  type TrackedInvoice,
} from './types.js';
import { remember } from '../remember.js';
import { memoryJournal } from './memory-journal.js';
import { checkOptions, madeBy, type OptionShapeOf } from '../options-check.js';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /**
   * How many invoices' last states (what the event streams compare), refresh turns and
   * disputes are remembered; the oldest are forgotten first. Default 1000.
   */
  maxEntries?: number;
  /**
   * How many settled invoices' books entries are remembered (a late repeat of a settled
   * invoice's notification is then still known as no news); the books of an invoice still
   * tracked are never forgotten. Default 100,000.
   */
  maxBooks?: number;
  /**
   * Where the store says, when it is made, what a restart loses (it is for tests and demos):
   * `console.warn` by default (once per process), a function of yours (every time), or
   * `false` for nothing.
   */
  warn?: ((message: string) => void) | false;
}

/** The keys `createMemoryStore` takes (options-check.ts). */
export const MEMORY_STORE_OPTIONS = { maxEntries: true, maxBooks: true, warn: true } as const satisfies OptionShapeOf<MemoryStoreOptions>;
/** A factory's `store`: the memory store's options given to that factory are told they belong in `store: createMemoryStore({ … })`. */
export const STORE_OPTION = madeBy('createMemoryStore', MEMORY_STORE_OPTIONS);

/** What the memory store says when it is made. */
export const MEMORY_STORE_WARNING =
  'merchant-checkout: the memory store keeps the books, the tracked invoices and the webhooks in this process only; a restart loses them (for tests: use createSqliteStore or createRedisStore)';

let warnedOnConsole = false;
const warnOnce = (warn: MemoryStoreOptions['warn']) => {
  if (warn === false) return;
  if (warn) return warn(MEMORY_STORE_WARNING);
  if (warnedOnConsole) return;
  warnedOnConsole = true;
  console.warn(MEMORY_STORE_WARNING);
};

/**
 * The clock of claims and turns held in memory: monotonic, so a wall clock set back (NTP, a VM
 * resumed) cannot keep a claim held, or a turn taken, for as long as it jumped.
 */
export const heldClock = (): number => performance.now();

/** How many invoices' last states the memory store remembers by default (the oldest go first). */
export const DEFAULT_MEMORY_STORE_ENTRIES = 1000;
/** How many settled invoices' books the memory store remembers by default. */
export const DEFAULT_MEMORY_STORE_BOOKS = 100_000;

const positiveInteger = (value: number, name: string): number => {
  if (!(Number.isInteger(value) && value > 0)) throw new TypeError(`createMemoryStore: ${name} must be a positive integer`);
  return value;
};

/** The outbox of the shop's webhooks: messages pending or failed by id, and the ids delivered (the newest `maxDelivered` remembered). */
const memoryOutbox = (maxDelivered: number) => {
  const outbox = new Map<string, OutboxMessage & { state: 'pending' | 'failed' }>();
  const delivered = new Map<string, true>();
  const copy = ({ state: _state, ...message }: OutboxMessage & { state: 'pending' | 'failed' }): OutboxMessage => ({ ...message });
  return {
    outboxAdd: (message, dueAt) => {
      if (outbox.has(message.id) || delivered.has(message.id)) return Promise.resolve(false);
      outbox.set(message.id, { ...message, attempts: 0, at: dueAt, state: 'pending' });
      return Promise.resolve(true);
    },
    outboxClaim: (now, count, leaseMs) => {
      const due = [...outbox.values()].filter((message) => message.state === 'pending' && message.at <= now).sort((a, b) => a.at - b.at);
      const claimed = due.slice(0, Math.max(0, count));
      for (const message of claimed) message.at = now + leaseMs;
      return Promise.resolve(claimed.map(copy));
    },
    outboxSettle: (id, outcome, now) => {
      const message = outbox.get(id);
      if (!message) return Promise.resolve();
      message.attempts++;
      if (outcome.delivered) {
        outbox.delete(id);
        remember(delivered, id, true, maxDelivered);
      } else {
        message.lastError = outcome.error;
        if (outcome.nextAt === undefined) Object.assign(message, { state: 'failed', at: now });
        else message.at = outcome.nextAt;
      }
      return Promise.resolve();
    },
    outboxList: (state, count) =>
      Promise.resolve(
        [...outbox.values()]
          .filter((message) => message.state === state)
          .sort((a, b) => a.createdAt - b.createdAt)
          .slice(0, count)
          .map(copy),
      ),
    outboxRedeliver: (id, now) => {
      const message = outbox.get(id);
      if (!message) return Promise.resolve(false);
      Object.assign(message, { state: 'pending', at: now });
      return Promise.resolve(true);
    },
  } satisfies Partial<CheckoutStore>;
};

/**
 * The merchant's books and the invoices the reconciler tracks: past `maxBooks`, the oldest
 * books of invoices no longer tracked (nor held) are forgotten.
 */
const memoryBooks = (maxBooks: number) => {
  const books = new Map<string, BooksEntry>();
  /** Who holds an invoice's books, until when (ms). */
  const booksHeld = new Map<string, { token: symbol; until: number }>();
  /** Invoices the reconciler reads again, by id: their terminal and when they are due (ms). */
  const tracked = new Map<string, { terminal: string | undefined; dueAt: number }>();

  const forgetSettledBooks = () => {
    if (books.size <= maxBooks) return;
    for (const id of books.keys()) {
      if (books.size <= maxBooks) return;
      if (!tracked.has(id) && !booksHeld.has(id)) books.delete(id);
    }
  };

  const claimBooks = (id: string, holdMs: number): Promise<BooksClaim> => {
    const now = heldClock();
    const held = booksHeld.get(id);
    if (held && held.until > now) return Promise.resolve({ state: 'busy' });
    const token = Symbol(id);
    booksHeld.set(id, { token, until: now + holdMs });
    const release = () => {
      if (booksHeld.get(id)?.token === token) booksHeld.delete(id);
    };
    return Promise.resolve({
      state: 'claimed',
      last: books.get(id),
      commit: (entry) => {
        const holder = booksHeld.get(id);
        // Lapsed and claimed by another caller since: that one decides now.
        if (holder !== undefined && holder.token !== token && holder.until > heldClock()) return Promise.resolve(false);
        books.delete(id);
        books.set(id, entry);
        release();
        forgetSettledBooks();
        return Promise.resolve(true);
      },
      release: () => {
        release();
        return Promise.resolve();
      },
    });
  };

  const claimDue = (now: number, count: number, leaseMs: number): Promise<TrackedInvoice[]> => {
    const due: (TrackedInvoice & { dueAt: number })[] = [];
    for (const [id, item] of tracked) if (item.dueAt <= now) due.push({ id, terminal: item.terminal, dueAt: item.dueAt });
    due.sort((a, b) => a.dueAt - b.dueAt);
    const claimed = due.slice(0, Math.max(0, count));
    for (const item of claimed) tracked.set(item.id, { terminal: item.terminal, dueAt: now + leaseMs });
    return Promise.resolve(claimed.map(({ id, terminal }) => ({ id, terminal })));
  };

  return {
    claimBooks,
    track: (id, terminal, dueAt) => {
      const current = tracked.get(id);
      tracked.set(id, { terminal: terminal ?? current?.terminal, dueAt });
      return Promise.resolve();
    },
    reschedule: (id, dueAt) => {
      const current = tracked.get(id);
      if (current) current.dueAt = dueAt;
      return Promise.resolve();
    },
    untrack: (id) => {
      tracked.delete(id);
      forgetSettledBooks();
      return Promise.resolve();
    },
    claimDue,
    trackedCount: () => Promise.resolve(tracked.size),
  } satisfies Partial<CheckoutStore>;
};

/**
 * The store of one process (the default): the merchant's books, the invoices the reconciler
 * tracks, the last state of each invoice and its subscribers, the refresh turns and dispute
 * claims, in memory.
 */
export const createMemoryStore = (options: MemoryStoreOptions = {}): CheckoutStore => {
  checkOptions('createMemoryStore', options, MEMORY_STORE_OPTIONS);
  const limit = positiveInteger(options.maxEntries ?? DEFAULT_MEMORY_STORE_ENTRIES, 'maxEntries');
  const maxBooks = positiveInteger(options.maxBooks ?? DEFAULT_MEMORY_STORE_BOOKS, 'maxBooks');
  if (options.warn !== undefined && options.warn !== false && typeof options.warn !== 'function')
    throw new TypeError('createMemoryStore: warn must be a function or false');
  warnOnce(options.warn);
  const latest = new Map<string, InvoiceMark & { print: string }>();
  const refreshes = new Map<string, number>();
  /** Disputes by invoice: made (`kept`), or claimed until a time (ms) with the claim's token. */
  const disputes = new Map<string, { state: 'kept' } | { state: 'held'; until: number; token: symbol }>();
  const listeners = new Set<StoreListener>();

  const claimDispute = (id: string, holdMs: number): Promise<DisputeClaim | undefined> => {
    const current = disputes.get(id);
    if (current && (current.state === 'kept' || current.until > heldClock())) return Promise.resolve(undefined);
    const token = Symbol(id);
    remember(disputes, id, { state: 'held', until: heldClock() + holdMs, token }, limit);
    return Promise.resolve({
      settle: (outcome) => {
        const now = disputes.get(id);
        if (outcome === 'kept') remember(disputes, id, { state: 'kept' }, limit);
        else if (now?.state === 'held' && now.token === token) disputes.delete(id);
        return Promise.resolve();
      },
    });
  };

  const record = (update: InvoiceUpdate): Promise<boolean> => {
    const invoice = withoutSecrets(update.invoice);
    const mark = markOf(invoice);
    const last = latest.get(invoice.id);
    if (isStale(mark, last)) return Promise.resolve(false);
    const print = fingerprint(JSON.stringify(invoice));
    if (last && last.print === print) return Promise.resolve(false);
    remember(latest, invoice.id, { ...nextMark(mark, last), print }, limit);
    const delivered: InvoiceUpdate = { invoice, source: update.source };
    for (const listener of listeners) {
      try {
        listener.update(delivered);
      } catch {
        // One listener's failure is its own.
      }
    }
    return Promise.resolve(true);
  };

  return {
    lastSeen: (id) => {
      const last = latest.get(id);
      return Promise.resolve(last ? { status: last.status, updatedAt: last.updatedAt } : undefined);
    },
    record,
    subscribe: (listener) => {
      listeners.add(listener);
      return Promise.resolve({
        close: () => {
          listeners.delete(listener);
          return Promise.resolve();
        },
      });
    },
    claimRefresh: (id, intervalMs) => {
      const now = heldClock();
      if ((refreshes.get(id) ?? 0) > now) return Promise.resolve(false);
      remember(refreshes, id, now + intervalMs, limit);
      return Promise.resolve(true);
    },
    claimDispute,
    ...memoryBooks(maxBooks),
    ...memoryOutbox(maxBooks),
    journal: memoryJournal(maxBooks),
    close: () => {
      listeners.clear();
      return Promise.resolve();
    },
  };
};
