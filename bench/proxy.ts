/**
 * Proxy throughput and latency: `GET /checkout-api/invoices/{id}` of `createCheckoutHandler`
 * (node:http via `toNodeHandler`) in front of the mock, beside the same upstream lookup sent
 * straight to the mock and through a bare Node passthrough. The mock, the proxy and the
 * passthroughs each run in their own process; the load generator in this one.
 *
 * Two phases, interleaved round by round so that a change in the machine's load hits every
 * target alike:
 *
 * 1. Throughput at saturation (autocannon, closed loop): requests per second and the CPU time
 *    each server spends per answer. Each connection reads its own invoice, so that no two
 *    reads of one invoice overlap: the proxy's single flight would otherwise answer several
 *    payers with one upstream call, which the passthrough cannot (the figure with all
 *    connections on one invoice is measured too, and reported beside it).
 * 2. Latency at a fixed rate well below saturation, evenly paced (bench/paced.ts, not
 *    autocannon's `overallRate`, which sends each second's quota in one burst): p50/p99, and
 *    from inside the servers their own time per request, GC pauses and event-loop delay, to
 *    tell what the p99 is made of.
 *
 * Also `signRequest` operations per second, awaited one by one and 64 at a time.
 *
 * The proxy runs the kit bundled as it ships (bench/kit.ts). `BENCH_PROXY_ROOT=<dir>` adds a
 * target `baseline`: the proxy built from another copy of the sources (`<dir>/src`, e.g. the
 * last commit's), measured interleaved with this tree's, for an A/B in one run;
 * `BENCH_PROXY_TREE=<dir>` builds the proxy itself from another copy too;
 * `BENCH_BASELINE_LISTENER=hono|hono-globals` serves the baseline with @hono/node-server's
 * listener instead of `toNodeHandler` (bench/proxy-servers.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { signRequest } from '../src/server/node.js';
import { fixed, log, median, percentile } from './lib.js';
import { kitOf } from './kit.js';
import { paced } from './paced.js';
import type { MockInfo, TraceReport } from './proxy-servers.js';

const SERVERS = fileURLToPath(new URL('./proxy-servers.ts', import.meta.url));

/** Issue 12's goals for the proxy on Hono: ≥ 0.6× a bare node:http passthrough, ≤ 1 ms added at p99. */
export const THROUGHPUT_GOAL_RATIO = 0.6;
export const ADDED_P99_GOAL_MS = 1;

const BASE_TARGETS = ['direct', 'passthrough', 'fetchPassthrough', 'proxy'] as const;
export type Target = (typeof BASE_TARGETS)[number] | 'baseline';
/** The targets also loaded with every connection on one invoice. */
const SHARED_TARGETS: readonly Target[] = ['passthrough', 'proxy', 'baseline'];

export interface ProxyOptions {
  rounds: number;
  /** Seconds of one throughput round per target. */
  throughputSeconds: number;
  /** Rounds and seconds of the latency phase, per target. */
  latencyRounds: number;
  latencySeconds: number;
  connections: number;
  /** Requests per second of the latency phase, and its connections. */
  rate: number;
  latencyConnections: number;
}

export const DEFAULT_PROXY_OPTIONS: ProxyOptions = {
  rounds: 5,
  throughputSeconds: 2,
  latencyRounds: 10,
  latencySeconds: 3,
  connections: 10,
  rate: 200,
  latencyConnections: 4,
};

export interface Throughput {
  /** Median over the rounds of the 2xx answers per second. */
  requestsPerSecond: number;
  rounds: number[];
  /** Median over the rounds of the CPU time (µs) the server under test used per answer, and the mock's. */
  cpuPerRequest: number;
  mockCpuPerRequest: number;
}

export interface TargetResult extends Throughput {
  target: Target;
  /** All connections on one invoice (proxy, passthrough and baseline only). */
  shared?: Throughput;
  /**
   * Medians over the latency rounds of each round's p50 and p99 (ms): one round disturbed by
   * other work on the machine does not decide the figure (each round's p99 is in `p99Rounds`).
   */
  p50: number;
  p99: number;
  p99Rounds: number[];
  samples: number;
  errors: number;
  /** Latency requests that found every connection busy (sent late, timed from their slot). */
  late: number;
  /** The server's own view during the latency rounds (the mock's for `direct`). */
  trace: TraceReport;
  /** The mock's, while this target was loaded. */
  mockTrace: TraceReport;
}

export interface ProxyResult {
  options: ProxyOptions;
  targets: Record<(typeof BASE_TARGETS)[number], TargetResult> & { baseline?: TargetResult };
  /** proxy ÷ passthrough requests per second (the goal's figure: one invoice per connection), and proxy ÷ fetch passthrough. */
  throughputRatio: number;
  throughputRatioVsFetch: number;
  /** proxy ÷ passthrough with every connection on one invoice (the proxy's single flight joins reads). */
  throughputRatioShared: number;
  /** proxy − direct and proxy − passthrough, at the p50 and the p99. */
  addedP50VsDirect: number;
  addedP99VsDirect: number;
  addedP99VsPassthrough: number;
  /** passthrough − direct at the p99: what one more bare Node hop costs here. */
  passthroughAddedP99: number;
  sign: { sequentialPerSecond: number; concurrentPerSecond: number };
}

export interface Child {
  process: ChildProcess;
  url: string;
  info?: MockInfo;
  /** CPU time (µs) the process has used so far. */
  cpu(): Promise<number>;
  /** The same, the process's own code (`user`) and the kernel's on its behalf (`system`), µs. */
  cpuParts(): Promise<{ user: number; system: number }>;
  /** Starts timing its requests and GC pauses; `report()` answers what was seen and stops. */
  trace(): Promise<void>;
  report(): Promise<TraceReport>;
  /** A CPU profile of what it does between the two calls, written to `file`. */
  profile(): Promise<void>;
  profileStop(file: string): Promise<void>;
  /** A full garbage collection (the process must run with `--expose-gc`). */
  collect(): Promise<void>;
  /** A sampling heap profile of what it allocates between the two calls, written to `file`. */
  alloc(): Promise<void>;
  allocStop(file: string): Promise<void>;
}

/**
 * A server of bench/proxy-servers.ts in its own process. A `proxy` runs the kit bundled as it
 * ships (bench/kit.ts: this repository's, or `env.BENCH_KIT`'s), not the sources through tsx.
 */
export const startChild = async (
  role: string,
  config?: MockInfo,
  execArgv: string[] = [],
  env: Record<string, string> = {},
  prefix: string[] = [],
): Promise<Child> => {
  const kit: Record<string, string> =
    (role === 'proxy' || role === 'kit') && env.BENCH_KIT === undefined ? { BENCH_KIT: await kitOf() } : {};
  return spawnChild(role, config, execArgv, { ...env, ...kit }, prefix);
};

/** `prefix`: a command that runs Node, with its arguments (bench/instructions.ts: valgrind). */
const spawnChild = (
  role: string,
  config: MockInfo | undefined,
  execArgv: string[],
  env: Record<string, string>,
  prefix: string[],
): Promise<Child> =>
  new Promise((resolve, reject) => {
    // `BENCH_NODE` (in `env` or this process's): another Node binary for the servers (bench/tracing.ts on a newer Node).
    const [command, ...before] = [...prefix, env.BENCH_NODE || process.env.BENCH_NODE || process.execPath];
    const child = spawn(
      command,
      [...before, '--trace-uncaught', ...execArgv, '--import', 'tsx', SERVERS, role, JSON.stringify(config ?? {})],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
        env: { ...process.env, ...env },
      },
    );
    const lines = createInterface({ input: child.stdout });
    const waiting: ((line: string) => void)[] = [];
    lines.on('line', (line) => waiting.shift()?.(line));
    const ask = <T>(command: string) =>
      new Promise<T>((answer) => {
        waiting.push((reply) => answer(JSON.parse(reply) as T));
        child.stdin.write(`${command}\n`);
      });
    waiting.push((line) => {
      const { url, info } = JSON.parse(line) as { url: string; info?: MockInfo };
      resolve({
        process: child,
        url,
        cpu: async () => (await ask<{ cpu: number }>('cpu')).cpu,
        cpuParts: () => ask<{ user: number; system: number }>('cpu'),
        trace: async () => void (await ask('trace')),
        report: () => ask<TraceReport>('report'),
        profile: async () => void (await ask('profile')),
        profileStop: async (file) => void (await ask(`profile-stop ${file}`)),
        collect: async () => void (await ask('memory')),
        alloc: async () => void (await ask('alloc')),
        allocStop: async (file) => void (await ask(`alloc-stop ${file}`)),
        ...(info ? { info } : {}),
      });
    });
    child.once('exit', (code) => reject(new Error(`${role} server exited with ${code}`)));
  });

export const stopChild = (child: Child | undefined): Promise<void> =>
  new Promise((resolve) => {
    if (!child || child.process.exitCode !== null) {
      resolve();
      return;
    }
    const timer = setTimeout(() => child.process.kill('SIGKILL'), 3000);
    child.process.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.process.kill('SIGTERM');
  });

interface Load {
  ok: number;
  okPerSecond: number;
  responseTimes: number[];
  errors: number;
}

/** autocannon on `url` (or on several: connection `i` loads `url[i % url.length]`). */
export const load = (
  url: string | string[],
  headers: Record<string, string>,
  seconds: number,
  connections: number,
  rate?: number,
): Promise<Load> =>
  new Promise((resolve, reject) => {
    const responseTimes: number[] = [];
    let ok = 0;
    const instance = autocannon(
      { url, headers, connections, duration: seconds, timeout: 10, ...(rate ? { overallRate: rate } : {}) },
      (error, result) => {
        if (error) reject(error);
        else resolve({ ok, okPerSecond: ok / result.duration, responseTimes, errors: result.errors + result.timeouts + result.non2xx });
      },
    );
    instance.on('response', (_client, status, _bytes, time) => {
      if (status >= 200 && status < 300) {
        ok++;
        responseTimes.push(time);
      }
    });
  });

const signRate = async (concurrency: number, ms: number): Promise<number> => {
  const request = { method: 'GET', url: 'https://pay.example/api/merchant/invoices/internal-id/order-1' };
  const end = performance.now() + ms;
  let count = 0;
  const started = performance.now();
  while (performance.now() < end) {
    await Promise.all(Array.from({ length: concurrency }, () => signRequest(request, 'bench-secret')));
    count += concurrency;
  }
  return count / ((performance.now() - started) / 1000);
};

export const runProxy = async (options: ProxyOptions = DEFAULT_PROXY_OPTIONS): Promise<ProxyResult> => {
  let mock: Child | undefined;
  const children: Child[] = [];
  try {
    // `--expose-gc`: every server collects its garbage between the two phases (see below).
    const gc = ['--expose-gc'];
    mock = await startChild('mock', undefined, gc);
    const info = mock.info!;
    const baselineRoot = process.env.BENCH_PROXY_ROOT;
    const targets: Target[] = [...BASE_TARGETS, ...(baselineRoot ? (['baseline'] as const) : [])];
    const roles: Record<Exclude<Target, 'direct'>, () => Promise<Child>> = {
      passthrough: () => startChild('passthrough', info, gc),
      fetchPassthrough: () => startChild('fetch-passthrough', info, gc),
      proxy: async () => startChild('proxy', info, gc, { BENCH_KIT: await kitOf(process.env.BENCH_PROXY_TREE || undefined) }),
      baseline: async () =>
        startChild('proxy', info, gc, {
          BENCH_KIT: await kitOf(baselineRoot),
          BENCH_PROXY_LISTENER: process.env.BENCH_BASELINE_LISTENER ?? '',
        }),
    };
    const server = { direct: mock } as Record<Target, Child>;
    await Promise.all(
      targets.map(async (target) => {
        if (target === 'direct') return;
        const child = await roles[target]();
        children.push(child);
        server[target] = child;
      }),
    );
    const checkoutPath = (id: string) => `/checkout-api/invoices/${id}`;
    const accept = { accept: 'application/json' };
    /** What each connection of a target asks: one invoice per connection, or all the first invoice. */
    const endpoints = (target: Target, shared: boolean): { urls: string[]; headers: Record<string, string> }[] => {
      const invoices = shared ? [info.invoices[0]!] : info.invoices;
      return invoices.map((invoice) =>
        target === 'direct'
          ? { urls: [`${info.url}${invoice.lookupPath}`], headers: invoice.lookupHeaders }
          : { urls: [`${server[target].url}${checkoutPath(invoice.id)}`], headers: accept },
      );
    };
    /** autocannon sends one set of headers: the direct target's differ per invoice (signatures), so it gets one instance per invoice. */
    const saturate = async (target: Target, shared: boolean, seconds: number, connections: number): Promise<Load> => {
      const each = endpoints(target, shared);
      if (target !== 'direct' || each.length === 1) {
        return load(
          each.flatMap((endpoint) => endpoint.urls),
          each[0]!.headers,
          seconds,
          connections,
        );
      }
      const perInstance = Math.max(1, Math.floor(connections / each.length));
      const loads = await Promise.all(each.map((endpoint) => load(endpoint.urls, endpoint.headers, seconds, perInstance)));
      return loads.reduce((sum, one) => ({
        ok: sum.ok + one.ok,
        okPerSecond: sum.okPerSecond + one.okPerSecond,
        responseTimes: [],
        errors: sum.errors + one.errors,
      }));
    };

    // Warm-up: JIT, keep-alive connections, the proxy's imported key.
    for (const target of targets) await saturate(target, false, 1, options.connections);
    const runs = targets.flatMap((target) => [
      { target, shared: false },
      ...(SHARED_TARGETS.includes(target) ? [{ target, shared: true }] : []),
    ]);
    const measured = new Map(
      runs.map((run) => [
        `${run.target}/${run.shared}`,
        { rates: [] as number[], cpu: [] as number[], mockCpu: [] as number[], errors: 0 },
      ]),
    );
    for (let round = 0; round < options.rounds; round++) {
      // A different order each round, so that no target always follows the same one.
      const order = round % 2 ? [...runs].reverse() : runs;
      for (const { target, shared } of order) {
        const [serverBefore, mockBefore] = [await server[target].cpu(), await mock.cpu()];
        const result = await saturate(target, shared, options.throughputSeconds, options.connections);
        const [serverAfter, mockAfter] = [await server[target].cpu(), await mock.cpu()];
        const entry = measured.get(`${target}/${shared}`)!;
        entry.rates.push(result.okPerSecond);
        entry.errors += result.errors;
        entry.cpu.push((serverAfter - serverBefore) / result.ok);
        entry.mockCpu.push((mockAfter - mockBefore) / result.ok);
      }
    }
    const throughput = (target: Target, shared: boolean): Throughput => {
      const entry = measured.get(`${target}/${shared}`)!;
      return {
        requestsPerSecond: median(entry.rates),
        rounds: entry.rates,
        cpuPerRequest: median(entry.cpu),
        mockCpuPerRequest: median(entry.mockCpu),
      };
    };
    log(
      `throughput (req/s): ${runs.map(({ target, shared }) => `${target}${shared ? ' (one invoice)' : ''} ${Math.round(throughput(target, shared).requestsPerSecond)}`).join(', ')}`,
    );
    log(
      `CPU per request (µs): ${runs.map(({ target, shared }) => `${target}${shared ? ' (one invoice)' : ''} ${Math.round(throughput(target, shared).cpuPerRequest)}`).join(', ')}`,
    );

    // The saturation phase leaves each server's old generation full of what its requests in
    // flight had promoted; collected during the latency rounds, it made the first rounds'
    // p99 one and a half to two times the later ones' (a 7.9 ms pause in the proxy). Every
    // server, the mock included, collects it now.
    await Promise.all([mock, ...children].map((child) => child.collect()));
    const rate = Math.min(options.rate, Math.floor(Math.min(...targets.map((target) => throughput(target, false).requestsPerSecond)) / 4));
    const times = Object.fromEntries(targets.map((target) => [target, [] as number[][]])) as Record<Target, number[][]>;
    const late = Object.fromEntries(targets.map((target) => [target, 0])) as Record<Target, number>;
    const traces = Object.fromEntries(targets.map((target) => [target, [] as TraceReport[]])) as Record<Target, TraceReport[]>;
    const mockTraces = Object.fromEntries(targets.map((target) => [target, [] as TraceReport[]])) as Record<Target, TraceReport[]>;
    const latencyErrors = Object.fromEntries(targets.map((target) => [target, 0])) as Record<Target, number>;
    for (let round = 0; round < options.latencyRounds; round++) {
      const order = round % 2 ? [...targets].reverse() : targets;
      for (const target of order) {
        const each = endpoints(target, false).slice(0, options.latencyConnections);
        await Promise.all([server[target].trace(), target === 'direct' ? undefined : mock.trace()]);
        // The direct target's signatures differ per invoice: its connections all read the first.
        const result =
          target === 'direct'
            ? await paced(each[0]!.urls, each[0]!.headers, {
                rate,
                seconds: options.latencySeconds,
                connections: options.latencyConnections,
              })
            : await paced(
                each.flatMap((endpoint) => endpoint.urls),
                accept,
                { rate, seconds: options.latencySeconds, connections: options.latencyConnections },
              );
        traces[target].push(await server[target].report());
        if (target !== 'direct') mockTraces[target].push(await mock.report());
        times[target].push(result.times);
        late[target] += result.late;
        latencyErrors[target] += result.errors;
      }
    }
    /** The traces of the rounds as one: percentiles as the median of the rounds', counts summed, maxima the largest. */
    // A server that timed no request answers null (JSON has no NaN).
    const merge = (reports: TraceReport[]): TraceReport =>
      merged(
        reports.map(
          (each) => Object.fromEntries(Object.entries(each).map(([key, value]) => [key, value ?? Number.NaN])) as unknown as TraceReport,
        ),
      );
    const merged = (reports: TraceReport[]): TraceReport => ({
      requests: reports.reduce((sum, each) => sum + each.requests, 0),
      serverP50: median(reports.map((each) => each.serverP50)),
      serverP99: median(reports.map((each) => each.serverP99)),
      serverMax: Math.max(...reports.map((each) => each.serverMax)),
      gcCount: reports.reduce((sum, each) => sum + each.gcCount, 0),
      gcTotalMs: reports.reduce((sum, each) => sum + each.gcTotalMs, 0),
      gcMaxMs: Math.max(0, ...reports.map((each) => each.gcMaxMs)),
      tracedMs: reports.reduce((sum, each) => sum + each.tracedMs, 0),
      loopDelayP99: median(reports.map((each) => each.loopDelayP99)),
      loopDelayMax: Math.max(...reports.map((each) => each.loopDelayMax)),
    });
    const results = Object.fromEntries(
      targets.map((target) => [
        target,
        {
          target,
          ...throughput(target, false),
          ...(SHARED_TARGETS.includes(target) ? { shared: throughput(target, true) } : {}),
          p50: median(times[target].map((round) => percentile(round, 0.5))),
          p99: median(times[target].map((round) => percentile(round, 0.99))),
          p99Rounds: times[target].map((round) => percentile(round, 0.99)),
          samples: times[target].reduce((sum, round) => sum + round.length, 0),
          errors: measured.get(`${target}/false`)!.errors + (measured.get(`${target}/true`)?.errors ?? 0) + latencyErrors[target],
          late: late[target],
          trace: merge(traces[target]),
          mockTrace: target === 'direct' ? merge(traces.direct) : merge(mockTraces[target]),
        } satisfies TargetResult,
      ]),
    ) as ProxyResult['targets'];
    log(
      `latency at ${rate} req/s, paced (p50/p99 ms): ${targets.map((target) => `${target} ${results[target]!.p50.toFixed(2)}/${results[target]!.p99.toFixed(2)}`).join(', ')}`,
    );
    log(
      `inside the servers (own p50/p99 ms; GC pauses, longest): ${targets
        .map((target) => {
          const t = results[target]!.trace;
          return `${target} ${fixed(t.serverP50, 2)}/${fixed(t.serverP99, 2)}; ${t.gcCount} GC ${fixed(t.gcTotalMs)} ms, ${fixed(t.gcMaxMs, 2)} ms`;
        })
        .join(' | ')}`,
    );

    const sign = { sequentialPerSecond: await signRate(1, 1500), concurrentPerSecond: await signRate(64, 1500) };
    log(`signRequest: ${Math.round(sign.sequentialPerSecond)}/s one by one, ${Math.round(sign.concurrentPerSecond)}/s 64 at a time`);
    const { proxy, passthrough, fetchPassthrough, direct } = results;
    return {
      options: { ...options, rate },
      targets: results,
      throughputRatio: proxy.requestsPerSecond / passthrough.requestsPerSecond,
      throughputRatioVsFetch: proxy.requestsPerSecond / fetchPassthrough.requestsPerSecond,
      throughputRatioShared: proxy.shared!.requestsPerSecond / passthrough.shared!.requestsPerSecond,
      addedP50VsDirect: proxy.p50 - direct.p50,
      addedP99VsDirect: proxy.p99 - direct.p99,
      addedP99VsPassthrough: proxy.p99 - passthrough.p99,
      passthroughAddedP99: passthrough.p99 - direct.p99,
      sign,
    };
  } finally {
    await Promise.all(children.map(stopChild));
    await stopChild(mock);
  }
};
