/**
 * The mock serves exactly the service's operations as `OPERATIONS` (src/schemas/operations.ts)
 * declares them: its merchant and public handlers are keyed by the operations' names (every
 * name, no other), its routes take method, path and signing from the rows, and over HTTP each
 * row's path answers its method (a signed one asks for the signature) and refuses any other
 * with 405 naming it. The hosted page's two undocumented routes are the only API routes that
 * are not operations.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MERCHANT_HANDLERS, MERCHANT_ROUTES } from '../../src/mock/api.js';
import { HOSTED_PAGE_ROUTES, PUBLIC_HANDLERS, PUBLIC_ROUTES } from '../../src/mock/public-api.js';
import type { Route } from '../../src/mock/routes.js';
import { MERCHANT_API_PREFIX, OPERATION_LIST, PUBLIC_API_PREFIX, type OperationName } from '../../src/schemas/operations.js';
import { inProcessMock } from './helpers.js';

type HandledName = keyof typeof MERCHANT_HANDLERS | keyof typeof PUBLIC_HANDLERS;
// The type checker holds the handlers to the operations' names both ways.
const sameNames: [OperationName] extends [HandledName] ? ([HandledName] extends [OperationName] ? true : false) : false = true;

const byName = (a: { name?: string | undefined }, b: { name?: string | undefined }) => (a.name ?? '').localeCompare(b.name ?? '');
const served = (prefix: string, routes: readonly Omit<Route<never>, 'handle'>[]) =>
  routes.map((route) => ({ name: route.operation, method: route.method, path: prefix + route.path, signing: route.signing }));

test('the handlers are keyed by the names of OPERATIONS, each once', () => {
  assert.equal(sameNames, true);
  const names = [...Object.keys(MERCHANT_HANDLERS), ...Object.keys(PUBLIC_HANDLERS)].sort();
  assert.deepEqual(names, OPERATION_LIST.map((row) => row.name).sort());
});

test('the mock routes every operation with its row: name, method, path, signing', () => {
  const operations = [
    ...served(MERCHANT_API_PREFIX, MERCHANT_ROUTES),
    ...served(
      PUBLIC_API_PREFIX,
      PUBLIC_ROUTES.filter((route) => route.operation !== undefined),
    ),
  ].sort(byName);
  const rows = OPERATION_LIST.map(({ name, method, path, signing }) => ({ name, method, path, signing })).sort(byName);
  assert.deepEqual(operations, rows);
  assert.ok(
    MERCHANT_ROUTES.every((route) => route.signing !== 'public'),
    'the merchant API is signed',
  );
  assert.ok(
    PUBLIC_ROUTES.every((route) => route.signing === 'public'),
    'the public API is not',
  );
});

test('beyond the operations, the API has only the hosted page’s two routes', () => {
  const others = served(
    PUBLIC_API_PREFIX,
    PUBLIC_ROUTES.filter((route) => route.operation === undefined),
  );
  assert.deepEqual(others, served(PUBLIC_API_PREFIX, HOSTED_PAGE_ROUTES));
  assert.deepEqual(
    others.map(({ method, path }) => `${method} ${path}`),
    ['GET /api/public/invoices/{id}/available-payment-variants', 'POST /api/public/invoices/{id}/start-deal'],
  );
});

test('over HTTP each operation’s path answers its method and refuses any other with 405', async () => {
  const mock = inProcessMock({ errorFormat: 'legacy' });
  try {
    const routed = new Set([
      ...OPERATION_LIST.map((row) => `${row.method} ${row.path}`),
      ...served(PUBLIC_API_PREFIX, HOSTED_PAGE_ROUTES).map(({ method, path }) => `${method} ${path}`),
    ]);
    for (const row of OPERATION_LIST) {
      const url = mock.baseUrl + row.path.replace(/\{\w+\}/g, 'probe-17');
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
        if (method !== row.method && routed.has(`${method} ${row.path}`)) continue;
        const response = await mock.fetch(new Request(url, { method }));
        const text = await response.text();
        const what = `${method} ${row.path} (${row.name})`;
        if (method === row.method) {
          assert.ok(!text.includes('no operation'), `${what} is routed: ${response.status} ${text}`);
          if (row.signing !== 'public') assert.equal(response.status, 401, `${what} asks for the signature: ${text}`);
        } else {
          assert.equal(response.status, 405, `${what}: ${text}`);
          assert.equal(response.headers.get('allow'), row.method, what);
        }
      }
    }
  } finally {
    await mock.close();
  }
});
