/**
 * The shop of app.js served by Deno (`Deno.serve`), the kit on the store `STORE` names: SQLite
 * through Deno's `node:sqlite` (the store takes any synchronous binding) in `DATABASE_FILE`, or
 * Redis through the `redis` package, which Deno runs by its Node compatibility from the app's
 * node_modules (app.js, `storeOf`). Prints `{"url": …}` once it listens.
 */
import { DatabaseSync } from 'node:sqlite';
import * as redis from 'merchant-checkout/redis';
import * as server from 'merchant-checkout/server';
import * as sqlite from 'merchant-checkout/sqlite';
import { shopApp, storeOf } from './app.js';

const { Deno } = globalThis;
const env = Deno.env.toObject();
const app = shopApp(
  server,
  env,
  storeOf(env, redis, sqlite, () => new DatabaseSync(env.DATABASE_FILE)),
);
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(env.PORT),
    onListen: ({ hostname, port }) =>
      console.log(JSON.stringify({ url: `http://${hostname}:${port}`, runtime: `deno ${Deno.version.deno}` })),
  },
  app.fetch,
);
