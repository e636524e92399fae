/**
 * What tracing costs, counted (issue 27's point 4 where a clock cannot tell 0.95 from 0.94):
 * the kit object of bench/tracing.ts (bench/proxy-servers.ts `kit`, bundled as it ships) under
 * valgrind's callgrind, which counts the instructions each thread of a process executes. This
 * kind of virtual machine has no hardware counters (`perf` lists no `cycles`) and its speed
 * drifts by tens of percent between seconds; a count of instructions does not drift.
 *
 * The setups of bench/tracing.ts that tell the kit's share from the SDK's (`INSTRUCTION_SETUPS`)
 * each run in a process of their own under callgrind, all at once (a count does not depend on
 * how the processes share the CPUs): `INSTRUCTION_WARMUP` checkout reads warm each up (under
 * callgrind a read takes tens of milliseconds, and V8's compilers settle after about 12,000),
 * then `INSTRUCTION_WINDOWS` windows of `INSTRUCTION_READS` reads, the counters zeroed before
 * each window and dumped after it. The figure is the median of the last three windows'
 * instructions per read: on the main thread (the event loop, which serves every read) and on
 * every thread (with V8's compilers and concurrent marking, which share the server's CPU).
 * Callgrind counts the process's own instructions, not the kernel's work on its behalf (the
 * sockets of every read), so an `off` process outside valgrind is loaded as well, to tell the
 * user share of a read's CPU time. The throughput counted is then `1 / (1 + (r - 1) × user
 * share)`, `r` being a setup's main-thread instructions ÷ no SDK's: what the throughput's ratio
 * would be if time followed instructions (the SDK's code may run at another pace than the kit's).
 *
 *   node --import tsx bench/instructions.ts          (about 35 minutes; needs valgrind; run `npm run build` first)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { log, median } from './lib.js';
import { startChild, stopChild, type Child } from './proxy.js';
import { TRACING_ENV, type TracingSetup } from './tracing.js';

/** No SDK, the least point 3 asks, the kit's own spans and metrics, the SDK as a shop installs it, a tenth sampled. */
export const INSTRUCTION_SETUPS = ['off', 'floor', 'sdk', 'on', 'tenth'] as const satisfies readonly TracingSetup[];
export type InstructionSetup = (typeof INSTRUCTION_SETUPS)[number];
export const INSTRUCTION_WARMUP = 10_000;
/** Under five processes at once on two CPUs, five windows were not enough for the counts to stop falling (2026-11-27): eight. */
export const INSTRUCTION_WINDOWS = 8;
export const INSTRUCTION_READS = 1_000;

export interface InstructionsResult {
  /** The servers' Node (`process.version`) and valgrind's version. */
  node: string;
  valgrind: string;
  /** Reads to warm up, and in each window. */
  warmup: number;
  reads: number;
  /** Millions of instructions per read in each window, by setup: the main thread's and every thread's. */
  windows: Record<InstructionSetup, { main: number[]; all: number[] }>;
  /** The share of a read's CPU time spent in the process's own code (the rest is the kernel's), without an SDK and outside valgrind. */
  userShare: number;
  /** The median of the last three windows. */
  main: Record<InstructionSetup, number>;
  all: Record<InstructionSetup, number>;
  errors: number;
}

const version = (command: string): string => {
  const run = spawnSync(command, ['--version'], { encoding: 'utf8' });
  if (run.error || run.status !== 0)
    throw new Error(`bench/instructions.ts needs ${command} (Debian's package valgrind): ${run.error?.message ?? run.stderr}`);
  return run.stdout.trim();
};

/** `amount` reads in all, a connection per URL; the reads that failed (an error, a timeout or an answer not 2xx). */
const reads = (urls: string[], amount: number): Promise<number> =>
  new Promise((resolve, reject) =>
    autocannon({ url: urls, connections: urls.length, amount, timeout: 120 }, (error, result) =>
      error ? reject(error) : resolve(result.errors + result.timeouts + result.non2xx),
    ),
  );

/** Instructions counted in the dumps of `pid` in `dir` (one file per thread with `--separate-threads`; the main thread's ends in `-01`), then the dumps removed. */
const counted = async (dir: string, pid: number): Promise<{ main: number; all: number }> => {
  const files = (await readdir(dir)).filter((file) => file.startsWith(`cg.${pid}.`));
  let main = 0;
  let all = 0;
  for (const file of files) {
    const total = /^(?:summary|totals): (\d+)$/m.exec(await readFile(join(dir, file), 'utf8'));
    if (!total) throw new Error(`callgrind's dump ${file} has no total`);
    all += Number(total[1]);
    if (file.endsWith('-01')) main += Number(total[1]);
    await rm(join(dir, file));
  }
  if (main === 0) throw new Error(`callgrind dumped no main thread for process ${pid}`);
  return { main, all };
};

export const runInstructions = async (): Promise<InstructionsResult> => {
  const valgrind = version('valgrind');
  version('callgrind_control');
  const dir = await mkdtemp(join(tmpdir(), 'bench-instructions-'));
  const prefix = [
    'valgrind',
    '--tool=callgrind',
    // V8 writes the code it runs: valgrind must look for new code beyond the stack.
    '--smc-check=all-non-file',
    '--separate-threads=yes',
    '--dump-line=no',
    `--callgrind-out-file=${join(dir, 'cg.%p')}`,
    `--log-file=${join(dir, 'log.%p')}`,
  ];
  const mock = await startChild('mock');
  const children: Child[] = [];
  let userShare = Number.NaN;
  const windows = Object.fromEntries(
    INSTRUCTION_SETUPS.map((setup) => [setup, { main: [], all: [] }]),
  ) as unknown as InstructionsResult['windows'];
  let errors = 0;
  try {
    const info = mock.info!;
    const paths = info.invoices.map((invoice) => `/checkout-api/invoices/${/invoices\/([^/?]+)/.exec(invoice.lookupPath)?.[1] ?? ''}`);
    const plain = await startChild('kit', info, [], TRACING_ENV.off);
    children.push(plain);
    const plainUrls = paths.map((path) => `${plain.url}${path}`);
    errors += await reads(plainUrls, INSTRUCTION_WARMUP);
    const before = await plain.cpuParts();
    errors += await reads(plainUrls, 2 * INSTRUCTION_WARMUP);
    const after = await plain.cpuParts();
    userShare = (after.user - before.user) / (after.user - before.user + after.system - before.system);
    await stopChild(plain);
    await Promise.all(
      INSTRUCTION_SETUPS.map(async (setup) => {
        const server = await startChild('kit', info, [], TRACING_ENV[setup], prefix);
        children.push(server);
        const pid = server.process.pid!;
        const urls = paths.map((path) => `${server.url}${path}`);
        errors += await reads(urls, INSTRUCTION_WARMUP);
        log(`instructions: ${setup} warmed up`);
        for (let window = 0; window < INSTRUCTION_WINDOWS; window++) {
          execFileSync('callgrind_control', ['--zero', String(pid)], { stdio: 'ignore' });
          errors += await reads(urls, INSTRUCTION_READS);
          execFileSync('callgrind_control', ['--dump', String(pid)], { stdio: 'ignore' });
          const { main, all } = await counted(dir, pid);
          windows[setup].main.push(main / INSTRUCTION_READS / 1e6);
          windows[setup].all.push(all / INSTRUCTION_READS / 1e6);
          log(
            `instructions: ${setup}, window ${window + 1}: ${windows[setup].main.at(-1)!.toFixed(3)} M on the main thread, ${windows[setup].all.at(-1)!.toFixed(3)} M in all`,
          );
        }
      }),
    );
  } finally {
    await Promise.all([...children, mock].map(stopChild));
    await rm(dir, { recursive: true, force: true });
  }
  const last = (key: 'main' | 'all') =>
    Object.fromEntries(INSTRUCTION_SETUPS.map((setup) => [setup, median(windows[setup][key].slice(-3))])) as Record<
      InstructionSetup,
      number
    >;
  const node = execFileSync(process.env.BENCH_NODE || process.execPath, ['--version'], { encoding: 'utf8' }).trim();
  return {
    node,
    valgrind,
    warmup: INSTRUCTION_WARMUP,
    reads: INSTRUCTION_READS,
    userShare,
    windows,
    main: last('main'),
    all: last('all'),
    errors,
  };
};

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  const result = await runInstructions();
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
