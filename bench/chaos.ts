/**
 * Nothing lost when the gateway dies (issue 37, point 3), in figures: the world of
 * test/e2e/chaos.test.ts (test/e2e/support/chaos.ts) run once on each store, with a count of
 * what happened instead of a pass or a failure:
 *
 * 1. `sqlite`: one built gateway on its default store, SIGKILLed every 0.3–1.5 s (restarted
 *    0–0.4 s later) while `INVOICES` invoices are created through it and paid at the mock,
 *    about a quarter during a notification outage, the shop's endpoint refusing 30 % of
 *    webhooks with a 503.
 * 2. `redis`: three gateways on one Redis run durably (`appendonly yes`, `appendfsync always`),
 *    one gateway SIGKILLed, then Redis SIGKILLed and restarted, the same invoices and faults.
 * 3. `memory`: run 1 again on `GATEWAY_DATA_DIR=:memory:`, to show what the durable default saves.
 *
 * For each: paid invoices that never reached the shop within `WAIT_MS` (lost), deliveries the
 * shop took more than once for one change (redeliveries: at least once), changes seen under more
 * than one webhook id, the shop's refusals, and for invoices paid while no gateway was up, the
 * time from the gateway's restart to their delivery.
 *
 *   node --import tsx bench/chaos.ts      (about 3 minutes; run `npm run build` first)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DURABLE_REDIS_ARGS, startRedis } from '../test/support/redis-server.js';
import * as world from '../test/e2e/support/chaos.js';
import type { Delivery, GatewayProcess } from '../test/e2e/support/chaos.js';
import { log, median } from './lib.js';

export const CHAOS_INVOICES = 100;
const WAIT_MS = 60_000;

export interface ChaosRun {
  store: 'sqlite' | 'redis' | 'memory';
  invoices: number;
  kills: number;
  /** Paid invoices whose payment never reached the shop. */
  lost: number;
  /** Deliveries the shop took beyond the first of each change. */
  redeliveries: number;
  /** Changes the shop saw under more than one webhook id. */
  changesWithTwoIds: number;
  /** Webhook attempts the shop refused (its 503s) of all attempts. */
  refused: number;
  attempts: number;
  /** Payments made before a restart and first delivered after it (owed across a death), and the time from that restart to their delivery (ms). */
  paidWhileDown: number;
  restartToDelivery: { median: number; max: number };
  seconds: number;
}

export interface ChaosResult {
  runs: ChaosRun[];
}

/** When each process was down: [killed, answering again]. */
type Window = [number, number];

const run = async (store: ChaosRun['store']): Promise<ChaosRun> => {
  const begun = Date.now();
  const random = world.seeded(37);
  const service = await world.startService();
  const shop = await world.startShop(random, 0.3);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-chaos-'));
  const redis = store === 'redis' ? await startRedis({ args: DURABLE_REDIS_ARGS }) : undefined;
  const gateways: GatewayProcess[] = [];
  const down: Window[] = [];
  let kills = 0;
  try {
    const extra: Record<string, string> =
      store === 'redis'
        ? { REDIS_URL: redis!.url, REDIS_PREFIX: 'chaos:' }
        : { GATEWAY_DATA_DIR: store === 'memory' ? ':memory:' : dataDir };
    for (let index = 0; index < (store === 'redis' ? 3 : 1); index++)
      gateways.push(new world.GatewayProcess(await world.freePort(), world.gatewayEnv(service, shop.url, extra)));
    await Promise.all(gateways.map((gateway) => gateway.start()));

    let done = false;
    const chaos = (async () => {
      if (store === 'redis') {
        await world.sleep(1500);
        // Two gateways still serve: only Redis's own death leaves nobody able to record.
        await gateways[0]!.kill();
        kills++;
        await world.sleep(1000);
        const redisDown = Date.now();
        await redis!.kill();
        kills++;
        await world.sleep(700);
        await redis!.restart();
        down.push([redisDown, Date.now()]);
        await world.sleep(500);
        await gateways[0]!.start();
        return;
      }
      while (!done || kills < 5) {
        await world.sleep(300 + random() * 1200);
        const killedAt = Date.now();
        await gateways[0]!.kill();
        kills++;
        await world.sleep(random() * 400);
        await gateways[0]!.start();
        down.push([killedAt, Date.now()]);
      }
    })();

    const paid = await world.createAndPay(service, gateways, CHAOS_INVOICES, random);
    done = true;
    await chaos;

    const end = Date.now() + WAIT_MS;
    while (Date.now() < end && paid.some(({ id }) => !world.paidDelivered(shop.deliveries).has(id))) await world.sleep(200);

    const delivered = world.paidDelivered(shop.deliveries);
    const byChange = new Map<string, Delivery[]>();
    for (const delivery of shop.deliveries) byChange.set(delivery.changeId, [...(byChange.get(delivery.changeId) ?? []), delivery]);
    // What a death left owed: a payment made before a restart and first delivered after it,
    // timed from the restart it waited for (the last one before its delivery).
    const waits = paid.flatMap(({ id, at }) => {
      const first = shop.deliveries.find((each) => each.invoiceId === id && each.type === 'invoice.paid');
      if (!first) return [];
      const back = down
        .map(([, to]) => to)
        .filter((to) => at <= to && first.at >= to)
        .at(-1);
      return back === undefined ? [] : [first.at - back];
    });
    const counts = shop.counts();
    const result: ChaosRun = {
      store,
      invoices: paid.length,
      kills,
      lost: paid.filter(({ id }) => !delivered.has(id)).length,
      redeliveries: [...byChange.values()].reduce((sum, each) => sum + each.length - 1, 0),
      changesWithTwoIds: [...world.idsByChange(shop.deliveries).values()].filter((ids) => ids.size > 1).length,
      refused: counts.refused,
      attempts: counts.attempts,
      paidWhileDown: waits.length,
      restartToDelivery: { median: median(waits), max: waits.length > 0 ? Math.max(...waits) : Number.NaN },
      seconds: (Date.now() - begun) / 1000,
    };
    log(
      `chaos ${store}: ${result.lost} of ${result.invoices} lost, ${result.redeliveries} redeliveries, ${result.kills} kills, ${result.paidWhileDown} owed across a restart (restart → delivery median ${Math.round(result.restartToDelivery.median)} ms)`,
    );
    return result;
  } finally {
    for (const gateway of gateways) await gateway.kill();
    await redis?.stop();
    await shop.close();
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

export const runChaos = async (): Promise<ChaosResult> => ({
  runs: [await run('sqlite'), await run('redis'), await run('memory')],
});

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(JSON.stringify(await runChaos(), null, 2));
}
