/**
 * Acceptance: the payer's HTTP request → the checkout proxy on a real port (toNodeHandler)
 * → MerchantClient → the mock service on its own real port, and back.
 */
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { mockQuirks } from '../support/quirks.js';
import {
  MerchantClient,
  createCheckoutHandler,
  toNodeHandler,
  type Invoice,
  type InvoiceLookup,
  type PaymentVariant,
} from '../../src/server/node.js';

const MERCHANT = { apiKey: 'acceptance-api-key-7Hq2', secretKey: 'acceptance-secret-Lp9w-Ключ', storeId: 31, storeName: 'Proxy Shop' };
const TIMEOUT_MS = 400;
const MAX_BODY = 4096;
const PAYER = 'session=payer-1';
const OTHER_PAYER = 'session=payer-2';

let mock: MockServer;
let client: MerchantClient;
let proxy: Server;
let proxyUrl: string;
const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/** The merchant's own database: invoice id → order id and the payer's session. */
const orders = new Map<string, { internalId: string; session: string }>();
let resolveCalls = 0;
/** When set, the merchant's lookup is broken in the way a test wants. */
let resolveOverride: ((id: string) => string | null) | undefined;

/** Every answer the proxy gave in this file, checked for the keys at the end. */
const answers: string[] = [];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

interface SendOptions {
  body?: string | Buffer;
  /** Written one by one, so the body goes chunked, with no length declared. */
  chunks?: string[];
  headers?: Record<string, string>;
}

/**
 * A raw HTTP request to the proxy: the path goes out exactly as written (no client-side
 * normalisation). Node's own parser answers a malformed request line with 400 and closes the
 * connection, which a kept-alive socket may only see as a hang-up: then it is sent once more
 * on a fresh connection, where the 400 arrives.
 */
const send = (method: string, path: string, options: SendOptions = {}): Promise<Answer> =>
  sendOnce(method, path, options, agent).catch(() => sendOnce(method, path, options, false));

const sendOnce = (method: string, path: string, options: SendOptions, via: Agent | false) =>
  new Promise<Answer>((resolve, reject) => {
    const req = httpRequest(`${proxyUrl}/`, { method, path, agent: via, headers: { cookie: PAYER, ...options.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        answers.push(`${JSON.stringify(res.headers)}\n${text}`);
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end(options.body);
  });

const jsonBody = (value: unknown) => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json' } });

let orderNumber = 0;
const newInvoice = async (startDeal = true, session = PAYER): Promise<Invoice> => {
  const internalId = `order-${++orderNumber}`;
  const invoice = await client.createInvoice({
    type: 'in',
    amount: '1500.00',
    currency: 'RUB',
    notificationUrl: 'https://shop.example/notify',
    notificationToken: 'unused-token',
    internalId,
    startDeal,
  });
  orders.set(invoice.id, { internalId, session });
  return invoice;
};

const upstreamCount = () => mock.service.requests.length;

before(async () => {
  mock = await startMockServer({ merchants: [MERCHANT], controls: true, port: 0, notificationAllowed: () => false, ...mockQuirks() });
  client = new MerchantClient({ baseUrl: mock.url, apiKey: MERCHANT.apiKey, secretKey: MERCHANT.secretKey, timeoutMs: 5000 });
  const handler = createCheckoutHandler({
    client,
    basePath: '/checkout-api',
    timeoutMs: TIMEOUT_MS,
    maxBodyBytes: MAX_BODY,
    resolveInternalId: (id, request) => {
      resolveCalls++;
      if (resolveOverride) return resolveOverride(id);
      const order = orders.get(id);
      return order && request.headers.get('cookie') === order.session ? order.internalId : null;
    },
  });
  proxy = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

after(async () => {
  agent.destroy();
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await mock.close();
  assert.ok(answers.length > 0);
  for (const answer of answers) {
    assert.ok(!answer.includes(MERCHANT.apiKey), `an answer leaked the API key: ${answer}`);
    assert.ok(!answer.includes(MERCHANT.secretKey), `an answer leaked the secret key: ${answer}`);
    assert.ok(!/x-signature|x-identity/i.test(answer), `an answer carried a signing header: ${answer}`);
  }
});

describe(`the mock's answers ${mockQuirks().quirks === undefined ? 'in one shape (no quirks)' : `in varying shapes (MOCK_QUIRKS=${mockQuirks().quirks})`}`, () => {
  test('raw reads of one invoice are identical without quirks and vary with them, and the proxy shows one state', async () => {
    const invoice = await newInvoice();
    const raw = new Set<string>();
    const shown = new Set<string>();
    for (let i = 0; i < 20; i++) {
      raw.add(JSON.stringify(await client.request('GET', `/invoices/${invoice.id}`)));
      const answer = await send('GET', `/checkout-api/invoices/${invoice.id}`);
      assert.equal(answer.status, 200, answer.text);
      const { updatedAt: _updatedAt, ...state } = answer.json as Record<string, unknown>;
      shown.add(JSON.stringify(state));
    }
    if (mockQuirks().quirks === undefined) assert.equal(raw.size, 1);
    else assert.ok(raw.size > 1, 'quirks vary the raw answers');
    const instants = new Set([...shown].map((text) => Date.parse((JSON.parse(text) as { expireAt: string }).expireAt)));
    assert.equal(instants.size, 1, 'every form names the same expiry');
  });
});

describe('bank names', () => {
  test("a deal read without paymentMethodName gets the name from the service's list, read once per currency", async () => {
    const invoice = await newInvoice();
    const code = mock.service.getInvoice(invoice.id)!.deals[0]!.paymentMethod;
    const names = new Map((await client.listPaymentMethods('RUB')).map((bank) => [bank.code, bank.name]));
    assert.ok(names.get(code), `the service names ${code}`);
    const lists = () => mock.service.requests.filter((request) => request.path === '/api/merchant/payment-methods').length;
    const before = lists();
    for (let i = 0; i < 3; i++) {
      const answer = await send('GET', `/checkout-api/invoices/${invoice.id}`);
      assert.equal(answer.status, 200, answer.text);
      const deal = (answer.json as InvoiceLookup).deals[0]!;
      assert.equal(deal.paymentMethod, code);
      assert.equal(deal.paymentMethodName, names.get(code));
    }
    assert.ok(lists() - before <= 1, `the list was read ${lists() - before} times`);
  });
});

describe('each route end to end through the proxy, the client and the mock', () => {
  test('GET /invoices/{id}: the invoice as the service has it, with Date and no-store', async () => {
    const invoice = await newInvoice();
    const answer = await send('GET', `/checkout-api/invoices/${invoice.id}`);
    assert.equal(answer.status, 200, answer.text);
    const upstream = mock.service.getInvoice(invoice.id)!;
    const shown = answer.json as InvoiceLookup & Record<string, unknown>;
    assert.equal(shown.id, invoice.id);
    assert.deepEqual(shown.sum, upstream.sum);
    assert.equal(shown.deals[0]?.isActive, true);
    assert.deepEqual(shown.deals[0]?.requisites, upstream.deals[0]?.requisites);
    for (const hidden of ['userId', 'storeId', 'invoiceUrl', 'receivedSumFromTaker', 'payoutSum']) assert.ok(!(hidden in shown), hidden);
    assert.ok(Date.parse(String(answer.headers.date)) > 0);
    assert.equal(answer.headers['cache-control'], 'no-store');
  });

  test('GET /invoices/{id}/available-payment-variants', async () => {
    const invoice = await newInvoice();
    const answer = await send('GET', `/checkout-api/invoices/${invoice.id}/available-payment-variants`);
    assert.equal(answer.status, 200, answer.text);
    const variants = answer.json as PaymentVariant[];
    assert.ok(Array.isArray(variants) && variants.length > 0);
    for (const variant of variants) assert.deepEqual(Object.keys(variant).sort(), ['method', 'option']);
  });

  test('POST /invoices/{id}/cancel cancels it at the service', async () => {
    const invoice = await newInvoice();
    const answer = await send('POST', `/checkout-api/invoices/${invoice.id}/cancel`);
    assert.equal(answer.status, 200, answer.text);
    assert.equal((answer.json as { status: string }).status, 'canceled');
    assert.equal(mock.service.getInvoice(invoice.id)?.status, 'canceled');
  });

  test('POST /invoices/{id}/deal starts a deal with the chosen variant through the hook', async () => {
    const invoice = await newInvoice(false);
    assert.equal(mock.service.getInvoice(invoice.id)?.deals.length, 0);
    const variants = (await send('GET', `/checkout-api/invoices/${invoice.id}/available-payment-variants`)).json as PaymentVariant[];
    const chosen = variants.at(-1)!;
    const answer = await send('POST', `/checkout-api/invoices/${invoice.id}/deal`, jsonBody(chosen));
    assert.equal(answer.status, 200, answer.text);
    const deal = (answer.json as InvoiceLookup).deals.find((candidate) => candidate.isActive);
    assert.equal(deal?.paymentOption, chosen.option);
    assert.equal(deal?.paymentMethod, chosen.method);
  });
});

describe('refusals against the mock', () => {
  test('an unknown invoice is 404 with no upstream call', async () => {
    const before = upstreamCount();
    const answer = await send('GET', `/checkout-api/invoices/${crypto.randomUUID()}`);
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.json, { error: { code: 'not_found', message: 'unknown invoice' } });
    assert.equal(upstreamCount(), before);
  });

  test("another payer's invoice is 404 with no upstream call, and is not canceled", async () => {
    const invoice = await newInvoice(true, OTHER_PAYER);
    const before = upstreamCount();
    assert.equal((await send('GET', `/checkout-api/invoices/${invoice.id}`)).status, 404);
    assert.equal((await send('POST', `/checkout-api/invoices/${invoice.id}/cancel`)).status, 404);
    assert.equal(upstreamCount(), before);
    assert.equal(mock.service.getInvoice(invoice.id)?.status, 'new');
  });

  test("an internal id that is another invoice's is refused: one lookup, no cancel", async () => {
    const mine = await newInvoice();
    const victim = await newInvoice(true, OTHER_PAYER);
    resolveOverride = () => orders.get(victim.id)!.internalId;
    try {
      const before = upstreamCount();
      const answer = await send('POST', `/checkout-api/invoices/${mine.id}/cancel`);
      assert.equal(answer.status, 404);
      assert.ok(!answer.text.includes(victim.id));
      assert.deepEqual(
        mock.service.requests.slice(before).map(({ method, path }) => `${method} ${path}`),
        [`GET /api/merchant/invoices/${mine.id}`],
      );
      assert.equal(mock.service.getInvoice(victim.id)?.status, 'new');
      assert.equal(mock.service.getInvoice(mine.id)?.status, 'new');
    } finally {
      resolveOverride = undefined;
    }
  });

  test('a huge body is 413, declared or streamed, with no upstream call', async () => {
    const invoice = await newInvoice();
    const before = upstreamCount();
    const huge = await send('POST', `/checkout-api/invoices/${invoice.id}/cancel`, { body: Buffer.alloc(5 * 1024 * 1024, 0x61) });
    assert.equal(huge.status, 413);
    const overLimit = await send(
      'POST',
      `/checkout-api/invoices/${invoice.id}/deal`,
      jsonBody({ option: 'SBP', method: 'x'.repeat(MAX_BODY) }),
    );
    assert.equal(overLimit.status, 413);
    assert.deepEqual(overLimit.json, {
      error: { code: 'payload_too_large', message: `request body exceeds ${MAX_BODY} bytes`, maxBytes: MAX_BODY },
    });
    const chunked = await send('POST', `/checkout-api/invoices/${invoice.id}/cancel`, {
      chunks: Array.from({ length: 10 }, () => 'z'.repeat(1000)),
    });
    assert.equal(chunked.status, 413);
    assert.equal(upstreamCount(), before);
    assert.equal(mock.service.getInvoice(invoice.id)?.status, 'new');
  });

  test('upstream 500 → 502, invalid JSON → 502, hang → 504 within timeoutMs', async () => {
    const invoice = await newInvoice();
    const path = `/checkout-api/invoices/${invoice.id}`;

    mock.service.failNext(1, 500);
    const failed = await send('GET', path);
    assert.deepEqual(
      [failed.status, failed.json],
      [502, { error: { code: 'upstream_error', message: 'the payment service failed to answer' } }],
    );
    assert.ok(!failed.text.includes('failNext'), 'the upstream error body is not passed on');

    mock.service.malformNext(1);
    const malformed = await send('GET', path);
    assert.deepEqual(
      [malformed.status, malformed.json],
      [502, { error: { code: 'upstream_invalid', message: 'the payment service answered something unexpected' } }],
    );

    mock.service.hangNext(1);
    const started = performance.now();
    const hung = await send('GET', path);
    const elapsed = performance.now() - started;
    assert.deepEqual([hung.status, (hung.json as { error: { code: string } }).error.code], [504, 'upstream_timeout']);
    assert.ok(elapsed >= TIMEOUT_MS - 20 && elapsed < TIMEOUT_MS + 2000, `answered after ${Math.round(elapsed)} ms`);
    assert.equal((await send('GET', path)).status, 200, 'the next request is served again');
  });

  test('a cancel the service refuses (already canceled) is 409 cancel_refused, its reason not passed on', async () => {
    const invoice = await newInvoice();
    assert.equal((await send('POST', `/checkout-api/invoices/${invoice.id}/cancel`)).status, 200);
    const again = await send('POST', `/checkout-api/invoices/${invoice.id}/cancel`);
    assert.equal(again.status, 409);
    assert.equal((again.json as { error: { code: string } }).error.code, 'cancel_refused');
    assert.ok(!again.text.includes('canceled'), again.text);
  });
});

describe('fuzz: nothing but the routes reaches upstream', () => {
  test('≥ 1,000 generated paths and methods: no mock request, no merchant lookup', async () => {
    const invoice = await newInvoice();
    const id = invoice.id;
    const { internalId } = orders.get(id)!;
    const otherId = crypto.randomUUID();
    // Each piece knows what it decodes to, so "is this one of the four routes?" is answered
    // from the generator's side, not by the code under test.
    const piece = (raw: string, value = raw) => ({ raw, value });
    const dot = (raw: string) => ({ raw, value: '.', dot: true as const });
    const segment = fc.oneof(
      fc.constantFrom(
        piece('invoices'),
        piece('%69nvoices', 'invoices'),
        piece('INVOICES'),
        piece('withdrawals'),
        piece('accounts'),
        piece('dispute'),
        piece('receipt'),
        // `/banks` is public but needs `?currency=`, which no suffix here gives: never upstream.
        piece('banks'),
        piece('internal-id'),
        piece(internalId),
        piece('cancel'),
        piece('deal'),
        piece('available-payment-variants'),
        piece('api'),
        piece('merchant'),
        piece('checkout-api'),
        piece(id),
        piece(id.toUpperCase(), id),
        piece(otherId),
        piece(crypto.randomUUID().replace(/-/g, '')),
        piece('42'),
        piece(''),
        piece('%2F', '/'),
        piece('%2f', '/'),
        piece('%252F', '%2F'),
        piece('%25252F', '%252F'),
        piece('%5C', '\\'),
        piece('%5c..%5c', '\\..\\'),
        piece('%00', '\0'),
        piece('%0a', '\n'),
        piece('%E0%A4%A', '\uFFFD'),
        piece(`${id}%2Fcancel`, `${id}/cancel`),
        piece(`${id}%252Fcancel`, `${id}%2Fcancel`),
        piece(`invoices%2F${id}`, `invoices/${id}`),
        piece('withdrawals%3F', 'withdrawals?'),
        piece(';jsessionid=1'),
        piece(`${id};x`),
        piece('%2e%2e%2f', '../'),
        piece('..%2f', '../'),
        piece('%u002e%u002e'),
        piece('x'.repeat(1500)),
        dot('.'),
        dot('..'),
        dot('%2e'),
        dot('%2e%2e'),
        dot('%2E.'),
        dot('.%2E'),
      ),
      fc.stringMatching(/^[A-Za-z0-9._~%-]{1,12}$/).map((raw) => {
        let value: string;
        try {
          value = decodeURIComponent(raw);
        } catch {
          value = '\uFFFD';
        }
        return {
          raw,
          value,
          dot: value === '.' || value === '..' || raw.split('%2e').length > 1 || raw.split('%2E').length > 1 ? true : undefined,
        };
      }),
    );
    const prefix = fc.constantFrom(
      { raw: '/checkout-api', value: ['checkout-api'] },
      { raw: '/checkout-api/api/merchant', value: ['checkout-api', 'api', 'merchant'] },
      { raw: '/api/merchant', value: ['api', 'merchant'] },
      { raw: '', value: [] },
      { raw: '/CHECKOUT-API', value: ['CHECKOUT-API'] },
      { raw: '/checkout%2Dapi', value: ['checkout-api'] },
      { raw: '/checkout-api/', value: ['checkout-api', ''] },
      { raw: '//checkout-api', value: ['', 'checkout-api'] },
      { raw: '/checkout-api\\', value: ['checkout-api\\'] },
    );
    // Near misses: the shape of a route with one part off (id, operation, spelling, method).
    const nearRoute = fc
      .tuple(
        fc.constantFrom(piece('invoices'), piece('%69nvoices', 'invoices'), piece('INVOICES'), piece('invoice'), piece('withdrawals')),
        fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(piece(id), piece(id.toUpperCase(), id)) },
          fc.constantFrom(
            piece(otherId),
            piece(`%${id.charCodeAt(0).toString(16)}${id.slice(1)}`, id),
            piece(`%25${id.charCodeAt(0).toString(16)}${id.slice(1)}`, `%${id.charCodeAt(0).toString(16)}${id.slice(1)}`),
            piece(internalId),
            piece('42'),
            piece(`${id}%2Fcancel`, `${id}/cancel`),
            piece(`${id}%252F`, `${id}%2F`),
            piece(`{${id}}`),
            piece(id.replace(/-/g, '')),
            piece(''),
            dot('..'),
            dot('%2e%2e'),
          ),
        ),
        fc.option(
          fc.constantFrom(
            piece('cancel'),
            piece('deal'),
            piece('available-payment-variants'),
            piece('c%61ncel', 'cancel'),
            piece('%2563ancel', '%63ancel'),
            piece('d%2565al', 'd%65al'),
            piece('CANCEL'),
            piece('dispute'),
            piece('withdrawals'),
            piece('internal-id'),
            piece(''),
            piece('%2Fwithdrawals', '/withdrawals'),
            dot('..'),
            dot('.'),
          ),
          { nil: undefined },
        ),
      )
      .map(([collection, invoiceId, operation]) => ({
        start: { raw: '/checkout-api', value: ['checkout-api'] },
        segments: operation ? [collection, invoiceId, operation] : [collection, invoiceId],
      }));
    const anyPath = fc.record({ start: prefix, segments: fc.array(segment, { minLength: 0, maxLength: 5 }) });
    const method = fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom('GET', 'POST') },
      fc.constantFrom('PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'MOVE', 'SEARCH', 'MERGE'),
    );
    const suffix = fc.constantFrom('', '', '?x=1', '?path=/withdrawals', '#f', '?a=%2F..%2F');
    const body = fc.constantFrom(undefined, jsonBody({ option: 'SBP', method: 'sberbank' }), {
      body: 'option=SBP',
      headers: { 'content-type': 'text/plain' },
    });

    const ROUTE_METHOD = new Map([
      ['', 'GET'],
      ['available-payment-variants', 'GET'],
      ['cancel', 'POST'],
      ['deal', 'POST'],
      ['receipt', 'POST'],
      ['dispute', 'POST'],
    ]);
    const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    /**
     * From the decoded pieces: `ours` is one of the four routes on the payer's invoice (may
     * reach upstream: left out), `route` one of them on an unknown UUID (may ask the merchant,
     * never the service), `other` anything else (neither).
     */
    const classify = (values: string[], verb: string, hasDot: boolean): 'ours' | 'route' | 'other' => {
      const [base, collection, invoiceId = '', operation = ''] = values;
      const shaped =
        !hasDot &&
        base === 'checkout-api' &&
        collection === 'invoices' &&
        UUID.test(invoiceId) &&
        (values.length === 3 || (values.length === 4 && operation !== '')) &&
        ROUTE_METHOD.get(operation) === verb;
      if (!shaped) return 'other';
      return invoiceId.toLowerCase() === id ? 'ours' : 'route';
    };

    const before = upstreamCount();
    const statuses = new Map<number, number>();
    let runs = 0;
    await fc
      .assert(
        fc.asyncProperty(
          fc.oneof({ weight: 2, arbitrary: nearRoute }, anyPath),
          method,
          suffix,
          body,
          async ({ start, segments }, verb, query, payload) => {
            const values = [...start.value, ...segments.map((part) => part.value)];
            const hasDot = segments.some((part) => 'dot' in part && part.dot === true);
            const kind = classify(values, verb, hasDot);
            fc.pre(kind !== 'ours');
            runs++;
            const resolvesBefore = resolveCalls;
            const path = `${start.raw}/${segments.map((part) => part.raw).join('/')}${query}`;
            const answer = await send(verb, path, verb === 'GET' || verb === 'HEAD' ? {} : (payload ?? {}));
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            assert.ok([204, 400, 404, 405, 413, 415, 501].includes(answer.status), `${verb} ${path} → ${answer.status} ${answer.text}`);
            assert.equal(upstreamCount(), before, `${verb} ${path} reached the service`);
            if (kind === 'other') assert.equal(resolveCalls, resolvesBefore, `${verb} ${path} reached resolveInternalId`);
          },
        ),
        { numRuns: 1200, seed: 20261122, endOnFailure: true },
      )
      .catch((error: Error) => {
        // node:test prints the message only; fast-check keeps the failed assertion in `cause`.
        throw new Error(`${error.message}\n${String(error.cause)}`);
      });
    assert.ok(runs >= 1000, `only ${runs} requests were tried`);
    // The generator really probes every kind of refusal.
    for (const status of [400, 404, 405]) assert.ok((statuses.get(status) ?? 0) > 20, `few ${status}s: ${JSON.stringify([...statuses])}`);
  });
});
