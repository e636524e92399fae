/**
 * The shop of app.js as a Cloudflare Worker (workerd, without `nodejs_compat`): made at the
 * first request from the Worker's bindings, on the memory store (a Worker's instance keeps its
 * globals between requests; a real deployment keeps the state in a Durable Object or an external
 * Redis, see docs/server.md). Bundled by the test with esbuild, as wrangler would.
 */
import * as server from 'merchant-checkout/server';
import { shopApp } from './app.js';

let app;

export default {
  fetch(request, env) {
    app ??= shopApp(server, env);
    return app(request);
  },
};
