/**
 * The journal of each invoice (docs/console.md): "where is my payment?" answered from one
 * place. Writers note entries as things happen; a note never waits and never fails the work it
 * tells of (a notification's acknowledgment, a payer's answer, a webhook): the entry is written
 * in the background, in the order noted, and a failed write is told to `report` and counted. So
 * a store that is away loses journal entries, never a payment.
 *
 * Bounded: the newest `maxEntries` entries of an invoice (default 200), each at most
 * `maxEntryBytes` (default 2 048; cut and marked past it), each journal kept `keepDays` days
 * (default 30) after its last entry: the last entry of a settled invoice is its settlement (or
 * a read after it), so a journal is kept 30 days after the invoice settles.
 */
import type { CheckoutStore, JournalStore } from '../store/types.js';
import type { OptionShapeOf } from '../options-check.js';
import { decodeEntry, encodeEntry, type JournalDetails, type JournalEntry, type JournalKind } from './entry.js';
import { errorContext, type CheckoutErrorHandler } from '../http/error-context.js';

/** The journal's bounds (`createCheckoutServer({ journal })`). */
export interface JournalOptions {
  /** How many entries of one invoice are kept, the newest (default 200). */
  maxEntries?: number;
  /** The largest entry, in bytes of JSON (default 2 048); a longer one is cut and marked `truncated`. */
  maxEntryBytes?: number;
  /** How many days a journal is kept after its last entry (default 30). */
  keepDays?: number;
}

/** The keys of `journal` (options-check.ts). */
export const JOURNAL_OPTIONS = { maxEntries: true, maxEntryBytes: true, keepDays: true } as const satisfies OptionShapeOf<JournalOptions>;

/** How many entries of one invoice are kept by default. */
export const DEFAULT_JOURNAL_MAX_ENTRIES = 200;
/** The largest entry by default, in bytes of JSON. */
export const DEFAULT_JOURNAL_MAX_ENTRY_BYTES = 2048;
/** How many days a journal is kept after its last entry by default. */
export const DEFAULT_JOURNAL_KEEP_DAYS = 30;

/** Where the invoice stands, when an entry knows it: its order id, and whether it is open (until a deadline) or settled. */
export interface JournalMeta {
  /** The shop's order id (`internalId`). */
  orderId?: string | null | undefined;
  /** Open until this deadline (epoch ms), or `false`: settled. */
  open?: number | false | undefined;
}

/** One invoice's journal as answered (the console's page, `GET /v1/invoices/{id}/journal`). */
export interface JournalView {
  /** The invoice id (lower case). */
  invoiceId: string;
  /** How many entries were ever written. */
  total: number;
  /** How many of the oldest are no longer kept (past `maxEntries`). */
  dropped: number;
  /** The entries kept, newest first. */
  entries: JournalEntry[];
}

/** What the kit's parts write to, and what the console and the API read. */
export interface Journal {
  /** Whether the store keeps a journal (false: notes go nowhere; reads answer empty). */
  readonly enabled: boolean;
  /** Notes an entry in the background: never waits, never throws. */
  note(invoiceId: string, kind: JournalKind, details?: JournalDetails, meta?: JournalMeta): void;
  /** Writes an entry and waits for it (an action asked for by hand): rejects when the store does. */
  write(invoiceId: string, kind: JournalKind, details?: JournalDetails, meta?: JournalMeta): Promise<void>;
  /** The invoice's journal, its newest `limit` entries (default all kept). */
  read(invoiceId: string, limit?: number): Promise<JournalView>;
  /** The invoices of the shop's order id (at most 20). */
  find(orderId: string): Promise<string[]>;
  /** Invoices still open past their deadline, oldest first. */
  overdue(limit: number): Promise<{ invoiceId: string; deadline: string }[]>;
  /** Resolves once every entry noted so far is written (or failed): for tests and a graceful stop. */
  idle(): Promise<void>;
  /** How many notes failed to be written since this journal was made. */
  failures(): number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const positiveInteger = (value: number | undefined, fallback: number, name: string): number => {
  const chosen = value ?? fallback;
  if (!(Number.isInteger(chosen) && chosen > 0))
    throw new TypeError(`createCheckoutServer: journal.${name} must be a positive whole number`);
  return chosen;
};

/** A journal that keeps nothing (`journal: false`, or a store without `journal`). */
const noJournal = (): Journal => ({
  enabled: false,
  note: () => undefined,
  write: () => Promise.resolve(),
  read: (invoiceId) => Promise.resolve({ invoiceId: invoiceId.toLowerCase(), total: 0, dropped: 0, entries: [] }),
  find: () => Promise.resolve([]),
  overdue: () => Promise.resolve([]),
  idle: () => Promise.resolve(),
  failures: () => 0,
});

/** The journal over `store.journal`, with the kit's clock and its reporter of failures nobody waits for. */
export const createJournal = (
  store: CheckoutStore,
  options: JournalOptions | false | undefined,
  now: () => number,
  report: CheckoutErrorHandler,
): Journal => {
  if (options === false || store.journal === undefined) return noJournal();
  const maxEntries = positiveInteger(options?.maxEntries, DEFAULT_JOURNAL_MAX_ENTRIES, 'maxEntries');
  const maxEntryBytes = positiveInteger(options?.maxEntryBytes, DEFAULT_JOURNAL_MAX_ENTRY_BYTES, 'maxEntryBytes');
  if (maxEntryBytes < 128) throw new TypeError('createCheckoutServer: journal.maxEntryBytes must be at least 128');
  const keepDays = positiveInteger(options?.keepDays, DEFAULT_JOURNAL_KEEP_DAYS, 'keepDays');
  const journal: JournalStore = store.journal;
  const limits = { maxEntries, ttlMs: keepDays * DAY_MS };
  let pending = new Set<Promise<unknown>>();
  let failed = 0;
  /**
   * Notes wait for the next turn of the event loop and are then written in the order noted: a
   * SQLite write (synchronous) never runs on the stack of the work it tells of, and Redis gets
   * them in order on one connection.
   */
  let queued: { invoiceId: string; run: () => Promise<void> }[] = [];
  const flush = () => {
    const batch = queued;
    queued = [];
    for (const { invoiceId, run } of batch) {
      let written: Promise<void>;
      try {
        written = run();
      } catch (error) {
        written = Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      const settled = written.catch((error: unknown) => {
        failed++;
        report(error, errorContext('journal', undefined, invoiceId));
      });
      pending.add(settled);
      void settled.finally(() => pending.delete(settled));
    }
  };

  const write = async (
    invoiceId: string,
    kind: JournalKind,
    details: JournalDetails = {},
    meta: JournalMeta = {},
    at = now(),
  ): Promise<void> => {
    await journal.append(
      invoiceId.toLowerCase(),
      {
        at,
        entry: encodeEntry(at, kind, details, maxEntryBytes),
        orderId: typeof meta.orderId === 'string' && meta.orderId !== '' ? meta.orderId : undefined,
        open: meta.open,
      },
      limits,
    );
  };

  return {
    enabled: true,
    note: (invoiceId, kind, details, meta) => {
      const at = now();
      queued.push({ invoiceId, run: () => write(invoiceId, kind, details, meta, at) });
      if (queued.length === 1) setTimeout(flush, 0);
    },
    write,
    read: async (invoiceId, limit = maxEntries) => {
      const id = invoiceId.toLowerCase();
      const { records, total } = await journal.read(id, Math.min(Math.max(0, Math.floor(limit)), maxEntries));
      const entries = records.map((record) => decodeEntry(record.seq, record.entry));
      // Past its keeping time a journal is gone, whether or not its store has removed it yet.
      const newest = entries[0];
      if (newest === undefined || Date.parse(newest.at) + limits.ttlMs < now()) return { invoiceId: id, total: 0, dropped: 0, entries: [] };
      return { invoiceId: id, total, dropped: Math.max(0, total - maxEntries), entries };
    },
    find: (orderId) => journal.find(orderId, 20),
    overdue: async (limit) =>
      (await journal.overdue(now(), limit)).map(({ invoiceId, deadline }) => ({ invoiceId, deadline: new Date(deadline).toISOString() })),
    idle: async () => {
      while (queued.length > 0 || pending.size > 0) {
        flush();
        const waiting = pending;
        pending = new Set();
        await Promise.all(waiting);
      }
    },
    failures: () => failed,
  };
};
