/**
 * What each invoice's journal costs (issue 40, docs/console.md), in one run:
 *
 * 1. Checkout reads with the journal on against the same kit without it (`journal: false`),
 *    side by side: `GET /checkout-api/invoices/{id}` through the in-process kit of
 *    bench/proxy-servers.ts (`createCheckoutServer` bundled as it ships, its memory store, on
 *    `createNodeServer`), each in its own process, in front of the bench's mock (10 invoices
 *    with a deal), autocannon with 10 connections, one invoice each; both warmed up for 2 s,
 *    then alternated, 7 rounds of 8 s each (medians); with each round, the CPU time each kit's
 *    process spent per answer (less moved by other work on the machine than req/s).
 * 2. The journals of 10,000 settled invoices, 14 entries each (the entries of the e2e story of
 *    test/e2e/console.test.ts: created, a deal and its requisites, four notifications, three
 *    changes and their webhooks), written through the kit's journal: the SQLite file's growth
 *    (database and WAL, after a checkpoint) against the same store empty, and Redis's
 *    `used_memory` growth (`INFO memory`) and `MEMORY USAGE` of one invoice's keys.
 *
 *   npm run build && node --import tsx bench/journal.ts     (about 2 minutes)
 */
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { createRedisStore } from '../src/server/redis.js';
import { createSqliteStore } from '../src/server/sqlite.js';
import { createJournal } from '../src/server/journal/journal.js';
import type { JournalDetails, JournalKind } from '../src/server/journal/entry.js';
import type { CheckoutStore } from '../src/server/store/types.js';
import { startRedis } from '../test/support/redis-server.js';
import { log, machine, median } from './lib.js';
import { load, startChild, stopChild } from './proxy.js';

export const JOURNAL_ROUNDS = 7;
export const JOURNAL_SECONDS = 8;
export const JOURNAL_INVOICES = 10_000;
export const JOURNAL_READ_GOAL_RATIO = 0.95;

/** The 14 entries of one settled invoice, as the e2e story writes them. */
const storyOf = (id: string, index: number): [JournalKind, JournalDetails][] => {
  const change = (print: string) => `${id}:${print}`;
  return [
    ['created', { amount: '1500.00 RUB', orderId: `order-${index}`, by: 'a23d044bd1c976b0', operation: 'createInvoice', status: 'new' }],
    [
      'change',
      {
        change: change('ab25a9f544428214'),
        changeKind: 'deal_updated',
        source: 'read',
        verified: true,
        status: 'new',
        amount: '1500.00 RUB',
        fields: 'deals[7dde1f46-f007-4de0-a71f-d36e5a4288e8].status',
        handled: true,
      },
    ],
    ['deal_started', { bank: 'Райффайзенбанк', option: 'SBP', method: 'raiffeisenbank', requisites: '•••• 9815', outcome: 'ok' }],
    ['requisites_shown', { bank: 'Райффайзенбанк', requisites: '•••• 9815', route: 'deal' }],
    ['webhook', { change: change('ab25a9f544428214'), httpStatus: 200, outcome: 'delivered', ms: 12 }],
    [
      'notification',
      { tokenCheck: 'accepted', verdict: 'unconfirmed', reason: 'differs: status paid (service: new)', claimedStatus: 'paid' },
    ],
    ['notification', { tokenCheck: 'wrong', verdict: 'refused', reason: 'missing or wrong token' }],
    [
      'change',
      {
        change: change('f88c4de44b601fde'),
        changeKind: 'paid',
        source: 'notification',
        verified: true,
        status: 'paid',
        amount: '1500.00 RUB',
        fields:
          'status, receivedSumFromTaker, receivedSumFromMaker, deals[7dde1f46-f007-4de0-a71f-d36e5a4288e8].status, deals[7dde1f46-f007-4de0-a71f-d36e5a4288e8].payment.takerSum',
        handled: true,
      },
    ],
    ['notification', { tokenCheck: 'accepted', verdict: 'verified', outcome: 'paid' }],
    ['webhook', { change: change('f88c4de44b601fde'), httpStatus: 200, outcome: 'delivered', ms: 9 }],
    [
      'change',
      {
        change: change('884ab17992a9f983'),
        changeKind: 'amount_corrected',
        source: 'notification',
        verified: true,
        status: 'paid',
        amount: '1400.00 RUB',
        fields: 'receivedSumFromTaker, receivedSumFromMaker, deals[7dde1f46-f007-4de0-a71f-d36e5a4288e8].payment.takerSum',
        handled: true,
      },
    ],
    ['notification', { tokenCheck: 'accepted', verdict: 'verified', outcome: 'amount_corrected' }],
    ['webhook', { change: change('884ab17992a9f983'), httpStatus: 200, outcome: 'delivered', ms: 10 }],
    ['reconciled', { finding: 'amount_corrected', status: 'paid', change: null }],
  ];
};

/** Writes the journals of `JOURNAL_INVOICES` settled invoices into `store`, `batch` invoices at a time. */
const fill = async (store: CheckoutStore, batch: number): Promise<number> => {
  const journal = createJournal(store, {}, Date.now, (error) => {
    throw error;
  });
  let entries = 0;
  for (let start = 0; start < JOURNAL_INVOICES; start += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, JOURNAL_INVOICES - start) }, async (_, offset) => {
        const index = start + offset;
        const id = crypto.randomUUID();
        const steps = storyOf(id, index);
        for (const [position, [kind, details]] of steps.entries()) {
          const meta =
            position === 0
              ? { orderId: `order-${index}`, open: Date.now() + 3_600_000 }
              : position === steps.length - 1
                ? { open: false as const }
                : {};
          await journal.write(id, kind, details, meta);
          entries++;
        }
      }),
    );
  }
  return entries;
};

const fileSize = (path: string) => (existsSync(path) ? statSync(path).size : 0);
const sqliteBytes = (path: string) => fileSize(path) + fileSize(`${path}-wal`) + fileSize(`${path}-shm`);

export interface JournalBenchResult {
  reads: { on: number[]; off: number[]; errors: number };
  /** CPU time of the kit's process per answer, µs, each round. */
  cpu: { on: number[]; off: number[] };
  ratio: number;
  cpuRatio: number;
  sqlite: { entries: number; bytes: number; emptyBytes: number; seconds: number };
  redis: { entries: number; usedMemoryGrowth: number; oneInvoiceBytes: number; seconds: number };
}

export const runJournal = async (): Promise<JournalBenchResult> => {
  // 1. Reads, side by side.
  const mock = await startChild('mock');
  const info = mock.info!;
  const on = await startChild('kit', info);
  const off = await startChild('kit', info, [], { BENCH_JOURNAL: 'off' });
  const reads = { on: [] as number[], off: [] as number[], errors: 0 };
  const cpu = { on: [] as number[], off: [] as number[] };
  try {
    const paths = info.invoices.map((invoice) => /invoices\/([^/?]+)/.exec(invoice.lookupPath)?.[1] ?? '');
    const urls = (base: string) => paths.map((id) => `${base}/checkout-api/invoices/${id}`);
    await Promise.all(urls(on.url).map((url) => load(url, {}, 2, 1)));
    await Promise.all(urls(off.url).map((url) => load(url, {}, 2, 1)));
    for (let round = 0; round < JOURNAL_ROUNDS; round++) {
      // Alternated, and which goes first alternates too.
      const order = round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
      for (const which of order) {
        const child = which === 'on' ? on : off;
        const cpuBefore = await child.cpu();
        const loads = await Promise.all(urls(child.url).map((url) => load(url, {}, JOURNAL_SECONDS, 1)));
        const perSecond = loads.reduce((sum, each) => sum + each.okPerSecond, 0);
        reads[which].push(perSecond);
        cpu[which].push(((await child.cpu()) - cpuBefore) / (perSecond * JOURNAL_SECONDS));
        reads.errors += loads.reduce((sum, each) => sum + each.errors, 0);
      }
      log(
        `journal: reads round ${round + 1}: on ${Math.round(reads.on.at(-1)!)}/s (${Math.round(cpu.on.at(-1)!)} µs CPU each), off ${Math.round(reads.off.at(-1)!)}/s (${Math.round(cpu.off.at(-1)!)} µs)`,
      );
    }
  } finally {
    await stopChild(on);
    await stopChild(off);
    await stopChild(mock);
  }

  // 2. Size: SQLite.
  const folder = mkdtempSync(join(tmpdir(), 'journal-bench-'));
  const emptyPath = join(folder, 'empty.db');
  const fullPath = join(folder, 'full.db');
  let sqlite: JournalBenchResult['sqlite'];
  let redisResult: JournalBenchResult['redis'];
  const redis = await startRedis();
  try {
    const checkpoint = (path: string) => {
      const store = createSqliteStore({ path });
      // Closing the last connection checkpoints the WAL into the database file.
      return store.close();
    };
    await checkpoint(emptyPath);
    const sqliteStore = createSqliteStore({ path: fullPath });
    let started = performance.now();
    const sqliteEntries = await fill(sqliteStore, 100);
    const sqliteSeconds = (performance.now() - started) / 1000;
    await sqliteStore.close();
    sqlite = { entries: sqliteEntries, bytes: sqliteBytes(fullPath), emptyBytes: sqliteBytes(emptyPath), seconds: sqliteSeconds };
    log(`journal: SQLite ${sqliteEntries} entries, ${sqlite.bytes} bytes (empty store ${sqlite.emptyBytes})`);

    // Redis.
    const client = createClient({ url: redis.url });
    await client.connect();
    const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))?.[1]);
    const before = await usedMemory();
    const prefix = 'journal-bench:';
    const redisStore = createRedisStore({ url: redis.url, prefix, onError: () => undefined });
    started = performance.now();
    const redisEntries = await fill(redisStore, 200);
    const redisSeconds = (performance.now() - started) / 1000;
    const after = await usedMemory();
    const [one] = await client.keys(`${prefix}j:*`);
    const id = one!.slice(`${prefix}j:`.length);
    const keysOfOne = [`${prefix}j:${id}`, `${prefix}jn:${id}`];
    let oneInvoiceBytes = 0;
    for (const key of keysOfOne) oneInvoiceBytes += Number(await client.memoryUsage(key));
    await redisStore.close();
    await client.quit();
    redisResult = { entries: redisEntries, usedMemoryGrowth: after - before, oneInvoiceBytes, seconds: redisSeconds };
    log(`journal: Redis ${redisEntries} entries, used_memory +${after - before} bytes`);
  } finally {
    await redis.stop();
    rmSync(folder, { recursive: true, force: true });
  }
  return {
    reads,
    cpu,
    ratio: median(reads.on) / median(reads.off),
    cpuRatio: median(cpu.off) / median(cpu.on),
    sqlite,
    redis: redisResult,
  };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const result = await runJournal();
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  console.log(
    JSON.stringify({ machine: machine(), date: new Date().toISOString(), seconds: (Date.now() - started) / 1000, ...result }, null, 2),
  );
  console.log(
    [
      `reads on: ${result.reads.on.map(Math.round).join(', ')} req/s; off: ${result.reads.off.map(Math.round).join(', ')} req/s; errors ${result.reads.errors}`,
      `ratio (median on / median off): ${result.ratio.toFixed(3)} (goal ≥ ${JOURNAL_READ_GOAL_RATIO})`,
      `CPU per answer, µs: on ${result.cpu.on.map(Math.round).join(', ')}; off ${result.cpu.off.map(Math.round).join(', ')}; answers per CPU second, on / off: ${result.cpuRatio.toFixed(3)}`,
      `SQLite: ${result.sqlite.entries} entries of ${JOURNAL_INVOICES} invoices: ${mb(result.sqlite.bytes - result.sqlite.emptyBytes)} (${Math.round((result.sqlite.bytes - result.sqlite.emptyBytes) / JOURNAL_INVOICES)} B per invoice), written in ${result.sqlite.seconds.toFixed(1)} s`,
      `Redis: used_memory +${mb(result.redis.usedMemoryGrowth)} (${Math.round(result.redis.usedMemoryGrowth / JOURNAL_INVOICES)} B per invoice); MEMORY USAGE of one invoice's keys ${result.redis.oneInvoiceBytes} B; written in ${result.redis.seconds.toFixed(1)} s`,
    ].join('\n'),
  );
}
