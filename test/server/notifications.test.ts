import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  CheckoutHttpError,
  createNotificationHandler,
  type InvoiceLookup,
  type RawNotification,
  type NotificationHandlerOptions,
} from '../../src/server/node.js';
import { INVOICE_ID, exampleLookupInvoice } from '../fixtures/dto.js';

const TOKEN = 'notify-token-5c1f2e';
const URL_ = 'https://shop.example/payments/notify';

const notification = (overrides: Record<string, unknown> = {}) => ({
  event: 'invoice.status_changed',
  invoice: exampleLookupInvoice({ status: 'canceled', deals: [] }),
  previousStatus: 'new',
  sentAt: '2026-11-22T10:05:00+00:00',
  ...overrides,
});

const errorOf = (text: string) => (JSON.parse(text) as { error: { code: string; message: string } }).error;

/**
 * The receiver's own mechanics (tokens, bodies, limits, answers), with the notification taken at
 * its word (`verify: false`, no service to ask): verification is test/server/books.test.ts.
 */
const setup = (options: Partial<NotificationHandlerOptions> = {}) => {
  const received: { invoice: InvoiceLookup; notification: RawNotification | null }[] = [];
  const handler = createNotificationHandler({
    token: TOKEN,
    verify: false,
    onNotification: (invoice, whole) => {
      received.push({ invoice, notification: whole });
    },
    ...options,
  });
  const post = async (body: unknown, headers: Record<string, string> = { 'x-notification-token': TOKEN }, url = URL_) => {
    const response = await handler(
      new Request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );
    const text = await response.text();
    return { status: response.status, text, headers: response.headers };
  };
  return { handler, received, post };
};

describe('createNotificationHandler', () => {
  test('the right token: onNotification gets the parsed invoice, then 200', async () => {
    const { post, received } = setup();
    const answer = await post(notification());
    assert.equal(answer.status, 200);
    assert.deepEqual(JSON.parse(answer.text), { ok: true, change: 'canceled' });
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    assert.ok(Date.parse(answer.headers.get('date') ?? '') > 0);
    assert.equal(received.length, 1);
    assert.equal(received[0]?.invoice.id, INVOICE_ID);
    assert.equal(received[0]?.invoice.status, 'canceled');
    assert.equal(received[0]?.notification?.previousStatus, 'new');
  });

  test('a bare InvoiceDTO body is accepted too, with no notification envelope', async () => {
    const { post, received } = setup();
    assert.equal((await post(exampleLookupInvoice())).status, 200);
    assert.equal(received[0]?.invoice.id, INVOICE_ID);
    assert.equal(received[0]?.notification, null);
  });

  test('a wrong, missing, longer or shorter token is 401, and the body is not judged first', async () => {
    const { post, received } = setup();
    for (const headers of [
      { 'x-notification-token': 'wrong' },
      {},
      { 'x-notification-token': '' },
      { 'x-notification-token': `${TOKEN}x` },
      { 'x-notification-token': TOKEN.slice(0, -1) },
      { 'x-notification-token': TOKEN.toUpperCase() },
      { authorization: `Bearer ${TOKEN}` },
    ] as Record<string, string>[]) {
      const answer = await post(notification(), headers);
      assert.equal(answer.status, 401, JSON.stringify(headers));
      assert.equal(errorOf(answer.text).code, 'unauthorized');
      assert.equal((await post('not json', headers)).status, 401, 'malformed and unauthenticated is still 401');
    }
    assert.equal(received.length, 0);
  });

  test('a malformed body with the right token is 400 naming the problem', async () => {
    const { post, received } = setup();
    const cases: [unknown, RegExp][] = [
      ['{not json', /not JSON/],
      ['[]', /object/],
      ['"x"', /object/],
      [notification({ invoice: { ...exampleLookupInvoice(), sum: { amount: 1500, currency: 'RUB', subunit: 2 } } }), /sum\.amount/],
      [notification({ invoice: { ...exampleLookupInvoice(), id: 'not-a-uuid' } }), /invoice\.id/],
      [notification({ invoice: { ...exampleLookupInvoice(), expireAt: 'yesterday' } }), /invoice\.expireAt/],
      [{ ...exampleLookupInvoice(), status: 7 }, /status/],
    ];
    for (const [body, message] of cases) {
      const answer = await post(body);
      assert.equal(answer.status, 400, String(answer.text));
      assert.match(errorOf(answer.text).message, message);
    }
    assert.equal(received.length, 0);
  });

  test('a failing onNotification is a 500 without its message, so the service retries; the retry is handled', async () => {
    let attempts = 0;
    const reported: unknown[] = [];
    const { post } = setup({
      onNotification: () => {
        attempts++;
        if (attempts === 1) throw new Error('database is down at 10.0.0.7');
      },
      onError: (error) => reported.push(error),
    });
    const first = await post(notification());
    assert.equal(first.status, 500);
    assert.ok(!first.text.includes('10.0.0.7'));
    assert.match(String(reported[0]), /database is down/);
    assert.equal((await post(notification())).status, 200);
    assert.equal(attempts, 2);
  });

  test('the answer waits for onNotification to finish', async () => {
    let finish: () => void = () => undefined;
    let finished = false;
    const { post } = setup({
      onNotification: () =>
        new Promise<void>((resolve) => {
          finish = () => {
            finished = true;
            resolve();
          };
        }),
    });
    const pending = post(notification());
    let answered = false;
    void pending.then(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(answered, false, 'no answer before onNotification resolved');
    finish();
    assert.equal((await pending).status, 200);
    assert.equal(finished, true);
  });

  test('a duplicate is harmless: answered 200, handled once, even when it arrives during the first', async () => {
    let calls = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { post } = setup({
      onNotification: async () => {
        calls++;
        await gate;
      },
    });
    // A waiting state first, then a paid one: two states, each news once.
    const waiting = () => notification({ invoice: exampleLookupInvoice() });
    const first = post(waiting());
    const concurrent = post(waiting());
    release();
    assert.deepEqual([(await first).status, (await concurrent).status], [200, 200]);
    assert.equal((await post(waiting())).status, 200);
    assert.equal(calls, 1);
    // Another status of the same invoice is new news.
    await post(notification({ invoice: exampleLookupInvoice({ status: 'paid', updatedAt: '2026-11-22T10:06:00+00:00' }) }));
    assert.equal(calls, 2);
  });

  test('the token may be read from a query parameter or a body field', async () => {
    const fromQuery = setup({ tokenFrom: { query: 'token' } });
    assert.equal((await fromQuery.post(notification(), {}, `${URL_}?token=${TOKEN}`)).status, 200);
    assert.equal((await fromQuery.post(notification(), {}, `${URL_}?token=nope`)).status, 401);
    assert.equal((await fromQuery.post(notification(), { 'x-notification-token': TOKEN })).status, 401);

    const fromField = setup({ tokenFrom: { field: 'invoice.notificationToken' } });
    const withToken = notification({ invoice: { ...exampleLookupInvoice(), notificationToken: TOKEN } });
    assert.equal((await fromField.post(withToken, {})).status, 200);
    assert.equal((await fromField.post(notification(), {})).status, 401);

    const fromBearer = setup({ tokenFrom: (request) => request.headers.get('authorization')?.replace(/^Bearer /, '') });
    assert.equal((await fromBearer.post(notification(), { authorization: `Bearer ${TOKEN}` })).status, 200);
  });

  test('per-invoice tokens: the function answers the token of the notified invoice', async () => {
    const tokens = new Map([[INVOICE_ID, 'token-of-this-invoice']]);
    const { post, received } = setup({ token: (invoice) => tokens.get(invoice.id) });
    assert.equal((await post(notification(), { 'x-notification-token': 'token-of-this-invoice' })).status, 200);
    assert.equal((await post(notification(), { 'x-notification-token': TOKEN })).status, 401);
    const unknown = notification({ invoice: exampleLookupInvoice({ id: '11111111-2222-4333-8444-555555555555' }) });
    assert.equal((await post(unknown, { 'x-notification-token': 'token-of-this-invoice' })).status, 401);
    assert.equal(received.length, 1);
  });

  test('only POST; bodies over the limit are 413', async () => {
    const { handler, post, received } = setup({ maxBodyBytes: 1000 });
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await handler(new Request(URL_, { method, headers: { 'x-notification-token': TOKEN } }));
      assert.equal(response.status, 405);
      assert.equal(response.headers.get('allow'), 'POST');
    }
    assert.equal((await post(notification({ padding: 'x'.repeat(2000) }))).status, 413);
    assert.equal(received.length, 0);
  });

  test('onNotification may answer a client error of its own', async () => {
    const { post } = setup({
      onNotification: () => {
        throw new CheckoutHttpError('bad_request', 'unknown store');
      },
    });
    const answer = await post(notification());
    assert.deepEqual([answer.status, JSON.parse(answer.text)], [400, { error: { code: 'bad_request', message: 'unknown store' } }]);
  });

  test('options are checked when the handler is made', () => {
    const onNotification = () => undefined;
    for (const options of [
      undefined,
      { token: '', onNotification },
      { token: TOKEN },
      { onNotification },
      { token: TOKEN, onNotification },
    ]) {
      assert.throws(() => createNotificationHandler(options as unknown as NotificationHandlerOptions), TypeError);
    }
  });
});
