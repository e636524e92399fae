/**
 * The store in an embedded SQLite database: one process, durable
 * (docs/ARCHITECTURE.md, "The store"). What must outlive the process is a table, each change one transaction committed
 * before the method's promise resolves (WAL, `synchronous = FULL`: on disk, not only in the
 * operating system's cache, so a power cut keeps it too):
 *
 * - `books`: the merchant's books of each invoice (the last state the shop was told of);
 * - `tracked`: the invoices the reconciler reads again, when each is due, and its terminal;
 * - `outbox`: the shop's webhooks, pending, given up or delivered (kept `deliveredTtlMs`);
 * - `disputes`: the invoices whose one dispute was made;
 * - `journal`, `journal_heads`: each invoice's journal (sqlite-journal.ts).
 *
 * What a restart may forget is held in memory as the memory store holds it: the last state
 * the event streams compare (a stream reads again), who holds an invoice's books for the
 * moment (a claim dies with its holder), whose turn it is to refresh, and the subscribers.
 *
 * The database is any synchronous SQLite binding with `prepare` and `exec` (better-sqlite3,
 * `node:sqlite`, `bun:sqlite`): the entry that opens it chooses (src/server/sqlite.ts).
 */
import { createMemoryStore, heldClock } from './memory.js';
import { JOURNAL_SCHEMA, sqliteJournal } from './sqlite-journal.js';
import type { BooksClaim, BooksEntry, CheckoutStore, DisputeClaim, OutboxMessage, TrackedInvoice } from './types.js';

/** One prepared statement of a synchronous SQLite binding. */
export interface SqliteStatement {
  /** Runs it with the values of its `?` (text, numbers, null); answers `{ changes }`. */
  run(...params: unknown[]): unknown;
  /** The first row, or undefined (`null` in bun:sqlite). */
  get(...params: unknown[]): unknown;
  /** Every row. */
  all(...params: unknown[]): unknown[];
}

/** What the store needs of an open database: better-sqlite3's `Database` and `node:sqlite`'s `DatabaseSync` both are one. */
export interface SqliteDatabase {
  /** Runs statements that answer nothing. */
  exec(sql: string): unknown;
  /** Prepares one statement. */
  prepare(sql: string): SqliteStatement;
  /** Closes the database. */
  close(): unknown;
}

/** What the SQLite store keeps how long, besides the database. */
export interface SqliteStoreLimits {
  /** How long an invoice's books are kept after it is settled (no longer tracked), in ms (default 30 days). */
  booksTtlMs?: number;
  /** How long a delivered webhook's id is kept (the same change is not sent again), in ms (default 30 days). */
  deliveredTtlMs?: number;
  /** How many invoices' last states, refresh turns and dispute claims are held in memory (default 1000). */
  maxEntries?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often, at most, settled books and delivered ids past their time are removed (on a write). */
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** How long a write waits for another connection's lock before it fails, in ms. */
export const BUSY_TIMEOUT_MS = 250;
/** The schema's version, kept in `PRAGMA user_version`: a newer file is refused, not misread. */
const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS books (id TEXT PRIMARY KEY, entry TEXT NOT NULL, changed_at INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tracked (id TEXT PRIMARY KEY, terminal TEXT, due_at INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tracked_due ON tracked (due_at);
CREATE TABLE IF NOT EXISTS outbox (
  id TEXT PRIMARY KEY,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  at INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'failed', 'delivered'))
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (state, at);
CREATE TABLE IF NOT EXISTS disputes (id TEXT PRIMARY KEY, kept_at INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS probe (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL);
${JOURNAL_SCHEMA}`;

const positive = (value: number | undefined, fallback: number, name: string): number => {
  const chosen = value ?? fallback;
  if (!(Number.isInteger(chosen) && chosen > 0)) throw new TypeError(`createSqliteStore: ${name} must be a positive whole number`);
  return chosen;
};

/** Prepares the database: WAL, full sync, the tables; refuses a file of a newer schema. */
const prepareDatabase = (db: SqliteDatabase): void => {
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  // Another connection's write (a backup, a second process on the file) is waited for briefly, not
  // failed at once; briefly, because the binding waits synchronously and every request waits with it.
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const { user_version: version } = db.prepare('PRAGMA user_version').get() as { user_version: number };
  if (version > SCHEMA_VERSION) {
    throw new Error(`the database was written by a newer merchant-checkout (schema ${version}, this one reads ${SCHEMA_VERSION})`);
  }
  db.exec(`BEGIN IMMEDIATE; ${SCHEMA} PRAGMA user_version = ${SCHEMA_VERSION}; COMMIT`);
};

interface OutboxRow {
  id: string;
  body: string;
  created_at: number;
  attempts: number;
  last_error: string | null;
  at: number;
}

const messageOf = (row: OutboxRow): OutboxMessage => ({
  id: row.id,
  body: row.body,
  createdAt: Number(row.created_at),
  attempts: Number(row.attempts),
  ...(row.last_error === null ? {} : { lastError: row.last_error }),
  at: Number(row.at),
});

/**
 * Runs `work` in one write transaction of `db`: all of it is on disk when this returns, or none
 * of it. A `lease` (who may read or send something for the next seconds) is written without the
 * sync: a crash of the process keeps it (WAL), a power cut may lose it, and a lost lease only
 * makes a read or a delivery come sooner (at least once). One sync less on a webhook's way.
 */
const inTransaction = <T>(db: SqliteDatabase, work: () => T, kind: 'durable' | 'lease' = 'durable'): T => {
  if (kind === 'lease') db.exec('PRAGMA synchronous = NORMAL');
  try {
    return inSyncedTransaction(db, work);
  } finally {
    if (kind === 'lease') db.exec('PRAGMA synchronous = FULL');
  }
};

const inSyncedTransaction = <T>(db: SqliteDatabase, work: () => T): T => {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    try {
      db.exec('ROLLBACK');
    } catch {
      // SQLite may have rolled back itself (a full disk, an I/O error).
    }
    throw error;
  }
};

/** A synchronous step as the store's promise: a failure (a full disk, a locked file) rejects. */
const step = <T>(work: () => T): Promise<T> => {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
};

const changed = (result: unknown): number => Number((result as { changes: number | bigint }).changes);

/** The outbox of the shop's webhooks, as the store's methods (`prune` runs now and then on a write). */
const sqliteOutbox = (db: SqliteDatabase, prune: (now: number) => void) => {
  const statements = {
    add: db.prepare(
      "INSERT INTO outbox (id, body, created_at, attempts, at, state) VALUES (?, ?, ?, 0, ?, 'pending') ON CONFLICT (id) DO NOTHING",
    ),
    due: db.prepare("SELECT * FROM outbox WHERE state = 'pending' AND at <= ? ORDER BY at LIMIT ?"),
    at: db.prepare('UPDATE outbox SET at = ? WHERE id = ?'),
    delivered: db.prepare("UPDATE outbox SET state = 'delivered', attempts = attempts + 1, at = ? WHERE id = ? AND state != 'delivered'"),
    retry: db.prepare("UPDATE outbox SET state = ?, attempts = attempts + 1, last_error = ?, at = ? WHERE id = ? AND state != 'delivered'"),
    list: db.prepare('SELECT * FROM outbox WHERE state = ? ORDER BY created_at LIMIT ?'),
    redeliver: db.prepare("UPDATE outbox SET state = 'pending', at = ? WHERE id = ? AND state != 'delivered'"),
  };
  const transaction = <T>(work: () => T): T => inTransaction(db, work);
  return {
    outboxAdd: (message, dueAt) =>
      step(() => {
        prune(Date.now());
        return changed(transaction(() => statements.add.run(message.id, message.body, message.createdAt, Math.floor(dueAt)))) === 1;
      }),
    outboxClaim: (now, count, leaseMs) =>
      step(() =>
        inTransaction(
          db,
          () => {
            const rows = statements.due.all(Math.floor(now), Math.max(0, Math.floor(count))) as OutboxRow[];
            for (const row of rows) statements.at.run(Math.floor(now + leaseMs), row.id);
            return rows.map(messageOf);
          },
          'lease',
        ),
      ),
    outboxSettle: (id, outcome, now) =>
      step(() => {
        transaction(() => {
          if (outcome.delivered) statements.delivered.run(Math.floor(now), id);
          else if (outcome.nextAt === undefined) statements.retry.run('failed', outcome.error, Math.floor(now), id);
          else statements.retry.run('pending', outcome.error, Math.floor(outcome.nextAt), id);
        });
      }),
    outboxList: (state, count) => step(() => (statements.list.all(state, Math.max(0, Math.floor(count))) as OutboxRow[]).map(messageOf)),
    outboxRedeliver: (id, now) => step(() => changed(transaction(() => statements.redeliver.run(Math.floor(now), id))) === 1),
  } satisfies Partial<CheckoutStore>;
};

/**
 * The store over an open SQLite database (see the module's header). The caller owns nothing
 * more: `close()` closes the database.
 */
export const sqliteStore = (db: SqliteDatabase, limits: SqliteStoreLimits = {}): CheckoutStore => {
  const booksTtlMs = positive(limits.booksTtlMs, 30 * DAY_MS, 'booksTtlMs');
  const deliveredTtlMs = positive(limits.deliveredTtlMs, 30 * DAY_MS, 'deliveredTtlMs');
  prepareDatabase(db);
  const volatile = createMemoryStore({ warn: false, ...(limits.maxEntries === undefined ? {} : { maxEntries: limits.maxEntries }) });

  const statements = {
    book: db.prepare('SELECT entry FROM books WHERE id = ?'),
    writeBook: db.prepare(
      'INSERT INTO books (id, entry, changed_at) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET entry = excluded.entry, changed_at = excluded.changed_at',
    ),
    track: db.prepare(
      'INSERT INTO tracked (id, terminal, due_at) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET terminal = coalesce(excluded.terminal, tracked.terminal), due_at = excluded.due_at',
    ),
    reschedule: db.prepare('UPDATE tracked SET due_at = ? WHERE id = ?'),
    untrack: db.prepare('DELETE FROM tracked WHERE id = ?'),
    due: db.prepare('SELECT id, terminal FROM tracked WHERE due_at <= ? ORDER BY due_at LIMIT ?'),
    trackedCount: db.prepare('SELECT count(*) AS n FROM tracked'),
    probe: db.prepare('INSERT INTO probe (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at'),
    disputeKept: db.prepare('SELECT 1 AS kept FROM disputes WHERE id = ?'),
    keepDispute: db.prepare('INSERT INTO disputes (id, kept_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING'),
    pruneBooks: db.prepare('DELETE FROM books WHERE changed_at < ? AND id NOT IN (SELECT id FROM tracked)'),
    pruneDelivered: db.prepare("DELETE FROM outbox WHERE state = 'delivered' AND at < ?"),
    pruneDisputes: db.prepare('DELETE FROM disputes WHERE kept_at < ?'),
  };

  const transaction = <T>(work: () => T): T => inTransaction(db, work);

  let prunedAt = 0;
  const pruneNowAndThen = (now: number) => {
    if (now - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = now;
    transaction(() => {
      statements.pruneBooks.run(now - booksTtlMs);
      statements.pruneDelivered.run(now - deliveredTtlMs);
      statements.pruneDisputes.run(now - booksTtlMs);
    });
  };

  /** Who holds an invoice's books, until when (ms): a claim is the holder's, and dies with it. */
  const booksHeld = new Map<string, { token: symbol; until: number }>();
  const claimBooks = (id: string, holdMs: number): Promise<BooksClaim> =>
    step(() => {
      const now = heldClock();
      const held = booksHeld.get(id);
      if (held && held.until > now) return { state: 'busy' } as const;
      // No row is undefined in better-sqlite3 and node:sqlite, null in bun:sqlite.
      const row = (statements.book.get(id) ?? undefined) as { entry: string } | undefined;
      const token = Symbol(id);
      booksHeld.set(id, { token, until: now + holdMs });
      const release = () => {
        if (booksHeld.get(id)?.token === token) booksHeld.delete(id);
      };
      return {
        state: 'claimed',
        last: row === undefined ? undefined : (JSON.parse(row.entry) as BooksEntry),
        commit: (entry: BooksEntry) =>
          step(() => {
            const holder = booksHeld.get(id);
            // Lapsed and claimed by another caller since: that one decides now.
            if (holder !== undefined && holder.token !== token && holder.until > heldClock()) return false;
            transaction(() => statements.writeBook.run(id, JSON.stringify(entry), Date.now()));
            release();
            return true;
          }),
        release: () => step(release),
      } as const;
    });

  const claimDispute = async (id: string, holdMs: number): Promise<DisputeClaim | undefined> => {
    if (await step(() => (statements.disputeKept.get(id) ?? undefined) !== undefined)) return undefined;
    const claim = await volatile.claimDispute(id, holdMs);
    if (!claim) return undefined;
    return {
      settle: async (outcome) => {
        if (outcome === 'kept') await step(() => transaction(() => statements.keepDispute.run(id, Date.now())));
        await claim.settle(outcome);
      },
    };
  };

  return {
    lastSeen: (id) => volatile.lastSeen(id),
    record: (update) => volatile.record(update),
    subscribe: (listener) => volatile.subscribe(listener),
    claimRefresh: (id, intervalMs) => volatile.claimRefresh(id, intervalMs),
    claimDispute,
    claimBooks,
    track: (id, terminal, dueAt) => step(() => void transaction(() => statements.track.run(id, terminal ?? null, Math.floor(dueAt)))),
    reschedule: (id, dueAt) => step(() => void inTransaction(db, () => statements.reschedule.run(Math.floor(dueAt), id), 'lease')),
    untrack: (id) =>
      step(() => {
        transaction(() => statements.untrack.run(id));
        pruneNowAndThen(Date.now());
      }),
    claimDue: (now, count, leaseMs) =>
      step(() =>
        inTransaction(
          db,
          () => {
            const rows = statements.due.all(Math.floor(now), Math.max(0, Math.floor(count))) as { id: string; terminal: string | null }[];
            for (const row of rows) statements.reschedule.run(Math.floor(now + leaseMs), row.id);
            return rows.map((row): TrackedInvoice => ({ id: row.id, terminal: row.terminal ?? undefined }));
          },
          'lease',
        ),
      ),
    trackedCount: () => step(() => Number((statements.trackedCount.get() as { n: number }).n)),
    ...sqliteOutbox(db, pruneNowAndThen),
    journal: sqliteJournal(db, (work) => inTransaction(db, work, 'lease'), step),
    check: () => step(() => void transaction(() => statements.probe.run(Date.now()))),
    close: async () => {
      await volatile.close();
      db.close();
    },
  };
};
