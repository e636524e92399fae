/**
 * The gateway as a Node process: its store (SQLite in `GATEWAY_DATA_DIR`, Redis with `REDIS_URL`,
 * memory for tests), a client per
 * terminal, the gateway on `node:http` with the deadlines a public server needs and bodies as
 * large as the receipts it takes, a JSON log line per request, and a graceful stop: on SIGTERM
 * `/readyz` turns 503, no new connection is taken, requests under way (a notification being
 * recorded and told to the shop included) finish within `GATEWAY_SHUTDOWN_MS`, then the event
 * streams are ended (browsers reconnect elsewhere) and the store is closed.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createMemoryStore, createNodeServer, nodePlatform, type CheckoutStore, type MerchantClient } from '../server/node.js';
import { terminalClients } from './env.js';
import { createRedisStore, RedisSettingWarning, type RedisStore } from '../server/redis.js';
import { createSqliteStore } from '../server/sqlite.js';
import { metrics } from '@opentelemetry/api';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { createGateway, pathOf, type Gateway, type GatewayLog } from './app.js';
import type { GatewayConfig } from './settings.js';

export interface RunningGateway {
  url: string;
  gateway: Gateway;
  server: Server;
  store: CheckoutStore;
  /** Requests under way (a notification being handled, a read; not the open event streams). */
  inFlight(): number;
  /** Stops gracefully (see the module's header); resolves once everything is closed. */
  stop(): Promise<void>;
}

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;

/**
 * JSON lines on `write`, from `least` up. The lines of one turn of the event loop go in one
 * `write` (a pipe's write is a system call each: one per request was a tenth of a read's
 * cost), at the latest when the turn ends; a warning or an error goes at once, with what
 * came before it.
 */
export const jsonLog = (least: keyof typeof LEVELS, write: (line: string) => void): GatewayLog => {
  let pending = '';
  const flush = () => {
    const text = pending;
    pending = '';
    if (text) write(text);
  };
  return (level, message, fields = {}) => {
    if (LEVELS[level] < LEVELS[least]) return;
    if (pending === '' && level !== 'warn' && level !== 'error') setImmediate(flush);
    pending += `${JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields })}\n`;
    if (level === 'warn' || level === 'error' || pending.length > 65_536) flush();
  };
};

/** The value of `GATEWAY_DATA_DIR` that keeps the store in memory (tests only). */
export const IN_MEMORY = ':memory:';

/** Which store the settings choose: Redis with `REDIS_URL`, else memory for `:memory:`, else SQLite in the data folder. */
export const storeKind = (config: GatewayConfig): 'redis' | 'memory' | 'sqlite' =>
  config.redisUrl ? 'redis' : config.dataDir === IN_MEMORY ? 'memory' : 'sqlite';

/** The database file of the SQLite store in the data folder. */
export const databaseFile = (config: GatewayConfig): string => resolve(config.dataDir, 'checkout.db');

/**
 * The gateway's store: Redis with `REDIS_URL` (its connection errors, and each setting of Redis
 * that can lose data, a `warn` line: `{"msg":"redis setting","setting":"appendonly",…}`), else
 * memory for `:memory:` (saying what a restart loses), else SQLite in the data folder.
 */
export const storeFor = (config: GatewayConfig, log: GatewayLog): CheckoutStore | RedisStore => {
  switch (storeKind(config)) {
    case 'redis':
      return createRedisStore({
        url: config.redisUrl!,
        prefix: config.redisPrefix,
        onError: (error) =>
          error instanceof RedisSettingWarning
            ? log('warn', 'redis setting', { setting: error.setting, value: error.value, advice: error.message })
            : log('warn', 'redis', { error: error instanceof Error ? error.message : String(error) }),
      });
    case 'memory':
      return createMemoryStore({ warn: (message) => log('warn', message, { setting: 'GATEWAY_DATA_DIR' }) });
    case 'sqlite':
      return createSqliteStore({ path: databaseFile(config) });
  }
};

export const clientsFor = (config: GatewayConfig): MerchantClient[] =>
  terminalClients(config.serviceUrl, config.terminals, { timeoutMs: config.timeoutMs });

/**
 * The kit's metrics (src/server/telemetry.ts) for `GET /metrics`: an OpenTelemetry meter
 * provider registered for the process, read as Prometheus text; unless the process has one.
 */
const prometheus = (): { text: () => Promise<string>; stop: () => Promise<void> } => {
  const exporter = new PrometheusExporter({ preventServerStart: true });
  const provider = new MeterProvider({ readers: [exporter] });
  const registered = metrics.setGlobalMeterProvider(provider);
  const serializer = new PrometheusSerializer();
  return {
    text: async () => serializer.serialize((await exporter.collect()).resourceMetrics),
    stop: async () => {
      await provider.shutdown();
      if (registered) metrics.disable();
    },
  };
};

/** The element's files the gateway serves at `/element/…`: the CDN build and its integrity list. */
const ELEMENT_FILE = /^\/element\/(merchant-checkout(?:-[a-z0-9-]+)?\.js|integrity\.json)$/;
/** Where they are: beside the built gateway (`dist/node/` → `dist/cdn/`); absent when run from source. */
const ELEMENT_DIR = new URL('../cdn/', import.meta.url);

/**
 * `GET /element/merchant-checkout.js` (and its lazy chunks): the element from the gateway's own
 * package, so a shop's page loads it from the gateway, no third party. Readable from any
 * origin (a module script on the shop's page is a CORS request); cached for an hour.
 */
const elementFile = async (request: Request, path: string): Promise<Response | undefined> => {
  if ((request.method !== 'GET' && request.method !== 'HEAD') || !path.startsWith('/element/')) return undefined;
  const name = ELEMENT_FILE.exec(path)?.[1];
  if (!name) return undefined;
  let body: Buffer;
  try {
    body = await readFile(new URL(name, ELEMENT_DIR));
  } catch {
    return Response.json({ error: { code: 'not_found', message: 'no such file of the element here' } }, { status: 404 });
  }
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
    headers: {
      'content-type': name.endsWith('.json') ? 'application/json' : 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=3600',
      'access-control-allow-origin': '*',
      'x-content-type-options': 'nosniff',
    },
  });
};

/** How far the wall clock may move against the monotonic one between two looks before it is logged, in ms. */
const CLOCK_JUMP_MS = 5_000;

/**
 * Logs a jump of the wall clock (NTP stepping it, a VM resumed): the reconciler's and the
 * webhooks' schedules are wall-clock times kept in the store, so a jump back delays them by as
 * much, a jump forward makes them due early. Claims held in memory use a monotonic clock.
 */
export const watchClock = (log: GatewayLog, everyMs = 5_000): { stop(): void } => {
  let wall = Date.now();
  let steady = performance.now();
  const timer = setInterval(() => {
    const [nextWall, nextSteady] = [Date.now(), performance.now()];
    const jumpMs = nextWall - wall - (nextSteady - steady);
    if (Math.abs(jumpMs) > CLOCK_JUMP_MS)
      log('warn', 'the clock jumped', { byMs: Math.round(jumpMs), effect: 'scheduled reads and webhook retries move by as much' });
    [wall, steady] = [nextWall, nextSteady];
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
};

export const startGateway = async (config: GatewayConfig, log: GatewayLog): Promise<RunningGateway> => {
  const store = storeFor(config, log);
  const exposition = prometheus();
  const clock = watchClock(log);
  const gateway = createGateway(config, {
    clients: clientsFor(config),
    store,
    log,
    metricsText: exposition.text,
    platform: nodePlatform(),
  });
  const handler = async (request: Request): Promise<Response> => {
    const started = performance.now();
    const path = pathOf(request.url);
    const response = (await elementFile(request, path)) ?? (await gateway.fetch(request));
    // The path only: a query could carry what is nobody's business in a log.
    log('info', 'request', { method: request.method, path, status: response.status, ms: Math.round(performance.now() - started) });
    return response;
  };
  const server = createNodeServer(handler, { maxBodyBytes: config.maxUploadBytes, requestTimeoutMs: config.uploadTimeoutMs + 10_000 });
  /** Answers not yet written to their end: a stop waits for them (an event stream is ended instead). */
  const open = new Set<ServerResponse>();
  let idle: (() => void) | undefined;
  const underWay = () => [...open].filter((res) => !String(res.getHeader('content-type') ?? '').startsWith('text/event-stream')).length;
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    open.add(res);
    res.once('close', () => {
      open.delete(res);
      // Counted only while a stop waits (it walks every open answer, event streams included).
      if (idle && underWay() === 0) idle();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  log('info', 'listening', {
    url,
    store: storeKind(config),
    ...(storeKind(config) === 'sqlite' ? { database: databaseFile(config) } : {}),
    terminals: config.terminals.length,
    webhook: Boolean(config.webhookUrl),
  });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      log('info', 'stopping', { underWay: underWay() });
      gateway.drain();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (underWay() > 0) {
        await Promise.race([
          new Promise<void>((resolve) => (idle = resolve)),
          new Promise<void>((resolve) => setTimeout(resolve, config.shutdownMs).unref()),
        ]);
      }
      // What is left open is event streams (and requests past the grace): ended now.
      server.closeAllConnections();
      await closed;
      await gateway.close();
      await store.close();
      await exposition.stop();
      clock.stop();
      log('info', 'stopped');
    })());
  return { url, gateway, server, store, stop, inFlight: underWay };
};
