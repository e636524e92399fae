/**
 * `npm run bench`: builds, runs the fourteen benchmarks (bundle, time to requisites, proxy, leaks, slow clients, event streams, the payer's returns,
 * the merchant's books, the gateway, what tracing costs, the same counted in instructions, the checkout on a mid-range phone, the gateway killed among payments, what the journal costs) and rewrites BENCHMARKS.md with the figures, their goals and the machine they came from.
 *
 *   npm run bench                       everything, then BENCHMARKS.md
 *   npm run bench -- --only proxy,ttr   some of them, printed only (BENCHMARKS.md untouched)
 *   npm run bench -- --no-build         use the dist/ that is there
 *   npm run bench -- --render           BENCHMARKS.md again from the last run's figures (bench/.out/last-results.json)
 *   npm run bench -- --only bundle,gateway --sections   those, their sections (and goals) of BENCHMARKS.md replaced in place (bench/sections.ts)
 *   npm run bench -- --render --sections                the last run's sections replaced again (after a change to the report's wording)
 *
 * Parts alone, printed (each file's header says more):
 *
 *   npm run bench -- --only bundle                               the CDN files' sizes, before and after the split (about 30 s with the build)
 *   npm run bench -- --only proxy --no-build                     the proxy (about 2.5 min)
 *   BENCH_PROXY_ROOT=<dir> npm run bench -- --only proxy         … with the proxy of another copy of the sources beside it (A/B)
 *   BENCH_TTR_ROOT=<dir> npm run bench -- --only ttr             the time to requisites with another (built) copy's kit and CDN files
 *   node --import tsx bench/proxy-ab.ts <dir> [rounds] [s] [shared|spread]   the proxy against another copy's, 20 alternating rounds (about 2 min)
 *   node --import tsx bench/events.ts idle [count] [--floor]     the idle streams' memory (about 30 s)
 *   node --import tsx bench/profile.ts [seconds]                 a CPU profile of the proxy under load
 *   node --import tsx bench/payer-returns.ts                     the payer's returns in Chromium as a phone (about 2 min)
 *   node --import tsx bench/books.ts [invoices]                  the merchant's books, 10,000 invoices over a mock day (about 25 min)
 *   node --import tsx bench/gateway.ts                           the gateway against the in-process kit (about 2 min)
 *   node --import tsx bench/tracing.ts                           the kit with an OpenTelemetry SDK against none (about 9 min)
 *   BENCH_TRACING_NODE='<binary>[ <flag>…][, …]' npm run bench -- --only tracing   … on this Node, then on each of those
 *   node --import tsx bench/instructions.ts                      the same, counted in instructions under valgrind (about 35 min)
 *   node --import tsx bench/chaos.ts                             gateways SIGKILLed among paid invoices, on each store (about 4 min)
 *   npm run bench -- --only phone --sections                     the checkout on a mid-range phone, cold (about 2 min)
 *   npm run bench -- --only journal --sections                   what each invoice's journal costs: reads on/off and its size (about 3 min)
 *
 * Each benchmark bounds its own time; on 2 cores the parts' times above add up to well over an
 * hour, most of it the books and the instruction count (the event streams about three minutes:
 * two 60 s windows of 1,000 payers).
 * Benchmarks are not tests: nothing here fails on a timing; the exit code is 1 only when a
 * benchmark could not run.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../test/e2e/support/browser.js';
import { runLeaks, runTimeToRequisites } from './browser.js';
import { runBundle } from './bundle.js';
import { runPhone } from './phone.js';
import { runEvents } from './events.js';
import { runPayerReturns } from './payer-returns.js';
import { BOOKS_INVOICES, runBooks } from './books.js';
import { runGateway } from './gateway.js';
import { otherNodes, runTracing, type TracingResult } from './tracing.js';
import { runInstructions } from './instructions.js';
import { runChaos } from './chaos.js';
import { runJournal } from './journal.js';
import { startCheckoutServer } from './checkout-server.js';
import { load, log, machine, waitForQuiet, withinTime } from './lib.js';
import { runProxy } from './proxy.js';
import { runSlowClients } from './slow-clients.js';
import { replaceSections } from './sections.js';
import { renderReport, type BenchName, type Outcome, type ReportInput, type Results } from './report.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const NAMES: BenchName[] = [
  'bundle',
  'ttr',
  'proxy',
  'leaks',
  'slow',
  'events',
  'returns',
  'books',
  'gateway',
  'tracing',
  'instructions',
  'chaos',
  'phone',
  'journal',
];

const argument = (name: string): string | undefined => {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
};
const only = argument('--only')?.split(',') as BenchName[] | undefined;
const wanted = only ?? NAMES;
const writeReport = only === undefined;
const started = new Date();
const clock = Date.now();

if (process.argv.includes('--render')) {
  // BENCHMARKS.md again from the last full run's figures (bench/.out/last-results.json).
  // With --sections, only the sections of the benchmarks that run measured.
  const saved = JSON.parse(await readFile(`${root}bench/.out/last-results.json`, 'utf8')) as ReportInput & { date: string };
  const input = { ...saved, date: new Date(saved.date) };
  const names = NAMES.filter((name) => saved.results[name] !== undefined);
  const sections = process.argv.includes('--sections');
  const text = sections
    ? replaceSections(await readFile(`${root}BENCHMARKS.md`, 'utf8'), renderReport(input), names, input.date)
    : renderReport(input);
  await writeFile(`${root}BENCHMARKS.md`, text);
  log(`BENCHMARKS.md ${sections ? `sections ${names.join(', ')}` : ''} rendered again from bench/.out/last-results.json`);
  process.exit(0);
}

if (!process.argv.includes('--no-build')) {
  log('building dist/ (npm run build)');
  const build = spawnSync(process.execPath, [`${root}scripts/build.js`], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 120_000,
  });
  if (build.status !== 0) {
    log('the build failed');
    process.exit(1);
  }
}

// Other work on the machine skews every timing: wait a little for it to calm down, and say how busy it was.
const loadAtStart = await waitForQuiet(1.5, 20_000);
log(`load average ${loadAtStart}`);

const results: Results = {};
const run = async <T>(name: BenchName, limitMs: number, work: () => Promise<T>): Promise<Outcome<T> | undefined> => {
  if (!wanted.includes(name)) return undefined;
  const loadBefore = load();
  const begun = Date.now();
  log(`${name}: running (at most ${limitMs / 1000} s)`);
  try {
    const value = await withinTime(name, limitMs, work());
    return { ok: true, value, seconds: (Date.now() - begun) / 1000, loadBefore, loadAfter: load() };
  } catch (error) {
    log(`${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return {
      ok: false,
      error: error instanceof Error ? error.message : String(error),
      seconds: (Date.now() - begun) / 1000,
      loadBefore,
      loadAfter: load(),
    };
  }
};

results.bundle = await run('bundle', 60_000, runBundle);
results.proxy = await run('proxy', 360_000, () => runProxy());
results.slow = await run('slow', 90_000, runSlowClients);
results.events = await run('events', 300_000, runEvents);
results.returns = await run('returns', 300_000, runPayerReturns);
// BENCH_BOOKS_INVOICES: fewer invoices for a shorter run (then the figures are not the issue's 10,000).
results.books = await run('books', 3_600_000, () => runBooks(Number(process.env.BENCH_BOOKS_INVOICES ?? BOOKS_INVOICES)));
results.gateway = await run('gateway', 300_000, runGateway);
// BENCH_TRACING_NODE: the same again on other Nodes (newer ones, whose AsyncLocalStorage needs no promise hooks), each given as long as this one.
results.tracing = await run('tracing', 900_000 * (1 + otherNodes(process.env.BENCH_TRACING_NODE).length), async () => {
  const result = await runTracing();
  const others: TracingResult[] = [];
  for (const { binary, flags } of otherNodes(process.env.BENCH_TRACING_NODE)) others.push(await runTracing(binary, flags));
  return others.length > 0 ? { ...result, others } : result;
});
// A count does not depend on the machine's load, but how long it takes does: under other work it ran past an hour (2026-11-28).
results.instructions = await run('instructions', 7_200_000, runInstructions);
results.chaos = await run('chaos', 600_000, runChaos);
results.journal = await run('journal', 600_000, runJournal);

if (wanted.includes('ttr') || wanted.includes('leaks') || wanted.includes('phone')) {
  const server = await startCheckoutServer(process.env.BENCH_TTR_ROOT || undefined);
  const browser = await launchChromium();
  try {
    results.ttr = await run('ttr', 90_000, () => runTimeToRequisites(browser, server));
    results.leaks = await run('leaks', 90_000, () => runLeaks(browser, server));
    results.phone = await run('phone', 300_000, () => runPhone(browser, server));
  } finally {
    await browser.close();
    await server.close();
  }
}

const totalSeconds = (Date.now() - clock) / 1000;
const input = { results, machine: machine(), date: started, loadAtStart, totalSeconds };
// Kept (git-ignored) so that a change to the report's wording can be rendered again without a run.
await mkdir(`${root}bench/.out`, { recursive: true });
await writeFile(`${root}bench/.out/last-results.json`, JSON.stringify(input));
const report = renderReport(input);
if (process.argv.includes('--sections')) {
  // A section whose run failed keeps its last figures: a timeout must not erase a measurement.
  const replaced = wanted.filter((name) => (results[name] as Outcome<unknown> | undefined)?.ok !== false);
  await writeFile(`${root}BENCHMARKS.md`, replaceSections(await readFile(`${root}BENCHMARKS.md`, 'utf8'), report, replaced, started));
  log(`BENCHMARKS.md: sections ${replaced.join(', ') || 'none'} replaced (${totalSeconds.toFixed(0)} s)`);
} else if (writeReport) {
  await writeFile(`${root}BENCHMARKS.md`, report);
  log(`BENCHMARKS.md written (${totalSeconds.toFixed(0)} s)`);
} else {
  process.stdout.write(report);
}
const failed = (Object.values(results) as (Outcome<unknown> | undefined)[]).some((outcome) => outcome !== undefined && !outcome.ok);
process.exitCode = failed ? 1 : 0;
