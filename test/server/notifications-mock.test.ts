/**
 * Acceptance: the mock service sends its status notifications over HTTP to
 * createNotificationHandler, mounted with toNodeHandler on a real port.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import {
  MerchantClient,
  createNotificationHandler,
  toNodeHandler,
  type InvoiceLookup,
  type RawNotification,
} from '../../src/server/node.js';

const MERCHANT = { apiKey: 'notify-api-key', secretKey: 'notify-secret-key', storeId: 5, storeName: 'Notified Shop' };
const TOKEN = 'shop-notification-token-8d2c';

let mock: MockServer;
let client: MerchantClient;
let receiver: Server;
let notifyUrl: string;
const received: { invoice: InvoiceLookup; notification: RawNotification | null }[] = [];
/** Set by a test to make the merchant's handler fail. */
let failures = 0;

before(async () => {
  mock = await startMockServer({
    merchants: [MERCHANT],
    controls: true,
    port: 0,
    notificationRetry: { attempts: 3, baseDelayMs: 20, maxDelayMs: 40, timeoutMs: 2000 },
  });
  client = new MerchantClient({ baseUrl: mock.url, apiKey: MERCHANT.apiKey, secretKey: MERCHANT.secretKey });
  const handler = createNotificationHandler({
    token: TOKEN,
    // Each notification is verified with the mock, which signs nothing but checks our signature.
    client,
    onNotification: (invoice, notification) => {
      if (failures > 0) {
        failures--;
        throw new Error('order database unavailable');
      }
      received.push({ invoice, notification });
    },
  });
  receiver = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  notifyUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/payments/notify`;
});

after(async () => {
  await mock.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

beforeEach(() => {
  received.length = 0;
  failures = 0;
});

const newInvoice = (notificationToken = TOKEN) =>
  client.createInvoice({
    type: 'in',
    amount: '1990.00',
    currency: 'RUB',
    notificationUrl: notifyUrl,
    notificationToken,
    internalId: `order-${crypto.randomUUID()}`,
    startDeal: true,
  });

const recordsOf = (invoiceId: string) => mock.service.notifications.filter((record) => record.invoiceId === invoiceId);

describe('notifications from the mock to createNotificationHandler', () => {
  test('the right token: the handler gets the parsed invoice and the service sees 200', async () => {
    const invoice = await newInvoice();
    await client.cancelInvoice(invoice.id);
    await mock.service.notificationsSettled();
    assert.equal(received.length, 1);
    assert.equal(received[0]?.invoice.id, invoice.id);
    assert.equal(received[0]?.invoice.status, 'canceled');
    assert.equal(received[0]?.notification?.notificationType, 'invoice', 'the documented body, as it arrived');
    const [record] = recordsOf(invoice.id);
    assert.equal(record?.state, 'delivered');
    assert.deepEqual(
      record?.attempts.map((attempt) => attempt.status),
      [200],
    );
  });

  test('a wrong token is 401 every time and never reaches the handler', async () => {
    const invoice = await newInvoice('a-token-this-shop-never-issued');
    mock.service.markPaid(invoice.id);
    await mock.service.notificationsSettled();
    assert.equal(received.length, 0);
    const [record] = recordsOf(invoice.id);
    assert.equal(record?.state, 'failed');
    assert.deepEqual(
      record?.attempts.map((attempt) => attempt.status),
      [401, 401, 401],
    );
  });

  test('a failing handler answers 500, so the service retries and the retry is delivered once', async () => {
    const invoice = await newInvoice();
    failures = 1;
    mock.service.markPaid(invoice.id);
    await mock.service.notificationsSettled();
    const [record] = recordsOf(invoice.id);
    assert.deepEqual(
      record?.attempts.map((attempt) => attempt.status),
      [500, 200],
    );
    assert.equal(record?.state, 'delivered');
    assert.equal(received.length, 1);
    assert.equal(received[0]?.invoice.status, mock.service.getInvoice(invoice.id)?.status);
  });

  test('over the same port, a malformed body with the right token is 400', async () => {
    for (const body of ['{"event":', JSON.stringify({ event: 'invoice.status_changed', invoice: { id: 'x' } })]) {
      const response = await fetch(notifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-notification-token': TOKEN },
        body,
      });
      assert.equal(response.status, 400);
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'bad_request');
    }
    assert.equal(received.length, 0);
  });
});
