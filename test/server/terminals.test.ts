/**
 * Several terminals: one secret serving two API keys, each invoice visible only to the key
 * that created it, through the proxy on the mock.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MerchantClient, createCheckoutHandler, createNotificationHandler, type Invoice } from '../../src/server/node.js';
import { createMockService, startMockServer, type MockServer } from '../../src/mock/index.js';

const SECRET = 'one-secret-for-two-terminals';
let mock: MockServer;
let rub: MerchantClient;
let kzt: MerchantClient;

before(async () => {
  mock = await startMockServer({
    port: 0,
    merchants: [
      { apiKey: 'terminal-rub', secretKey: SECRET, storeId: 1, storeName: 'Shop RUB' },
      { apiKey: 'terminal-kzt', secretKey: SECRET, storeId: 2, storeName: 'Shop KZT' },
    ],
    notificationAllowed: () => false,
  });
  rub = new MerchantClient({ baseUrl: mock.url, apiKey: 'terminal-rub', secretKey: SECRET, timeoutMs: 5000 });
  kzt = new MerchantClient({ baseUrl: mock.url, apiKey: 'terminal-kzt', secretKey: SECRET, timeoutMs: 5000 });
});
after(() => mock.close());

/** Invoice reads the mock answered (bank-name lookups aside). */
const reads = () => mock.service.requests.filter((request) => request.path.startsWith('/api/merchant/invoices/')).length;

const create = (client: MerchantClient) =>
  client.createInvoice({
    type: 'in',
    amount: '1500.00',
    currency: 'RUB',
    notificationUrl: 'https://shop.example/notify',
    notificationToken: 'token',
    startDeal: true,
  });

describe('several terminals behind one proxy', () => {
  test('an invoice is visible only to the key that created it', async () => {
    const invoice = await create(kzt);
    await assert.rejects(rub.getInvoice(invoice.id), (error: { status?: number }) => error.status === 404);
    assert.equal((await kzt.getInvoice(invoice.id)).id, invoice.id);
  });

  test('with both clients the proxy finds the terminal, once; with only the other one it is 404', async () => {
    const invoice = await create(kzt);
    const both = createCheckoutHandler({ client: [rub, kzt], authorize: () => true });
    const read = () => both(new Request(`https://shop.example/invoices/${invoice.id}`));
    const first = reads();
    assert.equal((await read()).status, 200);
    const probing = reads() - first;
    assert.equal(probing, 2, 'the first read asks the RUB terminal (404), then the KZT one');
    const second = reads();
    const again = await read();
    assert.equal(again.status, 200);
    assert.equal(((await again.json()) as { storeName: string }).storeName, 'Shop KZT');
    assert.equal(reads() - second, 1, 'the terminal is remembered');
    const wrong = createCheckoutHandler({ client: rub, authorize: () => true });
    assert.equal((await wrong(new Request(`https://shop.example/invoices/${invoice.id}`))).status, 404);
  });

  test('clientFor picks the terminal without probing', async () => {
    const invoice = await create(rub);
    const handler = createCheckoutHandler({ client: [rub, kzt], clientFor: () => rub, authorize: () => true });
    const first = reads();
    assert.equal((await handler(new Request(`https://shop.example/invoices/${invoice.id}`))).status, 200);
    assert.equal(reads() - first, 1);
    const none = createCheckoutHandler({ client: [rub, kzt], clientFor: () => undefined, authorize: () => true });
    assert.equal((await none(new Request(`https://shop.example/invoices/${invoice.id}`))).status, 404);
  });
});

describe('several terminals, one notification receiver', () => {
  test("each terminal's notificationToken is accepted, another is not, and each notification is handed on once", async () => {
    const received: Invoice[] = [];
    let receiver: (request: Request) => Promise<Response> = () => Promise.reject(new Error('no receiver yet'));
    const statuses: number[] = [];
    const service = createMockService({
      publicBaseUrl: 'https://pay.example',
      merchants: [
        { apiKey: 'terminal-rub', secretKey: SECRET, storeId: 1, storeName: 'Shop RUB' },
        { apiKey: 'terminal-kzt', secretKey: SECRET, storeId: 2, storeName: 'Shop KZT' },
      ],
      notificationAllowed: () => true,
      // One attempt: the refused notification is not retried 60 s later within this test.
      notificationRetry: { attempts: 1 },
      notificationFetch: async (request) => {
        const answer = await receiver(request);
        statuses.push(answer.status);
        return answer;
      },
    });
    try {
      const terminal = (apiKey: string) =>
        new MerchantClient({ baseUrl: 'https://pay.example', apiKey, secretKey: SECRET, fetch: service.fetch });
      // Each notification is verified through the terminal that owns its invoice (the other sees a 404).
      receiver = createNotificationHandler({
        token: ['token-of-rub', 'token-of-kzt'],
        client: [terminal('terminal-rub'), terminal('terminal-kzt')],
        onNotification: (invoice) => void received.push(invoice),
      });
      const invoiceFor = (apiKey: string, notificationToken: string) =>
        terminal(apiKey).createInvoice({
          type: 'in',
          amount: '1500.00',
          currency: 'RUB',
          notificationUrl: 'https://shop.example/notify',
          notificationToken,
          startDeal: true,
        });
      const rub = await invoiceFor('terminal-rub', 'token-of-rub');
      const kzt = await invoiceFor('terminal-kzt', 'token-of-kzt');
      const stranger = await invoiceFor('terminal-kzt', 'a-token-this-shop-never-gave');
      for (const invoice of [rub, kzt, stranger]) service.markPaid(invoice.id);
      await service.notificationsSettled();
      assert.deepEqual(
        received.map((invoice) => [invoice.id, invoice.status, invoice.storeId]).sort(),
        [
          [kzt.id, 'paid', 2],
          [rub.id, 'paid', 1],
        ].sort(),
      );
      assert.ok(statuses.includes(401), 'the unknown token was refused');
    } finally {
      service.close();
    }
  });
});
