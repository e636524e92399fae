/**
 * What tracing costs (issue 27): the kit object as the README runs it in-process (bench/proxy-
 * servers.ts `kit`, bundled as it ships) without an OpenTelemetry SDK (the API is a no-op) and
 * with one installed as a shop would (`BENCH_TRACING=1`: every span sampled into a batch
 * processor, context across `await` by `AsyncLocalStorage`, a meter provider read every 10 s).
 * Checkout reads, `GET /checkout-api/invoices/{id}`: 10 connections over 10 invoices, both
 * processes warmed up for 2 s, then alternated, 5 rounds of 8 s each; medians.
 *
 *   node --import tsx bench/tracing.ts       (about 2 minutes; run `npm run build` first)
 */
import { log, median } from './lib.js';
import { load, startChild, stopChild } from './proxy.js';

export const TRACING_ROUNDS = 5;
export const TRACING_SECONDS = 8;
/** Goal: with an SDK and sampling on, within 5 % of tracing off. */
export const TRACING_GOAL_RATIO = 0.95;

export interface TracingResult {
  off: number[];
  on: number[];
  offMedian: number;
  onMedian: number;
  ratio: number;
  errors: number;
}

export const runTracing = async (): Promise<TracingResult> => {
  const mock = await startChild('mock');
  const info = mock.info!;
  const off = await startChild('kit', info);
  const on = await startChild('kit', info, [], { BENCH_TRACING: '1' });
  const result = { off: [] as number[], on: [] as number[], errors: 0 };
  try {
    const paths = info.invoices.map((invoice) => `/checkout-api/invoices/${/invoices\/([^/?]+)/.exec(invoice.lookupPath)?.[1] ?? ''}`);
    const round = async (url: string, seconds: number) => {
      const loads = await Promise.all(paths.map((path) => load(`${url}${path}`, {}, seconds, 1)));
      result.errors += loads.reduce((sum, each) => sum + each.errors, 0);
      return loads.reduce((sum, each) => sum + each.okPerSecond, 0);
    };
    await round(off.url, 2);
    await round(on.url, 2);
    result.errors = 0;
    for (let index = 0; index < TRACING_ROUNDS; index++) {
      result.off.push(await round(off.url, TRACING_SECONDS));
      result.on.push(await round(on.url, TRACING_SECONDS));
      log(`tracing: round ${index + 1}: off ${Math.round(result.off.at(-1)!)}/s, on ${Math.round(result.on.at(-1)!)}/s`);
    }
  } finally {
    await stopChild(on);
    await stopChild(off);
    await stopChild(mock);
  }
  const offMedian = median(result.off);
  const onMedian = median(result.on);
  return { ...result, offMedian, onMedian, ratio: onMedian / offMedian };
};

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  const result = await runTracing();
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
