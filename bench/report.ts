/** BENCHMARKS.md from the results of one `npm run bench`. */
import { BROTLI_BEFORE_LANGUAGES, BROTLI_GOAL, GZIP_LIMIT, LANGUAGE_CHUNK_LIMIT, LANGUAGE_NAMES, type BundleResult } from './bundle.js';
import { HEAP_GROWTH_GOAL, MOUNTS, RUNS, TTR_GOAL_ROUND_TRIPS, type LeakResult, type TimeToRequisitesResult } from './browser.js';
import { fixed, int, median, type Machine } from './lib.js';
import { ADDED_P99_GOAL_MS, THROUGHPUT_GOAL_RATIO, type ProxyResult } from './proxy.js';
import { SLOW_CONNECTIONS, SLOW_P99_GOAL_MS, type SlowClientsResult } from './slow-clients.js';
import { IDLE_MEMORY_GOAL_BYTES, IDLE_STREAMS_GOAL, LATENCY_P99_GOAL_MS, UPSTREAM_GOAL_RATIO, type EventsResult } from './events.js';
import { AWAY_MS, DEAD_GOAL_MS, DEAD_TABS, RETURN_GOAL_MS, RETURNS, type PayerReturnsResult } from './payer-returns.js';
import { PARTS, STALL_GOAL_MS } from './receipts.js';
import { BOOKS_INVOICES, FOUND_GOAL_MS, type BooksResult } from './books.js';
import { PHONE, PHONE_INP_GOAL_MS, PHONE_PAGES, PHONE_REQUISITES_GOAL_MS, type PhoneResult } from './phone.js';
import { DURABLE_READ_GOAL_RATIO, IDLE_STREAMS, READ_GOAL_RATIO, WEBHOOK_P99_GOAL_MS, WEBHOOKS, type GatewayResult } from './gateway.js';
import {
  TRACING_EPOCHS,
  TRACING_GOAL_RATIO,
  TRACING_ROUNDS,
  TRACING_SECONDS,
  TRACING_SETUPS,
  type TracingResult,
  type TracingSetup,
} from './tracing.js';
import { INSTRUCTION_SETUPS, type InstructionsResult } from './instructions.js';
import { CHAOS_INVOICES, type ChaosResult, type ChaosRun } from './chaos.js';
import { JOURNAL_INVOICES, JOURNAL_ROUNDS, JOURNAL_SECONDS, JOURNAL_READ_GOAL_RATIO, type JournalBenchResult } from './journal.js';

export type BenchName =
  | 'bundle'
  | 'ttr'
  | 'proxy'
  | 'leaks'
  | 'slow'
  | 'events'
  | 'returns'
  | 'books'
  | 'gateway'
  | 'tracing'
  | 'instructions'
  | 'phone'
  | 'chaos'
  | 'journal';

export type Outcome<T> =
  | { ok: true; value: T; seconds: number; loadBefore: number; loadAfter: number }
  | { ok: false; error: string; seconds: number; loadBefore: number; loadAfter: number };

export interface Results {
  bundle?: Outcome<BundleResult> | undefined;
  ttr?: Outcome<TimeToRequisitesResult> | undefined;
  proxy?: Outcome<ProxyResult> | undefined;
  leaks?: Outcome<LeakResult> | undefined;
  slow?: Outcome<SlowClientsResult> | undefined;
  events?: Outcome<EventsResult> | undefined;
  returns?: Outcome<PayerReturnsResult> | undefined;
  books?: Outcome<BooksResult> | undefined;
  gateway?: Outcome<GatewayResult> | undefined;
  tracing?: Outcome<TracingResult> | undefined;
  instructions?: Outcome<InstructionsResult> | undefined;
  phone?: Outcome<PhoneResult> | undefined;
  chaos?: Outcome<ChaosResult> | undefined;
  journal?: Outcome<JournalBenchResult> | undefined;
}

/**
 * The changes made for issues 7, 12 and 14, with the figures measured right before and after
 * each (one run each, same machine); the tables above are what this run measured.
 */
const IMPROVEMENTS: { change: string; before: string; after: string }[] = [
  {
    change:
      'Proxy: a payer leaving while the upstream request was being signed made `fetch` reject with nobody listening; Node ended the process (`abortable` in `src/server/client.ts` now handles the abandoned promise)',
    before: 'the proxy process died at the end of the first load round: 0 req/s and 216,200 errors after it',
    after: 'no crash; 533–711 req/s in the same short run, 0 errors',
  },
  {
    change:
      '`signRequest`/`verifySignature`: `node:crypto` HMAC where the runtime has it (`process.getBuiltinModule`), Web Crypto elsewhere; same signatures (property test on both paths)',
    before:
      '`signRequest` 18,902/s one by one, 93,215/s 64 at a time; proxy 1,383 req/s (0.26× the bare passthrough), p99 19.47 ms (+12.21 ms over the mock)',
    after:
      '`signRequest` 285,308/s one by one, 419,406/s 64 at a time; proxy 1,496 req/s (0.27×: the mock verifies faster too, direct 5,098 → 5,635 req/s), p99 9.09 ms (+3.26 ms)',
  },
  {
    change:
      "CDN build: QR texts split by `src/element/qr-segments.ts` (one pass of dynamic programming) instead of `qrcode`'s Dijkstra splitter with its Kanji tables and `dijkstrajs`; never more bits (test), same QR code version on payment links, read back by `zbarimg` from a screenshot",
    before: 'CDN 82,188 B raw, 28,411 B gzip, **24,738 B brotli**',
    after: 'CDN 78,682 B raw, 27,301 B gzip, **23,834 B brotli**',
  },
  {
    change: '`toNodeHandler`: headers, a body already there and the end corked into one socket write',
    before: 'proxy 677 µs CPU per answer (1,676 req/s)',
    after: 'proxy 630 µs CPU per answer (1,689 req/s); within noise on req/s',
  },
  {
    change:
      "Proxy upstream through `createNodeFetch()` (node:http with keep-alive agents; `MerchantClient`'s `fetch` option) instead of the global `fetch`",
    before: 'proxy 600 µs CPU per answer, 1,774 req/s (0.32× the bare passthrough)',
    after: 'proxy 491 µs CPU per answer, 2,022 req/s (0.36×)',
  },
  {
    change:
      'The mock on Hono (routes as rows on one app, faults as middleware) instead of its hand-written matcher (10 s autocannon on `GET /api/merchant/invoices/{id}`, median of 3, old and new alternating)',
    before: '8,193 req/s',
    after: '10,793 req/s',
  },
  {
    change:
      'This round, proxy as a whole: reads by id on Hono, allow-list projection, tolerant schemas, one shared `createNodeFetch()` by default taking JSON calls without a `Request`, concurrent reads of one invoice sharing one upstream call (single flight), the store record',
    before: "last round's BENCHMARKS.md: 460 µs CPU per answer, 0.28× the bare passthrough (1,992 vs 7,097 req/s)",
    after:
      'this run: 202 µs CPU per answer, 0.50× (see section 3; under this load 10 connections reading one invoice share upstream calls)',
  },
  {
    change:
      'Proxy, this round (bench/profile.ts first): `toNodeHandler` hands a GET a light `Request` (undici made a second, following `AbortSignal` and a finalization-registry entry per request) and writes an answer made from text or bytes whole with its `Content-Length` (no reader, no chunked framing); `createNodeFetch` reads the upstream answer through events instead of its async iterator; single flight puts one listener per caller on its signal instead of two; the callers one read answered record it in the store once (measured in one run, interleaved with the previous code built the same way: `BENCH_PROXY_ROOT`)',
    before:
      'CPU per answer 328 µs, 3,122 req/s, 0.30× the bare passthrough (one invoice per connection); 125 µs, 8,481 req/s, 0.79× (all on one invoice)',
    after: 'CPU per answer 280 µs, 3,593 req/s, 0.34×; 94 µs, 10,814 req/s, 1.01×',
  },
  {
    change:
      "Proxy, this session (bench/profile.ts, then its new `alloc` mode): an unchanged invoice read again is the same frozen invoice, projection and JSON text (the client's internal `SHARED_ANSWER` read: zod, projection and `JSON.stringify` were a sixth of the CPU); `createNodeFetch` reads the upstream answer as text without `Response`, web stream or `AbortController`, and watches the caller's signal itself; answers to `toNodeHandler` requests are written without a body stream; a GET's headers and path are read as Node parsed them; bodyless calls' signatures are kept (measured in one run, interleaved with the previous round's last commit built the same way: `BENCH_PROXY_ROOT`)",
    before:
      'CPU per answer 275 µs, 3,734 req/s, 0.34× the bare passthrough (one invoice per connection); 92 µs, 11,182 req/s (all on one invoice); p99 at 200 req/s 2.64 ms',
    after: 'CPU per answer 108 µs, 7,327 req/s, 0.66×; 43 µs, 21,507 req/s; p99 2.11 ms (the bare passthrough: 1.91 ms)',
  },
  {
    change:
      "Event streams without Hono's `streamSSE`: one `ReadableStream` per stream (high-water mark 0) whose source is the stream's state, SSE framing of our own with the same bytes as `writeSSE` (tested against it), one heartbeat timer per handler in 16 buckets instead of one timer per stream, nothing alive during a stream that holds its request, Hono context or answer (bench/heap-breakdown.ts on heap snapshots of 2,000 streams)",
    before: '10,000 idle streams: 340.2 MB more RSS, 34.4 KB each (27.9 KB of it JS heap); the kit bundled as it ships',
    after: '178.8 MB, 18.1 KB each (10.5 KB JS heap; a bare node:http server holding as many: 10.6 KB each)',
  },
  {
    change:
      "CDN build: the invoice screens' styles (`src/element/screen.styles.ts`) come with the screens' templates in the `views` chunk and are adopted after the element's own; the first-render file keeps the card, the loading skeleton, the boot error and the buttons (`npm run bench -- --only bundle`)",
    before: "first-render file 78,215 B raw, 26,355 B gzip, **23,291 B brotli** (over issue 28's 22,960 B)",
    after: '75,265 B raw, 25,671 B gzip, **22,643 B brotli**; `views` 11,993 → 15,294 B raw',
  },
  {
    change:
      'Mock: a sweep (every request makes one) looks only at the invoices still `new`, and a lookup by `internalId` is an index, instead of every invoice each time (the books benchmark at 10,000 invoices)',
    before: '12 h of mock time in 37 min, then slower with every invoice (one process at 100 % CPU); stopped',
    after: 'the whole 30 h of mock time in 820 s',
  },
  {
    change:
      "Gateway (bench/profile.ts's method on the built bin): the protocol and the notifications reach the kit without Hono's router in front, the request log is one write per turn of the event loop, paths are read without parsing the URL, a verified checkout token is remembered (its invoice and expiry still checked each time); the baseline is now the kit object as the README runs it (`createCheckoutServer` on `createNodeServer(kit.fetch)`), no longer the bare checkout handler without a store, and both are warmed up",
    before:
      "gateway 1,321 req/s median against the bare handler's 1,724 (0.77×); CPU per read under the profiler 957 µs, the bare handler 512 µs",
    after:
      "gateway 1,717 req/s against the kit object's 1,834 (0.94×, 5 rounds); against the bare handler it was still 1,581 vs 2,308 (0.69×) before the token was remembered, not measured since",
  },
  {
    change:
      "One kit, one table (issue 29): one router built from the route table, the server in folders with a typed Node seam instead of `SEND_TEXT`/`SHARED_ANSWER`, the element in controllers; measured against the previous session's last commit (fc6f898) on one quiet machine: the proxy interleaved in one run (`BENCH_PROXY_ROOT`); the time to requisites with each tree's bundled kit and CDN files, alternated twice (`BENCH_TTR_ROOT`); the event benchmark (fixed: it now changes the invoice at the mock before notifying, since the kit reads every notified invoice) run on each tree right after the other. All on one invoice, req/s and CPU per answer swing 2× from round to round (how many payers join one upstream read), and the proxy benchmark's five rounds of 2 s gave 5,994 vs 6,944, 6,034 vs 5,905 and 5,876 vs 7,165 req/s in three runs; `node --import tsx bench/proxy-ab.ts <fc6f898 tree> 20 3 shared` (20 alternating rounds of 3 s, both kits bundled) gave 5,759 vs 5,510 req/s at 167 vs 176 µs, and two runs of the same method 7,017 vs 6,997 (136 vs 142 µs) and 7,247 vs 7,643 (134 vs 128 µs): within noise, with the mock's CPU per answer equal (as many reads joined). The time to requisites had looked 3–4 ms slower at 0 ms latency only while the benchmark ran the kit from the sources through tsx (`keepNames` wraps each closure the router makes); it now runs the kit bundled as it ships",
    before:
      'proxy 1,918 req/s, 485 µs CPU per answer; all on one invoice (bench/proxy-ab.ts) 5,510 req/s, 176 µs; requisites at 0/50/150 ms latency 22.8/67.6/167.1 and 22.6/68.8/166.7 ms (1.06 and 1.05 round trips at 150 ms); notification → stream p50/p99 9.87/34.82 ms (three instances 10.95/25.74 ms); idle stream 14.5 KB; first render 22,812 B brotli',
    after:
      'proxy 2,011 req/s, 444 µs; all on one invoice 5,759 req/s, 167 µs; 19.1/68.6/171.6 and 18.2/67.0/165.6 ms (1.08 and 1.05); 7.42/15.22 ms (9.77/17.25 ms); 10.8 KB; 22,832 B',
  },
  {
    change:
      "The phone (issue 38), measured side by side with `bench/phone-ab.ts` (the commit before this work, ef3ecec, built in a copy, against this tree; 10 cold loads each on the phone profile, alternating; load average 9–11): the QR encoder, lettermarks and bank names load once the requisites' screen is painted, the page's first `Intl.NumberFormat` (60–200 ms at 4× CPU: the browser's number data) is made while the invoice is read, NumberFormats are made once, the strings and templates are asked for when the element connects, the bench serves brotli as Chromium asks, and `merchant-checkout/define` no longer carries every language",
    before:
      'requisites on screen, median: examples/cdn.html 1,422 ms; the bundled page 1,433 ms (an earlier A/B at load 13: 1,478 and 1,744 ms)',
    after: '1,253 ms; 1,282 ms (1,300 and 1,235 ms)',
  },
  {
    change:
      "`merchant-checkout/define` re-exports the API without the translation objects (`api.ts`, as the CDN file): a bundler kept all ten languages in the page's first file for `import 'merchant-checkout/define'` (Vite 8, the npm build)",
    before: "the page's first file 132,640 B raw, 38,193 B gzip, languages in it",
    after: '47,458 B raw, 14,806 B gzip; each language a chunk loaded on demand',
  },
  {
    change:
      'First-render CDN file across this work: the after-paint machinery, the cached NumberFormat and its warm-up, the strings asked for at connect (issue 38), `InvoiceSession` and `StreamController` split to at most 8 mutable fields a class and the client built from the route table (issue 39), then the css literals minified at build (scripts/css-literals.js)',
    before: 'ef3ecec: 76,253 B raw, 25,951 B gzip, **22,934 B brotli**',
    after:
      "before the css minification 77,562 B raw, 23,310 B brotli (the split +148 B, the table-built client +15 B); after it 76,639 B raw, 26,260 B gzip, **23,194 B brotli**: 234 B over issue 28's 22,960 B",
  },
  {
    change:
      "Issue 39 side by side with the commit before it (ef3ecec), one quiet machine, Node 24.21.0 unless said, alternated rounds: checkout reads (`bench/proxy-ab.ts <ef3ecec> 20 3 spread`, both kits bundled as they ship); notification → event (`bench/events-ab.ts <ef3ecec> 30`, 3,000 notifications each, one instance / three behind Redis; how far a p99 moves here between two runs of one tree is measured by this tree against itself with `JOURNAL=off` on one side, 20 rounds); time to requisites (`BENCH_TTR_ROOT`, each tree twice); first-render bytes. On Node 24 undici 7 brand-checks a `Request` by private fields, so the adapter hands real requests there (ef3ecec handed its stand-in, which breaks `new Request(request)` in a handler: the bug issue 39 found); their text answers are written whole again by the adapter that marked them (`markAdapterRequest`), and they are made from Node's parsed headers as they are",
    before:
      'ef3ecec: reads 4,279 req/s, 186 µs CPU per answer (Node 22.23.3: 4,221 req/s, 190 µs); notification → event p50 2.89 / 5.71 ms, p99 10.22 / 28.26 ms; requisites at 150 ms 164.0 / 164.7 ms, at 0 ms 10.8 / 11.6 ms; first-render file 22,934 B brotli',
    after:
      "reads 3,970 req/s, 208 µs (0.93×, 1.12× the CPU; before the adapter marked its real requests 3,356 req/s, 261 µs against 4,031 / 203); Node 22.23.3: 4,311 req/s, 186 µs (1.02×, 0.98× the CPU): the gap on 24 is the real `Request` each GET needs there, most of it the signal that follows the payer's connection (left out, 12 rounds: 256 against 277 µs);  notification → event p50 2.94 / 5.37 ms (+1.7 % / −6 %), p99 10.58 / 17.21 ms (+3.5 % / −39 %); this tree against itself, journal on / off: p99 9.59 / 9.13 and 15.31 / 16.74 ms (±5 %: this machine's spread for a p99 of 2,000; the journal's two notes cost 7–8 µs of CPU per notification, measured alone); requisites at 150 ms 160.8 / 160.7 ms, at 0 ms 14.3 / 10.9 ms; first-render file 21,603 B brotli (−5.8 %)",
  },
];

const mark = (met: boolean): string => (met ? '**met**' : '**not met**');
const kb = (bytes: number): string => `${int(bytes)} B`;

interface Goal {
  what: string;
  figure: string;
  goal: string;
  met: boolean | undefined;
}

const goals = (results: Results): Goal[] => {
  const list: Goal[] = [];
  const bundle = results.bundle?.ok ? results.bundle.value : undefined;
  list.push({
    what: 'First-render CDN file (`dist/cdn/merchant-checkout.js`), brotli; the rest loads on demand',
    figure: bundle ? kb(bundle.cdn.brotli) : 'not measured',
    goal: `≤ ${kb(BROTLI_GOAL)}`,
    met: bundle ? bundle.cdn.brotli <= BROTLI_GOAL : undefined,
  });
  list.push({
    what: 'First-render CDN file, brotli, with the ten languages (issue 28: it does not grow)',
    figure: bundle ? kb(bundle.cdn.brotli) : 'not measured',
    goal: `≤ ${kb(BROTLI_BEFORE_LANGUAGES)}`,
    met: bundle ? bundle.cdn.brotli <= BROTLI_BEFORE_LANGUAGES : undefined,
  });
  const languages = bundle?.chunks
    .filter((chunk) => Object.hasOwn(LANGUAGE_NAMES, chunk.name))
    .sort((a, b) => b.sizes.brotli - a.sizes.brotli);
  const largest = languages?.[0];
  list.push({
    what: `Each language's chunk, brotli (${languages?.length ?? 0} languages; the largest)`,
    figure: largest ? `${kb(largest.sizes.brotli)} (\`${largest.name}\`)` : 'not measured',
    goal: `≤ ${kb(LANGUAGE_CHUNK_LIMIT)}`,
    met: largest ? largest.sizes.brotli <= LANGUAGE_CHUNK_LIMIT : undefined,
  });
  list.push({
    what: 'First-render CDN file, gzip -9 (hard limit, also a test in `npm test`)',
    figure: bundle ? kb(bundle.cdn.gzip) : 'not measured',
    goal: `≤ ${kb(GZIP_LIMIT)}`,
    met: bundle ? bundle.cdn.gzip <= GZIP_LIMIT : undefined,
  });
  const slowest = results.ttr?.ok ? results.ttr.value.latencies.at(-1) : undefined;
  list.push({
    what: `Time to requisites at ${slowest?.latencyMs ?? 150} ms latency, median of ${RUNS}`,
    figure: slowest ? `${fixed(slowest.requisitesRoundTrips, 2)} round trips (${fixed(slowest.requisites)} ms)` : 'not measured',
    goal: `≤ ${TTR_GOAL_ROUND_TRIPS} round trips`,
    met: slowest ? slowest.requisitesRoundTrips <= TTR_GOAL_ROUND_TRIPS : undefined,
  });
  const proxy = results.proxy?.ok ? results.proxy.value : undefined;
  list.push({
    what: 'Proxy throughput ÷ bare node:http passthrough (one invoice per connection; all on one invoice in brackets)',
    figure: proxy
      ? `${fixed(proxy.throughputRatio, 2)}× (${int(proxy.targets.proxy.requestsPerSecond)} vs ${int(proxy.targets.passthrough.requestsPerSecond)} req/s; ${fixed(proxy.throughputRatioShared, 2)}×)`
      : 'not measured',
    goal: `≥ ${THROUGHPUT_GOAL_RATIO}×`,
    met: proxy ? proxy.throughputRatio >= THROUGHPUT_GOAL_RATIO : undefined,
  });
  list.push({
    what: "Proxy p99 latency added (proxy − mock direct, same fixed rate, evenly paced; a bare passthrough's in brackets)",
    figure: proxy ? `${fixed(proxy.addedP99VsDirect, 2)} ms (${fixed(proxy.passthroughAddedP99, 2)} ms)` : 'not measured',
    goal: `≤ ${ADDED_P99_GOAL_MS} ms`,
    // A hop that takes time away is noise on the machine, not a measurement.
    met: proxy && proxy.addedP99VsDirect >= 0 && proxy.passthroughAddedP99 >= 0 ? proxy.addedP99VsDirect <= ADDED_P99_GOAL_MS : undefined,
  });
  const slow = results.slow?.ok ? results.slow.value : undefined;
  list.push({
    what: `Normal requests while ${int(SLOW_CONNECTIONS)} connections trickle their headers: p99, errors`,
    figure: slow
      ? `${fixed(slow.attack.p99, 2)} ms (${fixed(slow.baseline.p99, 2)} ms without them), ${slow.attack.errors} errors`
      : 'not measured',
    goal: `≤ ${SLOW_P99_GOAL_MS} ms, 0 errors`,
    met: slow ? slow.attack.p99 <= SLOW_P99_GOAL_MS && slow.attack.errors === 0 : undefined,
  });
  list.push({
    what: 'Slow connections closed by the proxy (headers deadline 10 s)',
    figure: slow ? `${int(slow.closedByServer)} of ${int(slow.connections)}` : 'not measured',
    goal: 'all',
    met: slow ? slow.closedByServer === slow.connections : undefined,
  });
  const leaks = results.leaks?.ok ? results.leaks.value : undefined;
  const timers = leaks ? leaks.after.timeouts + leaks.after.intervals + leaks.after.animationFrames : undefined;
  const requests = leaks ? leaks.after.fetchPending + leaks.after.bodiesUnread + leaks.serverInFlight : undefined;
  const listeners = leaks ? leaks.after.listeners.window + leaks.after.listeners.document + leaks.after.listeners.element : undefined;
  list.push({
    what: `Live timers after ${MOUNTS} mounts`,
    figure: timers === undefined ? 'not measured' : String(timers),
    goal: '0',
    met: timers === undefined ? undefined : timers === 0,
  });
  list.push({
    what: 'Pending requests',
    figure: requests === undefined ? 'not measured' : String(requests),
    goal: '0',
    met: requests === undefined ? undefined : requests === 0,
  });
  list.push({
    what: 'Event listeners left',
    figure: listeners === undefined ? 'not measured' : String(listeners),
    goal: '0',
    met: listeners === undefined ? undefined : listeners === 0,
  });
  list.push({
    what: 'JS heap growth after GC',
    figure: leaks ? kb(leaks.heapGrowth) : 'not measured',
    goal: `< ${kb(HEAP_GROWTH_GOAL)}`,
    met: leaks ? leaks.heapGrowth < HEAP_GROWTH_GOAL : undefined,
  });
  const events = results.events?.ok ? results.events.value : undefined;
  list.push({
    what: 'Upstream calls, polling every 5 s ÷ streaming (1,000 payers, 100 invoices, 60 s)',
    figure: events
      ? `${fixed(events.upstream.ratio, 1)}× (${fixed(events.upstream.polling.perPayerMinute, 2)} vs ${fixed(events.upstream.streaming.perPayerMinute, 3)} per payer-minute)`
      : 'not measured',
    goal: `≥ ${UPSTREAM_GOAL_RATIO}×`,
    met: events ? events.upstream.ratio >= UPSTREAM_GOAL_RATIO : undefined,
  });
  list.push({
    what: 'Notification → SSE event at the client, p99: one instance / three behind Redis',
    figure: events ? `${fixed(events.latency.single.p99, 2)} ms / ${fixed(events.latency.cluster.p99, 2)} ms` : 'not measured',
    goal: `< ${LATENCY_P99_GOAL_MS} ms`,
    met: events ? Math.max(events.latency.single.p99, events.latency.cluster.p99) < LATENCY_P99_GOAL_MS : undefined,
  });
  const added = events ? events.idle.rssAfter - events.idle.rssBefore : undefined;
  list.push({
    what: `${int(IDLE_STREAMS_GOAL)} idle streams in one process: memory they add (RSS)`,
    figure:
      events && added !== undefined
        ? `${int(events.idle.opened)} streams, ${fixed(added / 1e6, 1)} MB (${fixed(events.idle.perStream / 1000, 1)} KB each)`
        : 'not measured',
    goal: `≥ ${int(IDLE_STREAMS_GOAL)} in < ${int(IDLE_MEMORY_GOAL_BYTES / 1e6)} MB`,
    met: events && added !== undefined ? events.idle.opened >= IDLE_STREAMS_GOAL && added < IDLE_MEMORY_GOAL_BYTES : undefined,
  });
  const returns = results.returns?.ok ? results.returns.value : undefined;
  list.push({
    what: `The payer comes back (page frozen, paid meanwhile): resume → paid screen, p90 of ${RETURNS}, ${returns?.latencyMs ?? 150} ms latency`,
    figure: returns ? `${int(returns.returns.p90)} ms (median ${int(returns.returns.p50)} ms)` : 'not measured',
    goal: `≤ one round trip + 100 ms (${RETURN_GOAL_MS} ms)`,
    met: returns ? returns.returns.p90 <= RETURN_GOAL_MS : undefined,
  });
  list.push({
    what: `Requests while away ${(returns?.away.ms ?? AWAY_MS) / 1000} s (page hidden): stream held / stream found dead while away`,
    figure: returns ? `${returns.away.held} / ${returns.away.afterDead}` : 'not measured',
    goal: 'none beyond a held stream',
    met: returns ? returns.away.held === 0 && returns.away.afterDead === 0 : undefined,
  });
  list.push({
    what: `A silently dead stream (black-holed, paid at that moment, page in view): paid screen after, slowest of ${DEAD_TABS} tabs`,
    figure: returns ? `${fixed(returns.dead.max / 1000, 1)} s` : 'not measured',
    goal: `≤ ${DEAD_GOAL_MS / 1000} s`,
    met: returns ? returns.dead.max <= DEAD_GOAL_MS : undefined,
  });
  list.push({
    what: `A receipt body of ${int(PARTS)} tiny parts: another payer's slowest read meanwhile (parsing it whole held the event loop, in brackets)`,
    figure: returns ? `${int(returns.receipts.manyParts.maxReadMs)} ms (${int(returns.receipts.wholeParseMs)} ms)` : 'not measured',
    goal: `≤ ${STALL_GOAL_MS} ms`,
    met: returns ? returns.receipts.manyParts.maxReadMs <= STALL_GOAL_MS : undefined,
  });
  list.push(
    ...booksGoals(results.books),
    ...gatewayGoals(results.gateway),
    ...tracingGoals(results.tracing),
    ...instructionsGoals(results.instructions),
    ...phoneGoals(results.phone),
    ...chaosGoals(results.chaos),
    ...journalGoals(results.journal),
  );
  return list;
};

const PHONE_PAGE_LABELS = {
  plain: 'examples/cdn.html',
  shop: "the demo's plain checkout page bundled by Vite (bench/page/checkout.html)",
  reads: "examples/cdn.html with the first screen's chunks and the invoice and variants reads preloaded",
} as const;

/** The phone (issue 38): Lighthouse's mobile profile, cold. */
const phoneGoals = (outcome: Outcome<PhoneResult> | undefined): Goal[] => {
  const p = outcome?.ok ? outcome.value : undefined;
  const none = 'not measured';
  return [
    ...(['plain', 'shop', 'reads'] as const).map((name) => {
      const page = p?.pages.find((each) => each.page === name);
      return {
        what: `Phone (4× CPU, 150 ms, 1.6 Mbps), cold: navigation start → requisites on screen, ${PHONE_PAGE_LABELS[name]}, median of ${p?.pages[0]?.runs ?? 10} (the load's floor in brackets)`,
        figure: page ? `${int(page.requisites)} ms (${int(page.floor)} ms)` : none,
        goal: `≤ ${int(PHONE_REQUISITES_GOAL_MS)} ms`,
        met: page ? page.requisites <= PHONE_REQUISITES_GOAL_MS : undefined,
      };
    }),
    ...(['copy', 'paid'] as const).map((name) => ({
      what: `Phone, 4× CPU: interaction to next paint of ${name === 'copy' ? '"Copy"' : '"I have paid"'}, median of ${p?.inp.runs ?? 10}`,
      figure: p ? `${int(p.inp[name])} ms` : none,
      goal: `≤ ${PHONE_INP_GOAL_MS} ms`,
      met: p ? p.inp[name] <= PHONE_INP_GOAL_MS : undefined,
    })),
  ];
};

/** Section 12: the checkout on a mid-range phone. */
export const phoneSection = (outcome: Outcome<PhoneResult> | undefined): string => {
  if (!outcome?.ok) return failure(outcome);
  const p = outcome.value;
  return [
    `\`bench/phone.ts\`: Debian's Chromium over CDP with Lighthouse's mobile profile (\`Emulation.setCPUThrottlingRate\` ${PHONE.cpuSlowdown}, \`Network.emulateNetworkConditions\` ${PHONE.latencyMs} ms, ${int(PHONE.downloadBytesPerSecond * 8)} bit/s down, ${int(PHONE.uploadBytesPerSecond * 8)} bit/s up), a new browser context per load (cold cache, new connections), a 412 px touch screen. The pages (bench/checkout-server.ts) are examples/cdn.html as a shop serves it (\`${PHONE_PAGES.plain}\`: dist/cdn/ at /assets/ with its SRI hash), the demo's payer side without its QA panel as a shop with a bundler ships it (\`${PHONE_PAGES.shop}\`: bench/page/checkout.html, \`import 'merchant-checkout/define'\` from the npm build, built by Vite for production), and examples/cdn.html with \`<link rel="modulepreload">\` of the English strings and the screens' templates and \`<link rel="preload" as="fetch">\` of the element's two first reads, the invoice and its payment variants (\`${PHONE_PAGES.reads}\`), loads alternating; every file brotli (quality 11), which Chromium asks for over plain HTTP too; the proxy and the mock are real, on loopback. Requisites on screen: the frame after the formatted requisites are first in the shadow root. The floor: the longest chain of requests that each waited for the one before × ${PHONE.latencyMs} ms, plus the load's bytes on the wire ÷ 1.6 Mbps, from the load's own requests that ended before the requisites were on screen (CPU time not counted). Last byte: when the last of those requests ended; what comes after it is the page's own work at 4× CPU (the screens' chunks evaluated, the first invoice screen rendered, laid out and painted), which no network change shortens. Interaction to next paint: a click through CDP input on the loaded plain page, the Event Timing API's longest \`duration\` of that interaction.`,
    '',
    '| page | requisites on screen, median | p90 | floor | chain of requests | requests | bytes on the wire | above the floor | last byte, median | after the last byte |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...p.pages.map(
      (page) =>
        `| ${PHONE_PAGE_LABELS[page.page]} | ${int(page.requisites)} ms | ${int(page.requisitesP90)} ms | ${int(page.floor)} ms | ${fixed(page.chain, 1)} | ${fixed(page.requests, 1)} | ${int(page.bytes)} B | ${int(page.requisites - page.floor)} ms | ${int(page.lastByte)} ms | ${int(page.requisites - page.lastByte)} ms |`,
    ),
    '',
    ...p.pages
      .filter((page) => page.requisites > PHONE_REQUISITES_GOAL_MS)
      .map(
        (page) =>
          `Why ${PHONE_PAGE_LABELS[page.page]} is above ${int(PHONE_REQUISITES_GOAL_MS)} ms: the network's floor is ${int(page.floor)} ms (${fixed(page.chain, 1)} requests one after another × ${PHONE.latencyMs} ms, ${int(page.bytes)} B ÷ 1.6 Mbps); its requests ended at a median ${int(page.lastByte)} ms, ${int(page.lastByte - page.floor)} ms after the floor (the page's CPU at ${PHONE.cpuSlowdown}× between one response and the requests it makes, and this machine's load); then ${int(page.requisites - page.lastByte)} ms of the page's own work at ${PHONE.cpuSlowdown}× CPU before the frame that shows the requisites. Only the last two can still shrink, and together they must fit in ${int(PHONE_REQUISITES_GOAL_MS - page.floor)} ms.`,
      ),
    '',
    `Interaction to next paint at ${PHONE.cpuSlowdown}× CPU, medians of ${p.inp.runs}: "Copy" ${int(p.inp.copy)} ms, "I have paid" ${int(p.inp.paid)} ms (Event Timing reports only interactions of 16 ms or more; 16 is the least figure).`,
    '',
    goalTable(phoneGoals(outcome)),
    '',
    loadLine(outcome),
  ].join('\n');
};

/** Nothing lost when the gateway dies (issue 37): the durable stores lose no payment and keep one id per change. */
const chaosGoals = (outcome: Outcome<ChaosResult> | undefined): Goal[] =>
  (['sqlite', 'redis'] as const).map((store) => {
    const run = outcome?.ok ? outcome.value.runs.find((each) => each.store === store) : undefined;
    return {
      what: `Gateways killed among ${CHAOS_INVOICES} paid invoices, ${store === 'sqlite' ? 'one on its default store (SQLite)' : 'three on a durable Redis, Redis killed too'}: payments lost, changes under two ids`,
      figure: run ? `${run.lost} / ${run.changesWithTwoIds} (${run.kills} kills, ${run.redeliveries} redeliveries)` : 'not measured',
      goal: '0 / 0',
      met: run ? run.lost === 0 && run.changesWithTwoIds === 0 : undefined,
    };
  });

/** Section 13: the gateway killed while money moves. */
export const chaosSection = (outcome: Outcome<ChaosResult> | undefined): string => {
  if (!outcome?.ok) return failure(outcome);
  const cell = (run: ChaosRun) =>
    `| ${run.store} | ${run.kills} | ${run.lost} of ${run.invoices} | ${run.redeliveries} | ${run.changesWithTwoIds} | ${run.refused} of ${run.attempts} | ${run.paidWhileDown} | ${Number.isFinite(run.restartToDelivery.median) ? `${int(run.restartToDelivery.median)} / ${int(run.restartToDelivery.max)} ms` : '—'} |`;
  return [
    `\`bench/chaos.ts\`: the world of test/e2e/chaos.test.ts counted instead of asserted. ${CHAOS_INVOICES} invoices created through the built gateway (\`POST /v1/invoices\`, the shop retrying while no gateway answers) and paid at the mock one after another, about a quarter during a notification outage (the mock tries three times, 300 ms apart); the shop's endpoint refuses 30 % of webhook attempts with a 503 (retries 0.1–1 s apart, \`SHOP_WEBHOOK_RETRY_DELAYS_MS\`); the reconciler reads open invoices every second (\`GATEWAY_RECONCILE_INTERVAL_MS=1000\`). \`sqlite\`: one gateway on its default store, SIGKILLed every 0.3–1.5 s and restarted 0–0.4 s later. \`redis\`: three gateways on one Redis (\`appendonly yes\`, \`appendfsync always\`), one gateway SIGKILLed, then Redis SIGKILLed and restarted. \`memory\`: the \`sqlite\` run on \`GATEWAY_DATA_DIR=:memory:\`, what the durable default saves. Lost: a paid invoice whose \`invoice.paid\` webhook the shop had not taken 60 s after the last payment. A redelivery: the shop took one change twice (at least once: the same \`webhook-id\`).`,
    '',
    '| store | kills | payments lost | redeliveries | changes under two ids | webhook attempts refused by the shop | paid before a restart, delivered after it | restart → their delivery, median / max |',
    '|---|---|---|---|---|---|---|---|',
    ...outcome.value.runs.map(cell),
    '',
    goalTable(chaosGoals(outcome)),
    '',
    loadLine(outcome),
  ].join('\n');
};

/** What each invoice's journal costs (issue 40): reads with it on against off, and its size. */
const journalGoals = (outcome: Outcome<JournalBenchResult> | undefined): Goal[] => {
  const j = outcome?.ok ? outcome.value : undefined;
  return [
    {
      what: 'Checkout reads with the journal on against off (median req/s)',
      figure: j ? `${int(median(j.reads.on))} / ${int(median(j.reads.off))} req/s (${fixed(j.ratio, 3)}×)` : 'not measured',
      goal: `≥ ${JOURNAL_READ_GOAL_RATIO}×`,
      met: j ? j.ratio >= JOURNAL_READ_GOAL_RATIO : undefined,
    },
    {
      what: "The same as answers per CPU second of the kit's process (median CPU per answer, off / on)",
      figure: j ? `${int(median(j.cpu.off))} / ${int(median(j.cpu.on))} µs (${fixed(j.cpuRatio, 3)}×)` : 'not measured',
      goal: `≥ ${JOURNAL_READ_GOAL_RATIO}×`,
      met: j ? j.cpuRatio >= JOURNAL_READ_GOAL_RATIO : undefined,
    },
  ];
};

const megabytes = (bytes: number): string => `${fixed(bytes / 1024 / 1024, 1)} MB`;

/** Section 14: what the journal costs. */
export const journalSection = (outcome: Outcome<JournalBenchResult> | undefined): string => {
  if (!outcome?.ok) return failure(outcome);
  const j = outcome.value;
  const sqliteGrowth = j.sqlite.bytes - j.sqlite.emptyBytes;
  const rounds = (values: number[]) => values.map((value) => int(value)).join(', ');
  return [
    `\`bench/journal.ts\` (issue 40, [docs/console.md](docs/console.md)), side by side. Reads: \`GET /checkout-api/invoices/{id}\` through the in-process kit of bench/proxy-servers.ts (\`createCheckoutServer\` bundled as it ships, its memory store, on \`createNodeServer\`), one process with the journal on (the default) and one with \`journal: false\`, in front of the bench's mock (10 invoices, each with a deal and its requisites), autocannon with 10 connections, one invoice each; both warmed up for 2 s, then alternated (which goes first alternates too), ${JOURNAL_ROUNDS} rounds of ${JOURNAL_SECONDS} s; with each round the CPU time each kit's process spent per answer (less moved by other work on the machine than req/s). Size: the journals of ${int(JOURNAL_INVOICES)} settled invoices, 14 entries each (the entries of test/e2e/console.test.ts's story: created, a deal and its requisites, four notifications, three changes and their webhooks, a finding), written through the kit's journal into a SQLite store (the file's growth over the same store empty, WAL checkpointed) and a Redis store (\`INFO memory\` \`used_memory\` before and after; \`MEMORY USAGE\` of one invoice's two keys). What a read costs the journal: a prefix test of the adapter's path and, until a deal's requisites were first shown (once per deal), a copy of the answer parsed after it went out.`,
    '',
    '| figure | this run |',
    '|---|---|',
    `| reads, req/s, each round: journal on | ${rounds(j.reads.on)} |`,
    `| reads, req/s, each round: journal off (errors of both: ${int(j.reads.errors)}) | ${rounds(j.reads.off)} |`,
    `| CPU per answer, µs, each round: on / off | ${j.cpu.on.map((on, index) => `${int(on)} / ${int(j.cpu.off[index] ?? Number.NaN)}`).join(', ')} |`,
    `| ${int(JOURNAL_INVOICES)} settled invoices' journals (${int(j.sqlite.entries)} entries) in SQLite: the file's growth | ${megabytes(sqliteGrowth)} (${int(sqliteGrowth / JOURNAL_INVOICES)} B per invoice; written in ${fixed(j.sqlite.seconds, 1)} s, one transaction per entry) |`,
    `| the same in Redis: \`used_memory\` growth / \`MEMORY USAGE\` of one invoice's keys | ${megabytes(j.redis.usedMemoryGrowth)} (${int(j.redis.usedMemoryGrowth / JOURNAL_INVOICES)} B per invoice) / ${int(j.redis.oneInvoiceBytes)} B (written in ${fixed(j.redis.seconds, 1)} s) |`,
    '',
    goalTable(journalGoals(outcome)),
    '',
    loadLine(outcome),
  ].join('\n');
};

/** The merchant's books (issue 24): what the shop's ledger got against what the service did. */
const booksGoals = (outcome: Outcome<BooksResult> | undefined): Goal[] => {
  const b = outcome?.ok ? outcome.value : undefined;
  const none = 'not measured';
  return [
    {
      what: `The books, ${int(b?.invoices ?? BOOKS_INVOICES)} invoices over a mock day on three processes and Redis: paid left uncredited / credited twice / forged credits`,
      figure: b ? `${b.uncredited} / ${b.creditedTwice} / ${b.forgedCredits}` : none,
      goal: '0 / 0 / 0',
      met: b ? b.uncredited === 0 && b.creditedTwice === 0 && b.forgedCredits === 0 : undefined,
    },
    {
      what: 'Corrections and disputes after paid, each delivered once',
      figure: b ? `${b.correctionsDelivered} of ${b.corrected} / ${b.disputesDelivered} of ${b.disputed}` : none,
      goal: 'all',
      met: b ? b.correctionsDelivered === b.corrected && b.disputesDelivered === b.disputed : undefined,
    },
    {
      what: 'A dropped `paid` credited after (mock time), p99',
      figure: b ? `${fixed(b.foundP99Ms / 60_000, 1)} min (max ${fixed(b.foundMaxMs / 60_000, 1)})` : none,
      goal: `≤ ${FOUND_GOAL_MS / 60_000} min`,
      met: b ? b.foundP99Ms <= FOUND_GOAL_MS : undefined,
    },
    {
      what: 'Reconciler reads of one invoice closer than a minute / after it settled',
      figure: b ? `${b.readsCloserThanAMinute} / ${b.readsAfterSettled}` : none,
      goal: '0 / 0',
      met: b ? b.readsCloserThanAMinute === 0 && b.readsAfterSettled === 0 : undefined,
    },
  ];
};

/** The gateway (issue 26): its cost against the in-process kit. */
const gatewayGoals = (outcome: Outcome<GatewayResult> | undefined): Goal[] => {
  const g = outcome?.ok ? outcome.value : undefined;
  const none = 'not measured';
  return [
    {
      what: 'Gateway checkout reads against the in-process kit (median req/s)',
      figure: g ? `${int(g.reads.gatewayMedian)} / ${int(g.reads.kitMedian)} req/s (${fixed(g.reads.ratio, 2)}×)` : none,
      goal: `≥ ${READ_GOAL_RATIO}×`,
      met: g ? g.reads.ratio >= READ_GOAL_RATIO && g.reads.gatewayErrors === 0 : undefined,
    },
    {
      what: 'Gateway checkout reads on its durable default (SQLite) against the same on memory (median req/s)',
      figure: g ? `${int(g.reads.gatewayMedian)} / ${int(g.reads.memoryMedian)} req/s (${fixed(g.reads.durableRatio, 2)}×)` : none,
      goal: `≥ ${DURABLE_READ_GOAL_RATIO}×`,
      met: g ? g.reads.durableRatio >= DURABLE_READ_GOAL_RATIO && g.reads.gatewayErrors === 0 : undefined,
    },
    {
      what: `A notification to the shop's signed webhook on loopback, on the durable default, p99 of ${WEBHOOKS}`,
      figure: g ? `${fixed(g.webhook.p99, 1)} ms (median ${fixed(g.webhook.p50, 1)} ms)` : none,
      goal: `< ${WEBHOOK_P99_GOAL_MS} ms`,
      met: g ? g.webhook.p99 < WEBHOOK_P99_GOAL_MS && g.webhook.samples === WEBHOOKS : undefined,
    },
    {
      what: `${int(IDLE_STREAMS)} idle event streams in one gateway process: memory they add (RSS)`,
      figure: g
        ? `${int(g.idle.opened)} streams, ${fixed((g.idle.rssAfter - g.idle.rssBefore) / 1e6, 1)} MB (${fixed(g.idle.perStream / 1000, 1)} KB each)`
        : none,
      goal: `≥ ${int(IDLE_STREAMS)} in < ${int(IDLE_MEMORY_GOAL_BYTES / 1e6)} MB`,
      met: g ? g.idle.opened >= IDLE_STREAMS && g.idle.rssAfter - g.idle.rssBefore < IDLE_MEMORY_GOAL_BYTES : undefined,
    },
  ];
};

const goalTable = (goals: Goal[]): string =>
  [
    '| figure | this run | goal | |',
    '|---|---|---|---|',
    ...goals.map((g) => `| ${g.what} | ${g.figure} | ${g.goal} | ${g.met === undefined ? 'not measured' : mark(g.met)} |`),
  ].join('\n');

/** Section 8: the books under a hostile notification channel. */
export const booksSection = (outcome: Outcome<BooksResult> | undefined): string => {
  if (!outcome?.ok) return failure(outcome);
  const b = outcome.value;
  return [
    `\`bench/books.ts\`: ${int(b.invoices)} invoices created over a day of the mock's clock (10 s steps) by three shop processes (\`bench/books-instance.ts\`: \`createCheckoutServer\` on one real \`redis-server\`), the mock on a port. 70 % paid within 50 minutes, the rest expire; the notifications of 30 % of the invoices dropped (every attempt), 10 % delivered twice, 5 % three minutes late; 2 % of the paid corrected (a second \`paid\` with a new amount), 1 % disputed after paid and resolved \`ACCEPTED\`, 1 % of the unpaid get a forged \`paid\` with the right token. \`settleAfterMs\` is 6 h here (72 h by default) so that settling shows within the run. The shop's ledger is every change handed to \`onChange\`.`,
    '',
    '| figure | this run |',
    '|---|---|',
    `| invoices / paid at the service | ${int(b.invoices)} / ${int(b.paid)} |`,
    `| paid, never credited | ${b.uncredited} |`,
    `| a change handed on twice, or a payment credited more often than the service paid it | ${b.creditedTwice} |`,
    `| forged \`paid\` notices / credits from them | ${b.forged} / ${b.forgedCredits} |`,
    `| corrected amounts / corrections delivered once | ${b.corrected} / ${b.correctionsDelivered} |`,
    `| disputes after paid / delivered | ${b.disputed} / ${b.disputesDelivered} |`,
    `| paid invoices whose notifications were all dropped: credited after (mock time) p50 / p99 / max | ${b.droppedPaid}: ${fixed(b.foundP50Ms / 1000, 0)} s / ${fixed(b.foundP99Ms / 1000, 0)} s / ${fixed(b.foundMaxMs / 1000, 0)} s |`,
    `| reconciler reads in all / of one invoice closer than a minute / after it settled | ${int(b.reconcilerReads)} / ${b.readsCloserThanAMinute} / ${b.readsAfterSettled} |`,
    `| wall time | ${fixed(b.wallSeconds, 0)} s |`,
    '',
    goalTable(booksGoals(outcome)),
    '',
    loadLine(outcome),
  ].join('\n');
};

/** A Node and the flags it ran with, as a heading says it. */
const nodeName = (t: TracingResult): string => `Node ${t.node.replace(/^v/, '')}${t.flags.length ? ` \`${t.flags.join(' ')}\`` : ''}`;

/** What tracing costs (issue 27). */
const tracingGoals = (outcome: Outcome<TracingResult> | undefined): Goal[] => {
  const t = outcome?.ok ? outcome.value : undefined;
  const each = t ? [t, ...(t.others ?? [])] : [];
  return [
    {
      what: "Checkout reads of the kit with an OpenTelemetry SDK, every span sampled, against no SDK (median of the rounds' req/s ratios)",
      figure: t
        ? each
            .map(
              (run) =>
                `${fixed(run.ratio, 3)}× on ${nodeName(run)} (its twin ${fixed(run.ratios.twin.median, 3)}×; the least point 3 asks, around the kit: ${fixed(run.ratios.floor.median, 3)}×)`,
            )
            .join('; ')
        : 'not measured',
      goal: `≥ ${fixed(TRACING_GOAL_RATIO, 2)}× (within 5 %)`,
      met: t ? each.every((run) => run.ratio >= TRACING_GOAL_RATIO && run.errors === 0) : undefined,
    },
  ];
};

const TRACING_LABELS: Record<TracingSetup, string> = {
  off: 'no SDK (the API a no-op)',
  twin: 'no SDK again, in a process of its own: how far two alike processes differ',
  floor: 'no SDK registered; the least point 3 asks (a route span, a call span, one histogram record) put around the kit on the SDK',
  context: 'only a context manager on `AsyncLocalStorage`, entered once',
  sdk: 'the SDK without a context manager: every span sampled, metrics',
  on: 'the SDK: every span sampled, that context manager, metrics',
  tenth: 'the same SDK sampling a tenth of the traces (`ParentBased(TraceIdRatioBased(0.1))`)',
};

/** One run of bench/tracing.ts as a table: each setup's req/s ÷ no SDK's, round by round, and its CPU per answer. */
const tracingTable = (t: TracingResult): string[] => {
  const added = (setup: TracingSetup) => t.cpuPerAnswer[setup] - t.cpuPerAnswer.off;
  const ratio = (setup: TracingSetup) => t.ratios[setup];
  return [
    `| setup, ${nodeName(t)} | req/s (median) | ÷ no SDK, median of the rounds (quartiles) | CPU per answer (median) | added |`,
    '|---|---|---|---|---|',
    ...TRACING_SETUPS.map(
      (setup) =>
        `| ${TRACING_LABELS[setup]} | ${int(t.requestsPerSecond[setup])} | ${setup === 'off' ? '' : `${fixed(ratio(setup).median, 3)}× (${fixed(ratio(setup).q1, 2)}–${fixed(ratio(setup).q3, 2)})`} | ${int(t.cpuPerAnswer[setup])} µs | ${setup === 'off' ? '' : `${int(added(setup))} µs`} |`,
    ),
    '',
    `The kit's own spans and metrics against the least point 3 asks (the SDK without a context manager ÷ the floor, median of the rounds): ${fixed(kitOverFloor(t), 3)}×. ${t.pinned ? 'The servers on one CPU, the load and the mock on the others.' : 'Not pinned (one CPU, or no `taskset`).'} Errors: ${t.errors}.`,
  ];
};

/** `sdk` ÷ `floor` within each round, their median: what the kit's instrumentation costs beyond what any meeting point 3 must. */
const kitOverFloor = (t: TracingResult): number => median(t.rounds.sdk.map((value, index) => value / t.rounds.floor[index]!));

/** Issue 39's point 5: the kit's own spans and metrics at most 5 % beyond the least point 3 asks, counted. */
const KIT_OVER_FLOOR_GOAL = 1.05;

const instructionsGoals = (outcome: Outcome<InstructionsResult> | undefined): Goal[] => {
  const t = outcome?.ok ? outcome.value : undefined;
  return [
    {
      what: "The kit's own spans and metrics against the least point 3 asks, main-thread instructions per read (the SDK without a context manager ÷ the floor)",
      figure: t ? `${fixed(t.main.sdk / t.main.floor, 3)}× on ${t.node}` : 'not measured',
      goal: `≤ ${fixed(KIT_OVER_FLOOR_GOAL, 2)}×`,
      met: t ? t.main.sdk / t.main.floor <= KIT_OVER_FLOOR_GOAL : undefined,
    },
  ];
};

/** Section 11: what tracing costs, counted in instructions. */
export const instructionsSection = (outcome: Outcome<InstructionsResult> | undefined): string => {
  if (!outcome?.ok) return failure(outcome);
  const t = outcome.value;
  const row = (setup: (typeof INSTRUCTION_SETUPS)[number]) => {
    const versus = (key: 'main' | 'all') => (setup === 'off' ? '' : `${fixed(t[key][setup] / t[key].off, 3)}×`);
    return `| ${TRACING_LABELS[setup]} | ${fixed(t.main[setup], 3)} M | ${versus('main')} | ${setup === 'off' ? '' : `${fixed(1 / (1 + (t.main[setup] / t.main.off - 1) * t.userShare), 3)}×`} | ${fixed(t.all[setup], 3)} M | ${versus('all')} | ${t.windows[setup].main.map((value) => fixed(value, 3)).join(', ')} |`;
  };
  return [
    `\`bench/instructions.ts\`: the processes of section 10 that tell the kit's share from the SDK's, each under valgrind's callgrind (${t.valgrind}), which counts every instruction a process executes: this machine has no hardware counters and its speed drifts, a count does not. ${int(t.warmup)} reads warm each process up (\`GET /checkout-api/invoices/{id}\`, 10 connections over 10 invoices), then ${t.windows.off.main.length} windows of ${int(t.reads)} reads, the counters zeroed before each window and dumped after it. The figure is the median of the last three windows' instructions per read, on the main thread (the event loop, which serves every read) and on every thread (with V8's compilers and concurrent marking). Callgrind does not count the kernel's work for the process (the sockets of every read): outside valgrind, without an SDK, ${fixed(t.userShare * 100, 0)} % of a read's CPU time is the process's own, the rest the kernel's. The throughput counted is \`1 / (1 + (r − 1) × ${fixed(t.userShare, 2)})\`, \`r\` being a setup's main-thread instructions ÷ no SDK's: what the throughput's ratio would be if time followed instructions (the SDK's code may run at another pace than the kit's).`,
    '',
    `| setup, ${t.node} | main thread, per read | ÷ no SDK | the throughput counted, ÷ no SDK | every thread, per read | ÷ no SDK | main thread, each window |`,
    '|---|---|---|---|---|---|---|',
    ...INSTRUCTION_SETUPS.map(row),
    '',
    `The kit's own spans and metrics against the least point 3 asks (the SDK without a context manager ÷ the floor, main thread): ${fixed(t.main.sdk / t.main.floor, 3)}×. Reads that failed (an error, a timeout or an answer not 2xx): ${t.errors}.`,
    '',
    goalTable(instructionsGoals(outcome)),
    '',
    loadLine(outcome),
  ].join('\n');
};

/** Section 10: what tracing costs. */
export const tracingSection = (outcome: Outcome<TracingResult> | undefined): string => {
  if (!outcome?.ok) return failure(outcome);
  const t = outcome.value;
  return [
    `\`bench/tracing.ts\`: the kit object as the README runs it (bench/proxy-servers.ts \`kit\`, bundled as it ships), in seven processes: without an OpenTelemetry SDK (the API is a no-op), twice (the second shows how far two identical processes differ); without one registered but with the least instrumentation issue 27's point 3 asks of a read put around the kit on the SDK's own providers (a server span, a client span as its child, one histogram record of the call's duration: what any instrumentation meeting point 3 costs on this Node, whoever writes it); with only a context manager on \`AsyncLocalStorage\`, entered once, as any SDK with context brings one to a process whatever it traces; with the SDK's tracer and meter providers but no context manager (set with \`trace.setGlobalTracerProvider\` and \`metrics.setGlobalMeterProvider\` alone: the kit's own spans and metrics, which need no context); with the SDK as a shop installs it (every span sampled into a batch processor whose exporter drops them, that context manager, a meter provider read every 10 s); and with that SDK sampling a tenth of the traces. Reads: \`GET /checkout-api/invoices/{id}\`, 10 connections over 10 invoices; the servers on one CPU, the load and the mock on the other; ${TRACING_EPOCHS} times, every process started afresh (in an order turned by one each time), warmed up for 2 s, then ${TRACING_ROUNDS} rounds of ${TRACING_SECONDS} s in which each is loaded in turn (the order reversed every other round). This machine's speed drifts by tens of percent between seconds, so each setup is compared with no SDK within each round: the figure is the median of those ratios over all ${TRACING_EPOCHS * TRACING_ROUNDS} rounds.`,
    '',
    ...tracingTable(t),
    ...(t.others ?? []).flatMap((other) => ['', `The same on ${nodeName(other)} (\`BENCH_TRACING_NODE\`):`, '', ...tracingTable(other)]),
    '',
    goalTable(tracingGoals(outcome)),
    '',
    loadLine(outcome),
  ].join('\n');
};

/** Section 9: the gateway's cost. */
export const gatewaySection = (outcome: Outcome<GatewayResult> | undefined): string => {
  if (!outcome?.ok) return failure(outcome);
  const g = outcome.value;
  return [
    '`bench/gateway.ts`: the built bin (`dist/node/cli.js serve`, logging a JSON line per request as a shop runs it) in its own process in front of the mock on a port, on its default store (SQLite in a data folder: WAL, a full sync per commit) and, side by side, on `:memory:`; the in-process kit is `createCheckoutServer` as the README runs it (memory store, reconciler, notifications; `authorize` a set of ids) on `createNodeServer(kit.fetch)`, bundled as it ships (bench/proxy-servers.ts `kit`). Reads: `GET /checkout-api/invoices/{id}`, 10 connections over 10 invoices, each with its checkout token at the gateway; both warmed up for 2 s, then alternated.',
    '',
    '| figure | this run |',
    '|---|---|',
    `| reads, req/s, each round: in-process kit | ${g.reads.kit.map(int).join(', ')} |`,
    `| reads, req/s, each round: gateway on its default store, SQLite (errors of both gateways: ${g.reads.gatewayErrors}) | ${g.reads.gateway.map(int).join(', ')} |`,
    `| reads, req/s, each round: gateway on \`GATEWAY_DATA_DIR=:memory:\` | ${g.reads.memory.map(int).join(', ')} |`,
    `| the mock paid → the signed webhook at the shop (verified with the service first, the change on disk), ${g.webhook.samples} one at a time: p50 / p99 / max | ${fixed(g.webhook.p50, 1)} / ${fixed(g.webhook.p99, 1)} / ${fixed(g.webhook.max, 1)} ms |`,
    `| the same through the memory gateway, alternated with it (${g.webhookMemory.samples}): p50 / p99 / max | ${fixed(g.webhookMemory.p50, 1)} / ${fixed(g.webhookMemory.p99, 1)} / ${fixed(g.webhookMemory.max, 1)} ms |`,
    `| idle streams held, RSS before → after | ${int(g.idle.opened)}, ${fixed(g.idle.rssBefore / 1e6, 1)} → ${fixed(g.idle.rssAfter / 1e6, 1)} MB |`,
    '',
    goalTable(gatewayGoals(outcome)),
    '',
    loadLine(outcome),
  ].join('\n');
};

const returnsSection = (outcome: Outcome<PayerReturnsResult> | undefined): string => {
  if (!outcome?.ok) return failure(outcome);
  const r = outcome.value;
  return [
    `\`bench/payer-returns.ts\`: Debian's Chromium started with a debugging port and driven over CDP as a phone (360×640, touch, a mobile user agent) against the kit's proxy (heartbeat ${r.heartbeatMs / 1000} s, the default), notification receiver and the mock on one shared store (test/e2e/support/payer-lab.ts, also the world of the lifecycle matrix test/e2e/payer-returns.test.ts). Headless Chromium keeps pages visible and freezes none, so leaving is played as a phone plays it: \`visibilitychange\` and \`freeze\`, the page's script held by the debugger while frozen.`,
    '',
    '| case | figure |',
    '|---|---|',
    `| frozen, paid meanwhile, resumed: to the paid screen (${r.latencyMs} ms latency; each return) | ${r.returns.ms.map(int).join(', ')} ms |`,
    `| hidden ${r.away.ms / 1000} s with the stream held: requests | ${r.away.held} |`,
    `| hidden ${r.away.ms / 1000} s after the stream was black-holed (found dead while away; read on return): requests | ${r.away.afterDead} |`,
    `| stream black-holed and the invoice paid at once, page in view: to the paid screen | ${r.dead.ms.map((ms) => fixed(ms / 1000, 1)).join(', ')} s |`,
    `| offline 1 s, paid meanwhile, back online: to the paid screen | ${int(r.offline.ms)} ms |`,
    `| a ${fixed(r.receipts.bytes / 1e6, 1)} MB receipt body of ${int(PARTS)} parts (answered ${r.receipts.manyParts.status}): another payer's slowest read meanwhile | ${int(r.receipts.manyParts.maxReadMs)} ms |`,
    `| the same body parsed whole (\`Response#formData()\`, the proxy's way before): the event loop held | ${int(r.receipts.wholeParseMs)} ms |`,
    `| a plain 10 MB receipt (answered ${r.receipts.bigReceipt.status}): another payer's slowest of ${r.receipts.bigReceipt.reads} reads meanwhile | ${int(r.receipts.bigReceipt.maxReadMs)} ms |`,
    '',
    'Before this round (issue 25, the same kind of run): a paid invoice still "waiting" 155 s later with the page visible and 122 s after a return; a paid invoice shown as "expired"; 12–27 s of a stale screen after coming back online.',
    '',
    loadLine(outcome),
  ].join('\n');
};

const failure = (outcome: Outcome<unknown> | undefined): string =>
  outcome === undefined ? 'Not run.\n' : outcome.ok ? '' : `Failed: ${outcome.error}\n`;

const loadLine = (outcome: Outcome<unknown> | undefined): string =>
  outcome ? `_${fixed(outcome.seconds, 0)} s; load average ${outcome.loadBefore} before, ${outcome.loadAfter} after._\n` : '';

const bundleSection = (outcome: Outcome<BundleResult> | undefined): string => {
  if (!outcome?.ok) return failure(outcome);
  const b = outcome.value;
  type S = { raw: number; gzip: number; brotli: number };
  const cells = (s: S) => `${int(s.raw)} | ${int(s.gzip)} | ${int(s.brotli)}`;
  const row = (name: string, s: S) => `| ${name} | ${cells(s)} |`;
  const pair = (en: number, ru: number) => `${int(en)} / ${int(ru)}`;
  const versus = (s: S) => {
    const change = s.brotli - b.before.sizes.brotli;
    return `${change > 0 ? '+' : change < 0 ? '−' : '±'}${int(Math.abs(change))} B (${change > 0 ? '+' : change < 0 ? '−' : '±'}${fixed((Math.abs(change) / b.before.sizes.brotli) * 100, 1)}%)`;
  };
  const waiting = b.screens[0]!;
  const chunkList = (names: string[]) => names.map((name) => `\`${name}\``).join(', ');
  const before = b.before.built
    ? `built in this run from \`git archive ${b.before.commit}\` by its own scripts/build.js, outside the repository`
    : `as recorded in that commit's BENCHMARKS.md: building it in this run failed (${b.before.failure ?? 'no reason given'})`;
  return [
    'The CDN build (`npm run build`, entry `src/element/cdn.ts`) is split: `dist/cdn/merchant-checkout.js` holds all the first render needs and imports nothing statically; the rest loads with `import()` as `dist/cdn/merchant-checkout-<name>.js` beside it when a screen needs it, each with its SRI hash in `dist/cdn/integrity.json`.',
    '',
    '| file | raw B | gzip -9 B | brotli -q11 B |',
    '|---|---:|---:|---:|',
    row('**`dist/cdn/merchant-checkout.js` (first render, as built)**', b.cdn),
    row(
      `\`merchant-checkout/define\` (ESM entry) bundled with its dependencies, minified: first render (entry chunk and its static imports; the translation objects are not in this entry, so each language is a chunk of its own)`,
      b.esmDefine.firstRender,
    ),
    row(`… all ${b.esmDefine.chunks} of its chunks`, b.esmDefine.all),
    row('baseline: Lit alone with an empty element', b.litBaseline),
    '',
    '**Lazy chunks** (`dist/cdn/merchant-checkout-<name>.js`):',
    '',
    '| chunk | loaded for | raw B | gzip -9 B | brotli -q11 B | SRI in integrity.json |',
    '|---|---|---:|---:|---:|---|',
    ...b.chunks.map((c) => `| \`${c.name}\` | ${c.role} | ${cells(c.sizes)} | ${c.integrity ? 'matches' : '**does not match**'} |`),
    '',
    "**What a payer downloads per screen**: the first-render file, the language (`en` or `ru` here; the others are in the table above) and the chunks the screen loads (`views`, the screens' templates, with the language), each file compressed on its own as a CDN serves it; English / Russian payer.",
    '',
    '| screen | chunks besides the first render and the language | raw B | gzip -9 B | brotli -q11 B |',
    '|---|---|---:|---:|---:|',
    ...b.screens.map(
      (s) =>
        `| ${s.screen} | ${chunkList(s.chunks)} | ${pair(s.en.raw, s.ru.raw)} | ${pair(s.en.gzip, s.ru.gzip)} | ${pair(s.en.brotli, s.ru.brotli)} |`,
    ),
    '',
    `**Before and after the split** (issue 19). Before: the single CDN file of commit ${b.before.commit}, where everything was in one file, ${before}. That file had both languages and the QR encoder but none of this round's bank directory, lettermarks, bank picker, receipt and dispute forms (src/element/banks/, src/element/journey/), two of which (directory, lettermark) the waiting screen's total includes.`,
    '',
    '| file | raw B | gzip -9 B | brotli -q11 B | brotli vs before |',
    '|---|---:|---:|---:|---:|',
    `| before: \`merchant-checkout.js\` at ${b.before.commit} (everything) | ${cells(b.before.sizes)} | |`,
    `| after: first-render file | ${cells(b.cdn)} | ${versus(b.cdn)} |`,
    `| after: waiting screen, English payer (first render + \`en\` + ${chunkList(waiting.chunks)}) | ${cells(waiting.en)} | ${versus(waiting.en)} |`,
    `| after: waiting screen, Russian payer (\`ru\` instead of \`en\`) | ${cells(waiting.ru)} | ${versus(waiting.ru)} |`,
    '',
    'What each part of the first-render file adds (compression does not add up exactly; "first render − first render without it" builds the CDN files again from `src/element/cdn.ts` with scripts/build.js\'s options and that part replaced by a stub, and takes the main chunk):',
    '',
    '| part | measured as | raw B | gzip B | brotli B |',
    '|---|---|---:|---:|---:|',
    ...b.contributions.map((c) => `| ${c.part} | ${c.how} | ${cells(c.sizes)} |`),
    `| the element itself (its logic, session and protocol client, screens and templates, events, formatters) | the rest | ${cells(b.rest)} |`,
    '',
    `The first-render file built again here for those comparisons: ${int(b.cdnRebuilt.raw)} / ${int(b.cdnRebuilt.gzip)} / ${int(b.cdnRebuilt.brotli)} B (raw / gzip / brotli), ${b.cdnRebuiltIdentical ? 'byte for byte the built file' : '**not byte for byte the built file** (dist/ is older than the sources?)'}. Its modules, largest first (Rolldown's rendered length before minification, KB): ${b.mainModules.map((m) => `\`${m.id}\` ${m.length < 50 ? '<0.1' : fixed(m.length / 1000, 1)}`).join(', ')}.`,
    '',
    '`npm run bench -- --only bundle` runs this part alone (printed, BENCHMARKS.md untouched).',
    '',
    loadLine(outcome),
  ].join('\n');
};

const ttrSection = (outcome: Outcome<TimeToRequisitesResult> | undefined): string => {
  if (!outcome?.ok) return failure(outcome);
  const { latencies, mainThread } = outcome.value;
  return [
    `Medians of ${RUNS} runs per latency (after 3 warm-up runs), each from inserting the element into a page that has already loaded the CDN file.`,
    "The round trip is one `fetch` of the same `GET /invoices/{id}` from the same page, body read: the floor, since the element reads invoice and variants in parallel. The proxy is the kit bundled as it ships (bench/kit.ts), in the benchmark's process with the mock; `BENCH_TTR_ROOT=<dir>` serves another built copy's kit and CDN files instead, for an A/B.",
    '',
    '| added latency | round trip | requisites in the DOM | p90 | QR code in the DOM | `checkout-ready` | requisites ÷ round trip | QR ÷ round trip |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...latencies.map(
      (l) =>
        `| ${l.latencyMs} ms | ${fixed(l.roundTrip)} ms | ${fixed(l.requisites)} ms | ${fixed(l.requisitesP90)} ms | ${fixed(l.qr)} ms | ${fixed(l.ready)} ms | ${fixed(l.requisitesRoundTrips, 2)} | ${fixed(l.qrRoundTrips, 2)} |`,
    ),
    '',
    `Main-thread time of one mount at ${mainThread.latencyMs} ms (Chromium's \`Performance.getMetrics\`, thread time, from insertion until the QR code is in the DOM and two frames have passed, minus an idle interval as long): **${fixed(mainThread.task)} ms** of tasks, of which ${fixed(mainThread.styleAndLayout)} ms style and layout (the idle interval itself: ${fixed(mainThread.idleTask)} ms; Chromium's \`ScriptDuration\` leaves out most of Lit's work, which runs in microtasks, so it is not quoted).`,
    '',
    loadLine(outcome),
  ].join('\n');
};

const proxySection = (outcome: Outcome<ProxyResult> | undefined): string => {
  if (!outcome?.ok) return failure(outcome);
  const p = outcome.value;
  const o = p.options;
  const names: Record<keyof ProxyResult['targets'], string> = {
    direct: 'mock service, direct (the upstream lookup, pre-signed)',
    passthrough: 'bare node:http passthrough (keep-alive agent, piped)',
    fetchPassthrough: 'passthrough with the global `fetch` (undici)',
    proxy: '**`createCheckoutHandler` + `toNodeHandler`**',
    baseline: 'the proxy built from `BENCH_PROXY_ROOT` (A/B baseline)',
  };
  const targets = Object.values(p.targets).filter((t): t is NonNullable<typeof t> => t !== undefined);
  const ms = (value: number) => `${fixed(value, 2)} ms`;
  return [
    `**Throughput**: autocannon on loopback, ${o.connections} connections, ${o.rounds} rounds of ${o.throughputSeconds} s per target at saturation, interleaved (the order reversed every other round; median of the rounds), after 1 s of warm-up each. Each connection reads its own invoice, so no two reads of one invoice overlap and every answer costs the proxy one upstream read, as it costs the passthrough; the same load with all connections on one invoice (the proxy's single flight then answers several payers with one upstream read) is in the last columns. The mock, the proxy and each passthrough run in their own Node process, the proxy from the kit bundled as it ships (bench/kit.ts); the load generator in another; all share the ${'2'} cores.`,
    '',
    '| target | req/s | rounds | CPU per answer, this server | CPU per answer, the mock | all on one invoice: req/s | CPU per answer | errors |',
    '|---|---:|---|---:|---:|---:|---:|---:|',
    ...targets.map(
      (t) =>
        `| ${names[t.target]} | ${int(t.requestsPerSecond)} | ${t.rounds.map((r) => int(r)).join(', ')} | ${int(t.cpuPerRequest)} µs | ${t.target === 'direct' ? '(same)' : `${int(t.mockCpuPerRequest)} µs`} | ${t.shared ? int(t.shared.requestsPerSecond) : ''} | ${t.shared ? `${int(t.shared.cpuPerRequest)} µs` : ''} | ${t.errors} |`,
    ),
    '',
    "CPU per answer is the process's user + system time over the round divided by its 2xx answers (median of the rounds): what the server costs, whatever else ran on the cores meanwhile.",
    '',
    `Proxy ÷ bare passthrough: **${fixed(p.throughputRatio, 2)}×**, ${fixed(p.throughputRatioShared, 2)}× with all connections on one invoice; proxy ÷ \`fetch\` passthrough: ${fixed(p.throughputRatioVsFetch, 2)}×.`,
    '',
    `**Latency**: ${o.latencyRounds} rounds of ${o.latencySeconds} s per target, interleaved, at a fixed ${o.rate} req/s evenly paced over ${o.latencyConnections} kept-alive connections (bench/paced.ts: one request every ${fixed(1000 / o.rate, 1)} ms on an idle connection, timed from its write to the answer's last byte); p50 and p99 are the medians of the rounds' own. Before the first latency round every server runs a full garbage collection (\`--expose-gc\`), so that what the saturation phase left in its old generation is not collected during the latency rounds. Inside each server, during the same rounds: its own time per request (request parsed → answer handed to the socket; percentiles the median of the rounds'), its GC pauses and its event-loop delay.`,
    '',
    '| target | p50 | p99 | p99 of each round | samples | sent late (all connections busy) | its own p50 / p99 | GC pauses: count, total, longest | event-loop delay p99 |',
    '|---|---:|---:|---|---:|---:|---:|---:|---:|',
    ...targets.map(
      (t) =>
        `| ${names[t.target]} | ${ms(t.p50)} | ${ms(t.p99)} | ${t.p99Rounds.map((each) => fixed(each, 1)).join(', ')} | ${int(t.samples)} | ${t.late} | ${Number.isNaN(t.trace.serverP50) ? '–' : `${ms(t.trace.serverP50)} / ${ms(t.trace.serverP99)}`} | ${t.trace.gcCount}, ${fixed(t.trace.gcTotalMs, 1)} ms, ${ms(t.trace.gcMaxMs)} | ${ms(t.trace.loopDelayP99)} |`,
    ),
    '',
    `Latency the proxy adds: ${fixed(p.addedP50VsDirect, 2)} ms at p50 and **${fixed(p.addedP99VsDirect, 2)} ms at p99** over the mock direct (${fixed(p.addedP99VsPassthrough, 2)} ms at p99 over the bare passthrough, which itself adds ${fixed(p.passthroughAddedP99, 2)} ms at p99 over the mock direct: the floor of any second Node hop on these cores).`,
    '',
    `\`signRequest\`: ${int(p.sign.sequentialPerSecond)} per second awaited one by one, ${int(p.sign.concurrentPerSecond)} per second 64 at a time.`,
    '',
    `**Is the benchmark fair?** One load generator (autocannon, in the benchmark's process) for every target, the same connections, a warm-up per target, every target measured in every round in alternating order. Three things were not fair before this round and are changed: (1) all connections read one invoice, so the proxy's single flight answered about eight payers per upstream read while the passthrough made one read per answer (the mock's CPU per proxied answer was a quarter of the passthrough's); (2) the latency phase used autocannon's \`overallRate\`, which sends each second's quota as one burst of back-to-back requests and then waits, so its "p99 at 200 req/s" measured queueing in that burst; (3) the proxy ran from the sources through tsx, whose esbuild \`keepNames\` wraps every closure the proxy makes per request in \`__name()\` (an \`Object.defineProperty\` each), a cost the built package does not have.`,
    '',
    `**What the proxy costs.** On 2 shared cores req/s is set by the CPU every process spends per answer, and the proxy's own process by its own: the bare passthrough spends ${int(p.targets.passthrough.cpuPerRequest)} µs; the proxy ${int(p.targets.proxy.cpuPerRequest)} µs, ${fixed(p.targets.proxy.cpuPerRequest / p.targets.passthrough.cpuPerRequest, 1)}× as much. \`node --import tsx bench/profile.ts\` profiles it under this load (node:inspector, 200 µs sampling, after a warm-up; \`alloc\` as its fourth argument samples allocations instead). Socket writes are a third of the samples (time in the kernel: the answer's write and the upstream request's wake their readers on these shared cores); then node:http's client and agent for the upstream request (about 7%), GC 5%, the abort signals of the payer's request and its time budget (about 4%), node:http's parsers, Hono (3%) and signing (under 1%, each bodyless call's signature is kept). Reading, checking, projecting and serialising the invoice no longer show: an unchanged answer is the same frozen invoice, projection and JSON text (\`sharedAnswer\` read). About 58 KB are allocated per answer, most of it node:http's (the upstream \`ClientRequest\` and the agent about 6 KB, socket writes 2 KB, the answer text 2 KB).`,
    '',
    loadLine(outcome),
  ].join('\n');
};

const slowSection = (outcome: Outcome<SlowClientsResult> | undefined): string => {
  if (!outcome?.ok) return failure(outcome);
  const s = outcome.value;
  return [
    `\`bench/slow-clients.ts\`: the proxy (\`createNodeServer\`, in its own process, in front of the mock) gets ${int(200)} normal requests a second for 5 s, first alone, then while ${int(s.connections)} connections send their headers one byte a second and never end them. Load average ${outcome.loadBefore} → ${outcome.loadAfter}.`,
    '',
    '| phase | normal answers | errors | p99 |',
    '|---|---|---|---|',
    `| alone | ${int(s.baseline.ok)} | ${s.baseline.errors} | ${fixed(s.baseline.p99, 2)} ms |`,
    `| with ${int(s.connections)} slow connections | ${int(s.attack.ok)} | ${s.attack.errors} | ${fixed(s.attack.p99, 2)} ms |`,
    '',
    `The server closed ${int(s.closedByServer)} of the ${int(s.connections)} slow connections within 15 s (headers deadline 10 s, checked every second).`,
    '',
  ].join('\n');
};

const leaksSection = (outcome: Outcome<LeakResult> | undefined): string => {
  if (!outcome?.ok) return failure(outcome);
  const l = outcome.value;
  const row = (what: string, pick: (counts: LeakResult['after']) => number, server?: number) =>
    `| ${what} | ${pick(l.whileMounted)} | ${pick(l.after)}${server === undefined ? '' : ` (server: ${server})`} | 0 | ${mark(pick(l.after) === 0 && (server ?? 0) === 0)} |`;
  return [
    `${int(l.mounts)} mounts and removals in ${fixed(l.seconds)} s against the proxy and the mock (latency 0), after 50 warm-up mounts; every 4th element (${l.midFlight}) is removed as soon as its first render is done, its requests still in flight, the others once requisites and QR code are shown. Counted by bench/page/instrument.js, installed before any page script: wrapped \`setTimeout\`/\`setInterval\`/\`requestAnimationFrame\`, \`fetch\` (and the reading of each answer's body), and \`addEventListener\`/\`removeEventListener\` on \`window\`, \`document\` and every \`<merchant-checkout>\`.`,
    '',
    '| what | while one is shown | left after all removals | goal | |',
    '|---|---:|---:|---:|---|',
    row('timeouts', (c) => c.timeouts),
    row('intervals', (c) => c.intervals),
    row('animation frames', (c) => c.animationFrames),
    row('`fetch` calls not settled', (c) => c.fetchPending, l.serverInFlight),
    row('answers whose body was not read', (c) => c.bodiesUnread),
    row('listeners on `window`', (c) => c.listeners.window),
    row('listeners on `document`', (c) => c.listeners.document),
    row('listeners on the elements', (c) => c.listeners.element),
    '',
    `JS heap after GC (CDP \`HeapProfiler.collectGarbage\` ×3, \`Runtime.getHeapUsage\`): ${kb(l.heapBefore)} before, ${kb(l.heapAfter)} after, growth **${kb(l.heapGrowth)}** (goal < ${kb(HEAP_GROWTH_GOAL)}: ${mark(l.heapGrowth < HEAP_GROWTH_GOAL)}). \`MerchantCheckoutElement\` instances still reachable (\`Runtime.queryObjects\`): ${l.instancesAlive}. The page made ${int(l.after.fetches)} requests; the proxy served ${int(l.requestsServed)} in this run (both benchmarks).`,
    '',
    loadLine(outcome),
  ].join('\n');
};

const eventsSection = (outcome: Outcome<EventsResult> | undefined): string => {
  if (!outcome?.ok) return failure(outcome);
  const { upstream: u, latency: l, idle: i } = outcome.value;
  const latencyRow = (name: string, f: EventsResult['latency']['single']) =>
    `| ${name} | ${f.samples} | ${fixed(f.p50, 2)} ms | ${fixed(f.p99, 2)} ms | ${fixed(f.max, 2)} ms |`;
  return [
    `\`bench/events.ts\`: each shop instance is test/support/cluster-instance.ts (the kit, \`createCheckoutServer\`, on one store) in its own process, in front of the mock service on a real port; the payers run in the benchmark's process. \`node --import tsx bench/events.ts idle [--floor]\` runs the idle streams alone.`,
    '',
    `**Upstream calls.** ${int(u.payers)} open checkouts over ${u.invoices} invoices for ${u.seconds} s, arriving spread over the first 5 s. Polling: each payer GETs \`/invoices/{id}\` every ${u.pollIntervalMs / 1000} s (the element's default). Streaming: each holds \`/invoices/{id}/events\` open; the proxy refreshes a watched invoice after ${u.refreshIntervalMs / 1000} s without news (the default \`events.refreshIntervalMs\`), one read per invoice per interval whatever the number of payers, and the first stream of an invoice reads it once. Upstream calls are every call the instance's \`MerchantClient\` made (invoice reads and the hourly bank-name lists).`,
    '',
    '| mode | upstream calls | per payer-minute | answers or events the payers got | errors |',
    '|---|---:|---:|---:|---:|',
    `| polling every ${u.pollIntervalMs / 1000} s | ${int(u.polling.calls)} | ${fixed(u.polling.perPayerMinute, 3)} | ${int(u.polling.received)} | ${u.polling.errors} |`,
    `| streaming | ${int(u.streaming.calls)} | ${fixed(u.streaming.perPayerMinute, 3)} | ${int(u.streaming.received)} | ${u.streaming.errors} |`,
    '',
    `Streaming makes **${fixed(u.ratio, 1)}× fewer** upstream calls. (Polling is already below one call per poll: single flight joins polls of one invoice that overlap.) Over a longer window the streams' share falls further: after the first read, a quiet invoice costs one read per ${u.refreshIntervalMs / 1000} s, against ${int((60_000 / u.pollIntervalMs) * (u.payers / u.invoices))} per minute when its ${u.payers / u.invoices} payers poll.`,
    '',
    `**Status latency**: from POSTing a notification to an instance until the \`invoice\` event is read by a client streaming the invoice; ${l.single.samples / 50} real changes at the mock for each of 50 invoices (the transfer confirmed, then paid), one at a time: the instance reads each notified invoice from the service before the event. With three instances the stream is on one instance and the notification goes to the next (the event crosses Redis pub/sub).`,
    '',
    '| setup | samples | p50 | p99 | max |',
    '|---|---:|---:|---:|---:|',
    latencyRow('one instance, memory store', l.single),
    latencyRow('three instances behind one Redis (`redis-server` 7 on loopback)', l.cluster),
    '',
    `**Idle streams**: ${int(i.opened)} of ${int(i.asked)} asked connections opened to one instance (bench/stream-holder.ts: the proxy and the notification receiver on a memory store, the kit bundled as it ships; raw TCP, each connection waits for its first event; ${fixed(i.openSeconds, 1)} s), over ${100} invoices. Open files limit of the processes: ${i.fdLimit === undefined ? 'unlimited' : int(i.fdLimit)} (each side needs one descriptor per stream). The instance's memory after a forced GC, before (its watches already open) and after: RSS ${fixed(i.rssBefore / 1e6, 1)} → ${fixed(i.rssAfter / 1e6, 1)} MB, JS heap ${fixed(i.heapBefore / 1e6, 1)} → ${fixed(i.heapAfter / 1e6, 1)} MB: **${fixed(i.perStream / 1000, 1)} KB per open stream** (${fixed((i.heapAfter - i.heapBefore) / (i.opened - 100) / 1000, 1)} KB of it JS heap).${
      i.floor
        ? ` A bare node:http server holding as many streams (headers and one event written to \`ServerResponse\`, one heartbeat timer) adds ${fixed(i.floor.perStream / 1000, 1)} KB each (${fixed((i.floor.heapAfter - i.floor.heapBefore) / (i.floor.opened - 100) / 1000, 1)} KB heap): what Node's socket, parser, \`IncomingMessage\` and \`ServerResponse\` cost; the kit adds ${fixed((i.perStream - i.floor.perStream) / 1000, 1)} KB to that.`
        : ''
    }`,
    '',
    `Where an idle stream's memory goes (\`node --import tsx bench/events.ts idle 2100 --snapshot\`, then bench/heap-breakdown.ts on the two heap snapshots): beside Node's own part, one \`ReadableStream\` of the stream's state (high-water mark 0; Node 20 makes every web stream transferable, about 1.2 KB with its state), its reader in \`toNodeHandler\`, the request's \`AbortSignal\` and the stream's own object. Before this round, with Hono's \`streamSSE\` (a \`TransformStream\`, a second \`ReadableStream\`, a timer per stream) and closures holding the request, the Hono context and the answer, an idle stream took about 35 KB.`,
    '',
    loadLine(outcome),
  ].join('\n');
};

export interface ReportInput {
  results: Results;
  machine: Machine;
  date: Date;
  loadAtStart: number;
  totalSeconds: number;
}

export const renderReport = ({ results, machine, date, loadAtStart, totalSeconds }: ReportInput): string => {
  const list = goals(results);
  return `# Benchmarks

Written by \`npm run bench\` (bench/run.ts); do not edit by hand, run it again. Benchmarks are not
tests: \`npm test\` asserts no timing (only the deterministic gzip limit of the CDN file, in
\`test/e2e/bundle-size.test.ts\`). Figures are medians and ratios from this one run; the machine
has ${machine.cores} cores and may be busy with other work, so compare ratios more than absolute times.

- **Date:** ${date.toISOString()}
- **Command:** \`npm run bench\` (build, then all ten benchmarks, ${fixed(totalSeconds, 0)} s)
- **Machine:** ${machine.cpu}, ${machine.cores} cores, ${machine.os}; Node ${machine.node}; ${machine.chromium} (headless, through playwright-core)
- **Load average** (1 min) at the start: ${loadAtStart}; per benchmark below.
- 1 KB = 1,000 bytes.

## Goals

| figure | this run | goal | |
|---|---|---|---|
${list.map((g) => `| ${g.what} | ${g.figure} | ${g.goal} | ${g.met === undefined ? 'not measured' : mark(g.met)} |`).join('\n')}

**${list.filter((g) => g.met).length} of ${list.length} goals met.**

## 1. Bundle size

<!-- bench:bundle -->
${bundleSection(results.bundle)}
<!-- /bench:bundle -->

## 2. Time to requisites (headless Chromium)

<!-- bench:ttr -->
${ttrSection(results.ttr)}
<!-- /bench:ttr -->

## 3. Proxy throughput and latency

<!-- bench:proxy -->
${proxySection(results.proxy)}
<!-- /bench:proxy -->

## 4. Leaks: ${int(MOUNTS)} mounts and removals

<!-- bench:leaks -->
${leaksSection(results.leaks)}
<!-- /bench:leaks -->

## 5. Slow clients

<!-- bench:slow -->
${slowSection(results.slow)}
<!-- /bench:slow -->

## 6. Event streams: push instead of poll

<!-- bench:events -->
${eventsSection(results.events)}
<!-- /bench:events -->

## 7. The payer who leaves for the bank app and comes back

<!-- bench:returns -->
${returnsSection(results.returns)}
<!-- /bench:returns -->

## 8. The merchant's books under a hostile notification channel

<!-- bench:books -->
${booksSection(results.books)}
<!-- /bench:books -->

## 9. The gateway for shops on any stack

<!-- bench:gateway -->
${gatewaySection(results.gateway)}
<!-- /bench:gateway -->

## 10. What tracing costs

<!-- bench:tracing -->
${tracingSection(results.tracing)}
<!-- /bench:tracing -->

## 11. What tracing costs, counted in instructions

<!-- bench:instructions -->
${instructionsSection(results.instructions)}
<!-- /bench:instructions -->

## 12. The checkout on a mid-range phone

<!-- bench:phone -->
${phoneSection(results.phone)}
<!-- /bench:phone -->

## 13. Nothing lost when the gateway dies

<!-- bench:chaos -->
${chaosSection(results.chaos)}
<!-- /bench:chaos -->

## 14. What the journal costs

<!-- bench:journal -->
${journalSection(results.journal)}
<!-- /bench:journal -->

## Changes made for these figures

<!-- bench:changes -->
Each was measured right before and after the change (one run each, on this kind of machine); the
tables above are this run's.

| change | before | after |
|---|---|---|
${IMPROVEMENTS.map((item) => `| ${item.change} | ${item.before} | ${item.after} |`).join('\n')}
<!-- /bench:changes -->
`;
};
