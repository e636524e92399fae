/**
 * The checkout on a mid-range phone (issue 38, section 12 of BENCHMARKS.md): Lighthouse's mobile
 * profile in Chromium over CDP (4× CPU slowdown, 150 ms round trip, 1.6 Mbps down, 750 kbps up),
 * a cold cache (a new browser context per load), median of 10.
 *
 * - Requisites on screen: from navigation start to the first frame after the formatted
 *   requisites are in the element's shadow root, on examples/cdn.html as a shop serves it
 *   (bench/checkout-server.ts: dist/cdn/ at /assets/ with its SRI hash, brotli, the real proxy
 *   and mock), on the demo's payer side bundled by Vite from the npm build
 *   (bench/page/checkout.html), and on examples/cdn.html with the first screen's chunks
 *   (`<link rel="modulepreload">`) and the element's two first reads
 *   (`<link rel="preload" as="fetch">`) preloaded, loads alternating so all see the same machine.
 * - The floor of a load: its round trips that must follow one another × 150 ms, plus the bytes
 *   it transfers ÷ 1.6 Mbps (what CDP's throttling charges), from the load's own requests that
 *   ended before the requisites were on screen.
 * - Interaction to next paint of "Copy" and "I have paid" at 4× CPU: a real click (CDP input) on
 *   the loaded page, the Event Timing API's `duration` of the click's longest event.
 *
 *   node --import tsx bench/phone.ts        printed (about 2 min)
 */
import type { Browser, CDPSession, Page } from 'playwright-core';
import { type CheckoutServer, SHOP_BASE } from './checkout-server.js';
import { log, median } from './lib.js';

export const PHONE = { cpuSlowdown: 4, latencyMs: 150, downloadBytesPerSecond: 1_600_000 / 8, uploadBytesPerSecond: 750_000 / 8 };
export const PHONE_RUNS = Number(process.env.BENCH_PHONE_RUNS ?? 10);
/** Goals of the issue. */
export const PHONE_REQUISITES_GOAL_MS = 1000;
export const PHONE_INP_GOAL_MS = 100;

export const PHONE_PAGES = { plain: '/cdn.html', shop: `${SHOP_BASE}checkout.html`, reads: '/cdn-preload-invoice.html' } as const;
export type PhonePage = keyof typeof PHONE_PAGES;

export interface PhoneLoad {
  /** Navigation start → requisites on screen, ms. */
  requisites: number;
  /** Requests of the load, their bytes on the wire, and the longest chain of requests that waited for one another. */
  requests: number;
  bytes: number;
  chain: number;
  /** `chain × 150 ms + bytes ÷ 1.6 Mbps`. */
  floor: number;
  /** Navigation start → the last of those requests ended, ms: what is left after it is the page's CPU (at 4×) and its frames. */
  lastByte: number;
}

export interface PhonePageResult {
  page: PhonePage;
  runs: number;
  /** Medians. */
  requisites: number;
  requisitesP90: number;
  requests: number;
  bytes: number;
  chain: number;
  floor: number;
  lastByte: number;
}

export interface PhoneResult {
  pages: PhonePageResult[];
  /** Interaction to next paint, ms, medians of `PHONE_RUNS` clicks each, at 4× CPU. */
  inp: { copy: number; paid: number; runs: number };
}

/** Installed before the page's scripts: the time the requisites are first on screen. */
const WATCH_REQUISITES = `
  window.__requisitesShown = new Promise((resolve, reject) => {
    const look = () => {
      const node = document.querySelector('merchant-checkout')?.shadowRoot?.querySelector('[part~="requisites"] .requisites');
      // Found in a frame's callback: the frame after this one has painted it.
      if (node && node.textContent.trim()) requestAnimationFrame(() => resolve(performance.now()));
      else if (performance.now() > 30000) reject(new Error('no requisites in 30 s'));
      else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });`;

const throttle = async (cdp: CDPSession) => {
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: PHONE.latencyMs,
    downloadThroughput: PHONE.downloadBytesPerSecond,
    uploadThroughput: PHONE.uploadBytesPerSecond,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown });
};

interface Request {
  id: string;
  url: string;
  start: number;
  end: number;
  bytes: number;
}

/** One cold load of `path` in a fresh context: the time to requisites and what went over the wire. */
export const coldLoad = async (
  browser: Browser,
  server: CheckoutServer,
  path: string,
): Promise<PhoneLoad & { page: Page; cdp: CDPSession }> => {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await page.addInitScript(WATCH_REQUISITES);
  const cdp = await context.newCDPSession(page);
  await throttle(cdp);
  const requests = new Map<string, Request>();
  cdp.on('Network.requestWillBeSent', (event) => {
    requests.set(event.requestId, { id: event.requestId, url: event.request.url, start: event.timestamp, end: Number.NaN, bytes: 0 });
  });
  cdp.on('Network.loadingFinished', (event) => {
    const request = requests.get(event.requestId);
    if (request) Object.assign(request, { end: event.timestamp, bytes: event.encodedDataLength });
  });
  await page.goto(`${server.origin}${path}`, { waitUntil: 'commit' });
  const requisites = await page.evaluate<number>('window.__requisitesShown');
  // Navigation starts with the page's request: what ended before the requisites were on screen
  // is what they could have waited for.
  const all = [...requests.values()];
  const start = Math.min(...all.map((request) => request.start));
  // The browser's own /favicon.ico (examples/cdn.html names no icon) is no request of the page.
  const before = all.filter(
    (request) => Number.isFinite(request.end) && request.end <= start + requisites / 1000 && !request.url.endsWith('/favicon.ico'),
  );
  const lastByte = (Math.max(...before.map((request) => request.end)) - start) * 1000;
  return { requisites, ...floorOf(before), lastByte, page, cdp };
};

/**
 * The longest chain of requests each of which started only after the one before it ended (a
 * module after the page, a chunk after the module that imports it, the invoice after the
 * element ran), and the load's bytes: the floor no code can beat on this network.
 */
const floorOf = (requests: Request[]): Omit<PhoneLoad, 'requisites' | 'lastByte'> => {
  const sorted = [...requests].sort((a, b) => a.start - b.start);
  const depth = new Map<string, number>();
  for (const request of sorted) {
    const before = sorted.filter((other) => other.end <= request.start).map((other) => depth.get(other.id) ?? 1);
    depth.set(request.id, 1 + Math.max(0, ...before));
  }
  const chain = Math.max(0, ...depth.values());
  const bytes = requests.reduce((sum, request) => sum + request.bytes, 0);
  return { requests: requests.length, bytes, chain, floor: chain * PHONE.latencyMs + (bytes / PHONE.downloadBytesPerSecond) * 1000 };
};

/** The click on `selector` (inside the element) and the longest Event Timing entry of its interaction, ms. */
const interaction = async (page: Page, part: string): Promise<number> => {
  await page.evaluate(
    `window.__events = []; new PerformanceObserver((list) => window.__events.push(...list.getEntries().map((e) => ({ name: e.name, duration: e.duration, id: e.interactionId })))).observe({ type: 'event', durationThreshold: 16, buffered: false });`,
  );
  const button = page.locator(`merchant-checkout [part~="${part}"]`).first();
  const box = (await button.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  // Entries arrive after the next paint; a few frames later they are all there.
  await page.evaluate('new Promise((resolve) => setTimeout(resolve, 500))');
  const events = await page.evaluate<{ name: string; duration: number; id: number }[]>('window.__events');
  const ofClick = events.filter((event) => event.id > 0);
  return Math.max(16, ...ofClick.map((event) => event.duration));
};

export const runPhone = async (browser: Browser, server: CheckoutServer): Promise<PhoneResult> => {
  const loads: Record<PhonePage, PhoneLoad[]> = { plain: [], shop: [], reads: [] };
  const copy: number[] = [];
  const paid: number[] = [];
  // One warm-up load of each: the server's first answers and gzip are not the phone's cost.
  for (const path of Object.values(PHONE_PAGES)) await (await coldLoad(browser, server, path)).page.context().close();
  for (let run = 0; run < PHONE_RUNS; run++) {
    for (const name of Object.keys(PHONE_PAGES) as PhonePage[]) {
      const { page, cdp: _cdp, ...load } = await coldLoad(browser, server, PHONE_PAGES[name]);
      loads[name].push(load);
      if (name === 'plain') {
        await page.locator('merchant-checkout [part~="qr"] path').first().waitFor();
        copy.push(await interaction(page, 'copy-button'));
        paid.push(await interaction(page, 'paid-button'));
      }
      await page.context().close();
    }
    log(
      `phone run ${run + 1}: plain ${loads.plain.at(-1)!.requisites.toFixed(0)} ms, shop ${loads.shop.at(-1)!.requisites.toFixed(0)} ms, reads ${loads.reads.at(-1)!.requisites.toFixed(0)} ms, copy ${copy.at(-1)!.toFixed(0)} ms, paid ${paid.at(-1)!.toFixed(0)} ms`,
    );
  }
  const summary = (page: PhonePage): PhonePageResult => {
    const list = loads[page];
    const sorted = list.map((load) => load.requisites).sort((a, b) => a - b);
    return {
      page,
      runs: list.length,
      requisites: median(list.map((load) => load.requisites)),
      requisitesP90: sorted[Math.ceil(sorted.length * 0.9) - 1]!,
      requests: median(list.map((load) => load.requests)),
      bytes: median(list.map((load) => load.bytes)),
      chain: median(list.map((load) => load.chain)),
      floor: median(list.map((load) => load.floor)),
      lastByte: median(list.map((load) => load.lastByte)),
    };
  };
  return {
    pages: [summary('plain'), summary('shop'), summary('reads')],
    inp: { copy: median(copy), paid: median(paid), runs: copy.length },
  };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const { launchChromium } = await import('../test/e2e/support/browser.js');
  const { startCheckoutServer } = await import('./checkout-server.js');
  const server = await startCheckoutServer();
  const browser = await launchChromium();
  try {
    console.log(JSON.stringify(await runPhone(browser, server), null, 2));
  } finally {
    await browser.close();
    await server.close();
  }
}
