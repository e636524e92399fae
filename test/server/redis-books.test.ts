/**
 * The books and the reconciler on a real `redis-server` (nothing saved, killed by pid): what one
 * instance tracked another reads after a restart; instances share the due invoices between
 * them; a change is handed on once across instances; a Redis that dies mid-way fails a pass,
 * loses nothing, and the next pass after it is back carries on.
 *
 * Needs Debian's `redis-server`; without it the suite fails saying so, it is not skipped.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import {
  MerchantClient,
  createCheckoutServer,
  type CheckoutServer,
  type CheckoutStore,
  type InvoiceChange,
} from '../../src/server/node.js';
import { createRedisStore } from '../../src/server/redis.js';
import { documentedPaidNotification } from '../fixtures/documented.js';
import { createScriptedService, type ScriptedService } from '../support/scripted-service.js';
import { startRedis, storeConnected as connected, type RedisProcess } from '../support/redis-server.js';

let redis: RedisProcess;
let service: ScriptedService;
let prefix: string;
let now: number;
let changes: InvoiceChange[];
const opened: { kit: CheckoutServer; store: CheckoutStore }[] = [];

before(async () => {
  redis = await startRedis();
});
after(async () => {
  await redis?.stop();
});
beforeEach(() => {
  service = createScriptedService();
  prefix = `books-${crypto.randomUUID()}:`;
  now = Date.parse('2026-11-26T12:00:00Z');
  changes = [];
});
afterEach(async () => {
  for (const { kit, store } of opened.splice(0)) {
    await kit.close();
    await store.close();
  }
});

const instance = () => {
  const store = createRedisStore({ url: redis.url, prefix, commandTimeoutMs: 500 });
  const client = new MerchantClient({
    baseUrl: 'https://pay.example',
    apiKey: 'redis-books-key',
    secretKey: 'redis-books-secret',
    fetch: (request) => service.fetch(request),
  });
  const kit = createCheckoutServer({
    client,
    store,
    authorize: () => true,
    reconcile: false,
    now: () => now,
    notifications: { token: 'tok' },
    onChange: (change) => void changes.push(change),
  });
  opened.push({ kit, store });
  return { kit, store };
};

const paidInvoice = (id: string, amount = '3650.00') => {
  const { invoice } = documentedPaidNotification();
  invoice.id = id;
  invoice.receivedSumFromTaker.amount = amount;
  invoice.deal.payment.takerSum.amount = amount;
  invoice.updatedAt = new Date(now - 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
  return invoice;
};

describe('the books and the reconciler on Redis', () => {
  test('what one instance tracked, another reads after the first is gone; a change is handed on once', async () => {
    const first = instance();
    await connected(first.store);
    const ids = Array.from({ length: 6 }, () => crypto.randomUUID());
    for (const id of ids) await first.store.track(id, undefined, now);
    await first.kit.close();
    await first.store.close();
    opened.shift();

    const [a, b] = [instance(), instance()];
    await Promise.all([connected(a.store), connected(b.store)]);
    assert.equal(await a.store.trackedCount(), 6);
    for (const id of ids) service.set(paidInvoice(id));
    now += 1000;
    const [ra, rb] = await Promise.all([a.kit.reconciler.pass(), b.kit.reconciler.pass()]);
    assert.equal(ra.checked + rb.checked, 6, 'each due invoice went to one instance');
    for (const id of ids) assert.equal(service.reads.get(id), 1, id);
    assert.equal(changes.length, 6);
    // Both again, on demand: the books already hold every state.
    await Promise.all([a.kit.reconciler.reconcile({ ids }), b.kit.reconciler.reconcile({ ids })]);
    assert.equal(changes.length, 6);
  });

  test('a correction posted to two instances at once is handed on once', async () => {
    const [a, b] = [instance(), instance()];
    await Promise.all([connected(a.store), connected(b.store)]);
    const id = crypto.randomUUID();
    service.set(paidInvoice(id, '5000.00'));
    const body = (amount: string) =>
      JSON.stringify({ notificationType: 'invoice', notificationDate: '2026-11-26T11:59:59+00:00', invoice: paidInvoice(id, amount) });
    const post = (kit: CheckoutServer, amount: string) =>
      kit.notifications(
        new Request('https://shop.example/notify', { method: 'POST', headers: { 'x-notification-token': 'tok' }, body: body(amount) }),
      );
    await post(a.kit, '5000.00');
    service.set(paidInvoice(id, '5004.50'));
    const answers = await Promise.all([post(a.kit, '5004.50'), post(b.kit, '5004.50'), post(a.kit, '5004.50'), post(b.kit, '5004.50')]);
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 200, 200, 200],
    );
    assert.deepEqual(
      changes.map((change) => change.kind),
      ['paid', 'amount_corrected'],
    );
  });

  test("a store just made: its first command waits for the connection (a serverless instance's first request), within commandTimeoutMs", async () => {
    const id = crypto.randomUUID();
    await instance().store.track(id, undefined, now);
    const fresh = instance();
    assert.equal(await fresh.store.trackedCount(), 1, 'the first command of a store just made is answered');
    assert.deepEqual(await fresh.store.claimDue(now, 10, 1000), [{ id, terminal: undefined }]);

    // Redis not there when the store is made: a command waits for it within its deadline, then fails.
    await redis.kill();
    const early = instance();
    await assert.rejects(early.store.trackedCount(), /no answer within 500 ms/);
    await redis.restart();
    await connected(early.store);
  });

  test('Redis killed during reconciliation: the pass fails, nothing is lost; after the restart the invoice is found', async () => {
    const { kit, store } = instance();
    await connected(store);
    const id = crypto.randomUUID();
    service.set(paidInvoice(id));
    await store.track(id, undefined, now);
    await redis.kill();
    await assert.rejects(kit.reconciler.pass(), /redis|closed|connect|answer|offline/i);
    assert.equal(changes.length, 0);
    await redis.restart();
    await connected(store);
    // Nothing was saved: the tracked invoice went with the killed server. The shop's next
    // notification or read tracks it again, and the reconciler finds it.
    await store.track(id, undefined, now);
    now += 1000;
    const report = await kit.reconciler.pass();
    assert.equal(report.findings[0]?.finding, 'paid_never_notified');
    assert.equal(changes.length, 1);
  });
});
