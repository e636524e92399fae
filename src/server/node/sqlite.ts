/**
 * Opens the SQLite store's database file in Node. Node-only: the entry `merchant-checkout/sqlite`
 * imports it; the store itself (store/sqlite.ts) takes any binding.
 *
 * The binding is Node's own `node:sqlite` from Node 24 on, where it loads without an
 * ExperimentalWarning (measured on 24.21 and 26.10; 22.23 still prints one), and on Node 22
 * better-sqlite3 (an optional dependency, a native module, loaded only when a SQLite store is made).
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { BUSY_TIMEOUT_MS, type SqliteDatabase } from '../store/sqlite.js';

/** The first Node line whose `node:sqlite` loads without an ExperimentalWarning. */
export const NODE_SQLITE_SINCE = 24;

type Open = (path: string, options: { timeout: number }) => SqliteDatabase;

const require = createRequire(import.meta.url);

/** Which binding opens a file on this runtime: `node:sqlite` on Node ≥ 24 (not under Bun, which is not Node), else better-sqlite3. */
export const sqliteBinding = (): 'node:sqlite' | 'better-sqlite3' =>
  Number(process.versions.node.split('.')[0]) >= NODE_SQLITE_SINCE && process.versions.bun === undefined ? 'node:sqlite' : 'better-sqlite3';

const load = (): Open => {
  if (sqliteBinding() === 'node:sqlite') {
    const { DatabaseSync } = require('node:sqlite') as { DatabaseSync: new (path: string, options: { timeout: number }) => SqliteDatabase };
    return (path, options) => new DatabaseSync(path, options);
  }
  let Database: new (path: string, options: { timeout: number }) => SqliteDatabase;
  try {
    Database = require('better-sqlite3') as typeof Database;
  } catch (error) {
    throw new Error(
      `the SQLite store needs the package better-sqlite3 on Node ${process.versions.node} (npm install better-sqlite3; Node ${NODE_SQLITE_SINCE} and later need none): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return (path, options) => new Database(path, options);
};

/** Opens (and creates, with its folder) the database file at `path`; a clear error when it cannot. */
export const openSqliteFile = (path: string): SqliteDatabase => {
  const open = load();
  try {
    mkdirSync(dirname(path), { recursive: true });
    return open(path, { timeout: BUSY_TIMEOUT_MS });
  } catch (error) {
    throw new Error(`cannot open the SQLite store at ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
};
