/**
 * The script-tag embedding: a static page whose only script is `dist/cdn/merchant-checkout.js`
 * with its `integrity` from dist/cdn/integrity.json (the README's script tag), served under a
 * strict Content-Security-Policy with Trusted Types, beside a real checkout proxy
 * (`createCheckoutHandler`) in front of the mock service. Chromium must show the invoice's
 * amount, requisites and QR code, load nothing but that file and the lazy chunks beside it
 * (`merchant-checkout-<name>.js`, which it imports relative to itself), and log no error.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { createMockService, type MockService } from '../../src/mock/index.js';
import { mockQuirks } from '../support/quirks.js';
import { MerchantClient, createCheckoutHandler, toNodeHandler, type Invoice } from '../../src/server/node.js';
import { launchChromium } from './support/browser.js';

const CDN_DIR = new URL('../../dist/cdn/', import.meta.url);
const CDN_FILE = new URL('merchant-checkout.js', CDN_DIR);
const MERCHANT = { apiKey: 'cdn-test-key', secretKey: 'cdn-test-secret', storeId: 5, storeName: 'Script Tag Shop' };
const BASE_URL = 'https://pay.mock.test';
const INTERNAL_ID = 'order-cdn-1';

/** No inline script or style, only this origin, and Trusted Types for every DOM sink. */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "style-src 'self'",
  'img-src data:',
  "base-uri 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types lit-html',
].join('; ');

const page = (invoiceId: string, integrity: string): string => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Pay for your order</title>
    <link rel="icon" href="data:,">
    <script type="module" src="/merchant-checkout.js" integrity="${integrity}" crossorigin="anonymous"></script>
  </head>
  <body>
    <merchant-checkout invoice-id="${invoiceId}" endpoint="/checkout-api"></merchant-checkout>
  </body>
</html>
`;

let mock: MockService;
let invoice: Invoice;
let server: Server;
let origin: string;
let browser: Browser;
/** dist/cdn/integrity.json: every file of dist/cdn/ by name, with its SRI hash. */
let integrity: Record<string, string>;

before(async () => {
  mock = createMockService({ merchants: [MERCHANT], publicBaseUrl: BASE_URL, ...mockQuirks() });
  const client = new MerchantClient({ baseUrl: BASE_URL, apiKey: MERCHANT.apiKey, secretKey: MERCHANT.secretKey, fetch: mock.fetch });
  invoice = await client.createInvoice({
    type: 'in',
    amount: '1500',
    currency: 'RUB',
    notificationUrl: 'http://127.0.0.1:9/notify',
    notificationToken: 'cdn-test-token',
    internalId: INTERNAL_ID,
    startDeal: true,
    paymentOption: 'SBP',
  });
  const checkout = toNodeHandler(
    createCheckoutHandler({
      client,
      basePath: '/checkout-api',
      resolveInternalId: (id) => (id === invoice.id ? INTERNAL_ID : undefined),
    }),
  );
  integrity = JSON.parse(await readFile(new URL('integrity.json', CDN_DIR), 'utf8')) as Record<string, string>;
  const scripts = new Map<string, Buffer>(
    await Promise.all(Object.keys(integrity).map(async (name) => [`/${name}`, await readFile(new URL(name, CDN_DIR))] as const)),
  );
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const script = scripts.get(path);
    if (path.startsWith('/checkout-api/')) {
      checkout(request, response);
    } else if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP });
      response.end(page(invoice.id, integrity['merchant-checkout.js']!));
    } else if (script) {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      response.end(script);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  mock?.close();
});

test('the CDN file is an ES module with no bare import, loading its chunks only with import()', async () => {
  const code = await readFile(CDN_FILE, 'utf8');
  // esbuild parses the file and its chunks and lists every import they have; with packages left
  // external, any bare import (`lit`, `zod/mini`, …) would show up as external instead of being
  // resolved. The main file imports nothing statically: its first render needs no other file.
  const { metafile } = await build({
    entryPoints: [fileURLToPath(CDN_FILE)],
    bundle: true,
    packages: 'external',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const imports = Object.entries(metafile.inputs).flatMap(([file, input]) => input.imports.map((entry) => ({ file, ...entry })));
  assert.deepEqual(
    imports.filter((entry) => entry.external),
    [],
    'no bare import',
  );
  const chunk = /(?:^|\/)dist\/cdn\/(merchant-checkout-[\w-]+\.js)$/;
  assert.deepEqual(
    imports.filter(
      (entry) => entry.file.endsWith('dist/cdn/merchant-checkout.js') && !(entry.kind === 'dynamic-import' && chunk.test(entry.path)),
    ),
    [],
    'the main file only imports chunks, and only with import()',
  );
  assert.deepEqual(
    Object.keys(metafile.inputs)
      .map((file) => /(?:^|\/)dist\/cdn\/([^/]+)$/.exec(file)?.[1])
      .sort(),
    Object.keys(integrity).sort(),
    'every file the main file reaches is in integrity.json, and every file there is reached',
  );
  const gzip = gzipSync(code, { level: 9 }).length;
  const brotli = brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  console.log(`dist/cdn/merchant-checkout.js: ${code.length} B, gzip -9 ${gzip} B, brotli ${brotli} B`);
});

test('a plain page with only the script tag shows the checkout under a strict CSP', async () => {
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    const problems: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
    });
    tab.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    const requested: string[] = [];
    tab.on('request', (request) => {
      if (request.url().startsWith('http')) requested.push(`${request.method()} ${request.url().replace(origin, '')}`);
    });

    await tab.goto(`${origin}/`);
    // Wait with a locator (it pierces the shadow root): `waitForFunction` re-runs its predicate
    // with `eval` from a page callback, which this page's CSP refuses once the first check fails.
    await tab.locator('merchant-checkout [part~="qr"] svg path').waitFor({ timeout: 10_000 });
    await tab.locator('merchant-checkout [part~="requisites"]').waitFor({ timeout: 10_000 });
    // A string, not a function: tsx's helpers (`__name`) do not exist in the page.
    const view = await tab.evaluate<{ requisites: string; amount?: string; holder?: string; qr: number } | undefined>(
      `(() => {
        const root = document.querySelector('merchant-checkout')?.shadowRoot;
        const text = (part) => root?.querySelector('[part~="' + part + '"]')?.textContent?.replace(/\\s+/g, ' ').trim();
        const requisites = text('requisites');
        const qr = root?.querySelector('[part~="qr"] svg path');
        return requisites && qr ? { requisites, amount: text('amount'), holder: text('holder'), qr: qr.getAttribute('d')?.length ?? 0 } : undefined;
      })()`,
    );
    assert.ok(view, 'the requisites and the QR code are in the shadow root');

    const deal = invoice.deals.find((candidate) => candidate.isActive)!;
    const digits = (text: string) => text.replace(/\D/g, '');
    assert.ok(
      digits(view.requisites).includes(digits(deal.requisites!.requisites!)),
      `${view.requisites} shows ${deal.requisites!.requisites!}`,
    );
    assert.match(view.amount ?? '', /1[\s\u00a0\u202f,]?500/);
    assert.ok(view.holder?.includes(deal.requisites!.holder!), `holder ${deal.requisites!.holder!}`);
    assert.ok(view.qr > 100, 'the QR code is drawn');
    const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    assert.equal(await tab.evaluate("customElements.get('merchant-checkout')?.version"), version, 'this package registered the tag');

    // The status stream opens once the first state is on screen, a moment after the requisites
    // may be: wait for its request (at most 10 s) rather than race it.
    const stream = `GET /checkout-api/invoices/${invoice.id}/events`;
    for (const until = Date.now() + 10_000; !requested.includes(stream) && Date.now() < until;) await sleep(25);
    const files = requested.filter((line) => !line.startsWith('GET /checkout-api/'));
    assert.deepEqual(files.slice(0, 2), ['GET /', 'GET /merchant-checkout.js']);
    assert.deepEqual(
      files.slice(2).filter((line) => !/^GET \/merchant-checkout-[\w-]+\.js$/.test(line) || !(line.slice('GET /'.length) in integrity)),
      [],
      'nothing else but the lazy chunks beside the main file',
    );
    assert.deepEqual(
      [...new Set(requested.filter((line) => line.startsWith('GET /checkout-api/')))].sort(),
      // The bank names, the invoice, its variants, and the status stream (EventSource under the same strict CSP).
      [
        'GET /checkout-api/banks?currency=RUB',
        `GET /checkout-api/invoices/${invoice.id}`,
        `GET /checkout-api/invoices/${invoice.id}/available-payment-variants`,
        `GET /checkout-api/invoices/${invoice.id}/events`,
      ],
    );
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
