/**
 * The merchant's books (issue 24): the receiver hands the shop every change of money or state
 * once, with what changed; a notification is a hint that makes the kit read the service, so
 * a forged `paid` credits nothing; a repeat is no news; a correction is a change; nothing is
 * refused for a field the kit can read itself.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import {
  DEFAULT_NOTIFICATIONS_PATH,
  MerchantClient,
  createCheckoutServer,
  type CheckoutServer,
  type CheckoutServerOptions,
  type InvoiceChange,
  type UnconfirmedNotification,
} from '../../src/server/node.js';
import { documentedPaidNotification } from '../fixtures/documented.js';
import { createScriptedService, type ScriptedService } from '../support/scripted-service.js';

const TOKEN = 'books-notification-token';
const URL_ = `https://shop.example${DEFAULT_NOTIFICATIONS_PATH}`;

let service: ScriptedService;
let kit: CheckoutServer;
let changes: InvoiceChange[];
let unconfirmed: UnconfirmedNotification[];
let errors: unknown[];

const makeKit = (options: Partial<CheckoutServerOptions> = {}) => {
  const client = new MerchantClient({
    baseUrl: 'https://pay.example',
    apiKey: 'books-key',
    secretKey: 'books-secret',
    fetch: (request) => service.fetch(request),
  });
  return createCheckoutServer({
    client,
    authorize: () => true,
    reconcile: false,
    notifications: { token: TOKEN, onUnconfirmed: (report) => void unconfirmed.push(report) },
    onChange: (change) => void changes.push(change),
    onError: (error) => void errors.push(error),
    ...options,
  });
};

beforeEach(() => {
  service = createScriptedService();
  changes = [];
  unconfirmed = [];
  errors = [];
  kit = makeKit();
});

afterEach(() => kit.close());

const post = async (body: unknown, target: CheckoutServer = kit, token = TOKEN) => {
  const answer = await target.fetch(
    new Request(URL_, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-notification-token': token },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
  return {
    status: answer.status,
    body: (await answer.json()) as { ok?: true; change?: string | null; error?: { code: string; message: string } },
  };
};

/** The documented paid notification, with its invoice's money at `amount` and `updatedAt`. */
const paid = (amount = '3650.00', updatedAt = '2024-11-23T20:43:07+00:00') => {
  const notification = documentedPaidNotification();
  notification.invoice.receivedSumFromTaker.amount = amount;
  notification.invoice.deal.payment.takerSum.amount = amount;
  notification.invoice.updatedAt = updatedAt;
  notification.notificationDate = updatedAt;
  return notification;
};

/** The same invoice in another state (the deal's payment gone unless paid). */
const stateOf = (status: string, dealStatus: string, updatedAt: string, deal: Record<string, unknown> = {}) => {
  const notification = paid('3650.00', updatedAt);
  notification.invoice.status = status;
  Object.assign(notification.invoice.deal, { status: dealStatus }, deal);
  if (status !== 'paid' && !('payment' in deal)) {
    Object.assign(notification.invoice, { receivedSumFromTaker: null, receivedSumFromMaker: null });
    Object.assign(notification.invoice.deal, { payment: null });
  }
  return notification;
};

const ID = documentedPaidNotification().invoice.id;

describe('the books: changes, not statuses', () => {
  test("a paid notification the service confirms is handed on once, verified, with the service's invoice", async () => {
    service.set(paid().invoice);
    const answer = await post(paid());
    assert.deepEqual(answer.body, { ok: true, change: 'paid' });
    assert.equal(changes.length, 1);
    const [change] = changes;
    assert.equal(change!.kind, 'paid');
    assert.equal(change!.source, 'notification');
    assert.equal(change!.verified, true);
    assert.equal(change!.previous, null);
    assert.equal(change!.invoice.receivedSumFromTaker?.amount, '3650.00');
    assert.equal(change!.invoiceId, ID);
    assert.equal(change!.internalId, '405953');
    assert.match(change!.id, new RegExp(`^${ID}:[0-9a-f]{16}$`));
  });

  test('an identical repeat, even with other timestamps, is answered 200 and not handed on again', async () => {
    service.set(paid().invoice);
    await post(paid());
    const repeat = paid();
    repeat.notificationDate = '2024-11-23T20:45:00+00:00';
    assert.deepEqual((await post(repeat)).body, { ok: true, change: null });
    assert.equal(changes.length, 1);
  });

  test('ten copies at once are handed on once', async () => {
    service.set(paid().invoice);
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(paid())));
    assert.ok(answers.every((answer) => answer.status === 200));
    assert.equal(changes.length, 1);
  });

  test('a second paid with a corrected amount is a change with the previous and new values', async () => {
    service.set(paid('5000.00').invoice);
    await post(paid('5000.00'));
    service.set(paid('5004.50', '2024-11-23T21:10:00+00:00').invoice);
    const answer = await post(paid('5004.50', '2024-11-23T21:10:00+00:00'));
    assert.deepEqual(answer.body, { ok: true, change: 'amount_corrected' });
    assert.equal(changes.length, 2);
    const correction = changes[1]!;
    assert.equal(correction.kind, 'amount_corrected');
    assert.deepEqual(
      correction.changes
        .filter((change) => change.field.includes('Sum') || change.field.includes('sum'))
        .map(({ field, from, to }) => [field, from, to]),
      [
        ['receivedSumFromTaker', '5000.00 RUB', '5004.50 RUB'],
        [`deals[${ID}].payment.takerSum`, '5000.00 RUB', '5004.50 RUB'],
      ],
    );
    assert.equal(correction.previous?.receivedSumFromTaker, '5000.00 RUB');
    assert.notEqual(correction.id, changes[0]!.id);
  });

  test('the documented revisions are each a change: paid → dispute → paid with AMOUNT_CHANGED; expired → dispute → canceled', async () => {
    service.set(paid().invoice);
    await post(paid());
    const disputed = stateOf('dispute', 'dispute', '2024-11-24T09:00:00+00:00', {
      disputeReason: 'invalid_sum',
      payment: documentedPaidNotification().invoice.deal.payment,
    });
    service.set(disputed.invoice);
    assert.equal((await post(disputed)).body.change, 'disputed');
    const resolved = paid('3500.00', '2024-11-24T12:00:00+00:00');
    Object.assign(resolved.invoice.deal, { disputeReason: 'invalid_sum', disputeResult: 'AMOUNT_CHANGED' });
    service.set(resolved.invoice);
    assert.equal((await post(resolved)).body.change, 'paid');
    const last = changes.at(-1)!;
    assert.ok(
      last.changes.some(
        (change) => change.field === `deals[${ID}].disputeResult` && change.from === null && change.to === 'AMOUNT_CHANGED',
      ),
    );
    assert.ok(
      last.changes.some(
        (change) => change.field === 'receivedSumFromTaker' && change.from === '3650.00 RUB' && change.to === '3500.00 RUB',
      ),
    );
    assert.deepEqual(
      changes.map((change) => change.kind),
      ['paid', 'disputed', 'paid'],
    );

    const other = { ...paid().invoice, id: '7a0f6d3e-2c59-4a39-9d1a-0b7d7c2f9a11' };
    for (const [status, deal, at, kind] of [
      ['expired', 'expired', '2024-11-23T21:40:12+00:00', 'expired'],
      ['dispute', 'dispute', '2024-11-24T08:00:00+00:00', 'disputed'],
      ['canceled', 'canceled', '2024-11-25T08:00:00+00:00', 'canceled'],
    ] as const) {
      const state = stateOf(status, deal, at, deal === 'dispute' ? { disputeReason: 'no_payment' } : {});
      Object.assign(state.invoice, { id: other.id });
      service.set(state.invoice);
      assert.equal((await post(state)).body.change, kind, status);
    }
  });

  test('an older notice after a newer state is acknowledged, not handed on, and does not move the books back', async () => {
    const disputed = stateOf('dispute', 'dispute', '2024-11-24T09:00:00+00:00');
    service.set(disputed.invoice);
    await post(disputed);
    // The service still shows the dispute; the late paid notice is old news.
    const late = await post(paid());
    assert.deepEqual(late.body, { ok: true, change: null });
    assert.deepEqual(
      changes.map((change) => change.kind),
      ['disputed'],
    );
    assert.equal(unconfirmed.length, 0, 'an older notice is no forgery');
  });
});

describe('the books: verified with the service', () => {
  test('a forged paid (right token, the service shows the invoice unpaid) credits nothing and is reported', async () => {
    const open = stateOf('new', 'transfer_waiting', '2024-11-23T20:41:00+00:00');
    service.set(open.invoice);
    const forged = paid('3650.00', '2024-11-23T20:50:00+00:00');
    const answer = await post(forged);
    assert.equal(answer.status, 409);
    assert.equal(answer.body.error?.code, 'unconfirmed');
    assert.ok(!changes.some((change) => change.kind === 'paid'), 'nothing paid was handed on');
    assert.equal(unconfirmed.length, 1);
    assert.equal(unconfirmed[0]!.reason, 'differs');
    assert.ok(unconfirmed[0]!.contradictions.some((field) => field.field === 'status' && field.from === 'new' && field.to === 'paid'));
  });

  test('a notification for an invoice no terminal knows is 409 unconfirmed and reported', async () => {
    const answer = await post(paid());
    assert.equal(answer.status, 409);
    assert.equal(unconfirmed[0]?.reason, 'not_found');
    assert.equal(changes.length, 0);
  });

  test('an early notice (the service not there yet) is answered so that it comes again, and then delivered', async () => {
    service.set(stateOf('new', 'transfer_waiting', '2024-11-23T20:41:00+00:00').invoice);
    assert.equal((await post(paid())).status, 409);
    service.set(paid().invoice);
    assert.deepEqual((await post(paid())).body, { ok: true, change: 'paid' });
  });

  test('the service down while verifying: 502, the invoice tracked, and the reconciler delivers it later', async () => {
    let now = Date.parse('2026-11-26T10:00:00Z');
    await kit.close();
    kit = makeKit({ now: () => now });
    service.set(paid().invoice);
    service.failNext(1);
    const answer = await post(paid());
    assert.equal(answer.status, 502);
    assert.equal(answer.body.error?.code, 'upstream_error');
    assert.equal(changes.length, 0);
    assert.equal(await kit.store.trackedCount(), 1);
    now += 61_000;
    const report = await kit.reconciler.pass();
    assert.equal(report.findings[0]?.finding, 'paid_never_notified');
    assert.equal(changes.length, 1);
    assert.equal(changes[0]!.source, 'reconcile');
  });

  test("with verify: false the notification's word is taken and marked unverified", async () => {
    await kit.close();
    kit = makeKit({ notifications: { token: TOKEN, verify: false } });
    assert.deepEqual((await post(paid())).body, { ok: true, change: 'paid' });
    assert.equal(changes[0]!.verified, false);
    assert.equal(service.reads.get(ID), undefined, 'the service was not asked');
  });
});

describe('the books: never refused for what the kit does not need', () => {
  test('missing expireAt and holder, odd fields: acknowledged after the service read supplies them', async () => {
    service.set(paid().invoice);
    const sparse = paid() as unknown as { invoice: Record<string, unknown> & { deal: Record<string, unknown> } };
    delete sparse.invoice.expireAt;
    delete sparse.invoice.createdAt;
    sparse.invoice.deal.requisites = { requisites: '2234 7017 2272 7358' };
    sparse.invoice.storeId = 'three-seven-nine';
    assert.deepEqual((await post(sparse)).body, { ok: true, change: 'paid' });
    assert.equal(changes.length, 1);
  });

  test('only a wrong token or an unreadable body is refused', async () => {
    assert.equal((await post(paid(), kit, 'wrong')).status, 401);
    const notJson = await post('{nope');
    assert.equal(notJson.status, 400);
    assert.match(notJson.body.error!.message, /not JSON/);
    const noId = paid() as unknown as { invoice: Record<string, unknown> };
    delete noId.invoice.id;
    const missing = await post(noId);
    assert.equal(missing.status, 400);
    assert.match(missing.body.error!.message, /invoice\.id/);
    assert.equal(changes.length, 0);
  });

  test('a failing onChange is a 500 so the service delivers again; the retry hands on the same change', async () => {
    let calls = 0;
    await kit.close();
    kit = makeKit({
      onChange: (change) => {
        calls++;
        if (calls === 1) throw new Error('ledger database down');
        changes.push(change);
      },
    });
    service.set(paid().invoice);
    assert.equal((await post(paid())).status, 500);
    assert.match(String(errors[0]), /ledger database down/);
    assert.equal((await post(paid())).status, 200);
    assert.equal(calls, 2);
    assert.equal(changes.length, 1);
  });
});
