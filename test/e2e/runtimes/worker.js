/**
 * The shop of app.js as a Cloudflare Worker (workerd, without `nodejs_compat`): made at the
 * first request or scheduled event from the Worker's bindings, on the memory store (a Worker's
 * instance keeps its globals between requests; a real deployment keeps the state in a Durable
 * Object or an external Redis, see docs/server.md). Its `scheduled` handler (a Cron Trigger)
 * reconciles: `kit.reconciler.drain({ budgetMs })`. Bundled by the test with esbuild, as
 * wrangler would.
 */
import * as server from 'merchant-checkout/server';
import { shopApp } from './app.js';

/** How long one scheduled event may read from the service, in ms. */
const DRAIN_BUDGET_MS = 5000;

let app;

export default {
  fetch(request, env) {
    app ??= shopApp(server, env);
    return app.fetch(request);
  },
  scheduled(controller, env, ctx) {
    app ??= shopApp(server, env);
    ctx.waitUntil(app.drain(DRAIN_BUDGET_MS));
  },
};
