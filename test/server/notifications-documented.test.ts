/**
 * The receiver against the notifications the service's documentation shows, verbatim: a paid
 * notification must reach `onNotification` (the first round answered it 400, so a paid order
 * was never credited), and dispute, expired and deal-less variants alike. The body itself is
 * read here (`verify: false`); verified, the service's read is handed on (books.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createNotificationHandler, type Invoice, type RawNotification } from '../../src/server/node.js';
import { documentedNotificationVariant, documentedPaidNotification } from '../fixtures/documented.js';

const TOKEN = 'merchant_notification_token';

const setup = (onNotification?: (invoice: Invoice, raw: RawNotification | null) => void | Promise<void>) => {
  const received: { invoice: Invoice; raw: RawNotification | null }[] = [];
  const handler = createNotificationHandler({
    token: TOKEN,
    verify: false,
    onNotification: async (invoice, raw) => {
      received.push({ invoice, raw });
      await onNotification?.(invoice, raw);
    },
  });
  const post = (body: unknown, token = TOKEN) =>
    handler(
      new Request('https://shop.example/payments/notify', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-notification-token': token },
        body: JSON.stringify(body),
      }),
    );
  return { received, post };
};

describe('createNotificationHandler: the documented notifications', () => {
  test('the documented paid notification, verbatim: 200, and onNotification gets one normalized invoice and the raw body', async () => {
    const { received, post } = setup();
    const body = documentedPaidNotification();
    const answer = await post(body);
    assert.equal(answer.status, 200);
    assert.equal(received.length, 1);
    const { invoice, raw } = received[0]!;
    assert.deepEqual(raw, body, 'the notification is handed over exactly as it arrived');
    assert.equal(invoice.id, 'e15e0486-c17a-4530-a259-997cbab26a0b');
    assert.equal(invoice.internalId, '405953');
    assert.equal(invoice.status, 'paid');
    assert.deepEqual(invoice.sum, { amount: '3650.00', currency: 'RUB', subunit: 2 });
    assert.equal(invoice.payoutSum?.amount, '32.02982640');
    assert.equal(invoice.rate, '104.27');
    assert.equal(invoice.updatedAt, '2024-11-23T20:43:07+00:00');
    assert.equal(invoice.userId, null, 'absent in a notification: read as null');
    assert.equal(invoice.paymentMethod, null);
    assert.equal(invoice.deals.length, 1, 'the one `deal` becomes a list of one');
    const [deal] = invoice.deals;
    assert.equal(deal?.status, 'completed');
    assert.equal(deal?.isActive, false, 'no isActive in a notification: a completed deal is not active');
    assert.equal(deal?.payment?.takerSum?.amount, '3650.00');
    assert.equal(deal?.payment?.date, '2024-11-23T20:43:07+00:00');
    assert.deepEqual(deal?.requisites, { requisites: '2234 7017 2272 7358', holder: 'holder name' });
  });

  test('the answer is 200 only once onNotification resolved', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { post } = setup(() => gate);
    let settled = false;
    const pending = post(documentedPaidNotification()).then((answer) => {
      settled = true;
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(settled, false, 'no answer while the merchant is still recording');
    release();
    assert.equal((await pending).status, 200);
  });

  test('a paid notification repeated (also with other timestamps) is handled once', async () => {
    const { received, post } = setup();
    const again = documentedPaidNotification();
    again.notificationDate = '2024-11-23T20:44:07+00:00';
    again.invoice.updatedAt = '2024-11-23T20:44:07+00:00';
    const answers = await Promise.all([post(documentedPaidNotification()), post(documentedPaidNotification()), post(again)]);
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 200, 200],
    );
    assert.equal(received.length, 1);
  });

  test('dispute, expired and deal-less variants are read alike', async () => {
    const { received, post } = setup();
    const dispute = documentedNotificationVariant('dispute', 'dispute', {
      disputeReason: 'invalid_sum',
      disputeReasonData: { amount: '210' },
      disputeAttachment: 'https://files.example/receipt.pdf',
    });
    const expired = documentedNotificationVariant('expired', 'expired');
    const dealless = documentedNotificationVariant('expired', 'expired');
    dealless.invoice.id = '0a0eb051-b255-42a8-a7bc-606e1c04233e';
    (dealless.invoice as { deal: unknown }).deal = null;
    for (const body of [dispute, expired, dealless]) assert.equal((await post(body)).status, 200);
    assert.deepEqual(
      received.map(({ invoice }) => invoice.status),
      ['dispute', 'expired', 'expired'],
    );
    assert.equal(received[0]?.invoice.deals[0]?.disputeReason, 'invalid_sum');
    assert.deepEqual(received[0]?.invoice.deals[0]?.disputeReasonData, { amount: '210' });
    assert.deepEqual(received[2]?.invoice.deals, []);
  });

  test('other timestamp forms in a notification are normalized to RFC 3339', async () => {
    const { received, post } = setup();
    const body = documentedNotificationVariant('dispute', 'dispute');
    body.invoice.updatedAt = '2024-11-23t23:50+0300';
    body.invoice.expireAt = '2024-11-23T21:40:12.123456Z';
    assert.equal((await post(body)).status, 200);
    assert.equal(received[0]?.invoice.updatedAt, '2024-11-23T23:50:00+03:00');
    assert.equal(received[0]?.invoice.expireAt, '2024-11-23T21:40:12.123456+00:00');
  });

  test('a wrong token is 401 and nothing is handed on; several tokens (terminals) are each accepted', async () => {
    const { received, post } = setup();
    assert.equal((await post(documentedPaidNotification(), 'not-the-token')).status, 401);
    assert.equal(received.length, 0);
    const both: string[] = [];
    const handler = createNotificationHandler({
      token: ['terminal-a-token', 'terminal-b-token'],
      verify: false,
      onNotification: (invoice) => void both.push(invoice.id),
    });
    for (const token of ['terminal-a-token', 'terminal-b-token', 'terminal-c-token']) {
      const body = documentedPaidNotification();
      body.invoice.id = token === 'terminal-a-token' ? body.invoice.id : '0a0eb051-b255-42a8-a7bc-606e1c04233e';
      const answer = await handler(
        new Request('https://shop.example/notify', {
          method: 'POST',
          headers: { 'x-notification-token': token },
          body: JSON.stringify(body),
        }),
      );
      assert.equal(answer.status, token === 'terminal-c-token' ? 401 : 200, token);
    }
    assert.equal(both.length, 2);
  });
});
