/**
 * The shop of app.js served by Bun (`Bun.serve`), the kit on the store `STORE` names: SQLite
 * through `bun:sqlite` (the store takes any synchronous binding) in `DATABASE_FILE`, or Redis
 * through the `redis` package (app.js, `storeOf`). Prints `{"url": …}` once it listens.
 */
import { Database } from 'bun:sqlite';
import * as redis from 'merchant-checkout/redis';
import * as server from 'merchant-checkout/server';
import * as sqlite from 'merchant-checkout/sqlite';
import { shopApp, storeOf } from './app.js';

const { env } = process;
const app = shopApp(
  server,
  env,
  storeOf(env, redis, sqlite, () => new Database(env.DATABASE_FILE)),
);
const listening = globalThis.Bun.serve({ hostname: '127.0.0.1', port: Number(env.PORT), fetch: app.fetch });
console.log(JSON.stringify({ url: listening.url.href.replace(/\/$/, ''), runtime: `bun ${globalThis.Bun.version}` }));
