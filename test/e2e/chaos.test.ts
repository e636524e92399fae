/**
 * Nothing lost when the gateway itself dies (issue 37, point 3): the built gateway on its
 * default store (SQLite in its data folder), SIGKILLed at random moments while a shop creates
 * and pays invoices, some notifications dropped (a dead gateway, a notification outage), the
 * shop's webhook endpoint flapping; and three gateways on one Redis run durably, one gateway
 * killed and Redis itself killed and restarted. Every paid invoice reaches the shop, every
 * delivery of one change carries that change's one `webhook-id`, and nothing is delivered that
 * was not paid. The figures (redeliveries, time from a restart to a delivery) are bench/chaos.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { startRedis, type RedisProcess } from '../support/redis-server.js';
import {
  GatewayProcess,
  createAndPay,
  freePort,
  gatewayEnv,
  idsByChange,
  paidDelivered,
  seeded,
  sleep,
  startService,
  startShop,
  type Delivery,
} from './support/chaos.js';

const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Waits until every paid invoice's `invoice.paid` webhook was taken by the shop. */
const everyPaidDelivered = async (paid: readonly string[], deliveries: readonly Delivery[], timeoutMs: number) => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const delivered = paidDelivered(deliveries);
    const missing = paid.filter((id) => !delivered.has(id));
    if (missing.length === 0) return;
    if (Date.now() > end)
      throw new Error(`${missing.length} of ${paid.length} paid invoices never reached the shop: ${missing.join(', ')}`);
    await sleep(100);
  }
};

/** What a shop relies on: each change under one webhook id (its change id), every delivered change of a paid invoice. */
const assertOneIdPerChange = (paid: readonly string[], deliveries: readonly Delivery[]) => {
  const paidSet = new Set(paid);
  for (const delivery of deliveries) {
    assert.equal(delivery.webhookId, delivery.changeId, 'the webhook id is the change id');
    assert.ok(paidSet.has(delivery.invoiceId) || delivery.type !== 'invoice.paid', `a paid webhook for ${delivery.invoiceId}, never paid`);
  }
  for (const [change, ids] of idsByChange(deliveries)) assert.equal(ids.size, 1, `${change} came under ${[...ids].join(', ')}`);
};

describe('chaos: the gateway killed while money moves', () => {
  test('one gateway on its default store, SIGKILLed at least 5 times among 50 paid invoices: every payment reaches the shop under one id', async () => {
    const random = seeded(Number(process.env.CHAOS_SEED ?? 37));
    const service = await startService();
    cleanups.push(() => service.close());
    const shop = await startShop(random, 0.3);
    cleanups.push(() => shop.close());
    const dataDir = mkdtempSync(join(tmpdir(), 'chaos-gateway-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const gateway = new GatewayProcess(await freePort(), gatewayEnv(service, shop.url, { GATEWAY_DATA_DIR: dataDir }));
    cleanups.push(() => gateway.kill());
    await gateway.start();

    let kills = 0;
    let done = false;
    const killer = (async () => {
      while (!done || kills < 5) {
        await sleep(300 + random() * 1200);
        await gateway.kill();
        kills++;
        await sleep(random() * 400);
        await gateway.start();
      }
    })();
    const paid = (await createAndPay(service, [gateway], 50, random)).map(({ id }) => id);
    done = true;
    await killer;
    assert.ok(kills >= 5, `killed ${kills} times`);
    await everyPaidDelivered(paid, shop.deliveries, 60_000);
    assertOneIdPerChange(paid, shop.deliveries);
    const pending = await fetch(`${gateway.url}/v1/webhooks?state=pending`, {
      headers: { authorization: `Bearer ${gatewayEnv(service, shop.url, {}).GATEWAY_API_KEY}` },
    });
    assert.equal(pending.status, 200);
    await gateway.kill();
  });

  test('three gateways on one Redis run durably: a gateway killed and Redis killed and restarted lose no payment', async () => {
    const random = seeded(Number(process.env.CHAOS_SEED ?? 38));
    const redis: RedisProcess = await startRedis({ durable: true });
    cleanups.push(() => redis.stop());
    const service = await startService();
    cleanups.push(() => service.close());
    const shop = await startShop(random, 0.3);
    cleanups.push(() => shop.close());
    const prefix = `chaos-${crypto.randomUUID()}:`;
    const gateways = await Promise.all(
      [0, 1, 2].map(
        async () => new GatewayProcess(await freePort(), gatewayEnv(service, shop.url, { REDIS_URL: redis.url, REDIS_PREFIX: prefix })),
      ),
    );
    for (const gateway of gateways) cleanups.push(() => gateway.kill());
    await Promise.all(gateways.map((gateway) => gateway.start()));

    const chaos = (async () => {
      await sleep(1500);
      await gateways[0]!.kill();
      await sleep(1000);
      await redis.kill();
      await sleep(700);
      await redis.restart();
      await sleep(500);
      await gateways[0]!.start();
    })();
    const paid = (await createAndPay(service, gateways, 50, random)).map(({ id }) => id);
    await chaos;
    await everyPaidDelivered(paid, shop.deliveries, 60_000);
    assertOneIdPerChange(paid, shop.deliveries);
  });
});
