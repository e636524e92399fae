/**
 * One writer per invoice state (issue 39, point 4): in the kit, what the proxy reads, what the
 * shop's own calls answer, what a notification says and what the reconciler reads each reach
 * the store through one path, the books' `learn` (books/core.ts), so a state is recorded once,
 * however many payers read it. The proxy alone (createCheckoutHandler) records through the store.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MockService } from '../../src/mock/index.js';
import {
  DEFAULT_NOTIFICATIONS_PATH,
  createMemoryStore,
  type CheckoutServer,
  type CheckoutStore,
  type MerchantClient,
} from '../../src/server/node.js';
import { kitOnMock } from '../support/kit-on-mock.js';

const MERCHANT = { apiKey: 'writer-api-key', secretKey: 'writer-secret-key', storeId: 14, storeName: 'Writer Shop' };
const TOKEN = 'writer-notification-token';
const ORIGIN = 'https://shop.example';

/** Every `record` the store was asked for: the invoice's id, its status and the source. */
const records: { id: string; status: string; source: string }[] = [];
let mock: MockService;
let client: MerchantClient;
let kit: CheckoutServer;

before(() => {
  const memory = createMemoryStore();
  const store: CheckoutStore = new Proxy(memory, {
    get: (target, name, receiver) =>
      name === 'record'
        ? (update: Parameters<CheckoutStore['record']>[0]) => {
            records.push({ id: update.invoice.id, status: update.invoice.status, source: update.source });
            return target.record(update);
          }
        : (Reflect.get(target, name, receiver) as unknown),
  });
  ({ mock, client, kit } = kitOnMock(MERCHANT, { store, notifications: { token: TOKEN }, reconcile: { timer: false } }));
});

after(async () => {
  await kit.close();
  mock.close();
});

/** The records of `id`, once nothing more is recorded for 100 ms (the books learn a read after it is answered). */
const settledRecords = async (id: string) => {
  let count = -1;
  while (count !== records.length) {
    count = records.length;
    await sleep(100);
  }
  return records.filter((record) => record.id === id).map(({ status, source }) => `${status} ${source}`);
};

const payerReads = async (id: string, times: number) => {
  for (let read = 0; read < times; read++) {
    const answer = await kit.fetch(new Request(`${ORIGIN}/checkout-api/invoices/${id}`));
    assert.equal(answer.status, 200);
    await answer.arrayBuffer();
  }
};

test('a state is recorded once: the shop creates it, payers read it; a notification moves it, payers read it again', async () => {
  const invoice = await client.createInvoice({
    type: 'in',
    amount: '1500.00',
    currency: 'RUB',
    notificationUrl: `${ORIGIN}${DEFAULT_NOTIFICATIONS_PATH}`,
    notificationToken: TOKEN,
    internalId: `order-${crypto.randomUUID()}`,
    startDeal: true,
  });
  await payerReads(invoice.id, 3);
  assert.deepEqual(await settledRecords(invoice.id), ['new read']);
  mock.markPaid(invoice.id);
  await mock.notificationsSettled();
  await payerReads(invoice.id, 3);
  assert.deepEqual(await settledRecords(invoice.id), ['new read', 'paid read']);
});
