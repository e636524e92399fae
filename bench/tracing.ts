/**
 * What tracing costs (issue 27): the kit object as the README runs it in-process (bench/proxy-
 * servers.ts `kit`, bundled as it ships) in seven processes:
 * - `off`: no OpenTelemetry SDK (the API is a no-op);
 * - `twin`: the same again, in a process of its own: how far two identical processes differ,
 *   the noise under every other figure;
 * - `floor`: no SDK registered, but the least instrumentation point 3 asks of a read put around
 *   the kit (bench/proxy-servers.ts `floorTelemetry`: a server span, a client span, one
 *   histogram record, on the SDK's own providers): what any instrumentation meeting point 3
 *   costs on this Node, whoever writes it;
 * - `context`: only a context manager on `AsyncLocalStorage`, entered once (what any SDK with
 *   context brings to a process, whatever it traces: on Node 20 and 22 every promise and tick
 *   then runs a hook);
 * - `sdk`: the SDK's tracer and meter providers registered without a context manager
 *   (`trace.setGlobalTracerProvider`, `metrics.setGlobalMeterProvider`): the kit's own spans
 *   and metrics alone, which need none (telemetry.ts hands the route's span down itself);
 * - `on`: the SDK as a shop installs it (`BENCH_TRACING=1`: every span sampled into a batch
 *   processor, that context manager, a meter provider read every 10 s);
 * - `tenth`: the same sampling a tenth of the traces (`ParentBased(TraceIdRatioBased(0.1))`).
 *
 * Checkout reads, `GET /checkout-api/invoices/{id}`: 10 connections over 10 invoices. The
 * servers share one CPU and the load and the mock service another (`taskset`, when there are
 * two), so that req/s is what the server can do, not how three processes share two cores.
 * `TRACING_EPOCHS` times, every process is started afresh, warmed up for 2 s, then loaded for
 * `TRACING_ROUNDS` rounds of `TRACING_SECONDS` s in turn (the order reversed every other
 * round). This machine's speed drifts by tens of percent from one second to the next (a
 * shared virtual machine), so each setup is compared with `off` within each round, and the
 * figure is the median of those ratios over every epoch, with their quartiles; `twin` shows
 * how far that figure strays when nothing differs.
 *
 *   node --import tsx bench/tracing.ts                    (about 9 minutes; run `npm run build` first)
 *   BENCH_NODE=<node binary> node --import tsx bench/tracing.ts   the servers on another Node
 *   BENCH_TRACING_NODE='<binary>[ <flag>…][, <binary>…]' npm run bench -- --only tracing   this Node, then each of those
 */
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { log, median, percentile } from './lib.js';
import { load, startChild, stopChild, type Child } from './proxy.js';

/** Each epoch starts every process afresh: one process may be a few per cent faster than its twin for reasons of its own (where its code and heap landed), so no setup keeps one process's luck. */
export const TRACING_EPOCHS = 4;
/** Rounds per epoch. */
export const TRACING_ROUNDS = 8;
export const TRACING_SECONDS = 1.5;
/** Goal: with an SDK and sampling on, within 5 % of tracing off. */
export const TRACING_GOAL_RATIO = 0.95;

/** The processes; see above. */
export const TRACING_SETUPS = ['off', 'twin', 'floor', 'context', 'sdk', 'on', 'tenth'] as const;
export type TracingSetup = (typeof TRACING_SETUPS)[number];

export interface TracingResult {
  /** The servers' Node (`process.version` of the binary) and the flags it ran with. */
  node: string;
  flags: string[];
  /** Whether the servers had a CPU of their own (`taskset`). */
  pinned: boolean;
  /** req/s of each round, by setup. */
  rounds: Record<TracingSetup, number[]>;
  /** CPU (µs) per answer of each round, by setup. */
  cpu: Record<TracingSetup, number[]>;
  /** Medians. */
  requestsPerSecond: Record<TracingSetup, number>;
  cpuPerAnswer: Record<TracingSetup, number>;
  /** Each setup's req/s ÷ `off`'s in the same round: median and quartiles. */
  ratios: Record<TracingSetup, { median: number; q1: number; q3: number }>;
  /** `on` ÷ `off`: the goal's figure. */
  ratio: number;
  errors: number;
  /** The same on other Nodes (`BENCH_TRACING_NODE`, bench/run.ts). */
  others?: TracingResult[];
}

/** The environment of each setup's process (bench/proxy-servers.ts reads `BENCH_TRACING`). */
export const TRACING_ENV: Record<TracingSetup, Record<string, string>> = {
  off: {},
  twin: {},
  floor: { BENCH_TRACING: 'floor' },
  context: { BENCH_TRACING: 'context' },
  sdk: { BENCH_TRACING: 'traces,metrics' },
  on: { BENCH_TRACING: '1' },
  tenth: { BENCH_TRACING: 'context,traces,metrics,ratio:0.1' },
};

/** Puts every thread of `pid` on `cpus` (a `taskset` list). */
const pin = (pid: number | undefined, cpus: string) => {
  if (pid !== undefined) execFileSync('taskset', ['-a', '-pc', cpus, String(pid)], { stdio: 'ignore' });
};

/** The machine's CPUs, counted once: `availableParallelism()` counts those this process may use, which pinning narrows. */
const CPUS = cpus().length;

const canPin = (): boolean => {
  if (CPUS < 2) return false;
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** `binary`: the Node that runs the servers (default `BENCH_NODE` or this one), with `flags`. */
export const runTracing = async (binary = process.env.BENCH_NODE || process.execPath, flags: string[] = []): Promise<TracingResult> => {
  const node = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
  const on = { BENCH_NODE: binary };
  const pinned = canPin();
  const rest = `1-${CPUS - 1}`;
  // The load (this process) and the mock on the other CPUs; back on every CPU afterwards.
  if (pinned) pin(process.pid, rest);
  const mock = await startChild('mock', undefined, flags, on);
  if (pinned) pin(mock.process.pid, rest);
  const info = mock.info!;
  const servers = new Map<TracingSetup, Child>();
  const rounds = Object.fromEntries(TRACING_SETUPS.map((setup) => [setup, []])) as unknown as Record<TracingSetup, number[]>;
  const cpu = Object.fromEntries(TRACING_SETUPS.map((setup) => [setup, []])) as unknown as Record<TracingSetup, number[]>;
  let errors = 0;
  const paths = info.invoices.map((invoice) => `/checkout-api/invoices/${/invoices\/([^/?]+)/.exec(invoice.lookupPath)?.[1] ?? ''}`);
  const round = async (server: Child, seconds: number) => {
    const before = await server.cpu();
    const loads = await Promise.all(paths.map((path) => load(`${server.url}${path}`, {}, seconds, 1)));
    const answers = loads.reduce((sum, each) => sum + each.ok, 0);
    return {
      requestsPerSecond: loads.reduce((sum, each) => sum + each.okPerSecond, 0),
      cpuPerAnswer: ((await server.cpu()) - before) / answers,
      errors: loads.reduce((sum, each) => sum + each.errors, 0),
    };
  };
  try {
    for (let epoch = 0; epoch < TRACING_EPOCHS; epoch++) {
      // Started one after another, in an order turned by one each epoch.
      const starting = TRACING_SETUPS.map((_, index) => TRACING_SETUPS[(index + epoch) % TRACING_SETUPS.length]!);
      for (const setup of starting) {
        const server = await startChild('kit', info, flags, { ...TRACING_ENV[setup], ...on });
        if (pinned) pin(server.process.pid, '0');
        servers.set(setup, server);
      }
      for (const setup of starting) await round(servers.get(setup)!, 2);
      for (let index = 0; index < TRACING_ROUNDS; index++) {
        const order = index % 2 ? [...starting].reverse() : starting;
        for (const setup of order) {
          const result = await round(servers.get(setup)!, TRACING_SECONDS);
          rounds[setup].push(result.requestsPerSecond);
          cpu[setup].push(result.cpuPerAnswer);
          errors += result.errors;
        }
        log(
          `tracing (${node}): epoch ${epoch + 1}, round ${index + 1}: ${TRACING_SETUPS.map((setup) => `${setup} ${Math.round(rounds[setup].at(-1)!)}/s`).join(', ')}`,
        );
      }
      await Promise.all([...servers.values()].map(stopChild));
      servers.clear();
    }
  } finally {
    await Promise.all([...servers.values(), mock].map(stopChild));
    if (pinned) pin(process.pid, `0-${CPUS - 1}`);
  }
  const medians = (values: Record<TracingSetup, number[]>) =>
    Object.fromEntries(TRACING_SETUPS.map((setup) => [setup, median(values[setup])])) as Record<TracingSetup, number>;
  const ratios = Object.fromEntries(
    TRACING_SETUPS.map((setup) => {
      const each = rounds[setup].map((value, index) => value / rounds.off[index]!);
      return [setup, { median: median(each), q1: percentile(each, 0.25), q3: percentile(each, 0.75) }];
    }),
  ) as TracingResult['ratios'];
  return {
    node,
    flags,
    pinned,
    rounds,
    cpu,
    requestsPerSecond: medians(rounds),
    cpuPerAnswer: medians(cpu),
    ratios,
    ratio: ratios.on.median,
    errors,
  };
};

/** `BENCH_TRACING_NODE`: Nodes separated by commas, each a binary and the flags it runs with (no spaces in the path). */
export const otherNodes = (value: string | undefined): { binary: string; flags: string[] }[] =>
  (value ?? '')
    .split(',')
    .map((each) => each.trim().split(/\s+/))
    .filter(([binary]) => binary)
    .map(([binary, ...flags]) => ({ binary: binary!, flags }));

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  const result = await runTracing();
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
