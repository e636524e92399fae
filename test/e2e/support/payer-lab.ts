/**
 * The payer's world for the lifecycle matrix (test/e2e/payer-returns.test.ts) and its bench
 * (bench/payer-returns.ts): the mock service, the kit's notification receiver and proxy on one
 * kit (one store), a shop page with the CDN build of the element, all over HTTP/1.1 on one
 * origin; in front of it a TCP relay that can cut or black-hole the connections carrying event
 * streams (a mobile network that drops a connection without FIN or RST); and Debian's
 * Chromium launched here with a remote debugging port and driven over CDP as a phone (not
 * through a Playwright context, which keeps pages visible and turns the back/forward cache off).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, connect, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { createMockService, type MockService } from '../../../src/mock/index.js';
import { createCheckoutServer, MerchantClient, toNodeHandler, type CheckoutServer, type Invoice } from '../../../src/server/node.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../support/chromium.js';

const MERCHANT = { apiKey: 'lab-key', secretKey: 'lab-secret', storeId: 9, storeName: 'Lab Shop' };
const SERVICE_URL = 'https://pay.mock.test';
const TOKEN = 'lab-notification-token';
const CDN_DIR = new URL('../../../dist/cdn/', import.meta.url);

/** One request the shop's server saw: when (ms since the lab started), its method and path. */
export interface SeenRequest {
  at: number;
  method: string;
  path: string;
}

export interface LabOptions {
  /** The proxy's heartbeat (ms); the element takes twice it of silence as a dead stream. */
  heartbeatMs?: number;
  /** The element's `poll-interval`. */
  pollInterval?: number;
  /** The mock's invoice lifetime (ms). */
  invoiceTtlMs?: number;
}

export interface PayerLab {
  /** The shop's origin as the browser reaches it (through the relay). */
  url: string;
  mock: MockService;
  requests: SeenRequest[];
  /** Milliseconds since the lab started (the clock of `requests`). */
  now(): number;
  /** A new pay-in with an active deal (SBP), its id. */
  invoice(): Promise<string>;
  /** Requests to the proxy about `id` since `since`: reads (`GET /invoices/{id}`) and stream opens (`…/events`). */
  count(id: string, since: number): { reads: number; streams: number; all: number };
  /** Browser connections open now that have carried an event stream. */
  openStreams(): number;
  /** Event-stream connections stop carrying bytes both ways, and stay open. */
  blackHoleStreams(): void;
  /** Event-stream connections are closed cleanly (FIN). */
  endStreams(): void;
  close(): Promise<void>;
}

const page = (invoiceId: string, pollInterval: number) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pay for your order</title><link rel="icon" href="data:,">
<script type="module" src="/merchant-checkout.js"></script></head>
<body><merchant-checkout invoice-id="${invoiceId}" endpoint="/checkout-api" poll-interval="${pollInterval}"></merchant-checkout>
<p><a href="/elsewhere">Shop</a></p></body></html>`;

export const startLab = async (options: LabOptions = {}): Promise<PayerLab> => {
  const started = performance.now();
  const now = () => Math.round(performance.now() - started);
  // The kit: one store for the proxy and the receiver (verified with the mock).
  const mock = createMockService({
    merchants: [MERCHANT],
    publicBaseUrl: SERVICE_URL,
    notificationFetch: (request) => kit.notifications(request),
    notificationAllowed: () => true,
    ...(options.invoiceTtlMs
      ? { invoiceTtlMs: options.invoiceTtlMs, dealTtlMs: { min: options.invoiceTtlMs, max: options.invoiceTtlMs } }
      : {}),
  });
  const client = new MerchantClient({ baseUrl: SERVICE_URL, apiKey: MERCHANT.apiKey, secretKey: MERCHANT.secretKey, fetch: mock.fetch });
  const kit: CheckoutServer = createCheckoutServer({
    client,
    basePath: '/checkout-api',
    authorize: () => true,
    events: { heartbeatMs: options.heartbeatMs ?? 15_000, refreshIntervalMs: 10 * 60_000 },
    notifications: { token: TOKEN },
    reconcile: false,
  });
  const checkout = toNodeHandler(kit.checkout);
  const scripts = new Map<string, Buffer>();
  const integrity = JSON.parse(await readFile(new URL('integrity.json', CDN_DIR), 'utf8')) as Record<string, string>;
  for (const name of Object.keys(integrity)) scripts.set(`/${name}`, await readFile(new URL(name, CDN_DIR)));
  const requests: SeenRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    requests.push({ at: now(), method: req.method ?? 'GET', path });
    const script = scripts.get(path);
    if (path.startsWith('/checkout-api/')) return void checkout(req, res);
    if (script)
      return void res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'max-age=600' }).end(script);
    const id = /^\/pay\/([0-9a-f-]{36})$/.exec(path)?.[1];
    if (id) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(id, options.pollInterval ?? 5000));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Shop</title><p>The shop</p>');
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target = (server.address() as AddressInfo).port;

  /** Each browser connection, and whether it has carried an event stream. */
  const pairs = new Set<{ from: Socket; to: Socket; stream: boolean }>();
  const relay: TcpServer = createTcpServer((from) => {
    const to = connect(target, '127.0.0.1');
    const pair = { from, to, stream: false };
    pairs.add(pair);
    from.on('data', (chunk: Buffer) => {
      if (/^GET \S*\/events /m.test(chunk.toString('latin1'))) pair.stream = true;
    });
    from.pipe(to);
    to.pipe(from);
    const drop = () => {
      pairs.delete(pair);
      from.destroy();
      to.destroy();
    };
    from.on('error', drop).on('close', drop);
    to.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;

  return {
    url,
    mock,
    requests,
    now,
    invoice: async () => {
      const invoice: Invoice = await client.createInvoice({
        type: 'in',
        amount: '1500',
        currency: 'RUB',
        notificationUrl: 'http://127.0.0.1:9/notify',
        notificationToken: TOKEN,
        startDeal: true,
        paymentOption: 'SBP',
      });
      return invoice.id;
    },
    count: (id, since) => {
      const mine = requests.filter((request) => request.at >= since && request.path.includes(id));
      return {
        reads: mine.filter((request) => request.path.endsWith(id)).length,
        streams: mine.filter((request) => request.path.endsWith('/events')).length,
        all: mine.length,
      };
    },
    openStreams: () => [...pairs].filter((pair) => pair.stream).length,
    blackHoleStreams: () => {
      for (const pair of pairs) {
        if (!pair.stream) continue;
        pair.from.unpipe(pair.to);
        pair.to.unpipe(pair.from);
        pair.from.pause();
        pair.to.pause();
      }
    },
    endStreams: () => {
      for (const pair of pairs) if (pair.stream) pair.from.end();
    },
    close: async () => {
      for (const pair of pairs) {
        pair.from.destroy();
        pair.to.destroy();
      }
      relay.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await kit.close();
      mock.close();
    },
  };
};

/** Closes the phone and the lab, both whatever either throws (a lab left open would hold the run until its timeout); then throws the first failure. */
export const closeAll = async (phone: Phone | undefined, lab: PayerLab | undefined): Promise<void> => {
  const closed = await Promise.allSettled([phone?.close(), lab?.close()]);
  for (const result of closed) if (result.status === 'rejected') throw result.reason;
};

/** A phone: Chromium started here with a debugging port, and the CDP session of each page opened as a phone. */
export interface Phone {
  browser: Browser;
  /** A new tab at `url`, emulating a 360×640 touch phone with a mobile user agent. */
  open(url: string): Promise<{ page: Page; cdp: CDPSession }>;
  close(): Promise<void>;
}

const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36';

export const launchPhone = async (): Promise<Phone> => {
  const profile = await mkdtemp(join(tmpdir(), 'merchant-checkout-phone-'));
  // The binary itself: Debian's wrapper script would stand between us and the debugging port's line.
  const binary = CHROMIUM_PATH === '/usr/bin/chromium' ? '/usr/lib/chromium/chromium' : CHROMIUM_PATH;
  const child: ChildProcess = spawn(
    binary,
    ['--headless=new', '--remote-debugging-port=0', `--user-data-dir=${profile}`, ...CHROMIUM_ARGS, 'about:blank'],
    // Its own process group: closing it ends the zygote and renderers too, which otherwise may
    // still write into the profile while it is being removed (CI once saw ENOTEMPTY there).
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // The group has already gone.
    }
  };
  // A test process that dies does not leave its Chromium behind.
  process.once('exit', killGroup);
  const endpoint = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(text);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`chromium exited (${code}) before it listened: ${text.slice(-500)}`)));
  });
  const browser = await chromium.connectOverCDP(endpoint);
  const context = browser.contexts()[0]!;
  return {
    browser,
    open: async (url) => {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setDeviceMetricsOverride', { width: 360, height: 640, deviceScaleFactor: 3, mobile: true });
      await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
      await cdp.send('Emulation.setEmitTouchEventsForMouse', { enabled: true, configuration: 'mobile' });
      await cdp.send('Emulation.setUserAgentOverride', { userAgent: PHONE_UA, platform: 'Android' });
      await cdp.send('Network.enable');
      await page.goto(url);
      return { page, cdp };
    },
    close: async () => {
      await browser.close().catch(() => undefined);
      const exited = new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
      killGroup();
      await exited;
      process.off('exit', killGroup);
      await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
};

/**
 * Headless Chromium keeps every page visible and does not freeze a visible page
 * (`Page.setWebLifecycleState` changes nothing then; measured on Chromium 156), so leaving
 * for the bank app is played as the browser plays it on a phone: `visibilitychange` to hidden
 * (and `freeze`, after which the page runs no script at all: the debugger holds it), and back.
 */
export const leave = async (page: Page, cdp: CDPSession, how: 'hidden' | 'frozen'): Promise<void> => {
  await page.evaluate((frozen) => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    Object.defineProperty(document, 'hidden', { value: true, configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    if (frozen) document.dispatchEvent(new Event('freeze'));
  }, how === 'frozen');
  if (how === 'frozen') {
    await cdp.send('Debugger.enable');
    await cdp.send('Debugger.pause');
  }
};

export const comeBack = async (page: Page, cdp: CDPSession, how: 'hidden' | 'frozen'): Promise<void> => {
  if (how === 'frozen') {
    // Paused only if a script tried to run meanwhile; otherwise there is nothing to resume.
    await cdp.send('Debugger.resume').catch(() => undefined);
    await cdp.send('Debugger.disable');
  }
  await page.evaluate((frozen) => {
    if (frozen) document.dispatchEvent(new Event('resume'));
    Reflect.deleteProperty(document, 'visibilityState');
    Reflect.deleteProperty(document, 'hidden');
    document.dispatchEvent(new Event('visibilitychange'));
  }, how === 'frozen');
};

export const setOffline = (cdp: CDPSession, offline: boolean) =>
  cdp.send('Network.emulateNetworkConditions', { offline, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

/**
 * Records every screen the element shows from now on (`data-screen` of part `base`), in the
 * page. Given as text: tsx names the functions it compiles with a helper the page lacks.
 */
export const recordScreens = (page: Page) =>
  page.evaluate(`(() => {
    const host = document.querySelector('merchant-checkout');
    const seen = (window.screens = []);
    const note = () => {
      const name = host.shadowRoot.querySelector('[part~="base"]')?.getAttribute('data-screen');
      if (name && seen.at(-1) !== name) seen.push(name);
    };
    note();
    new MutationObserver(note).observe(host.shadowRoot, { subtree: true, attributes: true, attributeFilter: ['data-screen'], childList: true });
  })()`);

export const screensSeen = (page: Page) => page.evaluate(() => (window as unknown as { screens: string[] }).screens);

/** Waits until the element shows `name`; answers the milliseconds it took. */
export const untilScreen = async (page: Page, name: string, timeout = 30_000): Promise<number> => {
  const start = performance.now();
  await page.locator(`merchant-checkout [part~="base"][data-screen="${name}"]`).waitFor({ timeout });
  return performance.now() - start;
};
