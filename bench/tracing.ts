/**
 * What tracing costs (issue 27): the kit object as the README runs it in-process (bench/proxy-
 * servers.ts `kit`, bundled as it ships) in three processes: without an OpenTelemetry SDK (the
 * API is a no-op); with only a context manager on `AsyncLocalStorage`, entered once (what any
 * SDK with context brings to a process, whatever it traces: on Node 20 every promise and tick
 * then runs a hook); and with an SDK installed as a shop would (`BENCH_TRACING=1`: every span
 * sampled into a batch processor, that context manager, a meter provider read every 10 s), and
 * the same SDK sampling a tenth of the traces (`ParentBased(TraceIdRatioBased(0.1))`).
 * Checkout reads, `GET /checkout-api/invoices/{id}`: 10 connections over 10 invoices, the
 * processes warmed up for 2 s, then alternated (the order reversed every other round),
 * `TRACING_ROUNDS` rounds of `TRACING_SECONDS` s each; medians of req/s and of each process's
 * CPU per answer.
 *
 *   node --import tsx bench/tracing.ts                    (about 4 minutes; run `npm run build` first)
 *   BENCH_NODE=<node binary> node --import tsx bench/tracing.ts   the servers on another Node
 *   BENCH_TRACING_NODE=<node binary> npm run bench -- --only tracing   this Node, then that one too
 */
import { execFileSync } from 'node:child_process';
import { log, median } from './lib.js';
import { load, startChild, stopChild, type Child } from './proxy.js';

export const TRACING_ROUNDS = 10;
export const TRACING_SECONDS = 4;
/** Goal: with an SDK and sampling on, within 5 % of tracing off. */
export const TRACING_GOAL_RATIO = 0.95;

/** The processes: no SDK, only the context manager, the SDK with every span sampled, the SDK sampling a tenth of the traces. */
export const TRACING_SETUPS = ['off', 'context', 'on', 'tenth'] as const;
export type TracingSetup = (typeof TRACING_SETUPS)[number];

export interface TracingResult {
  /** The servers' Node (`process.version` of `BENCH_NODE` or this one). */
  node: string;
  /** req/s of each round, by setup. */
  rounds: Record<TracingSetup, number[]>;
  /** CPU (µs) per answer of each round, by setup. */
  cpu: Record<TracingSetup, number[]>;
  /** Medians. */
  requestsPerSecond: Record<TracingSetup, number>;
  cpuPerAnswer: Record<TracingSetup, number>;
  /** on ÷ off, req/s: the goal's figure. */
  ratio: number;
  /** context ÷ off, req/s: what the context manager alone costs. */
  contextRatio: number;
  /** tenth ÷ off, req/s: with a tenth of the traces sampled. */
  tenthRatio: number;
  errors: number;
  /** The same on another Node (`BENCH_TRACING_NODE`, bench/run.ts). */
  other?: TracingResult;
}

const ENV: Record<TracingSetup, Record<string, string>> = {
  off: {},
  context: { BENCH_TRACING: 'context' },
  on: { BENCH_TRACING: '1' },
  tenth: { BENCH_TRACING: 'context,traces,metrics,ratio:0.1' },
};

/** `binary`: the Node that runs the servers (default `BENCH_NODE` or this one). */
export const runTracing = async (binary = process.env.BENCH_NODE || process.execPath): Promise<TracingResult> => {
  const node = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
  const on = { BENCH_NODE: binary };
  const mock = await startChild('mock', undefined, [], on);
  const info = mock.info!;
  const servers = new Map<TracingSetup, Child>();
  const rounds = Object.fromEntries(TRACING_SETUPS.map((setup) => [setup, []])) as unknown as Record<TracingSetup, number[]>;
  const cpu = Object.fromEntries(TRACING_SETUPS.map((setup) => [setup, []])) as unknown as Record<TracingSetup, number[]>;
  let errors = 0;
  try {
    for (const setup of TRACING_SETUPS) servers.set(setup, await startChild('kit', info, [], { ...ENV[setup], ...on }));
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
    for (const server of servers.values()) await round(server, 2);
    for (let index = 0; index < TRACING_ROUNDS; index++) {
      const order = index % 2 ? [...TRACING_SETUPS].reverse() : TRACING_SETUPS;
      for (const setup of order) {
        const result = await round(servers.get(setup)!, TRACING_SECONDS);
        rounds[setup].push(result.requestsPerSecond);
        cpu[setup].push(result.cpuPerAnswer);
        errors += result.errors;
      }
      log(`tracing: round ${index + 1}: ${TRACING_SETUPS.map((setup) => `${setup} ${Math.round(rounds[setup].at(-1)!)}/s`).join(', ')}`);
    }
  } finally {
    await Promise.all([...servers.values(), mock].map(stopChild));
  }
  const medians = (values: Record<TracingSetup, number[]>) =>
    Object.fromEntries(TRACING_SETUPS.map((setup) => [setup, median(values[setup])])) as Record<TracingSetup, number>;
  const requestsPerSecond = medians(rounds);
  return {
    node,
    rounds,
    cpu,
    requestsPerSecond,
    cpuPerAnswer: medians(cpu),
    ratio: requestsPerSecond.on / requestsPerSecond.off,
    contextRatio: requestsPerSecond.context / requestsPerSecond.off,
    tenthRatio: requestsPerSecond.tenth / requestsPerSecond.off,
    errors,
  };
};

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  const result = await runTracing();
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
