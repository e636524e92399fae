/**
 * The shop of app.js served by Bun (`Bun.serve`), the kit on SQLite through `bun:sqlite` (the
 * store takes any synchronous binding). Prints `{"url": …}` once it listens.
 */
import { Database } from 'bun:sqlite';
import * as server from 'merchant-checkout/server';
import { createSqliteStore } from 'merchant-checkout/sqlite';
import { shopApp } from './app.js';

const store = createSqliteStore({ database: new Database(process.env.DATABASE_FILE) });
const app = shopApp(server, process.env, store);
const listening = globalThis.Bun.serve({ hostname: '127.0.0.1', port: Number(process.env.PORT), fetch: app });
console.log(JSON.stringify({ url: listening.url.href.replace(/\/$/, ''), runtime: `bun ${globalThis.Bun.version}` }));
