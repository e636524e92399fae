/**
 * The checkout protocol's routes are one table (`CHECKOUT_ROUTES`, src/schemas/checkout-routes.ts)
 * and everything that names a route is built from it: every row has its handler
 * (src/server/proxy/routes/), its zod schemas and its OpenAPI path with its method; the proxy's
 * router routes exactly the table's routes; the element's protocol client is built from the rows
 * (one method per row, named by its `client`) and asks for each with the row's method and path.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { OPENAPI_FILES } from '../../scripts/gen-openapi.js';
import { CHECKOUT_ROUTE_DOCS } from '../../scripts/openapi-checkout-paths.js';
import { type CheckoutClient, createCheckoutClient } from '../../src/element/protocol-client.js';
import { CHECKOUT_ROUTE_SCHEMAS, type CheckoutRouteSchemas } from '../../src/schemas/checkout-route-schemas.js';
import { CHECKOUT_ROUTES, CHECKOUT_ROUTE_NAMES, type CheckoutRouteName, checkoutPath } from '../../src/schemas/checkout-routes.js';
import { MerchantClient, createCheckoutHandler } from '../../src/server/node.js';
import { ROUTE_HANDLERS } from '../../src/server/proxy/routes/index.js';

const ID = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const sorted = (names: Iterable<string>) => [...names].sort();

describe('one table of the checkout routes', () => {
  test('every row has its handler, its schemas and its OpenAPI words, and nothing else has', () => {
    assert.deepEqual(sorted(Object.keys(ROUTE_HANDLERS)), sorted(CHECKOUT_ROUTE_NAMES));
    assert.deepEqual(sorted(Object.keys(CHECKOUT_ROUTE_SCHEMAS)), sorted(CHECKOUT_ROUTE_NAMES));
    assert.deepEqual(sorted(Object.keys(CHECKOUT_ROUTE_DOCS)), sorted(CHECKOUT_ROUTE_NAMES));
    for (const name of CHECKOUT_ROUTE_NAMES) {
      const { body } = CHECKOUT_ROUTES[name];
      const schemas: CheckoutRouteSchemas = CHECKOUT_ROUTE_SCHEMAS[name];
      assert.equal(schemas.request !== undefined, body !== 'none', `${name}: a request schema exactly when it takes a body`);
    }
  });

  test('openapi/checkout.json has exactly one operation per row, at its path with its method', () => {
    const document = JSON.parse(readFileSync(OPENAPI_FILES.checkout, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => key !== 'parameters')
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    assert.deepEqual(
      sorted(operations),
      sorted(CHECKOUT_ROUTE_NAMES.map((name) => `${CHECKOUT_ROUTES[name].method} ${CHECKOUT_ROUTES[name].path}`)),
    );
    for (const name of CHECKOUT_ROUTE_NAMES) {
      const { method, path } = CHECKOUT_ROUTES[name];
      const operation = document.paths[path]![method.toLowerCase()] as { operationId: string };
      assert.equal(operation.operationId, CHECKOUT_ROUTE_DOCS[name].operationId);
    }
  });

  test("the router serves exactly the table's routes, each with its one method", async () => {
    const client = new MerchantClient({
      baseUrl: 'http://service.invalid',
      apiKey: 'key',
      secretKey: 'secret',
      fetch: () => Promise.reject(new Error('no upstream call expected')),
    });
    const authorized: string[] = [];
    const handler = createCheckoutHandler({
      client,
      basePath: '/checkout-api',
      authorize: (_id, request) => {
        authorized.push(`${request.method} ${new URL(request.url).pathname}`);
        return false;
      },
    });
    const send = (method: string, path: string, headers: Record<string, string> = {}) =>
      handler(
        new Request(`https://shop.example/checkout-api${path}`, { method, headers: { 'sec-fetch-site': 'same-origin', ...headers } }),
      );
    const guardRefusal = async (answer: Response) =>
      answer.status === 405 ||
      (answer.status === 404 && ((await answer.json()) as { error: { message: string } }).error.message === 'no such checkout operation');

    for (const name of CHECKOUT_ROUTE_NAMES) {
      const { method, path } = CHECKOUT_ROUTES[name];
      const served = await send(method, checkoutPath(name, ID));
      assert.equal(await guardRefusal(served), false, `${method} ${path} reaches its handler (${served.status})`);
      const other = await send(method === 'GET' ? 'POST' : 'GET', checkoutPath(name, ID));
      assert.equal(other.status, 405, `${path}: another method`);
      assert.equal(other.headers.get('allow'), `${method}, OPTIONS`);
      const preflight = await send('OPTIONS', checkoutPath(name, ID));
      assert.equal(preflight.headers.get('allow'), `${method}, OPTIONS`);
    }
    // The invoice routes reached the merchant's hook, each once, through their own path.
    const invoiceRoutes = CHECKOUT_ROUTE_NAMES.filter(
      (name) => CHECKOUT_ROUTES[name].path.includes('{id}') && CHECKOUT_ROUTES[name].body !== 'multipart',
    );
    for (const name of invoiceRoutes) {
      if (name === 'deal') continue; // its body is read (and refused) first
      const { method } = CHECKOUT_ROUTES[name];
      assert.ok(
        authorized.includes(`${method} /checkout-api${checkoutPath(name, ID)}`),
        `${name} reached authorize: ${authorized.join(', ')}`,
      );
    }

    // Paths beside the table's: none is served.
    for (const path of [
      '/invoices',
      `/invoices/${ID}/other`,
      `/invoice/${ID}`,
      '/banks/RUB',
      `/invoices/${ID}/events/more`,
      `/banks/${ID}`,
      '/',
    ]) {
      for (const method of ['GET', 'POST']) assert.equal(await guardRefusal(await send(method, path)), true, `${method} ${path}`);
    }
  });

  test("the element's default client has one method per row, named by the row's `client`, and no other", () => {
    type RouteMethod = (typeof CHECKOUT_ROUTES)[CheckoutRouteName]['client'];
    // `CheckoutClient` names exactly the table's methods: a type error here otherwise.
    const exactly: [RouteMethod] extends [keyof CheckoutClient] ? ([keyof CheckoutClient] extends [RouteMethod] ? true : never) : never =
      true;
    assert.ok(exactly);
    const client = createCheckoutClient({ endpoint: '/checkout-api' }) as unknown as Record<string, unknown>;
    assert.deepEqual(sorted(Object.keys(client)), sorted(CHECKOUT_ROUTE_NAMES.map((name) => CHECKOUT_ROUTES[name].client)));
    for (const name of CHECKOUT_ROUTE_NAMES) assert.equal(typeof client[CHECKOUT_ROUTES[name].client], 'function', name);
  });

  test("the element's protocol client asks each route with the row's method and path", async () => {
    const asked: string[] = [];
    const client = createCheckoutClient({
      endpoint: 'https://shop.example/checkout-api/',
      fetch: (input, init) => {
        asked.push(`${init.method} ${new URL(input).pathname}`);
        return Promise.resolve(new Response('{}', { status: 200 }));
      },
    });
    const signal = new AbortController().signal;
    await client.getInvoice(ID, { signal });
    await client.getPaymentVariants(ID, { signal });
    await client.cancelInvoice(ID, { signal });
    await client.startDeal(ID, { option: 'SBP', method: 'sberbank' }, { signal });
    await client.sendReceipt!(ID, new Blob(['x'], { type: 'image/png' }), { signal });
    await client.reportPayment!(ID, { reason: 'no_payment' }, { signal });
    await client.getBanks!('RUB', { signal });
    const expected = CHECKOUT_ROUTE_NAMES.filter((name) => name !== 'events').map(
      (name) => `${CHECKOUT_ROUTES[name].method} /checkout-api${checkoutPath(name, ID)}`,
    );
    assert.deepEqual(asked, expected);
  });
});
