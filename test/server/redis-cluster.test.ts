/**
 * Three proxy + receiver processes behind one real Redis (`redis-server` on a free port,
 * nothing saved, killed by pid) and the mock service on a real port: a notification is handled
 * once whichever instances it reaches, never moves an invoice backwards, reaches a payer
 * streaming from another instance, and survives Redis going away (reads go on, notifications
 * are refused with 5xx until Redis is back, then each is handled exactly once).
 *
 * Needs Debian's `redis-server` (`apt-get install -y redis-server`); without it the suite fails
 * saying so, it is not skipped.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { MerchantClient, type CheckoutStore } from '../../src/server/node.js';
import { createRedisStore } from '../../src/server/redis.js';
import { startCluster, type Cluster, type Instance } from '../support/cluster.js';
import { startRedis, type RedisProcess } from '../support/redis-server.js';
import { waitFor } from '../support/wait.js';
import { readSse } from '../support/sse.js';

const MERCHANT = { apiKey: 'cluster-api-key', secretKey: 'cluster-secret-key', storeId: 77, storeName: 'Clustered Shop' };
const TOKEN = 'cluster-notification-token';
const PREFIX = `test-${process.pid}:`;

let redis: RedisProcess;
let mock: MockServer;
let client: MerchantClient;
let cluster: Cluster;
let observer: CheckoutStore;
let capture: Server;
let captureUrl: string;
/** The mock's notifications as they arrived at the capture server, to be replayed to the instances. */
const captured: { id: string; status: string; body: string }[] = [];

before(async () => {
  redis = await startRedis();
  capture = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const { invoice } = JSON.parse(body) as { invoice: { id: string; status: string } };
      captured.push({ id: invoice.id, status: invoice.status, body });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', resolve));
  captureUrl = `http://127.0.0.1:${(capture.address() as AddressInfo).port}/notify`;
  mock = await startMockServer({ merchants: [MERCHANT], controls: true });
  client = new MerchantClient({ baseUrl: mock.url, apiKey: MERCHANT.apiKey, secretKey: MERCHANT.secretKey });
  cluster = await startCluster({
    count: 3,
    mockUrl: mock.url,
    apiKey: MERCHANT.apiKey,
    secretKey: MERCHANT.secretKey,
    token: TOKEN,
    redisUrl: redis.url,
    redisPrefix: PREFIX,
  });
  observer = createRedisStore({ url: redis.url, prefix: PREFIX });
});

after(async () => {
  await cluster?.stop();
  await observer?.close();
  await mock?.close();
  capture?.closeAllConnections();
  await new Promise((resolve) => (capture ? capture.close(resolve) : resolve(undefined)));
  await redis?.stop();
});

/** Proves that nothing more arrives: the one kind of wait the tests allow. */
const quietFor = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const post = async (instance: Instance, body: string) => {
  const response = await fetch(`${instance.url}/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-notification-token': TOKEN },
    body,
  });
  return { status: response.status, text: await response.text() };
};

const toAll = (body: string) => Promise.all(cluster.instances.map((instance) => post(instance, body)));

const newInvoice = async () =>
  client.createInvoice({
    type: 'in',
    amount: '2500.00',
    currency: 'RUB',
    notificationUrl: captureUrl,
    notificationToken: TOKEN,
    internalId: `order-${crypto.randomUUID()}`,
    startDeal: true,
  });

/** Marks the invoice paid at the mock and answers the notification the mock sent about it. */
const paidNotification = async (id: string) => {
  mock.service.markPaid(id);
  await mock.service.notificationsSettled();
  return (await waitFor(`the paid notification of ${id}`, () => captured.find((each) => each.id === id && each.status === 'paid'))).body;
};

const callsOf = (id: string) => cluster.calls.filter((call) => call.id === id);

describe('three instances behind one Redis', () => {
  test('the same notification sent to all three at once runs onNotification once', async () => {
    const invoice = await newInvoice();
    const body = await paidNotification(invoice.id);
    const answers = await toAll(body);
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 200, 200],
      JSON.stringify(answers),
    );
    await waitFor('the one onNotification call', () => callsOf(invoice.id).length > 0);
    // Delivered again, one by one and all at once: still handled once.
    assert.deepEqual(
      (await toAll(body)).map((answer) => answer.status),
      [200, 200, 200],
    );
    await quietFor(300);
    assert.deepEqual(
      callsOf(invoice.id).map((call) => call.status),
      ['paid'],
    );
  });

  test('an older notification after a newer state, and one for an invoice the service does not know, reach the shop never', async () => {
    const invoice = await newInvoice();
    mock.service.openDispute(invoice.id);
    await mock.service.notificationsSettled();
    const disputed = (
      await waitFor('the dispute notification', () => captured.find((each) => each.id === invoice.id && each.status === 'dispute'))
    ).body;
    mock.service.resolveDispute(invoice.id, 'paid');
    await mock.service.notificationsSettled();
    const paid = (await waitFor('the paid notification', () => captured.find((each) => each.id === invoice.id && each.status === 'paid')))
      .body;
    const [a, b, c] = cluster.instances as [Instance, Instance, Instance];
    assert.equal((await post(a, paid)).status, 200);
    // The dispute came late: the service's read is newer, so it is old news on every instance.
    const older = await post(b, disputed);
    assert.deepEqual([older.status, JSON.parse(older.text)], [200, { ok: true, change: null }]);
    await quietFor(300);
    assert.deepEqual(
      callsOf(invoice.id).map((call) => call.status),
      ['paid'],
    );
    assert.equal((await observer.lastSeen(invoice.id))?.status, 'paid');

    const unknown = JSON.parse(disputed) as { invoice: { id: string } };
    unknown.invoice.id = crypto.randomUUID();
    const forged = await post(c, JSON.stringify(unknown));
    assert.equal(forged.status, 409);
    assert.equal((JSON.parse(forged.text) as { error: { code: string } }).error.code, 'unconfirmed');
    await quietFor(200);
    assert.equal(callsOf(unknown.invoice.id).length, 0);
  });

  test('a payer streaming from instance C sees the paid status posted to instance A within 1 s', async () => {
    const invoice = await newInvoice();
    const [a, , c] = cluster.instances as [Instance, Instance, Instance];
    const controller = new AbortController();
    const response = await fetch(`${c.url}/checkout-api/invoices/${invoice.id}/events`, { signal: controller.signal });
    assert.equal(response.status, 200);
    const stream = readSse(response.body!);
    try {
      const first = await stream.nextEvent();
      assert.equal((JSON.parse(first!.data!) as { status: string }).status, 'new');
      const body = await paidNotification(invoice.id);
      const sent = Date.now();
      assert.equal((await post(a, body)).status, 200);
      const paid = await stream.nextEvent(1000);
      const latency = Date.now() - sent;
      assert.equal((JSON.parse(paid!.data!) as { status: string }).status, 'paid');
      assert.ok(latency < 1000, `${latency} ms`);
      assert.equal(await stream.nextEvent(1000), undefined, 'the stream ends at the terminal status');
    } finally {
      controller.abort();
      await stream.close();
    }
  });

  test('one dispute per invoice across stores on one Redis: a claim, released or kept, or lapsing when never settled', async () => {
    const other = createRedisStore({ url: redis.url, prefix: PREFIX });
    try {
      // Both connect in the background: wait until each answers.
      const answers = (store: CheckoutStore) =>
        store.lastSeen('probe').then(
          () => true,
          () => undefined,
        );
      await waitFor('both stores connected', async () => ((await answers(observer)) && (await answers(other))) || undefined);
      const id = crypto.randomUUID();
      const claim = await observer.claimDispute(id, 10_000);
      assert.ok(claim, 'the first claim is had');
      assert.equal(await other.claimDispute(id, 10_000), undefined, 'held: another store gets none');
      await claim.settle('released');
      const again = await other.claimDispute(id, 10_000);
      assert.ok(again, 'released: the payer may try again');
      await again.settle('kept');
      assert.equal(await observer.claimDispute(id, 10_000), undefined, 'kept: no second dispute');

      const lapsing = crypto.randomUUID();
      assert.ok(await observer.claimDispute(lapsing, 100));
      assert.equal(await other.claimDispute(lapsing, 100), undefined);
      await quietFor(200);
      assert.ok(await other.claimDispute(lapsing, 100), 'an unsettled claim lapses');
    } finally {
      await other.close();
    }
  });

  test('Redis killed: reads go on, notifications are 5xx; after a restart each is handled exactly once', async () => {
    const invoices = await Promise.all([newInvoice(), newInvoice(), newInvoice()]);
    const [a, b, c] = cluster.instances as [Instance, Instance, Instance];
    // A payer streams the first invoice from B through the outage.
    const controller = new AbortController();
    const response = await fetch(`${b.url}/checkout-api/invoices/${invoices[0].id}/events`, { signal: controller.signal });
    const stream = readSse(response.body!);
    try {
      assert.equal((JSON.parse((await stream.nextEvent())!.data!) as { status: string }).status, 'new');

      await redis.kill();

      // Reads: every instance still answers polls and opens streams.
      for (const instance of [a, b, c]) {
        for (const invoice of invoices) {
          const read = await fetch(`${instance.url}/checkout-api/invoices/${invoice.id}`);
          assert.equal(read.status, 200, `${instance.url}: ${await read.text()}`);
        }
      }
      const during = new AbortController();
      const opened = await fetch(`${c.url}/checkout-api/invoices/${invoices[1].id}/events`, { signal: during.signal });
      assert.equal(opened.status, 200);
      const duringStream = readSse(opened.body!);
      assert.equal((await duringStream.nextEvent())?.event, 'invoice');
      during.abort();
      await duringStream.close();

      // Notifications: refused, so that the service delivers them again; nothing handled.
      const bodies = [];
      for (const invoice of invoices) bodies.push(await paidNotification(invoice.id));
      for (const body of bodies) {
        for (const answer of await toAll(body)) assert.ok(answer.status >= 500, `${answer.status} ${answer.text}`);
      }
      await quietFor(200);
      for (const invoice of invoices) assert.equal(callsOf(invoice.id).length, 0, 'nothing acknowledged that was not recorded');

      await redis.restart();
      for (const instance of [a, b, c]) {
        await waitFor(`${instance.url} back on Redis`, async () => (await fetch(`${instance.url}/health/store`)).ok || undefined, 15_000);
      }

      // The service's retries, to every instance at once.
      for (const body of bodies)
        assert.deepEqual(
          (await toAll(body)).map((answer) => answer.status),
          [200, 200, 200],
        );
      await waitFor('every notification handled', () => invoices.every((invoice) => callsOf(invoice.id).length > 0));
      await quietFor(300);
      for (const invoice of invoices)
        assert.deepEqual(
          callsOf(invoice.id).map((call) => call.status),
          ['paid'],
          invoice.id,
        );

      // The payer who streamed through the outage sees the end too.
      const paid = await stream.nextEvent(5000);
      assert.equal((JSON.parse(paid!.data!) as { status: string }).status, 'paid');
    } finally {
      controller.abort();
      await stream.close();
    }
  });
});
