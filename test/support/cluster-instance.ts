/**
 * One instance of a shop's server for the multi-instance tests and benchmarks: the checkout
 * proxy at `/checkout-api` and the notification receiver at `/notify`, sharing a Redis store,
 * reading the mock service. Run as a child process (`node --import tsx cluster-instance.ts`)
 * with its settings in the environment; it reports on its IPC channel:
 *
 * - `{ type: 'listening', url }` once it serves;
 * - `{ type: 'notification', id, status, updatedAt }` for every `onNotification` call.
 *
 * `GET /health/store` answers 200 when a store command succeeds, 503 otherwise.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  MerchantClient,
  createMemoryStore,
  createNodeFetch,
  createCheckoutServer,
  toNodeHandler,
  type CheckoutStore,
} from '../../src/server/node.js';
import { createRedisStore } from '../../src/server/redis.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`cluster-instance: ${name} is not set`);
  return value;
};

const store: CheckoutStore = process.env.REDIS_URL
  ? createRedisStore({ url: process.env.REDIS_URL, prefix: process.env.REDIS_PREFIX ?? 'test:', commandTimeoutMs: 500 })
  : createMemoryStore();
let upstreamCalls = 0;
const nodeFetch = createNodeFetch();
const client = new MerchantClient({
  baseUrl: env('MOCK_URL'),
  apiKey: env('API_KEY'),
  secretKey: env('SECRET_KEY'),
  fetch: (request) => {
    upstreamCalls++;
    return nodeFetch(request);
  },
});
const events = process.env.EVENTS_REFRESH_MS ? { refreshIntervalMs: Number(process.env.EVENTS_REFRESH_MS) } : {};
// The kit: one store (Redis, shared by the instances) for the proxy, the receiver and the books.
const kit = createCheckoutServer({
  client,
  store,
  basePath: '/checkout-api',
  authorize: () => true,
  // `JOURNAL=off`: no journal (bench/events-ab.ts against a copy from before the journal).
  ...(process.env.JOURNAL === 'off' ? { journal: false as const } : {}),
  events,
  timeoutMs: 5000,
  handlerTimeoutMs: 2000,
  notifications: { token: env('NOTIFICATION_TOKEN'), path: '/notify' },
  reconcile: process.env.RECONCILE === 'on' ? { tickMs: 200 } : false,
  onChange: (change) => {
    const { invoice } = change;
    process.send?.({
      type: 'notification',
      id: invoice.id,
      status: invoice.status,
      updatedAt: invoice.updatedAt ?? null,
      kind: change.kind,
      source: change.source,
    });
  },
});

const handler = async (request: Request): Promise<Response> => {
  const { pathname } = new URL(request.url);
  if (pathname === '/health/store') {
    try {
      await store.lastSeen('00000000-0000-4000-8000-000000000000');
      return new Response('ok');
    } catch {
      return new Response('down', { status: 503 });
    }
  }
  if (pathname === '/stats') {
    // With --expose-gc (benchmarks), what is retained rather than what awaits collection.
    (globalThis as { gc?: () => void }).gc?.();
    const memory = process.memoryUsage();
    return Response.json({ upstreamCalls, rss: memory.rss, heapUsed: memory.heapUsed });
  }
  return kit.fetch(request);
};

const server = createServer(toNodeHandler(handler));
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'listening', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on('disconnect', () => process.exit(0));
