/**
 * The event benchmark's status latency (bench/events.ts: a notification POSTed to an instance →
 * the `invoice` event at a client streaming the invoice) on two copies of the sources side by
 * side: each round starts, for each copy in turn (the order reversed every other round), one
 * instance of its own test/support/cluster-instance.ts (memory store) and three behind one Redis,
 * in front of one mock, and measures 100 notifications on each (50 invoices × 2 real changes, `CHANGES`).
 * The samples of all rounds are pooled per copy; p50 and p99 of each.
 *
 *   node --import tsx bench/events-ab.ts ROOT [rounds=4]     ROOT: the other copy (about 3 min)
 *
 * With `JOURNAL=off` this copy's instances keep no journal (test/support/cluster-instance.ts),
 * to compare with a copy from before it; the other copy's ignore it.
 */
import { pathToFileURL } from 'node:url';
import { startMockServer } from '../src/mock/index.js';
import { MerchantClient } from '../src/server/node.js';
import type { startCluster as StartCluster } from '../test/support/cluster.js';
import { startRedis } from '../test/support/redis-server.js';
import { createInvoices, latency, MERCHANT, TOKEN } from './events.js';
import { log, percentile } from './lib.js';

const [root, roundsText = '4'] = process.argv.slice(2);
if (!root) throw new TypeError('bench/events-ab.ts ROOT [rounds]: ROOT is another copy of the repository');
const rounds = Number(roundsText);

const here = new URL('..', import.meta.url);
const clusterOf = async (base: URL): Promise<typeof StartCluster> =>
  ((await import(new URL('test/support/cluster.ts', base).href)) as { startCluster: typeof StartCluster }).startCluster;
const sides = { here: await clusterOf(here), other: await clusterOf(pathToFileURL(`${root.replace(/\/$/, '')}/`)) };

const mock = await startMockServer({ merchants: [MERCHANT], controls: false, port: 0 });
const redis = await startRedis();
const samples: Record<string, number[]> = {};
try {
  const client = new MerchantClient({ baseUrl: mock.url, apiKey: MERCHANT.apiKey, secretKey: MERCHANT.secretKey });
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['here', 'other'] as const) : (['other', 'here'] as const);
    for (const side of order) {
      for (const count of [1, 3]) {
        // Fresh invoices each time: a change is real only once per invoice and status.
        const ids = await createInvoices(client, 50);
        const cluster = await sides[side]({
          count,
          mockUrl: mock.url,
          apiKey: MERCHANT.apiKey,
          secretKey: MERCHANT.secretKey,
          token: TOKEN,
          ...(count > 1 ? { redisUrl: redis.url, redisPrefix: `events-ab-${side}-${round}:` } : {}),
        });
        try {
          const figures = await latency(mock, cluster.instances, ids, (each) => (samples[`${side} ${count}`] ??= []).push(each));
          log(
            `events-ab: round ${round + 1}, ${side}, ${count} instance(s): p50 ${figures.p50.toFixed(2)} ms, p99 ${figures.p99.toFixed(2)} ms`,
          );
        } finally {
          await cluster.stop();
        }
      }
    }
  }
} finally {
  await redis.stop();
  await mock.close();
}
for (const [key, values] of Object.entries(samples).sort()) {
  console.log(
    `${key}: ${values.length} samples, p50 ${percentile(values, 0.5).toFixed(2)} ms, p99 ${percentile(values, 0.99).toFixed(2)} ms`,
  );
}
