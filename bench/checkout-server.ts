/**
 * What the browser benchmarks load: a page, the CDN file and the page helpers, beside the real
 * checkout proxy (`createCheckoutHandler` + `toNodeHandler`, bundled as it ships) in front of the in-process mock,
 * all on loopback. `latency` delays every proxy request by a fixed time before it is handled:
 * the network between the payer and the merchant's server.
 */
import { readdir, readFile } from 'node:fs/promises';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createMockService } from '../src/mock/index.js';
import { pathToFileURL } from 'node:url';
import { kitOf } from './kit.js';
import type * as ServerKit from '../src/server/node.js';
import { CDN_FILE } from './bundle.js';
import { INTERNAL_ID, MERCHANT, createBenchInvoice } from './fixtures.js';
import { sleep } from './lib.js';

const BASE_URL = 'https://pay.mock.test';
const PAGE_SCRIPT = fileURLToPath(new URL('./page/bench-page.js', import.meta.url));

export const ENDPOINT = '/checkout-api';

const EXAMPLE_PAGE = fileURLToPath(new URL('../examples/cdn.html', import.meta.url));

/** Where the bundled shop page is served from: its HTML at `${SHOP_BASE}checkout.html`, Vite's files below. */
export const SHOP_BASE = '/shop/';

/**
 * The demo's payer side as a shop ships it: bench/page/checkout.html, whose script imports
 * `merchant-checkout/define` from the npm build (`{root}/dist/esm/`), built by Vite for
 * production (minified, `<link rel="modulepreload">` of the entry's static imports, as Vite
 * writes them) into bench/.out/. Its files by URL path.
 */
const buildShopPage = async (root: string): Promise<Map<string, Buffer>> => {
  const { build } = await import('vite');
  const outDir = fileURLToPath(new URL('./.out/shop-page/', import.meta.url));
  await build({
    configFile: false,
    root: fileURLToPath(new URL('./page/', import.meta.url)),
    base: SHOP_BASE,
    logLevel: 'silent',
    publicDir: false,
    resolve: { alias: { 'merchant-checkout/define': join(root, 'dist/esm/define.js') } },
    build: { outDir, emptyOutDir: true, target: 'es2022', rolldownOptions: { input: 'checkout.html' } },
  });
  const files = new Map<string, Buffer>();
  for (const name of await readdir(outDir, { recursive: true })) {
    if (/\.(html|js)$/.test(name)) files.set(`${SHOP_BASE}${name}`, await readFile(join(outDir, name)));
  }
  return files;
};

/** The chunks every first screen in English needs (strings, templates; the QR encoder loads after the first paint), preloaded beside the main file. */
export const FIRST_SCREEN_CHUNKS = ['merchant-checkout-en.js', 'merchant-checkout-views.js'];
const PRELOAD_LINKS = (integrity: Record<string, string>) =>
  FIRST_SCREEN_CHUNKS.map(
    (name) => `    <link rel="modulepreload" href="/assets/${name}" integrity="${integrity[name] ?? ''}" crossorigin="anonymous" />\n`,
  ).join('');

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>bench</title>
    <link rel="icon" href="data:,">
    <script type="module" src="/merchant-checkout.js"></script>
    <script type="module" src="/bench-page.js"></script>
  </head>
  <body></body>
</html>
`;

export interface CheckoutServer {
  origin: string;
  /** An SBP invoice with an active deal: requisites and a QR code. */
  invoiceId: string;
  /** Milliseconds added before each proxy request is handled. */
  setLatency(ms: number): void;
  /** Proxy requests received and not yet answered (or given up by the browser). */
  inFlight(): number;
  /** Proxy requests received so far. */
  received(): number;
  close(): Promise<void>;
}

/**
 * The kit as it ships (bench/kit.ts: `src/server/node.ts` bundled, not the sources through
 * tsx, whose `keepNames` wraps every closure the handler makes); `root` is the repository to
 * build it from (`BENCH_PROXY_ROOT` for an A/B).
 */
const loadKit = async (root?: string): Promise<typeof ServerKit> => {
  const bundle = await kitOf(root);
  return (await import(bundle ? pathToFileURL(bundle).href : '../src/server/node.js')) as typeof ServerKit;
};

/**
 * `root`: another copy of the repository (built) whose kit and CDN files to serve instead of
 * this tree's, for an A/B of the time to requisites (`BENCH_TTR_ROOT`, bench/run.ts).
 */
export const startCheckoutServer = async (root?: string): Promise<CheckoutServer> => {
  const { MerchantClient, createCheckoutHandler, toNodeHandler } = await loadKit(root);
  const cdnFile = root ? join(root, 'dist/cdn/merchant-checkout.js') : CDN_FILE;
  const mock = createMockService({ merchants: [MERCHANT], publicBaseUrl: BASE_URL });
  const client = new MerchantClient({ baseUrl: BASE_URL, apiKey: MERCHANT.apiKey, secretKey: MERCHANT.secretKey, fetch: mock.fetch });
  const invoice = await createBenchInvoice(client);
  const checkout = toNodeHandler(
    createCheckoutHandler({ client, basePath: ENDPOINT, resolveInternalId: (id) => (id === invoice.id ? INTERNAL_ID : undefined) }),
  );
  const [script, pageScript] = await Promise.all([readFile(cdnFile), readFile(PAGE_SCRIPT)]);
  // The parts the element loads on demand, beside the main file as dist/cdn/ has them.
  const cdnDir = dirname(cdnFile);
  const chunks = new Map<string, Buffer>();
  for (const name of await readdir(cdnDir)) {
    if (/^merchant-checkout-[\w-]+\.js$/.test(name)) chunks.set(`/${name}`, await readFile(join(cdnDir, name)));
  }
  // examples/cdn.html as a shop serves it (dist/cdn/ at /assets/, the real invoice and SRI
  // hash), and the same page with the first screen's chunks preloaded…
  const integrity = JSON.parse(await readFile(join(cdnDir, 'integrity.json'), 'utf8')) as Record<string, string>;
  const example = (await readFile(EXAMPLE_PAGE, 'utf8'))
    .replace(/invoice-id="[^"]*"/, `invoice-id="${invoice.id}"`)
    .replace('sha384-PASTE_FROM_INTEGRITY_JSON', integrity['merchant-checkout.js'] ?? '');
  const preloaded = example.replace('  </head>', `${PRELOAD_LINKS(integrity)}  </head>`);
  // … and with the element's two first reads preloaded too: the page knows the invoice id, so
  // they need not wait for the element's module (its `fetch` then takes the preloaded answers).
  const invoiceRead = [`${ENDPOINT}/invoices/${invoice.id}`, `${ENDPOINT}/invoices/${invoice.id}/available-payment-variants`]
    .map((href) => `    <link rel="preload" as="fetch" href="${href}" crossorigin="anonymous" />\n`)
    .join('');
  const shop = await buildShopPage(root ?? fileURLToPath(new URL('..', import.meta.url)));
  const shopPage = shop.get(`${SHOP_BASE}checkout.html`)?.toString('utf8').replace('INVOICE_ID', invoice.id);
  if (!shopPage) throw new Error('the Vite build of bench/page/checkout.html wrote no checkout.html');
  const pages = new Map([
    [`${SHOP_BASE}checkout.html`, shopPage],
    ['/cdn.html', example],
    ['/cdn-preload-invoice.html', preloaded.replace('  </head>', `${invoiceRead}  </head>`)],
  ]);
  // Compressed once, as a CDN serves static files: brotli at its best where the browser asks for
  // it (Chromium does, over plain HTTP to loopback too), else gzip -9.
  const compressed = new Map<string, Buffer>();
  const compress = (path: string, body: string | Buffer, encoding: 'br' | 'gzip'): Buffer => {
    const key = `${encoding} ${path}`;
    if (!compressed.has(key)) {
      compressed.set(
        key,
        encoding === 'br'
          ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } })
          : gzipSync(body, { level: 9 }),
      );
    }
    return compressed.get(key)!;
  };
  let latency = 0;
  let inFlight = 0;
  let received = 0;

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path.startsWith(`${ENDPOINT}/`)) {
      received++;
      inFlight++;
      response.once('close', () => inFlight--);
      const delay = latency;
      void (delay > 0 ? sleep(delay) : Promise.resolve()).then(() => checkout(request, response));
      return;
    }
    const file = path.startsWith('/assets/') ? path.slice('/assets'.length) : path;
    const asset =
      path === '/'
        ? { type: 'text/html', body: PAGE }
        : pages.has(path)
          ? { type: 'text/html', body: pages.get(path)! }
          : file === '/merchant-checkout.js'
            ? { type: 'text/javascript', body: script }
            : path === '/bench-page.js'
              ? { type: 'text/javascript', body: pageScript }
              : chunks.has(file)
                ? { type: 'text/javascript', body: chunks.get(file)! }
                : shop.has(path) && path.endsWith('.js')
                  ? { type: 'text/javascript', body: shop.get(path)! }
                  : undefined;
    if (!asset) {
      response.writeHead(404).end();
      return;
    }
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
    response.writeHead(200, {
      'content-type': `${asset.type}; charset=utf-8`,
      'cache-control': 'no-store',
      ...(encoding ? { 'content-encoding': encoding, vary: 'accept-encoding' } : {}),
    });
    response.end(encoding ? compress(path, asset.body, encoding) : asset.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    invoiceId: invoice.id,
    setLatency: (ms) => {
      latency = ms;
    },
    inFlight: () => inFlight,
    received: () => received,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      mock.close();
    },
  };
};
