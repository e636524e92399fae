/**
 * `merchant-checkout/sqlite`: the kit's store in an embedded SQLite database, durable on one
 * server: the books, the tracked invoices and the shop's webhooks are on disk before anything
 * is answered, and a restart (a deploy, a crash, a SIGKILL, a power cut) loses none of them.
 * Its own entry, so that `merchant-checkout/server` never names better-sqlite3 (an optional
 * dependency, a native module).
 *
 * ```ts
 * import { createSqliteStore } from 'merchant-checkout/sqlite';
 * const kit = createCheckoutServer({ client, authorize, store: createSqliteStore({ path: './data/checkout.db' }) });
 * ```
 *
 * One process per file: several instances share a Redis store instead (`merchant-checkout/redis`).
 *
 * @module sqlite
 */
import { openSqliteFile } from './node/sqlite.js';
import { checkOptions, type OptionShapeOf } from './options-check.js';
import { sqliteStore, type SqliteDatabase, type SqliteStoreLimits } from './store/sqlite.js';
import type { CheckoutStore } from './store/types.js';

export type { SqliteDatabase, SqliteStatement, SqliteStoreLimits } from './store/sqlite.js';

/** Options of {@link createSqliteStore}: the file (or an open database), and how long what is settled is kept. */
export interface SqliteStoreOptions extends SqliteStoreLimits {
  /** The database file; created, with its folder, when missing. */
  path?: string;
  /**
   * An open database of another synchronous binding instead of `path` (`new DatabaseSync(file)`
   * of `node:sqlite`, `new Database(file)` of `bun:sqlite`); the store closes it on `close()`.
   */
  database?: SqliteDatabase;
}

/** The keys `createSqliteStore` takes (options-check.ts). */
const SQLITE_STORE_OPTIONS = {
  path: true,
  database: true,
  booksTtlMs: true,
  deliveredTtlMs: true,
  maxEntries: true,
} as const satisfies OptionShapeOf<SqliteStoreOptions>;

/**
 * The store in a SQLite file (WAL, every change committed with a full sync before it is
 * acknowledged). Throws at once when the file cannot be opened, is not a database, or was
 * written by a newer version.
 */
export const createSqliteStore = (options: SqliteStoreOptions): CheckoutStore => {
  checkOptions('createSqliteStore', options, SQLITE_STORE_OPTIONS);
  const { path, database, ...limits } = options;
  if ((path === undefined) === (database === undefined)) throw new TypeError('createSqliteStore: give exactly one of path and database');
  if (path !== undefined && (typeof path !== 'string' || path === '')) throw new TypeError('createSqliteStore: path must be a file path');
  const db = database ?? openSqliteFile(path!);
  try {
    return sqliteStore(db, limits);
  } catch (error) {
    db.close();
    const where = path === undefined ? 'the database given' : path;
    throw new Error(`cannot use the SQLite store at ${where}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
};
