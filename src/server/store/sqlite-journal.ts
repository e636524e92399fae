/**
 * The invoices' journals in the SQLite store (sqlite.ts): `journal` holds the entries,
 * `journal_heads` one row per invoice (the last `seq`, the last entry's time, the order id, and
 * the deadline of an invoice still open). An entry is written without the full sync (as a
 * lease is): a crash of the process keeps it (WAL), a power cut may lose the last ones; the
 * books and the outbox, which money depends on, keep their full sync.
 */
import type { JournalStore } from './types.js';

/** What the journal needs of the store's database (sqlite.ts's `SqliteDatabase` is one). */
interface JournalDatabase {
  prepare(sql: string): { run(...params: unknown[]): unknown; get(...params: unknown[]): unknown; all(...params: unknown[]): unknown[] };
}

export const JOURNAL_SCHEMA = `
CREATE TABLE IF NOT EXISTS journal (invoice_id TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (invoice_id, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS journal_heads (
  invoice_id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  last_at INTEGER NOT NULL,
  order_id TEXT,
  deadline INTEGER
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS journal_heads_order ON journal_heads (order_id) WHERE order_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS journal_heads_deadline ON journal_heads (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX IF NOT EXISTS journal_heads_last ON journal_heads (last_at);
`;

/** How often, at most, journals past their time are removed (on an append). */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * The journal over the store's database: `transaction` writes without the full sync, `step`
 * answers a synchronous step as a promise (sqlite.ts's own).
 */
export const sqliteJournal = (
  db: JournalDatabase,
  transaction: <T>(work: () => T) => T,
  step: <T>(work: () => T) => Promise<T>,
): JournalStore => {
  const statements = {
    head: db.prepare('SELECT seq, last_at FROM journal_heads WHERE invoice_id = ?'),
    writeHead: db.prepare(
      `INSERT INTO journal_heads (invoice_id, seq, last_at, order_id, deadline) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (invoice_id) DO UPDATE SET seq = excluded.seq, last_at = excluded.last_at,
         order_id = coalesce(excluded.order_id, journal_heads.order_id),
         deadline = CASE WHEN ? = 'keep' THEN journal_heads.deadline ELSE excluded.deadline END`,
    ),
    add: db.prepare('INSERT INTO journal (invoice_id, seq, entry) VALUES (?, ?, ?)'),
    trim: db.prepare('DELETE FROM journal WHERE invoice_id = ? AND seq <= ?'),
    forget: db.prepare('DELETE FROM journal WHERE invoice_id = ?'),
    read: db.prepare('SELECT seq, entry FROM journal WHERE invoice_id = ? ORDER BY seq DESC LIMIT ?'),
    find: db.prepare('SELECT invoice_id FROM journal_heads WHERE order_id = ? LIMIT ?'),
    overdue: db.prepare(
      'SELECT invoice_id, deadline FROM journal_heads WHERE deadline IS NOT NULL AND deadline < ? ORDER BY deadline LIMIT ?',
    ),
    pruneEntries: db.prepare('DELETE FROM journal WHERE invoice_id IN (SELECT invoice_id FROM journal_heads WHERE last_at < ?)'),
    pruneHeads: db.prepare('DELETE FROM journal_heads WHERE last_at < ?'),
  };
  let prunedAt = 0;
  return {
    append: (invoiceId, append, { maxEntries, ttlMs }) =>
      step(() =>
        transaction(() => {
          const now = append.at;
          if (now - prunedAt >= PRUNE_EVERY_MS) {
            prunedAt = now;
            statements.pruneEntries.run(now - ttlMs);
            statements.pruneHeads.run(now - ttlMs);
          }
          // No row is `undefined` in node:sqlite and better-sqlite3, `null` in bun:sqlite.
          const head = (statements.head.get(invoiceId) ?? undefined) as { seq: number; last_at: number } | undefined;
          // A journal past its time (not pruned yet) starts again, as a pruned one would.
          const expired = head !== undefined && Number(head.last_at) + ttlMs < now;
          if (expired) statements.forget.run(invoiceId);
          const seq = head === undefined || expired ? 1 : Number(head.seq) + 1;
          const deadline = append.open === undefined || append.open === false ? null : Math.floor(append.open);
          statements.writeHead.run(
            invoiceId,
            seq,
            Math.floor(now),
            append.orderId ?? null,
            deadline,
            append.open === undefined ? 'keep' : 'set',
          );
          statements.add.run(invoiceId, seq, append.entry);
          if (seq > maxEntries) statements.trim.run(invoiceId, seq - maxEntries);
          return seq;
        }),
      ),
    read: (invoiceId, limit) =>
      step(() => {
        const head = (statements.head.get(invoiceId) ?? undefined) as { seq: number } | undefined;
        const rows = statements.read.all(invoiceId, Math.max(0, Math.floor(limit))) as { seq: number; entry: string }[];
        return { records: rows.map((row) => ({ seq: Number(row.seq), entry: row.entry })), total: Number(head?.seq ?? 0) };
      }),
    find: (orderId, limit) =>
      step(() => (statements.find.all(orderId, Math.max(0, Math.floor(limit))) as { invoice_id: string }[]).map((row) => row.invoice_id)),
    overdue: (now, limit) =>
      step(() =>
        (statements.overdue.all(Math.floor(now), Math.max(0, Math.floor(limit))) as { invoice_id: string; deadline: number }[]).map(
          (row) => ({ invoiceId: row.invoice_id, deadline: Number(row.deadline) }),
        ),
      ),
  };
};
