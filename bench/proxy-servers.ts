/**
 * The servers of the proxy benchmark, each in a process of its own (so each has its own event
 * loop, as in production): `node --import tsx bench/proxy-servers.ts <role>`, configured by a
 * JSON argument, printing one JSON line with its URL once it listens. Ends on SIGTERM or when
 * its parent's stdin closes.
 *
 * - `mock`: the mock service on a port, with one invoice (its lookup is what is loaded).
 * - `proxy`: `createCheckoutHandler` on node:http (`toNodeHandler`), upstream to the mock
 *   through `createNodeFetch()` (keep-alive node:http agents); the kit bundled as it ships
 *   when `BENCH_KIT` names the bundle (bench/kit.ts), else the sources through tsx.
 * - `passthrough`: the least a Node proxy can do: node:http forwarding the same upstream
 *   request (pre-signed headers) over a keep-alive agent and piping the answer back.
 * - `fetch-passthrough`: the same with the HTTP client the proxy uses, the global `fetch`
 *   (undici, keep-alive), reading the answer whole and sending it on.
 */
import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector';
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { startMockServer } from '../src/mock/index.js';
import { pathToFileURL } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { MerchantClient, signRequest } from '../src/server/node.js';
import type * as ServerKit from '../src/server/node.js';
import type { Sampler } from '@opentelemetry/sdk-trace';
import { MERCHANT, createBenchInvoice } from './fixtures.js';

/** One invoice of the mock and its lookup as the proxy makes it upstream, pre-signed (for the passthrough and the direct load). */
export interface BenchInvoice {
  id: string;
  lookupPath: string;
  lookupHeaders: Record<string, string>;
}

export interface MockInfo extends Omit<BenchInvoice, 'id'> {
  url: string;
  /** The first of `invoices`. */
  invoiceId: string;
  /** One invoice per load connection, so that a connection's reads never overlap another's (no single flight). */
  invoices: BenchInvoice[];
}

/** How many invoices the mock holds: one per connection of the throughput load. */
export const BENCH_INVOICES = 10;

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

interface Started {
  url: string;
  close: () => Promise<void>;
  info?: MockInfo;
  /** The node:http server, whose requests are timed while tracing. */
  server?: Server;
}

const startMock = async (): Promise<{ info: MockInfo; close: () => Promise<void> }> => {
  const mock = await startMockServer({ merchants: [MERCHANT], controls: false, port: 0 });
  const client = new MerchantClient({ baseUrl: mock.url, apiKey: MERCHANT.apiKey, secretKey: MERCHANT.secretKey });
  const invoices: BenchInvoice[] = [];
  for (let index = 0; index < BENCH_INVOICES; index++) {
    const invoice = await createBenchInvoice(client, index);
    // What the proxy sends upstream for `GET /invoices/{id}`: the read by id.
    const lookupPath = `/api/merchant/invoices/${invoice.id}`;
    const signature = await signRequest({ method: 'GET', url: `${mock.url}${lookupPath}` }, MERCHANT.secretKey);
    invoices.push({
      id: invoice.id,
      lookupPath,
      lookupHeaders: { accept: 'application/json', 'x-identity': MERCHANT.apiKey, 'x-signature': signature },
    });
  }
  const [first] = invoices as [BenchInvoice];
  return {
    info: { url: mock.url, invoiceId: first.id, lookupPath: first.lookupPath, lookupHeaders: first.lookupHeaders, invoices },
    close: mock.close,
  };
};

/** The bench invoice a checkout path names (its last segment), for the passthroughs. */
const lookupOf = (mock: MockInfo) => {
  const byId = new Map(mock.invoices.map((invoice) => [invoice.id, invoice]));
  return (url: string | undefined): BenchInvoice => byId.get(url?.slice(url.lastIndexOf('/') + 1) ?? '') ?? mock.invoices[0]!;
};

/**
 * `kitFile`: the server kit bundled as it ships (bench/kit.ts), possibly from another copy of
 * the sources for an A/B; without it, the sources through tsx.
 */
const startProxy = async (mock: MockInfo, kitFile?: string): Promise<Started> => {
  const kit = (kitFile ? await import(pathToFileURL(kitFile).href) : await import('../src/server/node.js')) as typeof ServerKit;
  const client = new kit.MerchantClient({
    baseUrl: mock.url,
    apiKey: MERCHANT.apiKey,
    secretKey: MERCHANT.secretKey,
    // What the README recommends for a proxy on Node (the global fetch costs ~110 µs more per call).
    fetch: kit.createNodeFetch(),
  });
  const allowed = new Set(mock.invoices.map((invoice) => invoice.id));
  const handler = kit.createCheckoutHandler({
    client,
    basePath: '/checkout-api',
    authorize: (id) => allowed.has(id),
  });
  // What the README recommends for a public proxy: createNodeServer's header and idle
  // deadlines, each body held to its route's. `BENCH_PROXY_LISTENER=hono` (or `hono-globals`) serves it with @hono/node-server's
  // listener instead of toNodeHandler, for comparison (`hono-globals` lets it swap the global
  // Request and Response for its lighter ones).
  const listener = process.env.BENCH_PROXY_LISTENER;
  const hono = listener?.startsWith('hono')
    ? getRequestListener(handler, { overrideGlobalObjects: listener === 'hono-globals' })
    : undefined;
  const server = hono
    ? createServer({ headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1000 }, (req, res) => void hono(req, res))
    : kit.createNodeServer(handler);
  server.keepAliveTimeout = 5000;
  const url = await listen(server);
  return { url, server, close: () => new Promise((resolve) => server.close(() => resolve())) };
};

/**
 * The SDK's providers as bench/tracing.ts runs them, made when asked: spans into a batch
 * processor whose exporter drops them (counting, said at exit), metrics read every 10 s.
 */
const sdkProviders = async (sampler?: Sampler) => {
  const { AlwaysOnSampler, TracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace');
  const { InMemoryMetricExporter, AggregationTemporality, MeterProvider, PeriodicExportingMetricReader } =
    await import('@opentelemetry/sdk-metrics');
  let exported = 0;
  const exporter = {
    export: (spans: readonly unknown[], done: (result: { code: number }) => void) => {
      exported += spans.length;
      done({ code: 0 });
    },
    shutdown: () => Promise.resolve(),
  };
  process.on('exit', () => process.stderr.write(`[kit] spans exported: ${exported}\n`));
  return {
    tracerProvider: () =>
      new TracerProvider({ sampler: sampler ?? new AlwaysOnSampler(), spanProcessors: [new BatchSpanProcessor({ exporter })] }),
    meterProvider: () =>
      new MeterProvider({
        readers: [
          new PeriodicExportingMetricReader({
            exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
            exportIntervalMillis: 10_000,
          }),
        ],
      }),
  };
};

/**
 * An OpenTelemetry SDK as a shop installs one (bench/tracing.ts): every span sampled and handed
 * to a batch processor whose exporter drops them (counting), context carried across `await` by
 * `AsyncLocalStorage`, and the metrics read by a meter provider every 10 s.
 *
 * `parts` picks what is installed, to tell the costs apart: `context` (the context manager,
 * entered once as a shop's HTTP instrumentation or the batch processor's export enters it: on
 * Node 20 an `AsyncLocalStorage` run turns on a hook for every promise and tick of the
 * process), `traces`, `metrics`; all three by default. `ratio:0.1` samples a tenth of the
 * traces (`ParentBased(TraceIdRatioBased)`, a common production choice) instead of every span.
 */
const installTelemetry = async (parts: ReadonlySet<string> = new Set(['context', 'traces', 'metrics'])) => {
  const { context, metrics, trace } = await import('@opentelemetry/api');
  const { AsyncLocalStorage } = await import('node:async_hooks');
  const { ParentBasedSampler, TraceIdRatioBasedSampler } = await import('@opentelemetry/sdk-trace');
  if (parts.has('context')) {
    const storage = new AsyncLocalStorage<ReturnType<typeof context.active>>();
    const root = context.active();
    context.setGlobalContextManager({
      active: () => storage.getStore() ?? root,
      with: (value, fn, thisArg, ...args) => storage.run(value, () => fn.call(thisArg, ...args)),
      bind: (_value, target) => target,
      enable() {
        return this;
      },
      disable() {
        return this;
      },
    });
    context.with(root, () => undefined);
  }
  const ratio = [...parts].find((part) => part.startsWith('ratio:'));
  const providers = await sdkProviders(
    ratio ? new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(Number(ratio.slice('ratio:'.length))) }) : undefined,
  );
  if (parts.has('traces')) trace.setGlobalTracerProvider(providers.tracerProvider());
  if (parts.has('metrics')) metrics.setGlobalMeterProvider(providers.meterProvider());
};

/**
 * The least instrumentation issue 27's point 3 asks of a checkout read, put around the kit
 * instead of inside it (`BENCH_TRACING=floor`, bench/tracing.ts): a server span per route, a
 * client span per call to the service (its child), one histogram record of the call's
 * duration, each with no attribute beyond the method, the template and the status. The SDK's
 * providers are not registered, so the kit's own telemetry stays a no-op: what this costs is
 * what any instrumentation meeting point 3 costs on this Node, the kit's or another's.
 */
const floorTelemetry = async (kit: typeof ServerKit) => {
  const { ROOT_CONTEXT, SpanKind, trace } = await import('@opentelemetry/api');
  const providers = await sdkProviders();
  const tracer = providers.tracerProvider().getTracer('floor');
  const latency = providers.meterProvider().getMeter('floor').createHistogram('upstream.duration', { unit: 's' });
  const labels = { 'http.response.status_code': 200 };
  // No context manager: the route's span is handed to the call it makes through this variable (under concurrent reads a call may name another read's route; the cost is the same).
  let parent = ROOT_CONTEXT;
  const base = kit.createNodeFetch();
  const fetch = Object.assign((request: Request) => base(request), {
    sendText: async (url: string | URL, call: Parameters<typeof base.sendText>[1], maxBytes: number) => {
      const started = performance.now();
      const span = tracer.startSpan(
        'GET /api/merchant/invoices/{id}',
        { kind: SpanKind.CLIENT, attributes: { 'http.request.method': call.method, 'url.template': '/api/merchant/invoices/{id}' } },
        parent,
      );
      try {
        const answer = await base.sendText(url, call, maxBytes);
        span.setAttribute('http.response.status_code', answer.status);
        return answer;
      } finally {
        span.end();
        latency.record((performance.now() - started) / 1000, labels);
      }
    },
  });
  const around =
    (handler: (request: Request) => Promise<Response>) =>
    async (request: Request): Promise<Response> => {
      const span = tracer.startSpan('GET /invoices/{id}', {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': request.method, 'http.route': '/invoices/{id}' },
      });
      parent = trace.setSpan(ROOT_CONTEXT, span);
      try {
        const answer = await handler(request);
        span.setAttribute('http.response.status_code', answer.status);
        return answer;
      } finally {
        span.end();
      }
    };
  return { fetch, around };
};

/**
 * The kit object as the README runs it in-process (`createCheckoutServer`: its memory store,
 * the reconciler, notifications), on `createNodeServer(kit.fetch)`: the gateway benchmark's
 * baseline, the gateway being the same kit in a process of its own.
 */
const startKit = async (mock: MockInfo, kitFile?: string): Promise<Started> => {
  const tracing = process.env.BENCH_TRACING;
  if (tracing === '1') await installTelemetry();
  else if (tracing && tracing !== 'floor') await installTelemetry(new Set(tracing.split(',')));
  const kit = (kitFile ? await import(pathToFileURL(kitFile).href) : await import('../src/server/node.js')) as typeof ServerKit;
  const floor = tracing === 'floor' ? await floorTelemetry(kit) : undefined;
  const client = new kit.MerchantClient({
    baseUrl: mock.url,
    apiKey: MERCHANT.apiKey,
    secretKey: MERCHANT.secretKey,
    ...(floor && { fetch: floor.fetch }),
  });
  const allowed = new Set(mock.invoices.map((invoice) => invoice.id));
  const server = kit.createCheckoutServer({
    client,
    basePath: '/checkout-api',
    authorize: (id) => allowed.has(id),
    notifications: { token: 'bench-token', path: '/notifications' },
    onChange: () => undefined,
    // bench/journal.ts: the same kit without its journal, side by side.
    ...(process.env.BENCH_JOURNAL === 'off' ? { journal: false as const } : {}),
  });
  const node = kit.createNodeServer(floor ? floor.around(server.fetch) : server.fetch);
  node.keepAliveTimeout = 5000;
  const url = await listen(node);
  return {
    url,
    server: node,
    close: async () => {
      await server.close();
      await new Promise<void>((resolve) => node.close(() => resolve()));
    },
  };
};

const startPassthrough = async (mock: MockInfo): Promise<Started> => {
  const upstream = new URL(mock.url);
  const agent = new Agent({ keepAlive: true });
  const lookup = lookupOf(mock);
  const server = createServer((req, res) => {
    const { lookupPath, lookupHeaders } = lookup(req.url);
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: lookupPath, method: 'GET', headers: lookupHeaders, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      res.writeHead(502).end();
    });
    forward.end();
    req.resume();
  });
  const url = await listen(server);
  return {
    url,
    server,
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.close(() => resolve());
      }),
  };
};

const startFetchPassthrough = async (mock: MockInfo): Promise<Started> => {
  const lookup = lookupOf(mock);
  const server = createServer((req, res) => {
    req.resume();
    const { lookupPath, lookupHeaders } = lookup(req.url);
    fetch(`${mock.url}${lookupPath}`, { headers: lookupHeaders })
      .then(async (answer) => {
        const body = await answer.text();
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(body);
      })
      .catch(() => res.writeHead(502).end());
  });
  const url = await listen(server);
  return { url, server, close: () => new Promise((resolve) => server.close(() => resolve())) };
};

/** What a server did while traced: its own time per request (from the parsed request to the answer handed to the socket) and the GC's pauses. */
export interface TraceReport {
  requests: number;
  /** ms, of this process's own time per request. */
  serverP50: number;
  serverP99: number;
  serverMax: number;
  gcCount: number;
  gcTotalMs: number;
  gcMaxMs: number;
  /** ms over the traced time. */
  tracedMs: number;
  /** Event loop delay (ms): how late this process's loop ran, p99 and max. */
  loopDelayP99: number;
  loopDelayMax: number;
}

// Not lib.js's: that module loads playwright-core, which a server process has no use for.
const percentile = (values: readonly number[], p: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
};

const tracer = (server: Server | undefined) => {
  let times: number[] = [];
  let pauses: number[] = [];
  let since = 0;
  let tracing = false;
  const loop = monitorEventLoopDelay({ resolution: 1 });
  const gc = new PerformanceObserver((list) => {
    if (tracing) for (const entry of list.getEntries()) pauses.push(entry.duration);
  });
  server?.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (!tracing) return;
    const begun = performance.now();
    res.once('finish', () => times.push(performance.now() - begun));
  });
  return {
    start: () => {
      times = [];
      pauses = [];
      since = performance.now();
      tracing = true;
      loop.reset();
      loop.enable();
      gc.observe({ entryTypes: ['gc'] });
      return { ok: true };
    },
    report: (): TraceReport => {
      tracing = false;
      gc.disconnect();
      loop.disable();
      return {
        requests: times.length,
        serverP50: percentile(times, 0.5),
        serverP99: percentile(times, 0.99),
        serverMax: times.length ? Math.max(...times) : Number.NaN,
        gcCount: pauses.length,
        gcTotalMs: pauses.reduce((sum, each) => sum + each, 0),
        gcMaxMs: pauses.length ? Math.max(...pauses) : 0,
        tracedMs: performance.now() - since,
        loopDelayP99: loop.percentile(99) / 1e6,
        loopDelayMax: loop.max / 1e6,
      };
    },
  };
};

const main = async () => {
  const [role = '', config = '{}'] = process.argv.slice(2);
  let started: Started;
  if (role === 'mock') {
    const mock = await startMock();
    started = { url: mock.info.url, info: mock.info, close: mock.close };
  } else if (role === 'proxy') {
    started = await startProxy(JSON.parse(config) as MockInfo, process.env.BENCH_KIT || undefined);
  } else if (role === 'kit') {
    started = await startKit(JSON.parse(config) as MockInfo, process.env.BENCH_KIT || undefined);
  } else if (role === 'passthrough') {
    started = await startPassthrough(JSON.parse(config) as MockInfo);
  } else if (role === 'fetch-passthrough') {
    started = await startFetchPassthrough(JSON.parse(config) as MockInfo);
  } else {
    throw new Error(`unknown role ${JSON.stringify(role)}`);
  }
  const stop = () => {
    void started.close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.stdin.on('close', stop);
  const trace = tracer(started.server);
  // Each line on stdin is a command, answered by one JSON line: `cpu` (the CPU time this
  // process has used so far, µs, user + system), `trace` (start timing requests and GC
  // pauses), `report` (what was traced since, and stop).
  // `profile` starts a CPU profile (node:inspector), `profile-stop <file>` writes it there;
  // `alloc` and `alloc-stop <file>` the same for a sampling heap profile (what allocates);
  // `memory` answers process.memoryUsage() (after a full GC when run with --expose-gc).
  const session = new Session();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  createInterface({ input: process.stdin }).on('line', (line) => {
    const reply = (answer: unknown) => process.stdout.write(`${JSON.stringify(answer)}\n`);
    if (line === 'trace') reply(trace.start());
    else if (line === 'memory') {
      // With --expose-gc: what stays, not what awaits collection.
      (globalThis as { gc?: () => void }).gc?.();
      reply(process.memoryUsage());
    } else if (line === 'report') reply(trace.report());
    else if (line === 'profile') {
      session.connect();
      void post('Profiler.enable')
        .then(() => post('Profiler.setSamplingInterval', { interval: 200 }))
        .then(() => post('Profiler.start'))
        .then(() => reply({ ok: true }));
    } else if (line === 'alloc') {
      // Sampling of what allocates (one sample per 4 KiB on average), kept until `alloc-stop`.
      session.connect();
      void post('HeapProfiler.enable')
        .then(() =>
          post('HeapProfiler.startSampling', {
            samplingInterval: 4096,
            includeObjectsCollectedByMajorGC: true,
            includeObjectsCollectedByMinorGC: true,
          }),
        )
        .then(() => reply({ ok: true }));
    } else if (line.startsWith('alloc-stop ')) {
      void post('HeapProfiler.stopSampling').then(async (result) => {
        await writeFile(line.slice('alloc-stop '.length), JSON.stringify((result as { profile: unknown }).profile));
        session.disconnect();
        reply({ ok: true });
      });
    } else if (line.startsWith('profile-stop ')) {
      void post('Profiler.stop').then(async (result) => {
        await writeFile(line.slice('profile-stop '.length), JSON.stringify((result as { profile: unknown }).profile));
        session.disconnect();
        reply({ ok: true });
      });
    } else {
      const { user, system } = process.cpuUsage();
      reply({ cpu: user + system, user, system });
    }
  });
  process.stdout.write(`${JSON.stringify({ url: started.url, info: started.info })}\n`);
};

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) await main();
