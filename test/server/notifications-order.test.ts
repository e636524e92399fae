/**
 * Notifications are never lost and never move an invoice backwards: a hung handler is cut so
 * the service retries, an older notification is not passed on as news. These take each
 * notification at its word (`verify: false`) to show the ordering by the service's own
 * timestamps; with verification (the default) the service's read decides (books.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createNotificationHandler, type Invoice } from '../../src/server/node.js';
import { documentedNotificationVariant, documentedPaidNotification } from '../fixtures/documented.js';

const TOKEN = 'merchant_notification_token';
const post = (handler: (request: Request) => Promise<Response>, body: unknown) =>
  handler(
    new Request('https://shop.example/notify', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-notification-token': TOKEN },
      body: JSON.stringify(body),
    }),
  );

const at = (status: string, dealStatus: string, updatedAt: string) => {
  const body = documentedNotificationVariant(status, dealStatus);
  body.invoice.updatedAt = updatedAt;
  return body;
};

describe('notifications: never lost, never backwards', () => {
  test('a hung onNotification is cut at handlerTimeoutMs with a 5xx, and the next delivery runs anew', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const handler = createNotificationHandler({
      token: TOKEN,
      verify: false,
      handlerTimeoutMs: 100,
      onError: (error) => errors.push(error),
      onNotification: () => {
        calls++;
        // The first call hangs (a stuck database); the retry is quick.
        return calls === 1 ? new Promise<void>(() => undefined) : Promise.resolve();
      },
    });
    const started = Date.now();
    const first = await post(handler, documentedPaidNotification());
    assert.equal(first.status, 500);
    assert.ok(Date.now() - started < 2000, 'answered soon after the limit');
    assert.match(String(errors[0]), /longer than 100 ms/);
    const retry = await post(handler, documentedPaidNotification());
    assert.equal(retry.status, 200);
    assert.equal(calls, 2, 'the retry was not blocked by the hung first run');
    assert.equal((await post(handler, documentedPaidNotification())).status, 200);
    assert.equal(calls, 2, 'and once handled, a repeat is not handed on again');
  });

  test('an older notification after a newer one is acknowledged and not passed on', async () => {
    const seen: Invoice[] = [];
    const handler = createNotificationHandler({ token: TOKEN, verify: false, onNotification: (invoice) => void seen.push(invoice) });
    assert.equal((await post(handler, at('dispute', 'dispute', '2024-11-23T20:50:00+00:00'))).status, 200);
    const older = await post(handler, at('new', 'transfer_waiting', '2024-11-23T20:45:00+00:00'));
    assert.equal(older.status, 200);
    assert.deepEqual(
      seen.map((invoice) => invoice.status),
      ['dispute'],
    );
  });

  test('a final status moves on only by a later timestamp: the documented paid → dispute is news, an earlier state is not', async () => {
    const seen: string[] = [];
    const handler = createNotificationHandler({ token: TOKEN, verify: false, onNotification: (invoice) => void seen.push(invoice.status) });
    assert.equal((await post(handler, documentedPaidNotification())).status, 200);
    for (const [status, deal] of [
      ['new', 'transfer_waiting'],
      ['expired', 'expired'],
    ]) {
      assert.equal((await post(handler, at(status!, deal!, '2024-11-23T20:40:00+00:00'))).status, 200, status);
    }
    assert.equal((await post(handler, at('dispute', 'dispute', '2024-11-23T23:00:00+00:00'))).status, 200);
    assert.deepEqual(seen, ['paid', 'dispute']);
  });

  test('newer states pass in order: new → dispute → paid', async () => {
    const seen: string[] = [];
    const handler = createNotificationHandler({ token: TOKEN, verify: false, onNotification: (invoice) => void seen.push(invoice.status) });
    await post(handler, at('new', 'transfer_waiting', '2024-11-23T20:41:00+00:00'));
    await post(handler, at('dispute', 'dispute', '2024-11-23T20:50:00+00:00'));
    await post(handler, at('paid', 'completed', '2024-11-23T21:00:00+00:00'));
    assert.deepEqual(seen, ['new', 'dispute', 'paid']);
  });
});
