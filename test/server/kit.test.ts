/**
 * The kit as one object (`createCheckoutServer`): one store shared by the proxy, the receiver
 * and the reconciler without the shop passing it, the combined `fetch`, and every invoice the
 * kit's clients meet tracked until it is settled.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { MockService } from '../../src/mock/index.js';
import {
  DEFAULT_NOTIFICATIONS_PATH,
  createCheckoutServer,
  type MerchantClient,
  type CheckoutServer,
  type InvoiceChange,
} from '../../src/server/node.js';
import { kitOnMock } from '../support/kit-on-mock.js';
import { readSse } from '../support/sse.js';

const MERCHANT = { apiKey: 'kit-api-key', secretKey: 'kit-secret-key', storeId: 12, storeName: 'Kit Shop' };
const TOKEN = 'kit-notification-token';
const ORIGIN = 'https://shop.example';
const NOTIFY_URL = `${ORIGIN}${DEFAULT_NOTIFICATIONS_PATH}`;

let mock: MockService;
let client: MerchantClient;
let kit: CheckoutServer;
let changes: InvoiceChange[] = [];

before(() => {
  // No `store`: the kit makes one and gives it to everything it hands out.
  ({ mock, client, kit } = kitOnMock(MERCHANT, {
    notifications: { token: TOKEN },
    onChange: (change) => void changes.push(change),
  }));
});

after(async () => {
  await kit.close();
  mock.close();
});

afterEach(() => {
  changes = [];
});

const newInvoice = () =>
  client.createInvoice({
    type: 'in',
    amount: '1500.00',
    currency: 'RUB',
    notificationUrl: NOTIFY_URL,
    notificationToken: TOKEN,
    internalId: `order-${crypto.randomUUID()}`,
    startDeal: true,
  });

const settle = () => mock.notificationsSettled();

describe('createCheckoutServer: one kit, one store', () => {
  test('a paid notification to the kit reaches a payer streaming the invoice, with no store option', async () => {
    const invoice = await newInvoice();
    const aborted = new AbortController();
    const answer = await kit.fetch(new Request(`${ORIGIN}/checkout-api/invoices/${invoice.id}/events`, { signal: aborted.signal }));
    assert.equal(answer.status, 200);
    const stream = readSse(answer.body!);
    try {
      const first = await stream.nextEvent();
      assert.equal((JSON.parse(first!.data!) as { status: string }).status, 'new');
      mock.markPaid(invoice.id);
      await settle();
      const next = await stream.nextEvent(3000);
      assert.equal((JSON.parse(next!.data!) as { status: string }).status, 'paid');
      assert.equal(changes.filter((change) => change.kind === 'paid').length, 1, 'the shop heard of the payment once');
    } finally {
      aborted.abort();
      await stream.close();
    }
  });

  test('the combined fetch serves the receiver at notifications.path and the proxy elsewhere', async () => {
    const wrongToken = await kit.fetch(
      new Request(NOTIFY_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-notification-token': 'nope' },
        body: '{}',
      }),
    );
    assert.equal(wrongToken.status, 401);
    const unknownRoute = await kit.fetch(new Request(`${ORIGIN}/checkout-api/nothing-here`));
    assert.equal(unknownRoute.status, 404);
    assert.equal(((await unknownRoute.json()) as { error: { code: string } }).error.code, 'not_found');
  });

  test("an invoice the shop creates through the kit's client is tracked until it is settled", async () => {
    const before = await kit.store.trackedCount();
    const invoice = await newInvoice();
    // The client's observer hands the answer on after the caller's turn.
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(await kit.store.trackedCount(), before + 1);
    mock.markPaid(invoice.id);
    const report = await kit.reconciler.reconcile({ ids: [invoice.id] });
    assert.equal(report.findings[0]?.finding === 'unchanged' || report.findings[0]?.finding === 'paid_never_notified', true);
  });

  test('a kit without notifications answers its receiver with 404 and still reconciles', async () => {
    const quiet = createCheckoutServer({ client, authorize: () => true, reconcile: false });
    try {
      const answer = await quiet.notifications(new Request(NOTIFY_URL, { method: 'POST', body: '{}' }));
      assert.equal(answer.status, 404);
      const invoice = await newInvoice();
      const report = await quiet.reconciler.reconcile({ ids: [invoice.id] });
      assert.equal(report.checked, 1);
    } finally {
      await quiet.close();
    }
  });

  test('bad options name what is wrong', () => {
    assert.throws(
      () => createCheckoutServer({ client, authorize: () => true, onChange: 'x' as never }),
      /createCheckoutServer: onChange must be a function/,
    );
    assert.throws(() => createCheckoutServer({ client: [], authorize: () => true }), /createCheckoutServer: client must be/);
    assert.throws(
      () => createCheckoutServer({ client, authorize: () => true, notifications: { token: '' } }),
      /token must be a non-empty string/,
    );
  });
});
