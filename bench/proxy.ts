/**
 * Proxy throughput and latency: autocannon on loopback loads `GET /checkout-api/invoices/{id}`
 * of `createCheckoutHandler` (node:http via `toNodeHandler`) in front of the mock, beside the
 * same upstream lookup sent straight to the mock and through a bare Node passthrough. The mock,
 * the proxy and the passthrough each run in their own process; the load generator in this one.
 *
 * Two phases, interleaved round by round so that a change in the machine's load hits every
 * target alike: throughput at saturation (requests per second), then latency at a fixed rate
 * well below it (p50/p99 from every response time autocannon reports, not its 1 ms histogram).
 * Also `signRequest` operations per second, awaited one by one and 64 at a time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { signRequest } from '../src/server/index.js';
import { log, median, percentile } from './lib.js';
import type { MockInfo } from './proxy-servers.js';

const SERVERS = fileURLToPath(new URL('./proxy-servers.ts', import.meta.url));

/** Issue 12's goals for the proxy on Hono: ≥ 0.6× a bare node:http passthrough, ≤ 1 ms added at p99. */
export const THROUGHPUT_GOAL_RATIO = 0.6;
export const ADDED_P99_GOAL_MS = 1;

const TARGETS = ['direct', 'passthrough', 'fetchPassthrough', 'proxy'] as const;
export type Target = (typeof TARGETS)[number];

export interface ProxyOptions {
  rounds: number;
  /** Seconds of one throughput round per target. */
  throughputSeconds: number;
  /** Seconds of one latency round per target. */
  latencySeconds: number;
  connections: number;
  /** Requests per second of the latency phase. */
  rate: number;
}

export const DEFAULT_PROXY_OPTIONS: ProxyOptions = { rounds: 3, throughputSeconds: 3, latencySeconds: 3, connections: 10, rate: 200 };

export interface TargetResult {
  target: Target;
  /** Median over the rounds of the 2xx answers per second. */
  requestsPerSecond: number;
  rounds: number[];
  /** Median over the rounds of the CPU time (µs) the server under test used per answer, and the mock's. */
  cpuPerRequest: number;
  mockCpuPerRequest: number;
  /** Of every response time of all latency rounds, in ms. */
  p50: number;
  p99: number;
  samples: number;
  errors: number;
}

export interface ProxyResult {
  options: ProxyOptions;
  targets: Record<Target, TargetResult>;
  /** proxy ÷ passthrough requests per second (the goal's figure), and proxy ÷ fetch passthrough. */
  throughputRatio: number;
  throughputRatioVsFetch: number;
  /** proxy − direct and proxy − passthrough, at the p50 and the p99. */
  addedP50VsDirect: number;
  addedP99VsDirect: number;
  addedP99VsPassthrough: number;
  sign: { sequentialPerSecond: number; concurrentPerSecond: number };
}

export interface Child {
  process: ChildProcess;
  url: string;
  info?: MockInfo;
  /** CPU time (µs) the process has used so far. */
  cpu(): Promise<number>;
}

export const startChild = (role: string, config?: MockInfo): Promise<Child> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--trace-uncaught', '--import', 'tsx', SERVERS, role, JSON.stringify(config ?? {})], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: child.stdout });
    const waiting: ((line: string) => void)[] = [];
    lines.on('line', (line) => waiting.shift()?.(line));
    waiting.push((line) => {
      const { url, info } = JSON.parse(line) as { url: string; info?: MockInfo };
      const cpu = () =>
        new Promise<number>((answer) => {
          waiting.push((reply) => answer((JSON.parse(reply) as { cpu: number }).cpu));
          child.stdin.write('cpu\n');
        });
      resolve({ process: child, url, cpu, ...(info ? { info } : {}) });
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

export const load = (url: string, headers: Record<string, string>, seconds: number, connections: number, rate?: number): Promise<Load> =>
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
  let proxy: Child | undefined;
  let passthrough: Child | undefined;
  let fetchPassthrough: Child | undefined;
  try {
    mock = await startChild('mock');
    const info = mock.info!;
    [proxy, passthrough, fetchPassthrough] = await Promise.all([
      startChild('proxy', info),
      startChild('passthrough', info),
      startChild('fetch-passthrough', info),
    ]);
    const checkoutPath = `/checkout-api/invoices/${info.invoiceId}`;
    const endpoints: Record<Target, { url: string; headers: Record<string, string> }> = {
      direct: { url: `${info.url}${info.lookupPath}`, headers: info.lookupHeaders },
      passthrough: { url: `${passthrough.url}${checkoutPath}`, headers: { accept: 'application/json' } },
      fetchPassthrough: { url: `${fetchPassthrough.url}${checkoutPath}`, headers: { accept: 'application/json' } },
      proxy: { url: `${proxy.url}${checkoutPath}`, headers: { accept: 'application/json' } },
    };
    const rates = Object.fromEntries(TARGETS.map((target) => [target, [] as number[]])) as Record<Target, number[]>;
    const times = Object.fromEntries(TARGETS.map((target) => [target, [] as number[]])) as Record<Target, number[]>;
    const errors = Object.fromEntries(TARGETS.map((target) => [target, 0])) as Record<Target, number>;

    // Warm-up: JIT, keep-alive connections, the proxy's imported key.
    for (const target of TARGETS) await load(endpoints[target].url, endpoints[target].headers, 1, options.connections);
    // The process under test for each target (the mock itself for the direct load).
    const server: Record<Target, Child> = { direct: mock, passthrough, fetchPassthrough, proxy };
    const cpu = Object.fromEntries(TARGETS.map((target) => [target, { server: [] as number[], mock: [] as number[] }])) as Record<
      Target,
      { server: number[]; mock: number[] }
    >;
    for (let round = 0; round < options.rounds; round++) {
      for (const target of TARGETS) {
        const [serverBefore, mockBefore] = [await server[target].cpu(), await mock.cpu()];
        const result = await load(endpoints[target].url, endpoints[target].headers, options.throughputSeconds, options.connections);
        const [serverAfter, mockAfter] = [await server[target].cpu(), await mock.cpu()];
        rates[target].push(result.okPerSecond);
        errors[target] += result.errors;
        cpu[target].server.push((serverAfter - serverBefore) / result.ok);
        cpu[target].mock.push((mockAfter - mockBefore) / result.ok);
      }
    }
    log(`throughput (req/s): ${TARGETS.map((target) => `${target} ${Math.round(median(rates[target]))}`).join(', ')}`);
    log(`CPU per request (µs): ${TARGETS.map((target) => `${target} ${Math.round(median(cpu[target].server))}`).join(', ')}`);
    const rate = Math.min(options.rate, Math.floor(Math.min(...TARGETS.map((target) => median(rates[target]))) / 4));
    for (let round = 0; round < options.rounds; round++) {
      for (const target of TARGETS) {
        const result = await load(endpoints[target].url, endpoints[target].headers, options.latencySeconds, 4, rate);
        times[target].push(...result.responseTimes);
        errors[target] += result.errors;
      }
    }
    const targets = Object.fromEntries(
      TARGETS.map((target) => [
        target,
        {
          target,
          requestsPerSecond: median(rates[target]),
          rounds: rates[target],
          cpuPerRequest: median(cpu[target].server),
          mockCpuPerRequest: median(cpu[target].mock),
          p50: percentile(times[target], 0.5),
          p99: percentile(times[target], 0.99),
          samples: times[target].length,
          errors: errors[target],
        },
      ]),
    ) as Record<Target, TargetResult>;
    log(`latency at ${rate} req/s (p50/p99 ms): ${TARGETS.map((target) => `${target} ${targets[target].p50.toFixed(2)}/${targets[target].p99.toFixed(2)}`).join(', ')}`);

    const sign = { sequentialPerSecond: await signRate(1, 1500), concurrentPerSecond: await signRate(64, 1500) };
    log(`signRequest: ${Math.round(sign.sequentialPerSecond)}/s one by one, ${Math.round(sign.concurrentPerSecond)}/s 64 at a time`);
    return {
      options: { ...options, rate },
      targets,
      throughputRatio: targets.proxy.requestsPerSecond / targets.passthrough.requestsPerSecond,
      throughputRatioVsFetch: targets.proxy.requestsPerSecond / targets.fetchPassthrough.requestsPerSecond,
      addedP50VsDirect: targets.proxy.p50 - targets.direct.p50,
      addedP99VsDirect: targets.proxy.p99 - targets.direct.p99,
      addedP99VsPassthrough: targets.proxy.p99 - targets.passthrough.p99,
      sign,
    };
  } finally {
    await Promise.all([stopChild(proxy), stopChild(passthrough), stopChild(fetchPassthrough)]);
    await stopChild(mock);
  }
};
