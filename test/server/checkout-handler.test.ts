/**
 * The checkout proxy against an in-process fake of the service, reached through the real
 * `MerchantClient` (its `fetch` option), so every upstream call is counted and signed.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import {
  CheckoutHttpError,
  MerchantClient,
  PayloadTooLargeError,
  createCheckoutHandler,
  type CheckoutHandlerOptions,
} from '../../src/server/node.js';
import {
  INVOICE_ID,
  checkoutViewOf as fixtureView,
  exampleCanceledInvoice,
  exampleLookupInvoice,
  exampleVariants,
} from '../fixtures/dto.js';
import { MAX_RECEIPT_BYTES } from '../../src/schemas/patterns.js';

/** The projection of the fixtures, with the receipt policy the proxy adds (default `optional`). */
const checkoutViewOf = (...args: Parameters<typeof fixtureView>) => ({
  ...fixtureView(...args),
  receipts: 'optional',
  receiptMaxBytes: MAX_RECEIPT_BYTES,
});

const API_KEY = 'proxy-test-api-key-Qm4Z';
const SECRET_KEY = 'proxy-test-secret-Xu93-Ключ';
const OTHER_ID = '11111111-2222-4333-8444-555555555555';
const ORIGIN = 'https://shop.example';

interface UpstreamCall {
  method: string;
  path: string;
  signed: boolean;
  signal: AbortSignal;
  /**
   * Kept so that the request stays alive: undici's `Request` forwards its init signal to
   * `request.signal` through an AbortController only the request holds strongly; a test that
   * kept just the signal saw it never abort once the request had been collected.
   */
  request: Request;
}

type UpstreamReply = Response | 'hang' | undefined;

/** Every answer any test received, checked at the end for the keys. */
const answers: { status: number; headers: string; body: string }[] = [];

const defaultReply = (method: string, path: string): Response => {
  if (method === 'GET' && path === `/api/merchant/invoices/${INVOICE_ID}`) return Response.json(exampleLookupInvoice());
  if (method === 'GET' && path === `/api/merchant/invoices/${OTHER_ID}`) {
    return Response.json(exampleLookupInvoice({ id: OTHER_ID, internalId: 'order-other' }));
  }
  if (method === 'POST' && path === `/api/merchant/invoices/${INVOICE_ID}/start-deal`) return Response.json(exampleLookupInvoice());
  if (method === 'GET' && path === `/api/merchant/invoices/${INVOICE_ID}/available-payment-variants`) {
    return Response.json(exampleVariants());
  }
  if (method === 'POST' && path === `/api/merchant/invoices/${INVOICE_ID}/cancel`) return Response.json(exampleCanceledInvoice());
  return Response.json({ error: 'not found' }, { status: 404 });
};

const setup = (options: Partial<CheckoutHandlerOptions> = {}, reply: (call: UpstreamCall) => UpstreamReply = () => undefined) => {
  const calls: UpstreamCall[] = [];
  const resolved: { id: string; request: Request }[] = [];
  const client = new MerchantClient({
    baseUrl: 'https://pay.example',
    apiKey: API_KEY,
    secretKey: SECRET_KEY,
    timeoutMs: 2000,
    fetch: (request) => {
      const url = new URL(request.url);
      const call = {
        method: request.method,
        path: url.pathname,
        signed: request.headers.get('x-identity') === API_KEY && !!request.headers.get('x-signature'),
        signal: request.signal,
        request,
      };
      calls.push(call);
      const custom = reply(call);
      if (custom === 'hang') return new Promise<Response>(() => undefined);
      return Promise.resolve(custom ?? defaultReply(call.method, call.path));
    },
  });
  const handler = createCheckoutHandler({
    client,
    basePath: '/checkout-api',
    resolveInternalId: (id, request) => {
      resolved.push({ id, request });
      return id === INVOICE_ID ? 'order-42' : null;
    },
    ...options,
  });
  const send = async (method: string, path: string, init: RequestInit & { duplex?: 'half' } = {}) => {
    const response = await handler(new Request(`${ORIGIN}/checkout-api${path}`, { method, ...init }));
    const body = await response.text();
    const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
    answers.push({ status: response.status, headers, body });
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    return {
      status: response.status,
      headers: response.headers,
      body,
      json: json as Record<string, unknown> & { error?: { code: string; message: string } },
    };
  };
  return { handler, calls, resolved, client, send };
};

const jsonPost = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  body: typeof body === 'string' ? body : JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

after(() => {
  assert.ok(answers.length > 0, 'the answers were collected');
  for (const answer of answers) {
    const text = `${answer.headers}\n${answer.body}`;
    assert.ok(!text.includes(API_KEY) && !text.includes(SECRET_KEY), `an answer leaked a key: ${text}`);
    assert.ok(!/x-signature|x-identity/i.test(answer.headers), `an answer carried a signing header: ${answer.headers}`);
  }
});

describe('the four routes', () => {
  test('GET /invoices/{id}: the invoice read by its id, as its allow-listed projection', async () => {
    const { send, calls, resolved } = setup();
    const before = Date.now();
    const answer = await send('GET', `/invoices/${INVOICE_ID}`);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json, checkoutViewOf(exampleLookupInvoice()));
    assert.deepEqual(
      calls.map(({ method, path, signed }) => ({ method, path, signed })),
      [{ method: 'GET', path: `/api/merchant/invoices/${INVOICE_ID}`, signed: true }],
    );
    assert.equal(resolved[0]?.id, INVOICE_ID);
    assert.equal(resolved[0]?.request.url, `${ORIGIN}/checkout-api/invoices/${INVOICE_ID}`);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
    const date = Date.parse(answer.headers.get('date') ?? '');
    assert.ok(date >= before - 1000 && date <= Date.now() + 1000, `Date header ${answer.headers.get('date')}`);
  });

  test('an upper-case id is the same invoice; the merchant sees it lower-cased', async () => {
    const { send, resolved } = setup();
    const answer = await send('GET', `/invoices/${INVOICE_ID.toUpperCase()}`);
    assert.equal(answer.status, 200);
    assert.equal(resolved[0]?.id, INVOICE_ID);
  });

  test('a query string is ignored and never forwarded', async () => {
    const { send, calls } = setup();
    const answer = await send('GET', `/invoices/${INVOICE_ID}/available-payment-variants?internalId=x&path=/withdrawals`);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json, exampleVariants());
    assert.deepEqual(
      calls.map(({ method, path }) => `${method} ${path}`),
      [`GET /api/merchant/invoices/${INVOICE_ID}`, `GET /api/merchant/invoices/${INVOICE_ID}/available-payment-variants`],
    );
  });

  test('POST /invoices/{id}/cancel: the cancel variant, after checking whose invoice it is', async () => {
    const { send, calls } = setup();
    const answer = await send('POST', `/invoices/${INVOICE_ID}/cancel`);
    assert.equal(answer.status, 200);
    const canceled = exampleCanceledInvoice();
    assert.deepEqual(answer.json, {
      id: canceled.id,
      internalId: canceled.internalId,
      type: canceled.type,
      status: canceled.status,
      sum: canceled.sum,
      paymentMethod: canceled.paymentMethod,
      paymentOption: canceled.paymentOption,
      successUrl: canceled.successUrl,
      cancelUrl: canceled.cancelUrl,
      isSumChanged: canceled.isSumChanged,
      deals: [],
      expiredAt: canceled.expiredAt,
    });
    assert.deepEqual(
      calls.map(({ method, path, signed }) => `${method} ${path} ${signed}`),
      [`GET /api/merchant/invoices/${INVOICE_ID} true`, `POST /api/merchant/invoices/${INVOICE_ID}/cancel true`],
    );
  });

  test("POST /invoices/{id}/deal without a hook starts the deal at the service with the payer's choice", async () => {
    const { send, calls } = setup();
    const answer = await send('POST', `/invoices/${INVOICE_ID}/deal`, jsonPost({ option: 'SBP', method: 'sberbank' }));
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json, checkoutViewOf(exampleLookupInvoice()));
    assert.deepEqual(
      calls.map(({ method, path }) => `${method} ${path}`),
      [`GET /api/merchant/invoices/${INVOICE_ID}`, `POST /api/merchant/invoices/${INVOICE_ID}/start-deal`],
    );
    assert.deepEqual(await calls[1]?.request.json(), { paymentOption: 'SBP', paymentMethod: 'sberbank' });
  });

  for (const [name, reply] of [
    ['an answer with deals: []', () => Response.json(exampleLookupInvoice({ deals: [] }))],
    ['a 400 PAYMENT_METHOD_NOT_AVAILABLE', () => Response.json([{ message: 'PAYMENT_METHOD_NOT_AVAILABLE' }], { status: 400 })],
  ] as const) {
    test(`POST /invoices/{id}/deal: ${name} is the protocol error no_requisites`, async () => {
      const { send } = setup({}, (call) => (call.path.endsWith('/start-deal') ? reply() : undefined));
      const answer = await send('POST', `/invoices/${INVOICE_ID}/deal`, jsonPost({ option: 'SBP', method: 'alfabank' }));
      assert.equal(answer.status, 409);
      assert.equal(answer.json.error?.code, 'no_requisites');
    });
  }

  test("POST /invoices/{id}/deal runs the hook with the payer's choice and answers its invoice", async () => {
    const contexts: Parameters<NonNullable<CheckoutHandlerOptions['startDeal']>>[0][] = [];
    const { send, client } = setup({
      startDeal: (context) => {
        contexts.push(context);
        return Promise.resolve([exampleLookupInvoice({ paymentOption: context.option, paymentMethod: context.method })]);
      },
    });
    const answer = await send(
      'POST',
      `/invoices/${INVOICE_ID}/deal`,
      jsonPost({ option: 'SBP', method: 'tinkoff' }, { 'content-type': 'application/json; charset=UTF-8' }),
    );
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json, checkoutViewOf(exampleLookupInvoice({ paymentOption: 'SBP', paymentMethod: 'tinkoff' })));
    const [context] = contexts;
    assert.ok(context);
    assert.equal(context.id, INVOICE_ID);
    assert.equal(context.internalId, 'order-42');
    assert.equal(context.option, 'SBP');
    assert.equal(context.method, 'tinkoff');
    assert.equal(context.invoice.id, INVOICE_ID);
    assert.equal(context.client, client);
    assert.equal(context.signal.aborted, false);
  });
});

describe("the deal hook's answer and failures", () => {
  const deal = (startDeal: CheckoutHandlerOptions['startDeal'], extra: Partial<CheckoutHandlerOptions> = {}) =>
    setup({ startDeal, ...extra }).send('POST', `/invoices/${INVOICE_ID}/deal`, jsonPost({ option: 'SBP', method: 'sberbank' }));

  test('an invalid invoice from the hook is 502', async () => {
    const answer = await deal(() => Promise.resolve({ id: INVOICE_ID, sum: { amount: 1500 } }));
    assert.equal(answer.status, 502);
    assert.equal(answer.json.error?.code, 'upstream_error');
  });

  test('another invoice from the hook is 502', async () => {
    const answer = await deal(() => Promise.resolve(exampleLookupInvoice({ id: OTHER_ID })));
    assert.equal(answer.status, 502);
  });

  test('a CheckoutHttpError from the hook is answered as it says', async () => {
    const answer = await deal(() => Promise.reject(new CheckoutHttpError('bad_request', 'This variant is not offered')));
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.json, { error: { code: 'bad_request', message: 'This variant is not offered' } });
  });

  test('any other failure of the hook is a 500 without its message, reported to onError', async () => {
    const reported: unknown[] = [];
    const answer = await deal(() => Promise.reject(new Error(`db password ${SECRET_KEY}`)), {
      onError: (error) => reported.push(error),
    });
    assert.equal(answer.status, 500);
    assert.deepEqual(answer.json, { error: { code: 'internal_error', message: 'internal error' } });
    assert.match(String(reported[0]), /db password/);
  });

  test('a failure of the client inside the hook maps like any upstream failure', async () => {
    const setupResult = setup(
      {
        startDeal: ({ client, id, signal }) => client.cancelInvoice(id, { signal }),
      },
      (call) => (call.method === 'POST' ? new Response('boom', { status: 500 }) : undefined),
    );
    const answer = await setupResult.send('POST', `/invoices/${INVOICE_ID}/deal`, jsonPost({ option: 'SBP', method: 'sberbank' }));
    assert.equal(answer.status, 502);
  });
});

describe('deal bodies are refused before anything else happens', () => {
  const cases: { name: string; init: RequestInit; status: number; message?: RegExp }[] = [
    { name: 'no content type', init: { body: '{"option":"SBP","method":"x"}' }, status: 415 },
    {
      name: 'text/plain (a CORS-simple request)',
      init: { body: '{"option":"SBP","method":"x"}', headers: { 'content-type': 'text/plain' } },
      status: 415,
    },
    {
      name: 'a form',
      init: { body: 'option=SBP&method=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      status: 415,
    },
    {
      name: 'JSON in another charset',
      init: jsonPost({ option: 'SBP', method: 'x' }, { 'content-type': 'application/json; charset=latin1' }),
      status: 415,
    },
    {
      name: 'a JSON look-alike type',
      init: jsonPost({ option: 'SBP', method: 'x' }, { 'content-type': 'application/jsonp' }),
      status: 415,
    },
    { name: 'no body', init: { headers: { 'content-type': 'application/json' } }, status: 400 },
    { name: 'not JSON', init: jsonPost('{option: SBP}'), status: 400 },
    { name: 'a JSON array', init: jsonPost([{ option: 'SBP', method: 'x' }]), status: 400, message: /object/ },
    { name: 'JSON null', init: jsonPost('null'), status: 400, message: /object/ },
    { name: 'a JSON string', init: jsonPost('"SBP"'), status: 400, message: /object/ },
    { name: 'a JSON number', init: jsonPost('42'), status: 400, message: /object/ },
    { name: 'a missing field', init: jsonPost({ option: 'SBP' }), status: 400, message: /method/ },
    { name: 'an empty option', init: jsonPost({ option: '', method: 'x' }), status: 400, message: /option/ },
    { name: 'a number for a string', init: jsonPost({ option: 'SBP', method: 7 }), status: 400, message: /method/ },
    { name: 'an unknown field', init: jsonPost({ option: 'SBP', method: 'x', amount: '1.00' }), status: 400, message: /amount/ },
    { name: 'a __proto__ key', init: jsonPost('{"option":"SBP","method":"x","__proto__":{"admin":true}}'), status: 400 },
    {
      name: 'invalid UTF-8',
      init: { body: new Uint8Array([0x7b, 0xff, 0x7d]), headers: { 'content-type': 'application/json' } },
      status: 400,
    },
    { name: 'a declared body over the limit', init: jsonPost({ option: 'SBP', method: 'x'.repeat(20_000) }), status: 413 },
  ];
  for (const { name, init, status, message } of cases) {
    test(`${name} → ${status}`, async () => {
      let hookCalls = 0;
      const { send, calls, resolved } = setup({
        startDeal: () => {
          hookCalls++;
          return Promise.resolve(exampleLookupInvoice());
        },
      });
      const answer = await send('POST', `/invoices/${INVOICE_ID}/deal`, init);
      assert.equal(answer.status, status, answer.body);
      if (message) assert.match(answer.json.error?.message ?? '', message);
      assert.deepEqual([calls.length, resolved.length, hookCalls], [0, 0, 0]);
    });
  }

  test('a streamed body without a length is cut at the limit → 413', async () => {
    const { send, calls } = setup({ maxBodyBytes: 100, startDeal: () => Promise.resolve(exampleLookupInvoice()) });
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode(' '.repeat(64)));
        if (pulled > 1000) controller.close();
      },
    });
    const answer = await send('POST', `/invoices/${INVOICE_ID}/deal`, { ...jsonPost(''), body, duplex: 'half' });
    assert.equal(answer.status, 413);
    assert.ok(pulled < 10, `read ${pulled} chunks before refusing`);
    assert.equal(calls.length, 0);
  });

  test("toNodeHandler's own size error on the body stream is a 413 too", async () => {
    const { send, calls } = setup({ startDeal: () => Promise.resolve(exampleLookupInvoice()) });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"option":'));
        controller.error(new PayloadTooLargeError(10));
      },
    });
    const answer = await send('POST', `/invoices/${INVOICE_ID}/deal`, { ...jsonPost(''), body, duplex: 'half' });
    assert.equal(answer.status, 413);
    assert.equal(calls.length, 0);
  });

  test('a cancel with a body over the limit → 413, nothing upstream', async () => {
    const { send, calls } = setup({ maxBodyBytes: 10 });
    const answer = await send('POST', `/invoices/${INVOICE_ID}/cancel`, jsonPost({ reason: 'x'.repeat(100) }));
    assert.equal(answer.status, 413);
    assert.equal(answer.json.error?.code, 'payload_too_large');
    assert.equal(calls.length, 0);
  });
});

describe('whose invoice', () => {
  /** Every route, each with a deal hook that counts its calls. */
  const everyRoute = async (
    options: Partial<CheckoutHandlerOptions>,
    check: (answer: Awaited<ReturnType<ReturnType<typeof setup>['send']>>) => void,
  ) => {
    let hookCalls = 0;
    const handler = setup({
      startDeal: () => {
        hookCalls++;
        return Promise.resolve(exampleLookupInvoice());
      },
      ...options,
    });
    for (const [method, path, init] of [
      ['GET', `/invoices/${INVOICE_ID}`, {}],
      ['GET', `/invoices/${INVOICE_ID}/available-payment-variants`, {}],
      ['POST', `/invoices/${INVOICE_ID}/cancel`, {}],
      ['POST', `/invoices/${INVOICE_ID}/deal`, jsonPost({ option: 'SBP', method: 'sberbank' })],
    ] as const) {
      const answer = await handler.send(method, path, init);
      assert.equal(answer.status, 404, path);
      check(answer);
    }
    assert.equal(hookCalls, 0);
    return handler.calls;
  };

  for (const nothing of [null, undefined, '']) {
    test(`resolveInternalId answering ${JSON.stringify(nothing)} is 404 with no upstream call, on every route`, async () => {
      const calls = await everyRoute({ resolveInternalId: () => Promise.resolve(nothing) }, (answer) =>
        assert.deepEqual(answer.json, { error: { code: 'not_found', message: 'unknown invoice' } }),
      );
      assert.equal(calls.length, 0);
    });
  }

  test('an internal id that belongs to another invoice is refused, and nothing is done to either', async () => {
    const reported: unknown[] = [];
    const calls = await everyRoute({ resolveInternalId: () => 'order-other', onError: (error) => reported.push(error) }, (answer) =>
      assert.ok(!answer.body.includes(OTHER_ID), 'the other invoice is not revealed'),
    );
    assert.deepEqual([...new Set(calls.map(({ method, path }) => `${method} ${path}`))], [`GET /api/merchant/invoices/${INVOICE_ID}`]);
    assert.equal(reported.length, 4);
    assert.match(String(reported[0]), /order-other/);
  });

  test('an invoice the service does not know is 404', async () => {
    const { send } = setup({ resolveInternalId: () => 'order-other' }, () => new Response('null', { status: 404 }));
    assert.equal((await send('GET', `/invoices/${INVOICE_ID}`)).status, 404);
  });

  test('a throwing resolveInternalId is a 500 without its message; a non-string answer too', async () => {
    for (const resolveInternalId of [
      () => Promise.reject(new Error('connection string postgres://u:p@db')),
      () => 42 as unknown as string,
    ]) {
      const { send, calls } = setup({ resolveInternalId });
      const answer = await send('GET', `/invoices/${INVOICE_ID}`);
      assert.equal(answer.status, 500);
      assert.ok(!answer.body.includes('postgres'));
      assert.equal(calls.length, 0);
    }
  });

  test('resolveInternalId may refuse with its own status', async () => {
    const { send } = setup({ resolveInternalId: () => Promise.reject(new CheckoutHttpError('forbidden', 'Sign in again')) });
    const answer = await send('GET', `/invoices/${INVOICE_ID}`);
    assert.deepEqual([answer.status, answer.json], [403, { error: { code: 'forbidden', message: 'Sign in again' } }]);
  });
});

describe('upstream failures never reach the browser as they are', () => {
  const leaky = (status: number) =>
    new Response(`{"trace":"at Db.query (/srv/app.js)","key":"${API_KEY}"}`, {
      status,
      headers: { 'content-type': 'application/json', 'set-cookie': 'upstream=1', 'x-upstream-debug': 'node-7' },
    });

  test('a 500 is a 502 with our own message and headers', async () => {
    const { send } = setup({}, () => leaky(500));
    const answer = await send('GET', `/invoices/${INVOICE_ID}`);
    assert.equal(answer.status, 502);
    assert.deepEqual(answer.json, { error: { code: 'upstream_error', message: 'the payment service failed to answer' } });
    assert.equal(answer.headers.get('set-cookie'), null);
    assert.equal(answer.headers.get('x-upstream-debug'), null);
  });

  test('a 401 or 403 upstream (our configuration) is a 502; a 400, 409 or 422 on cancel is cancel_refused', async () => {
    for (const [status, expected] of [
      [400, 409],
      [401, 502],
      [403, 502],
      [409, 409],
      [422, 409],
    ] as const) {
      const { send } = setup({}, (call) => (call.path.endsWith('/cancel') ? leaky(status) : undefined));
      const answer = await send('POST', `/invoices/${INVOICE_ID}/cancel`);
      assert.equal(answer.status, expected, String(status));
      assert.equal(answer.json.error?.code, expected === 409 ? 'cancel_refused' : 'upstream_error');
    }
  });

  test('a 404 on the lookup is 404; on the variants (after the lookup found it) it is 502', async () => {
    assert.equal((await setup({}, () => leaky(404)).send('GET', `/invoices/${INVOICE_ID}`)).status, 404);
    const variants404 = setup({}, (call) => (call.path.endsWith('variants') ? leaky(404) : undefined));
    assert.equal((await variants404.send('GET', `/invoices/${INVOICE_ID}/available-payment-variants`)).status, 502);
  });

  test('an answer that is not JSON, or not the documented shape, is 502', async () => {
    for (const reply of [
      new Response('<html>gateway</html>', { status: 200 }),
      Response.json({ ...exampleLookupInvoice(), sum: { amount: 1500, currency: 'RUB', subunit: 2 } }),
      Response.json([exampleLookupInvoice(), exampleLookupInvoice()]),
    ]) {
      const { send } = setup({}, () => reply);
      const answer = await send('GET', `/invoices/${INVOICE_ID}`);
      assert.equal(answer.status, 502);
      assert.deepEqual(answer.json.error, { code: 'upstream_invalid', message: 'the payment service answered something unexpected' });
    }
  });

  test('invalid variants and an invalid cancel answer are 502', async () => {
    const variants = setup({}, (call) => (call.path.endsWith('variants') ? Response.json([{ option: 'SBP' }]) : undefined));
    assert.equal((await variants.send('GET', `/invoices/${INVOICE_ID}/available-payment-variants`)).status, 502);
    const cancel = setup({}, (call) =>
      call.path.endsWith('cancel') ? Response.json({ ...exampleCanceledInvoice(), sum: null }) : undefined,
    );
    assert.equal((await cancel.send('POST', `/invoices/${INVOICE_ID}/cancel`)).status, 502);
  });

  test('a failed connection is 502', async () => {
    const { send } = setup({}, () => {
      throw new TypeError('fetch failed: ECONNREFUSED');
    });
    const answer = await send('GET', `/invoices/${INVOICE_ID}`);
    assert.equal(answer.status, 502);
    assert.ok(!answer.body.includes('ECONNREFUSED'));
  });
});

describe('time budget', () => {
  const TIMEOUT = 200;
  const timed = async (run: () => Promise<{ status: number }>) => {
    const started = performance.now();
    const { status } = await run();
    return { status, elapsed: performance.now() - started };
  };

  test('a hung upstream is cut at timeoutMs → 504, and the upstream request is aborted', async () => {
    const { send, calls } = setup({ timeoutMs: TIMEOUT }, () => 'hang');
    const { status, elapsed } = await timed(() => send('GET', `/invoices/${INVOICE_ID}`));
    assert.equal(status, 504);
    assert.ok(elapsed >= TIMEOUT - 20 && elapsed < TIMEOUT + 1500, `answered after ${elapsed} ms`);
    assert.equal(calls[0]?.signal.aborted, true);
  });

  test('the budget covers the whole request: a slow lookup leaves less for the cancel', async () => {
    const { send, calls } = setup({ timeoutMs: TIMEOUT }, (call) => {
      if (call.path.endsWith('/cancel')) return 'hang';
      return undefined;
    });
    const { status, elapsed } = await timed(() => send('POST', `/invoices/${INVOICE_ID}/cancel`));
    assert.equal(status, 504);
    assert.ok(elapsed < TIMEOUT + 1500, `answered after ${elapsed} ms`);
    assert.equal(calls.length, 2);
  });

  test("a hung resolveInternalId or startDeal is cut too, and the hook's signal aborts", async () => {
    const hung = setup({ timeoutMs: TIMEOUT, resolveInternalId: () => new Promise<string>(() => undefined) });
    assert.equal((await timed(() => hung.send('GET', `/invoices/${INVOICE_ID}`))).status, 504);

    let hookSignal: AbortSignal | undefined;
    const hungDeal = setup({
      timeoutMs: TIMEOUT,
      startDeal: ({ signal }) => {
        hookSignal = signal;
        return new Promise(() => undefined);
      },
    });
    const { status, elapsed } = await timed(() =>
      hungDeal.send('POST', `/invoices/${INVOICE_ID}/deal`, jsonPost({ option: 'SBP', method: 'sberbank' })),
    );
    assert.equal(status, 504);
    assert.ok(elapsed < TIMEOUT + 1500, `answered after ${elapsed} ms`);
    assert.equal(hookSignal?.aborted, true);
  });

  test('a payer who goes away aborts the upstream request', async () => {
    const { handler, calls } = setup({}, () => 'hang');
    const controller = new AbortController();
    const pending = handler(new Request(`${ORIGIN}/checkout-api/invoices/${INVOICE_ID}`, { signal: controller.signal }));
    while (calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const response = await pending;
    assert.ok(response.status >= 500);
    assert.equal(calls[0]?.signal.aborted, true);
  });
});

describe('methods', () => {
  const routes = [
    { path: `/invoices/${INVOICE_ID}`, allowed: 'GET' },
    { path: `/invoices/${INVOICE_ID}/available-payment-variants`, allowed: 'GET' },
    { path: `/invoices/${INVOICE_ID}/cancel`, allowed: 'POST' },
    { path: `/invoices/${INVOICE_ID}/deal`, allowed: 'POST' },
  ];

  test('any other method is 405 with Allow, and nothing is looked up', async () => {
    const { send, calls, resolved } = setup({ startDeal: () => Promise.resolve(exampleLookupInvoice()) });
    for (const { path, allowed } of routes) {
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND', 'get-ish', 'HEAD'].filter((m) => m !== allowed)) {
        const answer = await send(method, path);
        assert.equal(answer.status, 405, `${method} ${path}`);
        assert.equal(answer.headers.get('allow'), `${allowed}, OPTIONS`);
        assert.ok(answer.headers.get('date'));
        if (method === 'HEAD') assert.equal(answer.body, '');
        else assert.equal(answer.json.error?.code, 'method_not_allowed');
      }
    }
    assert.deepEqual([calls.length, resolved.length], [0, 0]);
  });

  test('OPTIONS is answered here: 204 with Allow, no CORS headers unless configured', async () => {
    const { send, calls } = setup();
    const answer = await send('OPTIONS', `/invoices/${INVOICE_ID}/cancel`, {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(answer.status, 204);
    assert.equal(answer.headers.get('allow'), 'POST, OPTIONS');
    assert.equal(answer.headers.get('access-control-allow-origin'), null);
    assert.equal(calls.length, 0);
  });

  test('a GET that announces a body is refused', async () => {
    const { send, calls } = setup();
    for (const headers of [{ 'content-length': '5' }, { 'transfer-encoding': 'chunked' }] as Record<string, string>[]) {
      const answer = await send('GET', `/invoices/${INVOICE_ID}`, { headers });
      assert.equal(answer.status, 400);
    }
    assert.equal(calls.length, 0);
  });
});

describe('paths', () => {
  test('unknown paths 404, non-UUID ids 400, malformed paths 400, and none is looked up', async () => {
    const { send, calls, resolved } = setup();
    const expectations: [string, string, number][] = [
      ['GET', '/withdrawals', 404],
      ['POST', '/withdrawals', 404],
      ['GET', `/withdrawals/${INVOICE_ID}`, 404],
      ['GET', '/accounts', 404],
      ['POST', `/invoices/${INVOICE_ID}/disputes`, 404],
      ['GET', '/banks/RUB', 404],
      ['GET', `/invoices/${INVOICE_ID}/banks`, 404],
      ['GET', '/invoices/internal-id/order-42', 404],
      ['GET', '/invoices', 404],
      ['POST', '/invoices', 404],
      ['GET', `/invoices/${INVOICE_ID}/`, 404],
      ['GET', `/invoices/${INVOICE_ID}/cancel/../../../withdrawals`, 404],
      ['GET', `/invoices/${INVOICE_ID}/%2e%2e/%2e%2e/withdrawals`, 404],
      ['GET', '/invoices/42', 400],
      ['GET', `/invoices/${INVOICE_ID}%2F..%2F..%2Fwithdrawals`, 400],
      ['GET', `/invoices/${INVOICE_ID}%252F..`, 400],
      ['POST', `/invoices/${INVOICE_ID}%2Fcancel`, 400],
      ['GET', `/invoices/%E0%A4%A`, 400],
      ['GET', `/invoices/${INVOICE_ID}%00`, 400],
    ];
    for (const [method, path, status] of expectations) {
      const answer = await send(method, path);
      assert.equal(answer.status, status, `${method} ${path}: ${answer.body}`);
      assert.ok(answer.json.error?.code, `${method} ${path} has an error body`);
    }
    assert.deepEqual([calls.length, resolved.length], [0, 0]);
  });

  test('outside basePath nothing is served', async () => {
    const { handler, calls } = setup();
    const response = await handler(new Request(`${ORIGIN}/invoices/${INVOICE_ID}`));
    assert.equal(response.status, 404);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(calls.length, 0);
  });

  test('without basePath the routes sit at the root', async () => {
    const { client } = setup();
    const handler = createCheckoutHandler({ client, resolveInternalId: () => 'order-42' });
    assert.equal((await handler(new Request(`${ORIGIN}/invoices/${INVOICE_ID}`))).status, 200);
    assert.equal((await handler(new Request(`${ORIGIN}/checkout-api/invoices/${INVOICE_ID}`))).status, 404);
  });
});

describe('cross-origin', () => {
  test('without cors, no CORS header is ever sent', async () => {
    const { send } = setup();
    const answer = await send('GET', `/invoices/${INVOICE_ID}`, { headers: { origin: ORIGIN } });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('access-control-allow-origin'), null);
  });

  test('with cors, only the listed origins get access, and may read Date', async () => {
    const { send } = setup({ cors: { origins: ['https://widget.example'], credentials: true } });
    const allowed = await send('GET', `/invoices/${INVOICE_ID}`, { headers: { origin: 'https://widget.example' } });
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://widget.example');
    assert.equal(allowed.headers.get('access-control-allow-credentials'), 'true');
    assert.match(allowed.headers.get('access-control-expose-headers') ?? '', /\bDate\b/);
    assert.equal(allowed.headers.get('vary'), 'Origin');
    const other = await send('GET', `/invoices/${INVOICE_ID}`, { headers: { origin: 'https://widget.example.evil' } });
    assert.equal(other.headers.get('access-control-allow-origin'), null);

    const preflight = await send('OPTIONS', `/invoices/${INVOICE_ID}/deal`, {
      headers: {
        origin: 'https://widget.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-methods'), 'POST');
    assert.equal(preflight.headers.get('access-control-allow-headers'), 'Content-Type');
    const withHeader = setup({ cors: { origins: ['https://widget.example'], allowHeaders: ['X-CSRF-Token'] } });
    const csrf = await withHeader.send('OPTIONS', `/invoices/${INVOICE_ID}/cancel`, {
      headers: { origin: 'https://widget.example', 'access-control-request-method': 'POST' },
    });
    assert.deepEqual(csrf.headers.get('access-control-allow-headers')?.split(/\s*,\s*/), ['Content-Type', 'X-CSRF-Token']);
    const wrongMethod = await send('OPTIONS', `/invoices/${INVOICE_ID}/deal`, {
      headers: { origin: 'https://widget.example', 'access-control-request-method': 'DELETE' },
    });
    assert.equal(wrongMethod.headers.get('access-control-allow-methods'), null);
  });

  test('a browser-marked cross-site POST from an origin not allowed is 403, before any lookup', async () => {
    const { send, calls, resolved } = setup();
    for (const site of ['cross-site', 'same-site']) {
      const answer = await send('POST', `/invoices/${INVOICE_ID}/cancel`, {
        headers: { origin: 'https://evil.example', 'sec-fetch-site': site },
      });
      assert.equal(answer.status, 403, site);
      assert.equal(answer.json.error?.code, 'forbidden');
    }
    assert.deepEqual([calls.length, resolved.length], [0, 0]);
    const sameOrigin = await send('POST', `/invoices/${INVOICE_ID}/cancel`, {
      headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin' },
    });
    assert.equal(sameOrigin.status, 200);
  });

  test("without Sec-Fetch-Site, a POST whose Origin is not the proxy's own nor allowed is 403, on both POST routes", async () => {
    const { send, calls, resolved } = setup({ cors: { origins: ['https://widget.example'] } });
    for (const origin of ['https://evil.example', 'null', 'http://shop.example', 'https://shop.example:8443']) {
      for (const path of [`/invoices/${INVOICE_ID}/cancel`, `/invoices/${INVOICE_ID}/deal`]) {
        const answer = await send('POST', path, jsonPost({ option: 'SBP', method: 'sberbank' }, { origin }));
        assert.equal(answer.status, 403, `${origin} ${path}`);
      }
    }
    assert.deepEqual([calls.length, resolved.length], [0, 0]);
    for (const origin of [ORIGIN, 'https://widget.example']) {
      assert.equal((await send('POST', `/invoices/${INVOICE_ID}/cancel`, { headers: { origin } })).status, 200, origin);
    }
    assert.equal((await send('POST', `/invoices/${INVOICE_ID}/cancel`)).status, 200, 'no Origin at all: a server-side caller');
  });

  test('a cross-site POST from an allowed origin passes', async () => {
    const { send } = setup({ cors: { origins: ['https://widget.example'] } });
    const answer = await send('POST', `/invoices/${INVOICE_ID}/cancel`, {
      headers: { origin: 'https://widget.example', 'sec-fetch-site': 'cross-site' },
    });
    assert.equal(answer.status, 200);
  });

  test('wildcards and non-origins are refused when the handler is made', () => {
    const { client } = setup();
    for (const origins of [['*'], ['https://shop.example/'], ['shop.example'], ['null']]) {
      assert.throws(() => createCheckoutHandler({ client, resolveInternalId: () => null, cors: { origins } }), TypeError, origins[0]);
    }
    assert.throws(
      () => createCheckoutHandler({ client, resolveInternalId: () => null, cors: { origins: [ORIGIN], allowHeaders: ['X: y\r\nZ'] } }),
      TypeError,
    );
  });
});

describe('options', () => {
  test('missing or wrong options throw when the handler is made', () => {
    const { client } = setup();
    const resolveInternalId = () => null;
    const bad: unknown[] = [
      undefined,
      { resolveInternalId },
      { client: {}, resolveInternalId },
      { client },
      { client, resolveInternalId, timeoutMs: 0 },
      { client, resolveInternalId, timeoutMs: Number.NaN },
      { client, resolveInternalId, maxBodyBytes: -1 },
      { client, resolveInternalId, startDeal: 'yes' },
      { client, resolveInternalId, basePath: 'checkout-api' },
    ];
    for (const options of bad) {
      assert.throws(() => createCheckoutHandler(options as CheckoutHandlerOptions), TypeError, JSON.stringify(options));
    }
  });
});
