/**
 * The examples that open the README and docs/server.md (examples/), as an adopter gets them: the built package
 * packed with `npm pack`, installed into a scratch app in a temporary directory, the examples
 * copied in, type-checked by `tsc` against the installed package, and every server example run
 * against the mock service of that same installed package. The README and docs/server.md must
 * show each example exactly as its file is.
 *
 * The install is offline and needs only what `npm ci` put in this repository's node_modules:
 * the tarball is unpacked into the scratch app's node_modules/merchant-checkout (what npm would
 * put there), and each package the app needs is a link to this repository's copy of it: the
 * `dependencies` the packed package.json declares, and the examples' own (Express, Hono, the
 * types). Nothing else is linked, so a dependency the package imports without declaring it fails
 * here. (`npm install --offline <tarball>` is not used: it needs every dependency's registry
 * metadata in npm's cache, which `npm ci` does not fetch, so it fails on a clean CI machine.)
 *
 * The Node examples are compiled by that `tsc` run and the JavaScript it wrote is what runs. The
 * Next.js route handler is not run in Next, which is not installed: a route handler is a module
 * whose `GET` and `POST` take a Web `Request` and answer a `Response`, so the test imports the
 * route module (tsx compiles it, as Next's bundler would) and calls them with real `Request`s.
 *
 * cdn.html carries a placeholder, not a hash: the hash changes with every change to the element,
 * so a value pasted here would be wrong for the next build and for every other version; the
 * adopter takes it from dist/cdn/integrity.json of the version installed (README says so). The
 * test fills the placeholder from the installed integrity.json and Chromium must run the element
 * under it; left unfilled, the placeholder must make Chromium refuse the script (a malformed
 * value such as `sha384-…` would make it ignore the attribute and run any script).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { cpSync, existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join, sep } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import type * as MockEntry from 'merchant-checkout/mock';
import type * as ServerEntry from 'merchant-checkout/server';
import { launchChromium } from './support/browser.js';
import { scratchApp } from './support/scratch-app.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Every example, by its path under examples/, and the document that shows it verbatim after a link to it. */
const SHOWN_IN: Readonly<Record<string, string>> = {
  'kit.ts': 'README.md',
  'node-http.ts': 'README.md',
  'cdn.html': 'README.md',
  'express.ts': 'docs/server.md',
  'hono.ts': 'docs/server.md',
  'nextjs/lib/kit.ts': 'docs/server.md',
  'nextjs/app/checkout-api/[...path]/route.ts': 'docs/server.md',
  'nextjs/app/payments/notify/route.ts': 'docs/server.md',
  'nextjs/lib/store.ts': 'docs/server.md',
  'nextjs/app/api/cron/reconcile/route.ts': 'docs/server.md',
  'nextjs/vercel.json': 'docs/server.md',
};
/** What the examples import besides merchant-checkout, linked into the scratch app as well. */
const EXAMPLE_DEPENDENCIES = ['express', 'hono', '@hono/node-server', '@types/express', '@types/node'];
/** cdn.html's `integrity` until the adopter pastes the value of dist/cdn/integrity.json. */
const INTEGRITY_PLACEHOLDER = 'sha384-PASTE_FROM_INTEGRITY_JSON';
/** The invoice id written in cdn.html, which the shop's template replaces. */
const EXAMPLE_INVOICE_ID = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';

const MERCHANT = { apiKey: 'examples-api-key', secretKey: 'examples-secret-key', storeId: 7, storeName: 'Examples Shop' };
const NOTIFICATION_TOKEN = 'examples-notification-token';
const VISITOR = 'visitor-a';

/** examples/shop.ts, as the examples import it: the stand-in for the shop's order table. */
interface Shop {
  orders: {
    insert(order: { invoiceId: string; sessionId: string; paymentStatus: string }): Promise<void>;
    findByInvoice(invoiceId: string): Promise<{ paymentStatus: string } | undefined>;
  };
}
interface ServerExample {
  server: Server;
}
interface RouteExample {
  GET: (request: Request) => Promise<Response>;
  POST: (request: Request) => Promise<Response>;
}
interface NotifyRouteExample {
  POST: (request: Request) => Promise<Response>;
}
interface Compiled {
  status: number | null;
  output: string;
}

let scratch: string;
let app: string;
let installed: { MerchantClient: typeof ServerEntry.MerchantClient; startMockServer: typeof MockEntry.startMockServer };
let typecheck: { node: Compiled; nextjs: Compiled };
let mock: MockEntry.MockServer;
let merchant: ServerEntry.MerchantClient;
let receiver: Server;
let notificationUrl: string;
const servers: Server[] = [];
const ENV = [
  'PAYMENT_API_URL',
  'PAYMENT_API_KEY',
  'PAYMENT_SECRET_KEY',
  'PAYMENT_NOTIFICATION_TOKEN',
  'PORT',
  'CHECKOUT_DB',
  'REDIS_URL',
  'CRON_SECRET',
] as const;
const envBefore = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));

/** This repository's TypeScript over a project of the scratch app, which resolves from the app's node_modules. */
const tsc = (project: string, ...options: string[]): Compiled => {
  const run = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(app, project), ...options], {
    cwd: app,
    encoding: 'utf8',
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
};

const importFrom = async <T>(path: string): Promise<T> => (await import(pathToFileURL(path).href)) as T;

const listening = async (server: Server): Promise<string> => {
  if (!server.listening) await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

/** Starts a compiled server example the way its file says: configuration from the environment. */
const startExample = async (name: string): Promise<string> => {
  process.env.PORT = '0';
  const { server } = await importFrom<ServerExample>(join(app, 'build', `${name}.js`));
  servers.push(server);
  return listening(server);
};

before(async () => {
  const made = scratchApp('examples', EXAMPLE_DEPENDENCIES);
  ({ scratch, app } = made);
  cpSync(join(root, 'examples'), join(app, 'examples'), { recursive: true });

  // The Node examples are also compiled: build/*.js is what the tests below run.
  typecheck = {
    node: tsc('examples/tsconfig.json', '--noEmit', 'false', '--outDir', join(app, 'build')),
    nextjs: tsc('examples/nextjs/tsconfig.json'),
  };

  const requireInApp = createRequire(join(app, 'package.json'));
  const server = await importFrom<typeof ServerEntry>(requireInApp.resolve('merchant-checkout/server'));
  const mockEntry = await importFrom<typeof MockEntry>(requireInApp.resolve('merchant-checkout/mock'));
  installed = { MerchantClient: server.MerchantClient, startMockServer: mockEntry.startMockServer };

  mock = await installed.startMockServer({ merchants: [MERCHANT] });
  merchant = new installed.MerchantClient({ baseUrl: mock.url, apiKey: MERCHANT.apiKey, secretKey: MERCHANT.secretKey });
  Object.assign(process.env, {
    PAYMENT_API_URL: mock.url,
    PAYMENT_API_KEY: MERCHANT.apiKey,
    PAYMENT_SECRET_KEY: MERCHANT.secretKey,
    PAYMENT_NOTIFICATION_TOKEN: NOTIFICATION_TOKEN,
    // The kit's SQLite file, in the scratch app (removed with it).
    CHECKOUT_DB: join(app, 'data', 'checkout.db'),
  });
  // The Next.js kit in this process: its default store and its own timer (test/e2e/serverless.test.ts runs it on Redis, with a cron).
  delete process.env.REDIS_URL;
  delete process.env.CRON_SECRET;
  // Every invoice of this file notifies the kit of the node:http example, as a shop's invoices would.
  notificationUrl = `${await startExample('node-http')}/payments/notify`;
  receiver = servers[0]!;
});

after(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await mock?.close();
  for (const name of ENV) {
    if (envBefore[name] === undefined) delete process.env[name];
    else process.env[name] = envBefore[name];
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const createInvoice = (startDeal: boolean) =>
  merchant.createInvoice({
    type: 'in',
    amount: '1500',
    currency: 'RUB',
    notificationUrl,
    notificationToken: NOTIFICATION_TOKEN,
    internalId: `order-${randomUUID()}`,
    startDeal,
  });

const session = (id: string | undefined): Record<string, string> => (id ? { cookie: `shop_session=${id}` } : {});

/**
 * What the element does through a proxy, checked on its answers and at the mock: a visitor
 * without the order's session is refused, the visitor who has it reads the invoice and its
 * variants and starts a deal, whose requisites come back.
 */
const checkoutThroughProxy = async (
  call: (path: string, init?: RequestInit) => Promise<Response>,
  shop: Shop,
  origin: string,
): Promise<void> => {
  const invoice = await createInvoice(false);
  await shop.orders.insert({ invoiceId: invoice.id, sessionId: VISITOR, paymentStatus: invoice.status });
  const base = `/checkout-api/invoices/${invoice.id}`;

  for (const stranger of [undefined, 'visitor-b']) {
    const refused = await call(base, { headers: session(stranger) });
    assert.equal(refused.status, 404, `a visitor with session ${stranger ?? '(none)'} does not see the order`);
  }
  const upstreamBefore = mock.service.requests.length;

  const read = await call(base, { headers: session(VISITOR) });
  assert.equal(read.status, 200);
  const shown = (await read.json()) as { id: string; status: string; deals: unknown[] };
  assert.deepEqual({ id: shown.id, status: shown.status, deals: shown.deals }, { id: invoice.id, status: 'new', deals: [] });

  const variantsAnswer = await call(`${base}/available-payment-variants`, { headers: session(VISITOR) });
  assert.equal(variantsAnswer.status, 200);
  const variants = (await variantsAnswer.json()) as { option: string; method: string }[];
  assert.ok(variants.length > 0, 'the invoice has payment variants');

  const started = await call(`${base}/deal`, {
    method: 'POST',
    headers: { ...session(VISITOR), 'content-type': 'application/json', origin },
    body: JSON.stringify(variants[0]),
  });
  assert.equal(started.status, 200, await started.clone().text());
  const withDeal = (await started.json()) as {
    deals: { isActive: boolean; paymentOption: string; requisites?: { requisites?: string } }[];
  };
  const deal = withDeal.deals.find((each) => each.isActive);
  assert.equal(deal?.paymentOption, variants[0]!.option);
  assert.ok(deal?.requisites?.requisites, 'the deal has requisites to pay to');
  assert.equal(mock.service.getInvoice(invoice.id)?.deals.filter((each) => each.isActive).length, 1, 'the mock started the deal');

  // The proxy signed its calls with the keys from the environment: the mock accepted them all.
  const upstream = mock.service.requests.slice(upstreamBefore).filter((request) => request.path.includes(invoice.id));
  assert.ok(upstream.some((request) => request.method === 'POST' && request.path.endsWith('/start-deal')));
  assert.deepEqual(
    upstream.filter((request) => request.status !== 200).map((request) => `${request.method} ${request.path} ${request.status}`),
    [],
  );
};

test('the packed tarball installs into the scratch app, which resolves it and not this repository', () => {
  const resolved = realpathSync(createRequire(join(app, 'package.json')).resolve('merchant-checkout/server'));
  assert.ok(resolved.startsWith(realpathSync(join(app, 'node_modules', 'merchant-checkout')) + sep), resolved);
  assert.ok(existsSync(join(app, 'node_modules/merchant-checkout/dist/cdn/integrity.json')));
  assert.equal(existsSync(join(app, 'node_modules/merchant-checkout/src')), false, 'the sources do not ship');
});

test('the examples type-check against the installed package (tsc, strict)', () => {
  assert.equal(typecheck.node.status, 0, `examples/tsconfig.json:\n${typecheck.node.output}`);
  assert.equal(typecheck.nextjs.status, 0, `examples/nextjs/tsconfig.json:\n${typecheck.nextjs.output}`);
  for (const name of ['kit', 'node-http', 'express', 'hono', 'shop'])
    assert.ok(existsSync(join(app, 'build', `${name}.js`)), `build/${name}.js`);
});

for (const name of ['node-http', 'express', 'hono']) {
  test(`examples/${name}.ts: the proxy serves the element's reads and a deal, for the order's visitor only`, async () => {
    const origin = await startExample(name);
    const shop = await importFrom<Shop>(join(app, 'build', 'shop.js'));
    await checkoutThroughProxy((path, init) => fetch(`${origin}${path}`, init), shop, origin);
  });
}

test('examples/nextjs/…/route.ts: GET and POST of the route module answer real Requests', async () => {
  const examples = join(app, 'examples', 'nextjs');
  const route = await importFrom<RouteExample>(join(examples, 'app', 'checkout-api', '[...path]', 'route.ts'));
  const shop = await importFrom<Shop>(join(examples, 'lib', 'shop.ts'));
  const origin = 'https://shop.example';
  await checkoutThroughProxy(
    (path, init) => {
      const request = new Request(`${origin}${path}`, init);
      return request.method === 'POST' ? route.POST(request) : route.GET(request);
    },
    shop,
    origin,
  );
});

/** A notification as the service sends it, with the right token, saying the invoice is paid. */
const claimPaid = (id: string) =>
  JSON.stringify({
    notificationType: 'invoice',
    notificationDate: new Date().toISOString(),
    invoice: { id, status: 'paid', updatedAt: new Date(Date.now() + 60_000).toISOString() },
  });

test('examples/kit.ts: a payment is read from the service and recorded once; forged notifications credit nothing', async () => {
  const shop = await importFrom<Shop>(join(app, 'build', 'shop.js'));
  const invoice = await createInvoice(true);
  await shop.orders.insert({ invoiceId: invoice.id, sessionId: VISITOR, paymentStatus: invoice.status });

  // The right token but the service shows the invoice unpaid: refused, nothing recorded.
  const forged = await fetch(notificationUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-notification-token': NOTIFICATION_TOKEN },
    body: claimPaid(invoice.id),
  });
  assert.equal(forged.status, 409);
  assert.equal((await shop.orders.findByInvoice(invoice.id))?.paymentStatus, 'new');

  mock.service.markPaid(invoice.id);
  await mock.service.notificationsSettled();
  assert.equal((await shop.orders.findByInvoice(invoice.id))?.paymentStatus, 'paid');
  const paid = mock.service.notifications.filter((record) => record.invoiceId === invoice.id && record.status === 'paid');
  assert.deepEqual(
    paid.map((record) => ({ state: record.state, url: record.url })),
    [{ state: 'delivered', url: notificationUrl }],
  );

  const wrongToken = await fetch(notificationUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-notification-token': 'not-the-token' },
    body: JSON.stringify({
      notificationType: 'invoice',
      notificationDate: new Date().toISOString(),
      invoice: { id: invoice.id, status: 'canceled' },
    }),
  });
  assert.equal(wrongToken.status, 401);
  assert.equal((await shop.orders.findByInvoice(invoice.id))?.paymentStatus, 'paid');
  assert.ok(receiver.listening);
});

test('examples/nextjs/…/payments/notify/route.ts: the Next.js kit reads a notified payment from the service', async () => {
  const examples = join(app, 'examples', 'nextjs');
  const notify = await importFrom<NotifyRouteExample>(join(examples, 'app', 'payments', 'notify', 'route.ts'));
  const shop = await importFrom<Shop>(join(examples, 'lib', 'shop.ts'));
  const invoice = await createInvoice(true);
  await shop.orders.insert({ invoiceId: invoice.id, sessionId: VISITOR, paymentStatus: invoice.status });
  const post = (body: string) =>
    notify.POST(
      new Request('https://shop.example/payments/notify', {
        method: 'POST',
        headers: { 'x-notification-token': NOTIFICATION_TOKEN },
        body,
      }),
    );
  assert.equal((await post(claimPaid(invoice.id))).status, 409, 'not paid at the service yet');
  mock.service.markPaid(invoice.id);
  assert.equal((await post(claimPaid(invoice.id))).status, 200);
  assert.equal((await shop.orders.findByInvoice(invoice.id))?.paymentStatus, 'paid');
});

test('examples/nextjs/…/api/cron/reconcile/route.ts: without CRON_SECRET the route is off (404)', async () => {
  const examples = join(app, 'examples', 'nextjs');
  const cron = await importFrom<{ GET: (request: Request) => Promise<Response>; POST: (request: Request) => Promise<Response> }>(
    join(examples, 'app', 'api', 'cron', 'reconcile', 'route.ts'),
  );
  const request = () =>
    new Request('https://shop.example/api/cron/reconcile', { headers: { authorization: 'Bearer any-secret-of-sixteen-characters' } });
  assert.equal((await cron.GET(request())).status, 404);
  assert.equal((await cron.POST(request())).status, 404);
});

/** Answers with a file of the installed dist/cdn/, or 404. */
const serveCdnFile = (response: ServerResponse, name: string) => {
  const file = join(app, 'node_modules/merchant-checkout/dist/cdn', name);
  if (!/^[\w.-]+\.js$/.test(name) || !existsSync(file)) return void response.writeHead(404).end();
  response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(readFileSync(file));
};

/** Passes a request on to the node:http example's proxy, its answer streamed back (the status stream too). */
const forward = async (request: IncomingMessage, response: ServerResponse, proxy: string) => {
  const aborted = new AbortController();
  response.on('close', () => aborted.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers))
    if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers.set(name, value);
  try {
    const answer = await fetch(`${proxy}${request.url ?? '/'}`, { method: request.method, headers, signal: aborted.signal });
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    const reader = answer.body?.getReader();
    for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) response.write(part.value);
    response.end();
  } catch {
    response.destroy();
  }
};

test('examples/cdn.html: Chromium runs the element under the integrity of the installed integrity.json, and refuses it with the placeholder', async () => {
  const proxy = await startExample('node-http');
  const shop = await importFrom<Shop>(join(app, 'build', 'shop.js'));
  const invoice = await createInvoice(true);
  await shop.orders.insert({ invoiceId: invoice.id, sessionId: VISITOR, paymentStatus: invoice.status });

  const html = readFileSync(join(app, 'examples', 'cdn.html'), 'utf8');
  assert.ok(
    html.includes(`integrity="${INTEGRITY_PLACEHOLDER}"`) && html.includes(`invoice-id="${EXAMPLE_INVOICE_ID}"`),
    'cdn.html has the placeholders',
  );
  const integrity = JSON.parse(readFileSync(join(app, 'node_modules/merchant-checkout/dist/cdn/integrity.json'), 'utf8')) as Record<
    string,
    string
  >;
  const page = (filled: boolean) =>
    html
      .replace(EXAMPLE_INVOICE_ID, invoice.id)
      .replace(INTEGRITY_PLACEHOLDER, filled ? integrity['merchant-checkout.js']! : INTEGRITY_PLACEHOLDER);

  const site = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path === '/' || path === '/unfilled')
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(path === '/'));
    else if (path.startsWith('/assets/')) serveCdnFile(response, path.slice('/assets/'.length));
    else if (path.startsWith('/checkout-api/')) void forward(request, response, proxy);
    else if (path === '/favicon.ico') response.writeHead(204).end();
    else response.writeHead(404).end();
  }).listen(0, '127.0.0.1');
  servers.push(site);
  const origin = await listening(site);

  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const context = await browser.newContext();
    await context.addCookies([{ name: 'shop_session', value: VISITOR, url: origin }]);
    const problems: string[] = [];
    const requested: string[] = [];
    context.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    context.on('weberror', (error) => problems.push(error.error().message));
    context.on('request', (request) => requested.push(new URL(request.url()).pathname));

    const tab = await context.newPage();
    await tab.goto(`${origin}/`);
    const requisites = await tab.waitForFunction(
      `document.querySelector('merchant-checkout')?.shadowRoot?.querySelector('[part~="requisites"]')?.textContent?.replace(/\\D/g, '')`,
      undefined,
      { timeout: 10_000 },
    );
    const deal = mock.service.getInvoice(invoice.id)?.deals.find((each) => each.isActive);
    assert.ok(deal?.requisites?.requisites);
    assert.ok(String(await requisites.jsonValue()).includes(deal.requisites.requisites.replace(/\D/g, '')), 'the requisites are shown');
    const { version } = JSON.parse(readFileSync(join(app, 'node_modules/merchant-checkout/package.json'), 'utf8')) as { version: string };
    assert.equal(await tab.evaluate("customElements.get('merchant-checkout')?.version"), version);
    assert.deepEqual(problems, []);
    const assets = [...new Set(requested.filter((path) => path.startsWith('/assets/')))];
    assert.equal(assets[0], '/assets/merchant-checkout.js');
    assert.deepEqual(
      assets.filter((path) => !(path.slice('/assets/'.length) in integrity)),
      [],
      'every file loaded is a file of dist/cdn/ with its hash in integrity.json',
    );

    const unfilled = await context.newPage();
    const refusal = unfilled.waitForEvent('console', { predicate: (message) => /integrity/i.test(message.text()), timeout: 10_000 });
    await unfilled.goto(`${origin}/unfilled`);
    assert.match((await refusal).text(), /Failed to find a valid digest in the 'integrity' attribute/);
    assert.equal(await unfilled.evaluate("customElements.get('merchant-checkout') === undefined"), true, 'the script did not run');
    await context.close();
  } finally {
    await browser?.close();
  }
});

/** The fenced block that follows the first link to `examples/<path>` in `doc` (a path of the repository). */
const shownSnippet = (doc: string, path: string): string | undefined => {
  const text = readFileSync(join(root, doc), 'utf8');
  const up = '../'.repeat(doc.split('/').length - 1);
  const target = `](${up}examples/${path.replace(/\[/g, '%5B').replace(/\]/g, '%5D')})`;
  const at = text.indexOf(target);
  if (at < 0) return undefined;
  const fence = /^```[a-z]*\n([\s\S]*?)^```$/m.exec(text.slice(at));
  return fence?.[1];
};

test('README and docs/server.md show the examples exactly as they are in examples/, and no stale integrity', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const mismatched = Object.entries(SHOWN_IN)
    .filter(([path, doc]) => shownSnippet(doc, path) !== readFileSync(join(root, 'examples', path), 'utf8'))
    .map(([path, doc]) => `${doc}: examples/${path}`);
  assert.deepEqual(mismatched, [], 'each example is linked, and the code block after its link is the file, byte for byte');
  assert.ok(readme.includes('](examples/shop.ts)'), 'README links the stand-in for the shop code');
  assert.equal(
    readFileSync(join(root, 'examples/nextjs/lib/shop.ts'), 'utf8'),
    readFileSync(join(root, 'examples/shop.ts'), 'utf8'),
    'the Next.js app has the same stand-in',
  );

  assert.match(readme, /^npm install merchant-checkout$/m);
  // The adopter's command reads integrity.json where npm installs it; the scratch app has it there.
  assert.ok(readme.includes('node_modules/merchant-checkout/dist/cdn/integrity.json'));
  // A hash pasted anywhere in the README or the element's guide must be the one the build wrote: no stale value.
  const built = JSON.parse(readFileSync(join(root, 'dist/cdn/integrity.json'), 'utf8')) as Record<string, string>;
  const pasted = [readme, readFileSync(join(root, 'docs/element.md'), 'utf8')].flatMap((text) =>
    [...text.matchAll(/sha384-[\w+/=-]+/g)].map((match) => match[0]),
  );
  assert.deepEqual(
    pasted.filter((value) => value !== INTEGRITY_PLACEHOLDER && !Object.values(built).includes(value)),
    [],
  );
});
