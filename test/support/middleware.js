/**
 * Test-server middleware of the browser suite (web-test-runner `middleware`, Koa style):
 *
 * - `/__csp/page.html`: a page served with a strict Content-Security-Policy and Trusted Types
 *   enforced, which mounts the element and reports every violation to its parent window;
 * - `/__csp/legacy.html`: the same page in a browser without `adoptedStyleSheets` (Safari
 *   before 16.4), its CSP allowing styles by a nonce made per request that the page gives Lit
 *   as `window.litNonce`; `?nonce=none` gives none;
 * - `/checkout-api/…`: the real checkout proxy (`createCheckoutHandler`) in front of the real
 *   mock service (`createMockService`), talking through a real `MerchantClient`;
 * - `/shop-api/…` and `/capped-api/…`: the same proxy behind a shop's own function (its router
 *   in front of the proxy), mounted with no option and with a body cap given by hand
 *   (`maxBodyBytes`: 1 MiB), as a shop's server mounts it;
 * - `/__mock/…`: the mock's test controls (make an invoice paid, expire it, …);
 * - `POST /__test/invoices`: creates an invoice through the client, as a merchant's server
 *   would, and registers it with the proxy's `resolveInternalId`.
 *
 * The server side is TypeScript, loaded with tsx on the first request that needs it, so a
 * broken mock fails the integration tests only.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { tsImport } from 'tsx/esm/api';

export const CSP_PAGE_PATH = '/__csp/page.html';

/** What the CSP page is served with: no inline script or style anywhere, Trusted Types on. */
export const STRICT_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types lit-html',
].join('; ');

export const CSP_LEGACY_PAGE_PATH = '/__csp/legacy.html';

/** The strict CSP with `nonce` added to `script-src` and `style-src`. */
const cspWithNonce = (nonce) =>
  STRICT_CSP.replace("script-src 'self'", `script-src 'self' 'nonce-${nonce}'`).replace(
    "style-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
  );

/** The CSP page without adoptable sheets: a classic script removes them before any module. */
const legacyPage = (page, nonce, giveNonce) =>
  page.replace(
    '<script src="/test/support/csp-listen.js"></script>',
    [
      '<script src="/test/support/no-adopted-sheets.js"></script>',
      giveNonce ? `<script nonce="${nonce}">window.litNonce = '${nonce}';</script>` : '',
      '<script src="/test/support/csp-listen.js"></script>',
    ].join('\n    '),
  );

export const cspPage = () => async (context, next) => {
  if (context.path !== CSP_PAGE_PATH && context.path !== CSP_LEGACY_PAGE_PATH) return next();
  const page = await readFile(new URL('./csp-page.html', import.meta.url), 'utf8');
  context.set('cache-control', 'no-store');
  context.type = 'html';
  if (context.path === CSP_PAGE_PATH) {
    context.set('content-security-policy', STRICT_CSP);
    context.body = page;
    return;
  }
  const nonce = randomBytes(16).toString('base64');
  context.set('content-security-policy', cspWithNonce(nonce));
  context.body = legacyPage(page, nonce, context.query.nonce !== 'none');
};

const MERCHANT = { apiKey: 'wtr-api-key', secretKey: 'wtr-secret-key', storeId: 7, storeName: 'Integration Shop' };
/** The mock is reached in-process; this base URL only takes part in the signatures. */
const SERVICE_URL = 'https://payments.mock.invalid';

let integration;

const createIntegration = async () => {
  const root = import.meta.url;
  const { createMockService } = await tsImport('../../src/mock/index.ts', root);
  const { MerchantClient, createCheckoutHandler, toNodeHandler } = await tsImport('../../src/server/node.ts', root);
  const service = createMockService({ merchants: [MERCHANT], publicBaseUrl: SERVICE_URL, controls: true, paymentMethodName: 'always' });
  const client = new MerchantClient({ baseUrl: SERVICE_URL, apiKey: MERCHANT.apiKey, secretKey: MERCHANT.secretKey, fetch: service.fetch });
  /** The merchant's own table: invoice id → order id. */
  const orders = new Map();
  let order = 0;

  const proxy = createCheckoutHandler({
    client,
    basePath: '/checkout-api',
    authorize: (id) => orders.has(id),
  });

  /** A shop's own function in front of a proxy mounted at `prefix`: its routes, then the checkout. */
  const shopFront = (prefix) => {
    const mounted = createCheckoutHandler({ client, basePath: prefix, authorize: (id) => orders.has(id) });
    return (request) =>
      new URL(request.url).pathname.startsWith(`${prefix}/`)
        ? mounted(request)
        : Promise.resolve(new Response('not found', { status: 404 }));
  };

  const createInvoice = async (request) => {
    if (request.method !== 'POST' || new URL(request.url).pathname !== '/__test/invoices') {
      return Response.json({ error: { code: 'not_found', message: 'only POST /__test/invoices' } }, { status: 404 });
    }
    const options = await request.json();
    const internalId = `wtr-order-${++order}`;
    const invoice = await client.createInvoice({
      type: 'in',
      amount: options.amount ?? '1500.00',
      currency: options.currency ?? 'RUB',
      notificationUrl: 'https://shop.example/notify',
      notificationToken: 'wtr-token',
      internalId,
      startDeal: options.startDeal ?? true,
      ...(options.paymentOption ? { paymentOption: options.paymentOption, paymentMethod: options.paymentMethod ?? null } : {}),
    });
    orders.set(invoice.id, internalId);
    return Response.json(invoice);
  };

  return [
    toNodeHandler(proxy, { basePath: '/checkout-api' }),
    toNodeHandler(shopFront('/shop-api'), { basePath: '/shop-api' }),
    toNodeHandler(shopFront('/capped-api'), { basePath: '/capped-api', maxBodyBytes: 1024 * 1024 }),
    toNodeHandler(service.fetch, { basePath: '/__mock' }),
    toNodeHandler(createInvoice, { basePath: '/__test' }),
  ];
};

const PREFIXES = ['/checkout-api/', '/shop-api/', '/capped-api/', '/__mock/', '/__test/'];

/** The proxy, the mock's controls and the invoice-creating route, as one Koa middleware. */
export const checkoutIntegration = () => async (context, next) => {
  if (!PREFIXES.some((prefix) => context.path.startsWith(prefix))) return next();
  integration ??= createIntegration();
  const handlers = await integration;
  // The node handlers answer on `res` themselves; a status other than Koa's default 404 keeps
  // the test runner from listing these requests as missing files.
  context.respond = false;
  context.status = 200;
  const { req, res } = context;
  const done = new Promise((resolve) => res.once('close', resolve));
  const run = (index) => {
    if (index >= handlers.length) {
      res.statusCode = 404;
      res.end();
      return;
    }
    handlers[index](req, res, () => run(index + 1));
  };
  run(0);
  await done;
};
