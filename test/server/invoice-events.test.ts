/**
 * The fifth route, `GET /invoices/{id}/events`, in one process: the proxy and the notification
 * receiver share a memory store, the mock service runs in process and sends its notifications
 * to the receiver. Streams get the projection at once and on every change, resume by
 * `Last-Event-ID`, end at a terminal status; watched invoices are refreshed once per interval
 * whatever the number of payers; concurrent reads make one upstream call.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { createMockService, type MockService } from '../../src/mock/index.js';
import {
  MerchantClient,
  createCheckoutHandler,
  createMemoryStore,
  createNotificationHandler,
  type CheckoutHandlerOptions,
  type CheckoutStore,
  type Invoice,
} from '../../src/server/node.js';
import { readSse, type SseReader } from '../support/sse.js';

const MERCHANT = { apiKey: 'events-api-key', secretKey: 'events-secret-key', storeId: 41, storeName: 'Streaming Shop' };
const TOKEN = 'events-notification-token';
const ORIGIN = 'https://shop.example';
const BASE = `${ORIGIN}/checkout-api`;

let mock: MockService;
let client: MerchantClient;
let store: CheckoutStore;
let notified: Invoice[] = [];
const receiver = () =>
  createNotificationHandler({
    token: TOKEN,
    client,
    store,
    onNotification: (invoice) => void notified.push(invoice),
  });
let notifications: (request: Request) => Promise<Response>;
const allowed = new Set<string>();
const readers: SseReader[] = [];
const aborts: AbortController[] = [];

before(() => {
  store = createMemoryStore();
  mock = createMockService({
    merchants: [MERCHANT],
    publicBaseUrl: 'https://pay.mock.invalid',
    controls: true,
    notificationFetch: (request) => notifications(request),
    notificationAllowed: () => true,
  });
  client = new MerchantClient({
    baseUrl: 'https://pay.mock.invalid',
    apiKey: MERCHANT.apiKey,
    secretKey: MERCHANT.secretKey,
    fetch: (request) => mock.fetch(request),
  });
  notifications = receiver();
});

after(() => mock.close());

afterEach(async () => {
  for (const controller of aborts.splice(0)) controller.abort();
  await Promise.all(readers.splice(0).map((reader) => reader.close()));
  notified = [];
});

/** GET reads of one invoice the mock answered. */
const readsOf = (id: string) =>
  mock.requests.filter((record) => record.method === 'GET' && record.path === `/api/merchant/invoices/${id}`).length;

const newInvoice = async () => {
  const invoice = await client.createInvoice({
    type: 'in',
    amount: '1500.00',
    currency: 'RUB',
    notificationUrl: 'https://shop.example/notify',
    notificationToken: TOKEN,
    internalId: `order-${crypto.randomUUID()}`,
    startDeal: true,
  });
  allowed.add(invoice.id);
  return invoice;
};

const makeProxy = (options: Partial<CheckoutHandlerOptions> = {}) =>
  createCheckoutHandler({ client, store, basePath: '/checkout-api', authorize: (id) => allowed.has(id), ...options });

/** Opens a stream; the test's `afterEach` closes it. */
const open = async (proxy: (request: Request) => Promise<Response>, id: string, headers: Record<string, string> = {}) => {
  const controller = new AbortController();
  aborts.push(controller);
  const response = await proxy(new Request(`${BASE}/invoices/${id}/events`, { headers, signal: controller.signal }));
  const reader = response.body ? readSse(response.body) : undefined;
  if (reader) readers.push(reader);
  return { response, reader, controller };
};

const dataOf = (data: string | undefined) =>
  JSON.parse(data ?? 'null') as { id: string; status: string; deals: { status: string }[] } & Record<string, unknown>;

describe('GET /invoices/{id}/events', () => {
  test('an invoice event at once: the projection, an id, retry advice; stream headers', async () => {
    const invoice = await newInvoice();
    const { response, reader } = await open(makeProxy({ events: { retryMs: 2500 } }), invoice.id);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.match(response.headers.get('cache-control') ?? '', /no-store|no-cache/);
    assert.equal(response.headers.get('x-accel-buffering'), 'no');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('transfer-encoding'), null);
    const first = await reader!.nextEvent();
    assert.equal(first?.event, 'invoice');
    assert.equal(first?.retry, 2500);
    assert.match(first?.id ?? '', /^\d+-[0-9a-f]{16}$/);
    const data = dataOf(first?.data);
    assert.equal(data.id, invoice.id);
    assert.equal(data.status, 'new');
    // The allow-list: nothing of the service's invoice beyond the projection.
    for (const secret of ['notificationToken', 'storeId', 'payoutSum', 'serviceFeeSum', 'userId', 'invoiceUrl'])
      assert.ok(!(secret in data), secret);
  });

  test('same authorization and path rules: 404 before any stream or upstream read, 405, 400', async () => {
    const invoice = await newInvoice();
    allowed.delete(invoice.id);
    const proxy = makeProxy();
    const before = readsOf(invoice.id);
    const refused = await proxy(new Request(`${BASE}/invoices/${invoice.id}/events`));
    assert.equal(refused.status, 404);
    assert.match(refused.headers.get('content-type') ?? '', /application\/json/);
    assert.equal(readsOf(invoice.id), before, 'nothing asked upstream');
    assert.equal((await proxy(new Request(`${BASE}/invoices/${invoice.id}/events`, { method: 'POST' }))).status, 405);
    assert.equal((await proxy(new Request(`${BASE}/invoices/42/events`))).status, 400);
    assert.equal((await proxy(new Request(`${BASE}/invoices/${invoice.id}/events/x`))).status, 404);
    const off = makeProxy({ events: false });
    allowed.add(invoice.id);
    assert.equal((await off(new Request(`${BASE}/invoices/${invoice.id}/events`))).status, 404);
  });

  test('CORS: a listed origin gets its headers, with credentials when asked; another origin none', async () => {
    const invoice = await newInvoice();
    const proxy = makeProxy({ cors: { origins: [ORIGIN.replace('shop', 'front')], credentials: true } });
    const listed = await open(proxy, invoice.id, { origin: 'https://front.example' });
    assert.equal(listed.response.headers.get('access-control-allow-origin'), 'https://front.example');
    assert.equal(listed.response.headers.get('access-control-allow-credentials'), 'true');
    assert.match(listed.response.headers.get('vary') ?? '', /origin/i);
    const other = await open(proxy, invoice.id, { origin: 'https://evil.example' });
    assert.equal(other.response.headers.get('access-control-allow-origin'), null);
    const preflight = await proxy(
      new Request(`${BASE}/invoices/${invoice.id}/events`, {
        method: 'OPTIONS',
        headers: { origin: 'https://front.example', 'access-control-request-method': 'GET' },
      }),
    );
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /GET/);
  });

  test('a notification reaches every open stream; a terminal status ends them', async () => {
    const invoice = await newInvoice();
    const proxy = makeProxy();
    const streams = await Promise.all([open(proxy, invoice.id), open(proxy, invoice.id), open(proxy, invoice.id)]);
    for (const { reader } of streams) assert.equal(dataOf((await reader!.nextEvent())?.data).status, 'new');
    mock.markPaid(invoice.id);
    await mock.notificationsSettled();
    assert.deepEqual(
      notified.map((each) => each.status),
      ['paid'],
    );
    for (const { reader } of streams) {
      const paid = await reader!.nextEvent(2000);
      assert.equal(dataOf(paid?.data).status, 'paid');
      assert.equal(await reader!.nextEvent(2000), undefined, 'the stream ends after a terminal status');
    }
  });

  test('Last-Event-ID: the same state is not sent again, a newer one at once; a seen terminal state is 204', async () => {
    const invoice = await newInvoice();
    const proxy = makeProxy({ events: { heartbeatMs: 50 } });
    const first = await open(proxy, invoice.id);
    const seen = await first.reader!.nextEvent();
    // Reconnect with the id just seen: a heartbeat comes, not the same event.
    const again = await open(proxy, invoice.id, { 'last-event-id': seen!.id! });
    const block = await again.reader!.next(2000);
    assert.equal(block?.comment, 'heartbeat 50', JSON.stringify(block));
    again.controller.abort();
    // The invoice changes while a payer is away: on return, the new state comes first.
    first.controller.abort();
    mock.markPaid(invoice.id);
    await mock.notificationsSettled();
    const back = await open(proxy, invoice.id, { 'last-event-id': seen!.id! });
    const paid = await back.reader!.nextEvent();
    assert.equal(dataOf(paid?.data).status, 'paid');
    assert.notEqual(paid?.id, seen?.id);
    // Having seen the end, a reconnect is told to stop.
    const done = await proxy(new Request(`${BASE}/invoices/${invoice.id}/events`, { headers: { 'last-event-id': paid!.id! } }));
    assert.equal(done.status, 204);
  });

  test('a stream that resumes from an id newer than this instance knows reads the invoice again', async () => {
    const invoice = await newInvoice();
    const proxy = makeProxy();
    const first = await open(proxy, invoice.id);
    const seen = await first.reader!.nextEvent();
    const reads = readsOf(invoice.id);
    const [updatedAt] = seen!.id!.split('-');
    const ahead = `${Number(updatedAt) + 60_000}-0123456789abcdef`;
    const resumed = await open(proxy, invoice.id, { 'last-event-id': ahead });
    assert.equal(dataOf((await resumed.reader!.nextEvent())?.data).id, invoice.id);
    assert.equal(readsOf(invoice.id), reads + 1);
    // A stream with no id (or the one this instance has) is served from the watch, without a read.
    const more = await open(proxy, invoice.id);
    await more.reader!.nextEvent();
    assert.equal(readsOf(invoice.id), reads + 1);
  });

  test('heartbeat comments keep an idle stream open', async () => {
    const invoice = await newInvoice();
    const { reader } = await open(makeProxy({ events: { heartbeatMs: 40 } }), invoice.id);
    await reader!.nextEvent();
    assert.equal((await reader!.next(1000))?.comment, 'heartbeat 40');
    assert.equal((await reader!.next(1000))?.comment, 'heartbeat 40');
  });

  test('without notifications: one upstream read per invoice per refresh interval, however many payers stream it', async () => {
    const invoice = await newInvoice();
    // A receiver that is down: the proxy must notice the change by itself.
    notifications = () => Promise.resolve(new Response('down', { status: 500 }));
    try {
      const proxy = makeProxy({ events: { refreshIntervalMs: 300 } });
      const streams = [];
      for (let index = 0; index < 20; index++) streams.push(await open(proxy, invoice.id));
      for (const { reader } of streams) await reader!.nextEvent();
      const reads = readsOf(invoice.id);
      assert.ok(reads <= 2, `the first stream read it, the others shared it (${reads})`);
      mock.markPaid(invoice.id);
      const started = Date.now();
      for (const { reader } of streams) assert.equal(dataOf((await reader!.nextEvent(3000))?.data).status, 'paid');
      assert.ok(Date.now() - started < 1500, 'seen within about one interval');
      // One read per interval (±10 %) for the invoice, not one per payer.
      assert.ok(readsOf(invoice.id) - reads <= 2, `reads during the wait: ${readsOf(invoice.id) - reads}`);
    } finally {
      notifications = receiver();
    }
  });

  test('an invoice nobody streams any more is not refreshed', async () => {
    const invoice = await newInvoice();
    const proxy = makeProxy({ events: { refreshIntervalMs: 50 } });
    const stream = await open(proxy, invoice.id);
    await stream.reader!.nextEvent();
    stream.controller.abort();
    await stream.reader!.close();
    const reads = readsOf(invoice.id);
    // Proving that something does not happen takes a wait: four intervals.
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(readsOf(invoice.id), reads);
  });
});

describe('single flight', () => {
  test('a burst of 50 polls of one invoice makes one upstream read, and all get the same answer', async () => {
    const invoice = await newInvoice();
    const proxy = makeProxy({ bankNames: false });
    const before = readsOf(invoice.id);
    mock.setLatency(50);
    try {
      const answers = await Promise.all(Array.from({ length: 50 }, () => proxy(new Request(`${BASE}/invoices/${invoice.id}`))));
      assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([200]));
      const bodies = new Set(await Promise.all(answers.map((answer) => answer.text())));
      assert.equal(bodies.size, 1);
    } finally {
      mock.setLatency(0);
    }
    assert.equal(readsOf(invoice.id) - before, 1);
  });

  test('a payer leaving does not cancel the read the others wait for', async () => {
    const invoice = await newInvoice();
    const proxy = makeProxy({ bankNames: false });
    mock.setLatency(80);
    try {
      const leaving = new AbortController();
      const gone = proxy(new Request(`${BASE}/invoices/${invoice.id}`, { signal: leaving.signal }));
      const staying = proxy(new Request(`${BASE}/invoices/${invoice.id}`));
      leaving.abort();
      await gone.catch(() => undefined);
      assert.equal((await staying).status, 200);
    } finally {
      mock.setLatency(0);
    }
  });
});
