/**
 * Opens the SQLite store's database file in Node, through better-sqlite3 (an optional
 * dependency, loaded only when a SQLite store is made). Node-only: the entry
 * `merchant-checkout/sqlite` imports it; the store itself (store/sqlite.ts) takes any binding.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { BUSY_TIMEOUT_MS, type SqliteDatabase } from '../store/sqlite.js';

type BetterSqlite3 = new (path: string, options?: { timeout?: number }) => SqliteDatabase;

const load = (): BetterSqlite3 => {
  try {
    return createRequire(import.meta.url)('better-sqlite3') as BetterSqlite3;
  } catch (error) {
    throw new Error(
      `the SQLite store needs the package better-sqlite3 (npm install better-sqlite3): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
};

/** Opens (and creates, with its folder) the database file at `path`; a clear error when it cannot. */
export const openSqliteFile = (path: string): SqliteDatabase => {
  const Database = load();
  try {
    mkdirSync(dirname(path), { recursive: true });
    return new Database(path, { timeout: BUSY_TIMEOUT_MS });
  } catch (error) {
    throw new Error(`cannot open the SQLite store at ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
};
