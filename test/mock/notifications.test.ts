/**
 * Status notifications reach a local receiver with the token, in the format of
 * `src/schemas/notification.ts`, and are retried with backoff when the receiver fails.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { InvoiceNotificationSchema, NOTIFICATION_TOKEN_HEADER, safeParse } from '../../src/schemas/index.js';
import { createNotificationHandler, toNodeHandler, type InvoiceLookup } from '../../src/server/index.js';
import { createInvoiceBody, inProcessMock, networkMock, startReceiver } from './helpers.js';

const FAST_RETRY = { attempts: 4, baseDelayMs: 20, maxDelayMs: 50, timeoutMs: 1_000 };

describe('notifications', () => {
  test('every status change is POSTed to notificationUrl with the token and the schema format', async () => {
    const receiver = await startReceiver();
    const mock = await networkMock({ controls: true, notificationAllowed: undefined, notificationRetry: FAST_RETRY });
    try {
      const client = mock.client();
      const paid = await client.createInvoice({ ...createInvoiceBody({ notificationUrl: receiver.url, notificationToken: 'tok-paid' }), type: 'in', startDeal: true });
      const canceled = await client.createInvoice({ ...createInvoiceBody({ notificationUrl: receiver.url, notificationToken: 'tok-cancel' }), type: 'in' });
      const expired = await client.createInvoice({ ...createInvoiceBody({ notificationUrl: receiver.url, notificationToken: 'tok-expire' }), type: 'in' });
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
        const parsed = safeParse(InvoiceNotificationSchema, notification.json);
        assert.ok(parsed.success, parsed.success ? '' : parsed.message);
        assert.equal(parsed.data.event, 'invoice.status_changed');
        assert.equal(parsed.data.invoice.id, id);
        assert.equal(parsed.data.invoice.status, status);
        assert.equal(parsed.data.previousStatus, 'new');
        assert.equal(parsed.data.invoice.deals.every((deal) => 'disputeResult' in deal), true, 'the invoice is in its lookup form');
      }
      assert.deepEqual(
        mock.service.notifications.map((n) => n.state),
        ['delivered', 'delivered', 'delivered'],
      );
    } finally {
      await mock.close();
      await receiver.close();
    }
  });

  test('a failing receiver is retried with growing delays until it answers 2xx', async () => {
    const receiver = await startReceiver([500, 503]);
    const mock = inProcessMock({ notificationAllowed: undefined, notificationRetry: FAST_RETRY });
    try {
      const invoice = await mock.client().createInvoice({ ...createInvoiceBody({ notificationUrl: receiver.url }), type: 'in' });
      mock.service.markPaid(invoice.id);
      await mock.service.notificationsSettled();
      assert.equal(receiver.received.length, 3);
      const [record] = mock.service.notifications;
      assert.equal(record?.state, 'delivered');
      assert.deepEqual(record?.attempts.map((a) => a.status), [500, 503, 200]);
      const gaps = receiver.received.slice(1).map((n, i) => n.at - receiver.received[i]!.at);
      assert.ok(gaps[0]! >= 15, `first retry after ~20 ms, was ${gaps[0]}`);
      assert.ok(gaps[1]! >= 35, `second retry after ~40 ms, was ${gaps[1]}`);
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
      const invoice = await mock.client().createInvoice({ ...createInvoiceBody({ notificationUrl: receiver.url }), type: 'in' });
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
        return Promise.resolve(new Response(null, { status: 204 }));
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
      const invoice = await mock.client().createInvoice({ ...createInvoiceBody({ notificationUrl: 'https://shop.example/hooks', notificationToken: 'sekret' }), type: 'in' });
      mock.service.markPaid(invoice.id);
      await mock.service.notificationsSettled();
      assert.equal(seen.length, 1);
      assert.equal(seen[0]?.token, 'sekret');
      assert.equal(safeParse(InvoiceNotificationSchema, seen[0]?.body).success, true);
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

  test("the proxy's createNotificationHandler accepts the mock's notifications with its defaults, on a real port", async () => {
    const handled: { invoice: InvoiceLookup; previous: string | null | undefined }[] = [];
    const handler = createNotificationHandler({
      token: 'shared-token',
      onNotification: (invoice, notification) => {
        handled.push({ invoice, previous: notification?.previousStatus });
      },
    });
    const receiver = createServer(toNodeHandler(handler));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/payments/notify`;
    const mock = inProcessMock({ notificationAllowed: undefined, notificationRetry: FAST_RETRY });
    try {
      const client = mock.client();
      const good = await client.createInvoice({ ...createInvoiceBody({ notificationUrl: url, notificationToken: 'shared-token', startDeal: true }), type: 'in' });
      const forged = await client.createInvoice({ ...createInvoiceBody({ notificationUrl: url, notificationToken: 'wrong-token' }), type: 'in' });
      mock.service.markPaid(good.id);
      await client.cancelInvoice(forged.id);
      await mock.service.notificationsSettled();
      assert.equal(handled.length, 1);
      assert.equal(handled[0]?.invoice.id, good.id);
      assert.equal(handled[0]?.invoice.status, 'paid');
      assert.equal(handled[0]?.previous, 'new');
      const [delivered, refused] = mock.service.notifications;
      assert.equal(delivered?.state, 'delivered');
      assert.deepEqual(delivered?.attempts.map((a) => a.status), [200]);
      assert.equal(refused?.state, 'failed', 'a wrong token is refused, so the mock retries and gives up');
      assert.ok(refused?.attempts.every((a) => a.status === 401));
    } finally {
      mock.service.close();
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
