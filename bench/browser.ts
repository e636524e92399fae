/**
 * The browser benchmarks, in headless Chromium through playwright-core:
 *
 * - time to requisites: from inserting `<merchant-checkout>` to its formatted requisites (and
 *   its QR code) being in the DOM, with the proxy on loopback delaying every request by a fixed
 *   latency; beside the round trip of one `fetch` of the same invoice from the same page, which
 *   is the floor (invoice and variants are read in parallel). Also the main-thread time of the
 *   first render (CDP `Performance.getMetrics`, `TaskDuration`).
 * - leaks: mount and remove the element many times against the proxy and the mock, then count
 *   the timers, requests and listeners left (bench/page/instrument.js), the JS heap after GC
 *   and the `MerchantCheckoutElement` instances still alive.
 */
import { fileURLToPath } from 'node:url';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { ENDPOINT, type CheckoutServer } from './checkout-server.js';
import { log, median, percentile, sleep } from './lib.js';

const INSTRUMENT = fileURLToPath(new URL('./page/instrument.js', import.meta.url));

export const LATENCIES = [0, 50, 150] as const;
export const RUNS = 20;
export const MOUNTS = 1000;
/** Goals of the issue. */
export const TTR_GOAL_ROUND_TRIPS = 1.1;
export const HEAP_GROWTH_GOAL = 1_000_000;

interface MountTimes {
  requisites: number;
  qr: number;
  ready: number | null;
}

export interface LatencyResult {
  latencyMs: number;
  runs: number;
  /** Medians, in ms. */
  roundTrip: number;
  requisites: number;
  qr: number;
  ready: number;
  requisitesP90: number;
  /** `requisites / roundTrip` (medians of the same run). */
  requisitesRoundTrips: number;
  qrRoundTrips: number;
}

export interface MainThreadResult {
  latencyMs: number;
  /** Medians, in ms, with the median of an idle interval of the same length subtracted. */
  task: number;
  script: number;
  styleAndLayout: number;
  /** The idle interval's own figures (what the measuring costs). */
  idleTask: number;
}

export interface TimeToRequisitesResult {
  latencies: LatencyResult[];
  mainThread: MainThreadResult;
}

const evaluate = <T>(page: Page, expression: string): Promise<T> => page.evaluate<T>(expression);

const call = (name: string, argument: unknown): string => `window.benchPage.${name}(${JSON.stringify(argument)})`;

const metrics = async (cdp: CDPSession): Promise<Record<string, number>> => {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(list.map((metric) => [metric.name, metric.value]));
};

interface Busy {
  task: number;
  script: number;
  styleAndLayout: number;
}

/** Main-thread busy time (ms) of the renderer while `work` runs. */
const busyDuring = async (cdp: CDPSession, work: () => Promise<unknown>): Promise<Busy> => {
  const before = await metrics(cdp);
  await work();
  const after = await metrics(cdp);
  const delta = (name: string) => ((after[name] ?? 0) - (before[name] ?? 0)) * 1000;
  return {
    task: delta('TaskDuration'),
    script: delta('ScriptDuration'),
    styleAndLayout: delta('RecalcStyleDuration') + delta('LayoutDuration'),
  };
};

const openPage = async (browser: Browser, server: CheckoutServer, instrument: boolean) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (instrument) await page.addInitScript({ path: INSTRUMENT });
  await page.goto(`${server.origin}/`);
  await evaluate(page, 'window.benchPage.ready()');
  const cdp = await context.newCDPSession(page);
  return { context, page, cdp };
};

export const runTimeToRequisites = async (browser: Browser, server: CheckoutServer): Promise<TimeToRequisitesResult> => {
  const { context, page, cdp } = await openPage(browser, server, false);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const mount = { invoiceId: server.invoiceId, endpoint: ENDPOINT };
  const invoiceUrl = `${ENDPOINT}/invoices/${server.invoiceId}`;
  const latencies: LatencyResult[] = [];
  let mainThread: MainThreadResult | undefined;
  try {
    for (const latencyMs of LATENCIES) {
      server.setLatency(latencyMs);
      // Warm-up: connections open, code compiled, caches filled.
      for (let i = 0; i < 3; i++) {
        await evaluate(page, call('roundTrip', invoiceUrl));
        await evaluate(page, call('mount', mount));
      }
      const roundTrips: number[] = [];
      const times: MountTimes[] = [];
      const busy: Busy[] = [];
      const idle: Busy[] = [];
      const measureMainThread = latencyMs === LATENCIES.at(-1);
      for (let run = 0; run < RUNS; run++) {
        roundTrips.push(await evaluate<number>(page, call('roundTrip', invoiceUrl)));
        if (measureMainThread) {
          let result: MountTimes | undefined;
          busy.push(await busyDuring(cdp, async () => (result = await evaluate<MountTimes>(page, call('mount', mount)))));
          times.push(result!);
          idle.push(await busyDuring(cdp, () => evaluate(page, call('idle', Math.round(result!.qr)))));
        } else {
          times.push(await evaluate<MountTimes>(page, call('mount', mount)));
        }
      }
      const roundTrip = median(roundTrips);
      const requisites = median(times.map((time) => time.requisites));
      const qr = median(times.map((time) => time.qr));
      latencies.push({
        latencyMs,
        runs: RUNS,
        roundTrip,
        requisites,
        qr,
        ready: median(times.map((time) => time.ready ?? Number.NaN)),
        requisitesP90: percentile(
          times.map((time) => time.requisites),
          0.9,
        ),
        requisitesRoundTrips: requisites / roundTrip,
        qrRoundTrips: qr / roundTrip,
      });
      log(`latency ${latencyMs} ms: round trip ${roundTrip.toFixed(1)} ms, requisites ${requisites.toFixed(1)} ms, QR ${qr.toFixed(1)} ms`);
      if (measureMainThread) {
        const idleTask = median(idle.map((item) => item.task));
        mainThread = {
          latencyMs,
          task: median(busy.map((item) => item.task)) - idleTask,
          script: median(busy.map((item) => item.script)) - median(idle.map((item) => item.script)),
          styleAndLayout: median(busy.map((item) => item.styleAndLayout)) - median(idle.map((item) => item.styleAndLayout)),
          idleTask,
        };
        log(`main thread of one mount: ${mainThread.task.toFixed(1)} ms`);
      }
    }
  } finally {
    server.setLatency(0);
    await context.close();
  }
  return { latencies, mainThread: mainThread! };
};

export interface LeakCounts {
  timeouts: number;
  intervals: number;
  animationFrames: number;
  fetchPending: number;
  bodiesUnread: number;
  fetches: number;
  listeners: { window: number; document: number; element: number };
  elementsInDocument: number;
}

export interface LeakResult {
  mounts: number;
  midFlight: number;
  seconds: number;
  /** While one element is shown: the instruments do see its timer, listener and requests. */
  whileMounted: LeakCounts;
  before: LeakCounts;
  after: LeakCounts;
  /** Proxy requests the server had not finished when the counts were taken. */
  serverInFlight: number;
  requestsServed: number;
  heapBefore: number;
  heapAfter: number;
  heapGrowth: number;
  /** `MerchantCheckoutElement` objects reachable after GC (the page holds none). */
  instancesAlive: number;
}

const heapAfterGc = async (cdp: CDPSession): Promise<number> => {
  for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
  return (await cdp.send('Runtime.getHeapUsage')).usedSize;
};

const liveInstances = async (cdp: CDPSession): Promise<number> => {
  const prototype = await cdp.send('Runtime.evaluate', { expression: "customElements.get('merchant-checkout').prototype" });
  const objects = await cdp.send('Runtime.queryObjects', { prototypeObjectId: prototype.result.objectId! });
  const count = await cdp.send('Runtime.callFunctionOn', {
    objectId: objects.objects.objectId!,
    functionDeclaration: 'function () { return this.length; }',
    returnByValue: true,
  });
  return count.result.value as number;
};

const settle = async (page: Page, server: CheckoutServer): Promise<LeakCounts> => {
  // Aborted requests settle on their own; give them (at most) a few seconds to.
  const end = Date.now() + 5000;
  for (;;) {
    const counts = await evaluate<LeakCounts>(page, 'window.__leaks.snapshot()');
    if ((counts.fetchPending === 0 && server.inFlight() === 0) || Date.now() > end) break;
    await sleep(100);
  }
  await sleep(300);
  return evaluate<LeakCounts>(page, 'window.__leaks.snapshot()');
};

export const runLeaks = async (browser: Browser, server: CheckoutServer, mounts = MOUNTS): Promise<LeakResult> => {
  server.setLatency(0);
  const { context, page, cdp } = await openPage(browser, server, true);
  await cdp.send('HeapProfiler.enable');
  const options = { invoiceId: server.invoiceId, endpoint: ENDPOINT, midFlightEvery: 4 };
  try {
    // Warm-up, so that compiled code, Lit's template cache and the connections are in the baseline.
    await evaluate(page, call('mountMany', { ...options, count: 50 }));
    const whileMounted = await evaluate<LeakCounts>(page, call('probe', options));
    const before = await settle(page, server);
    const heapBefore = await heapAfterGc(cdp);
    const started = Date.now();
    const { midFlight } = await evaluate<{ midFlight: number }>(page, call('mountMany', { ...options, count: mounts }));
    const seconds = (Date.now() - started) / 1000;
    const after = await settle(page, server);
    const serverInFlight = server.inFlight();
    const heapAfter = await heapAfterGc(cdp);
    const instancesAlive = await liveInstances(cdp);
    log(
      `leaks: ${mounts} mounts in ${seconds.toFixed(1)} s, heap ${((heapAfter - heapBefore) / 1000).toFixed(0)} kB growth, ${instancesAlive} instances alive`,
    );
    return {
      mounts,
      midFlight,
      seconds,
      whileMounted,
      before,
      after,
      serverInFlight,
      requestsServed: server.received(),
      heapBefore,
      heapAfter,
      heapGrowth: heapAfter - heapBefore,
      instancesAlive,
    };
  } finally {
    await context.close();
  }
};
