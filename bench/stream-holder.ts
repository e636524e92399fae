/**
 * The process that holds the idle event streams of bench/events.ts: a shop instance as
 * test/support/cluster-instance.ts builds it (the kit, `createCheckoutServer`, on a memory
 * store, on node:http through `toNodeHandler`; an older build's two handlers on one store),
 * plus what the memory benchmark asks of it:
 *
 * - `GET /stats`: a full GC first (run it with `--expose-gc`), then RSS and heap;
 * - `GET /snapshot?file=…`: a heap snapshot written to that file (for the breakdown by kind).
 *
 * `HOLDER_KIND=floor` serves instead the least a Node server can do for one idle stream: the
 * same headers and first event written straight to `ServerResponse`, one process-wide
 * heartbeat timer. The difference between the two is what the kit adds per stream.
 *
 * Runs the kit bundled as it ships when `BENCH_KIT` names the bundle (bench/kit.ts). Reports
 * `{ type: 'listening', url }` on its IPC channel.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { writeHeapSnapshot } from 'node:v8';
import type * as ServerKit from '../src/server/node.js';

// The kit bundled as it ships (bench/kit.ts) when `BENCH_KIT` names it, else the sources through tsx.
const {
  MerchantClient,
  createCheckoutHandler,
  createCheckoutServer,
  createMemoryStore,
  createNodeFetch,
  createNotificationHandler,
  toNodeHandler,
} = (process.env.BENCH_KIT ? await import(pathToFileURL(process.env.BENCH_KIT).href) : await import('../src/server/node.js')) as Partial<
  typeof ServerKit
> &
  Omit<typeof ServerKit, 'createCheckoutServer'>;

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`stream-holder: ${name} is not set`);
  return value;
};

let upstreamCalls = 0;

const stats = () => {
  // With --expose-gc: what is retained rather than what awaits collection.
  (globalThis as { gc?: () => void }).gc?.();
  const memory = process.memoryUsage();
  return { upstreamCalls, rss: memory.rss, heapUsed: memory.heapUsed, external: memory.external, arrayBuffers: memory.arrayBuffers };
};

const kitHandler = () => {
  const store = createMemoryStore();
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
  // The kit where the build has it (this round on); the two handlers on one store before (an A/B with an older build).
  const kit = createCheckoutServer?.({
    client,
    store,
    basePath: '/checkout-api',
    authorize: () => true,
    timeoutMs: 5000,
    notifications: { token: env('NOTIFICATION_TOKEN'), path: '/notify' },
    reconcile: false,
  });
  const checkout =
    kit?.checkout ?? createCheckoutHandler({ client, store, basePath: '/checkout-api', authorize: () => true, timeoutMs: 5000 });
  const notify =
    kit?.notifications ?? createNotificationHandler({ token: env('NOTIFICATION_TOKEN'), store, onNotification: () => undefined });
  return toNodeHandler(async (request: Request): Promise<Response> => {
    const { pathname, searchParams } = new URL(request.url);
    if (pathname === '/notify') return notify(request);
    if (pathname === '/stats') return Response.json(stats());
    if (pathname === '/snapshot') return Response.json({ file: writeHeapSnapshot(searchParams.get('file') ?? undefined) });
    return checkout(request);
  });
};

const floorHandler = () => {
  const open = new Set<ServerResponse>();
  setInterval(() => {
    for (const res of open) res.write(': heartbeat\n\n');
  }, 15_000).unref();
  const data = JSON.stringify({ id: '00000000-0000-4000-8000-000000000000', status: 'new', amount: '1500.00', currency: 'RUB' });
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://holder.invalid');
    const json = (value: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (url.pathname === '/stats') return json(stats());
    if (url.pathname === '/snapshot') return json({ file: writeHeapSnapshot(url.searchParams.get('file') ?? undefined) });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
    res.write(`event: invoice\ndata: ${data}\nid: 1-0000000000000000\nretry: 3000\n\n`);
    open.add(res);
    res.on('close', () => open.delete(res));
  };
};

const server = createServer(process.env.HOLDER_KIND === 'floor' ? floorHandler() : kitHandler());
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'listening', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on('disconnect', () => process.exit(0));
