/**
 * The shop of app.js served by Deno (`Deno.serve`), the kit on SQLite through Deno's
 * `node:sqlite` (the store takes any synchronous binding). Prints `{"url": …}` once it listens.
 */
import { DatabaseSync } from 'node:sqlite';
import * as server from 'merchant-checkout/server';
import { createSqliteStore } from 'merchant-checkout/sqlite';
import { shopApp } from './app.js';

const { Deno } = globalThis;
const env = Deno.env.toObject();
const store = createSqliteStore({ database: new DatabaseSync(env.DATABASE_FILE) });
const app = shopApp(server, env, store);
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(env.PORT),
    onListen: ({ hostname, port }) =>
      console.log(JSON.stringify({ url: `http://${hostname}:${port}`, runtime: `deno ${Deno.version.deno}` })),
  },
  app,
);
