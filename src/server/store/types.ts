/**
 * The store shared by the checkout proxy and the notification receiver (docs/ARCHITECTURE.md,
 * "The store"): notification claims, the last state seen of each invoice (so nothing moves
 * backwards), the fan-out of new states to every instance, and the turn of one refresh per
 * invoice per interval. Three implementations: `createMemoryStore()` (tests: a restart loses it),
 * `createSqliteStore()` (one process, durable) and
 * `createRedisStore()` (several processes behind one Redis).
 */
import { TERMINAL_INVOICE_STATUSES, type Invoice } from '../../schemas/index.js';
import type { InvoiceSnapshot } from './snapshot.js';
import { fingerprint, instant } from '../fingerprint.js';

export { fingerprint, instant };

/** What an invoice's state is compared by: its status and `updatedAt` (epoch ms, when known). */
export interface InvoiceMark {
  /** The invoice's status. */
  status: string;
  /** Its `updatedAt` in ms since the epoch, when the service gave one. */
  updatedAt: number | undefined;
}

/** A new state of an invoice, as every instance receives it. */
export interface InvoiceUpdate {
  /** The normalized invoice (the service's `notificationToken` removed). */
  invoice: Invoice;
  /**
   * `notification`: a notification's invoice (one deal, fewer fields: merged into what a
   * reader knows); `read`: a whole invoice read from the service.
   */
  source: 'notification' | 'read';
}

/**
 * The claim of an invoice's one dispute ({@link CheckoutStore.claimDispute}), held while the
 * merchant's hook and the service decide.
 */
export interface DisputeClaim {
  /**
   * Ends the claim: `kept` when a dispute was made (forwarded to the service, or reported to
   * the merchant), so the invoice gets no other; `released` when nothing was made (the hook or
   * the service refused), so the payer may try again. A claim never settled (the outcome is not
   * known: the service did not answer) lapses after its `holdMs`.
   */
  settle(outcome: 'kept' | 'released'): Promise<void>;
}

/**
 * The books' entry of an invoice (docs/ARCHITECTURE.md, "The merchant's books"): the last
 * state the shop was told of (or needed no telling: an unpaid invoice seen first), to which
 * the next state is compared.
 */
export interface BooksEntry {
  /** The state, as the books compare it. */
  snapshot: InvoiceSnapshot;
  /** `snapshotPrint(snapshot)`: equal prints are the same news. */
  print: string;
}

/** The answer to {@link CheckoutStore.claimBooks}. */
export type BooksClaim =
  /** This caller compares, tells the shop, and then commits or releases. */
  | {
      /** `claimed`: this caller holds the invoice's books until it commits or releases (or `holdMs` lapses). */
      state: 'claimed';
      /** The entry before this change, if the books have one. */
      last: BooksEntry | undefined;
      /** Writes the new entry and ends the claim; a no-op answering false when another caller holds the claim now (this one lapsed). */
      commit(entry: BooksEntry): Promise<boolean>;
      /** Ends the claim without a change. */
      release(): Promise<void>;
    }
  /** Another caller (maybe another instance) holds the books of this invoice right now: try again shortly. */
  | {
      /** `busy`: someone else holds the claim. */
      state: 'busy';
    };

/** An invoice the reconciler reads again: its id, and the terminal it was met through (see `MerchantClient.terminal`). */
export interface TrackedInvoice {
  /** The invoice id (lower case). */
  id: string;
  /** The terminal's tag, when known; else every terminal is asked. */
  terminal: string | undefined;
}

/**
 * A message held until it is delivered: the shop's webhook of one change (`id`: the change's
 * id, so one message per change however often it is handed on).
 */
export interface OutboxMessage {
  /** The message's id (the change's id): the same id is added once. */
  id: string;
  /** The body, exactly as it is sent. */
  body: string;
  /** When it was added (epoch ms). */
  createdAt: number;
  /** How many attempts were made. */
  attempts: number;
  /** Why the last attempt failed. */
  lastError?: string | undefined;
  /** When it is due (pending), or when it was given up (failed), epoch ms. */
  at: number;
}

/** The outcome of one delivery attempt ({@link CheckoutStore.outboxSettle}). */
export type OutboxOutcome =
  /** The receiver answered 2xx: never sent again. */
  | {
      /** `true`. */
      delivered: true;
    }
  /** It failed: tried again at `nextAt`, or given up (failed, listed) without one. */
  | {
      /** `false`. */
      delivered: false;
      /** Why: the status the receiver answered, or the network's error. */
      error: string;
      /** When to try again (epoch ms); absent: give up. */
      nextAt?: number | undefined;
    };

/** One entry of an invoice's journal as a store keeps it (journal/ owns what the text says). */
export interface JournalRecord {
  /** Its number in the invoice's journal: 1 for the first entry ever written, never reused. */
  seq: number;
  /** The entry (JSON text, at most the journal's entry cap). */
  entry: string;
}

/** What {@link JournalStore.append} writes besides the entry: how to find the invoice again. */
export interface JournalAppend {
  /** When the entry was made (epoch ms): the journal is kept `ttlMs` after its last entry. */
  at: number;
  /** The entry (JSON text). */
  entry: string;
  /** The shop's order id, when this entry knows it: the invoice is then found by it. */
  orderId?: string | undefined;
  /** The invoice is open until this deadline (epoch ms): listed as overdue past it; `false`: it is settled, no longer listed. */
  open?: number | false | undefined;
}

/**
 * The journal of each invoice (src/server/journal/): a bounded list of entries, newest kept,
 * each journal kept `ttlMs` after its last entry. Optional, so that a store of the shop's own
 * still type-checks; the kit's three stores keep it.
 */
export interface JournalStore {
  /** Appends an entry; keeps the newest `maxEntries` of the invoice; answers the entry's `seq`. */
  append(invoiceId: string, append: JournalAppend, limits: { maxEntries: number; ttlMs: number }): Promise<number>;
  /** The newest `limit` entries, newest first, and how many were ever written (`total`: the last `seq`). */
  read(invoiceId: string, limit: number): Promise<{ records: JournalRecord[]; total: number }>;
  /** The invoices whose journal names order `orderId` (at most `limit`). */
  find(orderId: string, limit: number): Promise<string[]>;
  /** Invoices still open whose deadline passed before `now`, oldest deadline first. */
  overdue(now: number, limit: number): Promise<{ invoiceId: string; deadline: number }[]>;
}

/** A subscription to the store's updates. */
export interface StoreSubscription {
  /** Stops the listener. */
  close(): Promise<void>;
}

/** What a subscriber is told: every recorded update, and when the store is back after a failure. */
export interface StoreListener {
  /** A new state recorded by any instance (this one included). */
  update(update: InvoiceUpdate): void;
  /** The store came back after a failure: updates may have been missed, so refresh what you show. */
  resumed?(): void;
}

/**
 * Everything the two handlers need to agree on across instances. Every method may reject when
 * the backing service is down: the proxy then keeps serving reads (and polls by itself), and
 * the notification receiver answers 5xx so that the service delivers again.
 */
export interface CheckoutStore {
  /** The last state recorded for the invoice, if any. */
  lastSeen(id: string): Promise<InvoiceMark | undefined>;
  /**
   * Records `update` as the invoice's latest state unless it is older news than the last one
   * recorded (`isStale`: older news, or a terminal status moving to another) or the same state again; when recorded, every subscriber of
   * every instance receives it. Answers whether it was recorded.
   */
  record(update: InvoiceUpdate): Promise<boolean>;
  /** Receives every recorded update, from every instance. */
  subscribe(listener: StoreListener): Promise<StoreSubscription>;
  /**
   * Whether this caller should read the invoice from the service now: true for one caller per
   * invoice per `intervalMs` across all instances.
   */
  claimRefresh(id: string, intervalMs: number): Promise<boolean>;
  /**
   * Claims the one dispute of invoice `id` across all instances: a claim, or undefined when
   * the invoice's dispute is already made or being made. An unsettled claim lapses after
   * `holdMs`; a kept one is remembered (memory: up to the store's size; Redis: `disputeTtlMs`).
   */
  claimDispute(id: string, holdMs: number): Promise<DisputeClaim | undefined>;
  /**
   * Claims the books of invoice `id` across all instances: the caller compares a new state
   * with `last`, tells the shop of a change, then commits it (or releases). An unsettled claim
   * lapses after `holdMs`.
   */
  claimBooks(id: string, holdMs: number): Promise<BooksClaim>;
  /** Tracks invoice `id` for the reconciler, due to be read at `dueAt` (epoch ms), with its terminal's tag when known. */
  track(id: string, terminal: string | undefined, dueAt: number): Promise<void>;
  /** Sets when a tracked invoice is read next; nothing for one not tracked. */
  reschedule(id: string, dueAt: number): Promise<void>;
  /** Stops tracking invoice `id` (it is settled). */
  untrack(id: string): Promise<void>;
  /**
   * Claims up to `limit` tracked invoices due by `now`: each is moved to `now + leaseMs`, so
   * that no other instance reads it meanwhile; the caller reschedules (or untracks) each.
   */
  claimDue(now: number, limit: number, leaseMs: number): Promise<TrackedInvoice[]>;
  /** How many invoices are tracked (for health checks and tests). */
  trackedCount(): Promise<number>;
  /**
   * Adds a message, due at `dueAt`: false (nothing added) when a message with its id is
   * pending, failed, or was delivered within `deliveredTtlMs` of the store (30 days).
   */
  outboxAdd(message: { id: string; body: string; createdAt: number }, dueAt: number): Promise<boolean>;
  /** Claims up to `limit` pending messages due by `now`, each moved to `now + leaseMs` meanwhile. */
  outboxClaim(now: number, limit: number, leaseMs: number): Promise<OutboxMessage[]>;
  /** Records an attempt's outcome: delivered (kept as done), retried at `nextAt`, or failed. */
  outboxSettle(id: string, outcome: OutboxOutcome, now: number): Promise<void>;
  /** Messages still pending or given up, oldest first. */
  outboxList(state: 'pending' | 'failed', limit: number): Promise<OutboxMessage[]>;
  /** Makes a pending or failed message due at `now` (a redelivery asked for by hand); false when there is none. */
  outboxRedeliver(id: string, now: number): Promise<boolean>;
  /** The invoices' journals (the kit's three stores keep them; a store without one keeps no journal). */
  journal?: JournalStore;
  /**
   * Proves the store can record now (a write on disk, a round trip to Redis); rejects with what
   * is wrong. The gateway's `/readyz` asks it. A store without it is asked `trackedCount()`.
   */
  check?(): Promise<void>;
  /** Releases connections and timers the store made itself. */
  close(): Promise<void>;
}

export const isTerminal = (status: string): boolean => TERMINAL_INVOICE_STATUSES.includes(status);

export const markOf = (invoice: Invoice): InvoiceMark => ({ status: invoice.status, updatedAt: instant(invoice.updatedAt) });

/**
 * Whether `next` is older news than `last`: by the service's `updatedAt` when both have one (a
 * later state may move a final status on: the documented `paid` → `dispute`, `expired` →
 * `dispute` → `paid`); without timestamps to order them, a final status never moves to another.
 */
export const isStale = (next: InvoiceMark, last: InvoiceMark | undefined): boolean => {
  if (!last) return false;
  if (next.updatedAt !== undefined && last.updatedAt !== undefined) return next.updatedAt < last.updatedAt;
  return isTerminal(last.status) && next.status !== last.status;
};

/** The mark kept after `next` was recorded over `last` (a state without `updatedAt` keeps the last one's). */
export const nextMark = (next: InvoiceMark, last: InvoiceMark | undefined): InvoiceMark => ({
  status: next.status,
  updatedAt: next.updatedAt ?? last?.updatedAt,
});

/** Fields of the service's invoice that never leave the merchant's server, not even into the store. */
const SECRET_FIELDS = ['notificationToken'] as const;

/** The invoice without its secrets: what the store keeps and sends to other instances. */
export const withoutSecrets = (invoice: Invoice): Invoice => {
  if (!SECRET_FIELDS.some((field) => Object.hasOwn(invoice, field))) return invoice;
  const copy: Record<string, unknown> = { ...invoice };
  for (const field of SECRET_FIELDS) delete copy[field];
  return copy as Invoice;
};
