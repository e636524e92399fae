/**
 * Notifications as documented: `POST notificationUrl` with `{notificationType, notificationDate,
 * invoice}` (Notifications\\InvoiceDTO with one `deal`) and the token in `X-Notification-Token`;
 * an answer other than 200 is retried twice more, 60 s apart, on the mock's clock. The older
 * body stays available through `notificationFormat: 'legacy'`.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { InvoiceNotificationSchema, NOTIFICATION_TOKEN_HEADER, safeParse } from '../../src/schemas/index.js';
import { createNotificationHandler, toNodeHandler, type InvoiceLookup } from '../../src/server/node.js';
import { FROZEN, START, createInvoiceBody, inProcessMock, isObject, networkMock, startReceiver } from './helpers.js';

const FAST_RETRY = { attempts: 4, baseDelayMs: 20, maxDelayMs: 50, timeoutMs: 1_000 };
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
// The documented Notifications\\InvoiceDTO and Notifications\\DealDTO, written out from the examples.
const NOTIFICATION_INVOICE = [
  'id',
  'internalId',
  'type',
  'status',
  'sum',
  'storeId',
  'storeName',
  'receivedSumFromTaker',
  'receivedSumFromMaker',
  'serviceFeeSum',
  'payoutSum',
  'rate',
  'createdAt',
  'expireAt',
  'updatedAt',
  'deal',
];
const NOTIFICATION_DEAL = [
  'id',
  'type',
  'status',
  'paymentMethod',
  'paymentOption',
  'requisites',
  'canceledAt',
  'disputeAttachment',
  'disputeReason',
  'disputeReasonData',
  'payment',
  'attachments',
  'disputeResult',
];

describe('notifications', () => {
  test('every status change is POSTed with the documented body and the token header', async () => {
    const receiver = await startReceiver();
    const mock = await networkMock({ controls: true, notificationAllowed: undefined });
    try {
      const client = mock.client();
      const make = (token: string) =>
        client.createInvoice({
          ...createInvoiceBody({ notificationUrl: receiver.url, notificationToken: token, startDeal: true }),
          type: 'in',
        });
      const [paid, canceled, expired] = [await make('tok-paid'), await make('tok-cancel'), await make('tok-expire')];
      assert.equal(receiver.received.length, 0, 'creation is not a status change');
      mock.service.markPaid(paid.id);
      await client.cancelInvoice(canceled.id);
      mock.service.expire(expired.id);
      await receiver.waitFor(3);
      await mock.service.notificationsSettled();

      const byToken = new Map(receiver.received.map((n) => [String(n.headers[NOTIFICATION_TOKEN_HEADER]), n]));
      for (const [token, id, status] of [
        ['tok-paid', paid.id, 'paid'],
        ['tok-cancel', canceled.id, 'canceled'],
        ['tok-expire', expired.id, 'expired'],
      ] as const) {
        const notification = byToken.get(token);
        assert.ok(notification, `a notification carried ${token}`);
        assert.match(String(notification.headers['content-type']), /^application\/json/);
        const body = notification.json as { notificationType: string; notificationDate: string; invoice: Record<string, unknown> };
        assert.deepEqual(Object.keys(body), ['notificationType', 'notificationDate', 'invoice']);
        assert.equal(body.notificationType, 'invoice');
        assert.match(body.notificationDate, ISO_UTC);
        assert.deepEqual(Object.keys(body.invoice), NOTIFICATION_INVOICE);
        assert.equal(body.invoice.id, id);
        assert.equal(body.invoice.status, status);
        assert.equal(body.invoice.rate, '96.50');
        for (const absent of ['deals', 'userId', 'paymentMethod', 'paymentOption', 'invoiceUrl'])
          assert.equal(absent in body.invoice, false, absent);
      }
      const paidBody = byToken.get('tok-paid')?.json as { invoice: { deal: Record<string, unknown>; payoutSum: unknown } };
      assert.deepEqual(Object.keys(paidBody.invoice.deal), NOTIFICATION_DEAL);
      assert.equal(paidBody.invoice.deal.status, 'completed');
      const payment = paidBody.invoice.deal.payment as Record<string, { currency: string }>;
      assert.deepEqual(Object.keys(payment), ['takerSum', 'makerSum', 'feeSum', 'date']);
      assert.deepEqual([payment.takerSum?.currency, payment.makerSum?.currency, payment.feeSum?.currency], ['RUB', 'USDT', 'USDT']);
      assert.ok(isObject(paidBody.invoice.payoutSum));
      const canceledBody = byToken.get('tok-cancel')?.json as { invoice: { deal: unknown } };
      assert.equal(canceledBody.invoice.deal, null, 'the canceled invoice has no deal left');
      assert.deepEqual(
        mock.service.notifications.map((n) => [n.event, n.state]),
        [
          ['invoice', 'delivered'],
          ['invoice', 'delivered'],
          ['invoice', 'delivered'],
        ],
      );
    } finally {
      await mock.close();
      await receiver.close();
    }
  });

  test('an answer other than 200 is retried twice more, 60 s apart on the mock clock, then given up', async () => {
    const receiver = await startReceiver([201, 500, 503, 200]);
    const mock = inProcessMock({ ...FROZEN, notificationAllowed: undefined });
    try {
      const invoice = await mock
        .client()
        .createInvoice({ ...createInvoiceBody({ notificationUrl: receiver.url, startDeal: true }), type: 'in' });
      mock.service.markPaid(invoice.id);
      await mock.service.notificationsIdle();
      assert.equal(receiver.received.length, 1);
      await mock.service.advanceClock(59_999);
      assert.equal(receiver.received.length, 1, 'no retry before 60 s');
      await mock.service.advanceClock(1);
      assert.equal(receiver.received.length, 2);
      await mock.service.advanceClock(60_000);
      assert.equal(receiver.received.length, 3);
      await mock.service.advanceClock(10 * 60_000);
      assert.equal(receiver.received.length, 3, 'three attempts in all');
      const [record] = mock.service.notifications;
      assert.equal(record?.state, 'failed');
      assert.deepEqual(
        record?.attempts.map((a) => a.status),
        [201, 500, 503],
      );
      assert.deepEqual(
        record?.attempts.map((a) => Date.parse(a.at) - START),
        [0, 60_000, 120_000],
      );
      assert.equal(new Set(receiver.received.map((n) => n.body)).size, 1, 'the same notification each time');
      await mock.service.notificationsSettled();
    } finally {
      mock.service.close();
      await receiver.close();
    }
  });

  test('attempts and interval are options; POST /__mock/clock drives the retries too', async () => {
    const receiver = await startReceiver([500, 500, 500]);
    const mock = inProcessMock({
      ...FROZEN,
      controls: true,
      notificationAllowed: undefined,
      notificationRetry: { attempts: 4, intervalMs: 5_000 },
    });
    try {
      const invoice = await mock
        .client()
        .createInvoice({ ...createInvoiceBody({ notificationUrl: receiver.url, startDeal: true }), type: 'in' });
      mock.service.expire(invoice.id);
      await mock.service.notificationsIdle();
      for (let i = 0; i < 3; i++) {
        const answer = await mock.fetch(
          new Request(`${mock.baseUrl}/__mock/clock`, { method: 'POST', body: JSON.stringify({ advanceMs: 5_000 }) }),
        );
        assert.equal(answer.status, 200);
        assert.equal(
          ((await answer.json()) as { now: string }).now,
          new Date(START + (i + 1) * 5_000).toISOString().replace('.000Z', '+00:00'),
        );
      }
      assert.deepEqual(
        mock.service.notifications[0]?.attempts.map((a) => a.status),
        [500, 500, 500, 200],
      );
      assert.equal(mock.service.notifications[0]?.state, 'delivered');
    } finally {
      mock.service.close();
      await receiver.close();
    }
  });

  test("notificationFormat 'legacy' sends the older {event, invoice, previousStatus, sentAt}", async () => {
    const seen: unknown[] = [];
    const mock = inProcessMock({
      notificationFormat: 'legacy',
      notificationAllowed: () => true,
      notificationFetch: async (request) => {
        seen.push(await request.json());
        return new Response(null, { status: 204 });
      },
    });
    try {
      const invoice = await mock.client().createInvoice({ ...createInvoiceBody({ startDeal: true }), type: 'in' });
      mock.service.markPaid(invoice.id);
      await mock.service.notificationsSettled();
      const parsed = safeParse(InvoiceNotificationSchema, seen[0]);
      assert.ok(parsed.success, parsed.success ? '' : parsed.message);
      assert.equal(parsed.data.event, 'invoice.status_changed');
      assert.equal(parsed.data.previousStatus, 'new');
      assert.equal(mock.service.notifications[0]?.state, 'delivered', 'legacy: any 2xx is a delivery');
    } finally {
      mock.service.close();
    }
  });

  test('a failing receiver is retried with growing delays until it answers 2xx', async () => {
    const receiver = await startReceiver([500, 503]);
    // A frozen clock: the delays are proven by advancing it, not by timing the machine.
    const mock = inProcessMock({ notificationAllowed: undefined, notificationRetry: FAST_RETRY, clock: { frozen: true } });
    try {
      const invoice = await mock.client().createInvoice({ ...createInvoiceBody({ notificationUrl: receiver.url }), type: 'in' });
      mock.service.markPaid(invoice.id);
      await receiver.waitFor(1);
      await mock.service.advanceClock(19);
      assert.equal(receiver.received.length, 1, 'no retry before 20 ms');
      await mock.service.advanceClock(1);
      await receiver.waitFor(2);
      await mock.service.advanceClock(39);
      assert.equal(receiver.received.length, 2, 'the second retry waits 40 ms');
      await mock.service.advanceClock(1);
      await receiver.waitFor(3);
      await mock.service.notificationsSettled();
      assert.equal(receiver.received.length, 3);
      const [record] = mock.service.notifications;
      assert.equal(record?.state, 'delivered');
      assert.deepEqual(
        record?.attempts.map((a) => a.status),
        [500, 503, 200],
      );
      // The same notification each time, with the same token.
      assert.equal(new Set(receiver.received.map((n) => (n.json as { invoice: { id: string } }).invoice.id)).size, 1);
      assert.equal(new Set(receiver.received.map((n) => n.headers[NOTIFICATION_TOKEN_HEADER])).size, 1);
    } finally {
      mock.service.close();
      await receiver.close();
    }
  });

  test('retries stop after the configured number of attempts', async () => {
    const receiver = await startReceiver([500, 500, 500, 500, 500, 500]);
    const mock = inProcessMock({ notificationAllowed: undefined, notificationRetry: FAST_RETRY });
    try {
      const invoice = await mock
        .client()
        .createInvoice({ ...createInvoiceBody({ notificationUrl: receiver.url, startDeal: true }), type: 'in' });
      await mock.client().cancelInvoice(invoice.id);
      await mock.service.notificationsSettled();
      assert.equal(receiver.received.length, FAST_RETRY.attempts);
      assert.equal(mock.service.notifications[0]?.state, 'failed');
    } finally {
      mock.service.close();
      await receiver.close();
    }
  });

  test('an unreachable receiver counts as a failed attempt and is retried', async () => {
    const receiver = await startReceiver();
    const url = receiver.url;
    await receiver.close();
    const mock = inProcessMock({ notificationAllowed: undefined, notificationRetry: { ...FAST_RETRY, attempts: 2 } });
    try {
      const invoice = await mock.client().createInvoice({ ...createInvoiceBody({ notificationUrl: url }), type: 'in' });
      mock.service.expire(invoice.id);
      await mock.service.notificationsSettled();
      const [record] = mock.service.notifications;
      assert.equal(record?.state, 'failed');
      assert.equal(record?.attempts.length, 2);
      assert.ok(record?.attempts.every((a) => a.status === null && typeof a.error === 'string'));
    } finally {
      mock.service.close();
    }
  });

  test('by default only loopback URLs are called; others are recorded as skipped', async () => {
    const sent: string[] = [];
    const mock = inProcessMock({
      notificationAllowed: undefined,
      notificationFetch: (request) => {
        sent.push(request.url);
        return Promise.resolve(new Response(null, { status: 200 }));
      },
    });
    try {
      const client = mock.client();
      const remote = await client.createInvoice({ ...createInvoiceBody({ notificationUrl: 'https://shop.example/hooks' }), type: 'in' });
      const local = await client.createInvoice({ ...createInvoiceBody({ notificationUrl: 'http://localhost:9/hooks' }), type: 'in' });
      mock.service.markPaid(remote.id);
      mock.service.markPaid(local.id);
      await mock.service.notificationsSettled();
      assert.deepEqual(sent, ['http://localhost:9/hooks']);
      assert.deepEqual(
        mock.service.notifications.map((n) => [n.url, n.state]),
        [
          ['https://shop.example/hooks', 'skipped'],
          ['http://localhost:9/hooks', 'delivered'],
        ],
      );
    } finally {
      mock.service.close();
    }
  });

  test('notificationFetch delivers in-process (e.g. to a notification handler) and sees the token header', async () => {
    const seen: { token: string | null; body: unknown }[] = [];
    const mock = inProcessMock({
      notificationAllowed: () => true,
      notificationFetch: async (request) => {
        seen.push({ token: request.headers.get('X-Notification-Token'), body: await request.json() });
        return new Response('ok');
      },
    });
    try {
      const invoice = await mock.client().createInvoice({
        ...createInvoiceBody({ notificationUrl: 'https://shop.example/hooks', notificationToken: 'sekret' }),
        type: 'in',
      });
      mock.service.markPaid(invoice.id);
      await mock.service.notificationsSettled();
      assert.equal(seen.length, 1);
      assert.equal(seen[0]?.token, 'sekret');
      assert.equal((seen[0]?.body as { notificationType: string }).notificationType, 'invoice');
    } finally {
      mock.service.close();
    }
  });

  test('close() cancels pending retries', async () => {
    let calls = 0;
    const mock = inProcessMock({
      notificationAllowed: () => true,
      notificationRetry: { attempts: 5, baseDelayMs: 10_000 },
      notificationFetch: () => {
        calls++;
        return Promise.resolve(new Response(null, { status: 500 }));
      },
    });
    const invoice = await mock.client().createInvoice({ ...createInvoiceBody(), type: 'in' });
    mock.service.markPaid(invoice.id);
    const settled = mock.service.notificationsSettled();
    await new Promise((resolve) => setTimeout(resolve, 20));
    mock.service.close();
    await settled;
    assert.equal(calls, 1);
    assert.equal(mock.service.notifications[0]?.state, 'canceled');
  });

  // The handler reads the older body until src/server follows the documented one.
  test("the proxy's createNotificationHandler accepts the mock's legacy notifications, on a real port", async () => {
    const handled: { invoice: InvoiceLookup; previous: string | null | undefined }[] = [];
    const mock = inProcessMock({ notificationFormat: 'legacy', notificationAllowed: undefined, notificationRetry: FAST_RETRY });
    const client = mock.client();
    const handler = createNotificationHandler({
      token: 'shared-token',
      client,
      onNotification: (invoice, notification) => {
        handled.push({ invoice, previous: notification?.previousStatus as string | null | undefined });
      },
    });
    const receiver = createServer(toNodeHandler(handler));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/payments/notify`;
    try {
      const good = await client.createInvoice({
        ...createInvoiceBody({ notificationUrl: url, notificationToken: 'shared-token', startDeal: true }),
        type: 'in',
      });
      const forged = await client.createInvoice({
        ...createInvoiceBody({ notificationUrl: url, notificationToken: 'wrong-token', startDeal: true }),
        type: 'in',
      });
      mock.service.markPaid(good.id);
      await client.cancelInvoice(forged.id);
      await mock.service.notificationsSettled();
      assert.equal(handled.length, 1);
      assert.equal(handled[0]?.invoice.id, good.id);
      assert.equal(handled[0]?.invoice.status, 'paid');
      assert.equal(handled[0]?.previous, 'new');
      const [delivered, refused] = mock.service.notifications;
      assert.equal(delivered?.state, 'delivered');
      assert.deepEqual(
        delivered?.attempts.map((a) => a.status),
        [200],
      );
      assert.equal(refused?.state, 'failed', 'a wrong token is refused, so the mock retries and gives up');
      assert.ok(refused?.attempts.every((a) => a.status === 401));
    } finally {
      mock.service.close();
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

describe("the shop's server down: an outage on the mock clock", () => {
  test('over two minutes, every documented attempt fails without reaching the shop and the notification is lost; after it, notifications arrive again', async () => {
    const receiver = await startReceiver();
    const mock = inProcessMock({ ...FROZEN, notificationAllowed: undefined });
    try {
      const client = mock.client();
      const make = () => client.createInvoice({ ...createInvoiceBody({ notificationUrl: receiver.url, startDeal: true }), type: 'in' });
      const [lost, later] = [await make(), await make()];
      assert.deepEqual(mock.service.notificationOutage(180_000), { until: '2026-11-22T07:03:00+00:00' });
      mock.service.markPaid(lost.id);
      await mock.service.advanceClock(180_000);
      const [record] = mock.service.notifications;
      assert.equal(record?.state, 'failed');
      assert.deepEqual(
        record?.attempts.map((attempt) => [Date.parse(attempt.at) - START, attempt.status]),
        [
          [0, null],
          [60_000, null],
          [120_000, null],
        ],
      );
      assert.match(record?.attempts[0]?.error ?? '', /shop's server is down until 2026-11-22T07:03:00/);
      assert.equal(receiver.received.length, 0, 'nothing reached the shop');

      mock.service.markPaid(later.id);
      await mock.service.notificationsSettled();
      assert.deepEqual(
        receiver.received.map((n) => (n.json as { invoice: { id: string } }).invoice.id),
        [later.id],
      );
    } finally {
      mock.service.close();
      await receiver.close();
    }
  });

  test('POST /__mock/notifications/outage: a shorter outage lets a retry through; 0 ends it; bad input names durationMs', async () => {
    const receiver = await startReceiver();
    const mock = inProcessMock({ ...FROZEN, controls: true, notificationAllowed: undefined });
    const outage = async (body: unknown) => {
      const answer = await mock.fetch(
        new Request(`${mock.baseUrl}/__mock/notifications/outage`, { method: 'POST', body: JSON.stringify(body) }),
      );
      return { status: answer.status, json: (await answer.json()) as { until?: string; error?: { message: string } } };
    };
    try {
      assert.deepEqual(await outage({ durationMs: 100_000 }), { status: 200, json: { until: '2026-11-22T07:01:40+00:00' } });
      const invoice = await mock
        .client()
        .createInvoice({ ...createInvoiceBody({ notificationUrl: receiver.url, startDeal: true }), type: 'in' });
      mock.service.expire(invoice.id);
      await mock.service.advanceClock(120_000);
      await mock.service.notificationsSettled();
      assert.deepEqual(
        mock.service.notifications[0]?.attempts.map((attempt) => attempt.status),
        [null, null, 200],
      );

      await outage({ durationMs: 600_000 });
      assert.equal((await outage({ durationMs: 0 })).status, 200);
      const next = await mock
        .client()
        .createInvoice({ ...createInvoiceBody({ notificationUrl: receiver.url, startDeal: true }), type: 'in' });
      mock.service.markPaid(next.id);
      await mock.service.notificationsSettled();
      assert.deepEqual(
        mock.service.notifications[1]?.attempts.map((attempt) => attempt.status),
        [200],
        'the outage was ended',
      );

      for (const body of [
        {},
        { durationMs: -1 },
        { durationMs: '180000' },
        { durationMs: 8 * 86_400_000 },
        { durationMs: 1, until: 'x' },
      ]) {
        const refused = await outage(body);
        assert.equal(refused.status, 400, JSON.stringify(body));
        assert.match(refused.json.error?.message ?? '', /^(durationMs|until): /, JSON.stringify(body));
      }
      assert.throws(() => mock.service.notificationOutage(Number.NaN), /^MockControlError: durationMs: /);
    } finally {
      mock.service.close();
      await receiver.close();
    }
  });
});
