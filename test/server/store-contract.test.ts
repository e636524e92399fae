/**
 * One contract, every store (docs/ARCHITECTURE.md, "The store"): memory, SQLite (a real file;
 * also through a binding that answers `null` for no row, as `bun:sqlite` does) and Redis (a real
 * `redis-server`) answer every method of `CheckoutStore` the same way. What
 * only a durable store does (a restart keeps it) is in store-sqlite.test.ts and the Redis tests.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createMemoryStore, type CheckoutStore } from '../../src/server/node.js';
import { createRedisStore } from '../../src/server/redis.js';
import { openSqliteFile } from '../../src/server/node/sqlite.js';
import { createSqliteStore } from '../../src/server/sqlite.js';
import type { SqliteDatabase } from '../../src/server/store/sqlite.js';
import { InvoiceSchema, safeParse, type Invoice } from '../../src/schemas/index.js';
import { documentedInvoice } from '../fixtures/documented.js';
import { startRedis, storeConnected, type RedisProcess } from '../support/redis-server.js';

let redis: RedisProcess;
const folder = mkdtempSync(join(tmpdir(), 'store-contract-'));
before(async () => {
  redis = await startRedis();
});
after(async () => {
  await redis?.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** A Redis store once it answers (it connects in the background). */
const connected = async (store: CheckoutStore) => {
  await storeConnected(store);
  return store;
};

/** The database through a binding that answers `null` for no row, as `bun:sqlite` does (node:sqlite and better-sqlite3: `undefined`). */
const nullForNoRow = (database: SqliteDatabase): SqliteDatabase => ({
  exec: (sql) => database.exec(sql),
  prepare: (sql) => {
    const statement = database.prepare(sql);
    return {
      run: (...params) => statement.run(...params),
      get: (...params) => statement.get(...params) ?? null,
      all: (...params) => statement.all(...params),
    };
  },
  close: () => database.close(),
});

const STORES: [string, () => Promise<CheckoutStore>][] = [
  ['memory', () => Promise.resolve(createMemoryStore())],
  ['sqlite', () => Promise.resolve(createSqliteStore({ path: join(folder, `${crypto.randomUUID()}.db`) }))],
  [
    'sqlite, null for no row (as bun:sqlite)',
    () => Promise.resolve(createSqliteStore({ database: nullForNoRow(openSqliteFile(join(folder, `${crypto.randomUUID()}.db`))) })),
  ],
  ['redis', () => connected(createRedisStore({ url: redis.url, prefix: `contract-${crypto.randomUUID()}:` }))],
];

const paid = (id: string, updatedAt: string): Invoice => {
  const read = safeParse(InvoiceSchema, { ...documentedInvoice(), id, status: 'paid', updatedAt });
  assert.ok(read.success);
  return read.data;
};

const entry = (print: string) => ({ snapshot: { status: 'paid' } as never, print });

for (const [name, make] of STORES) {
  describe(`the ${name} store keeps the contract`, () => {
    test('record: a newer state is recorded and heard, the same or an older one is not', async () => {
      const store = await make();
      const heard: (string | undefined)[] = [];
      const subscription = await store.subscribe({ update: ({ invoice }) => heard.push(invoice.updatedAt) });
      const id = crypto.randomUUID();
      assert.equal(await store.record({ invoice: paid(id, '2026-11-26T12:00:00+00:00'), source: 'read' }), true);
      assert.equal(await store.record({ invoice: paid(id, '2026-11-26T12:00:00+00:00'), source: 'read' }), false);
      assert.equal(await store.record({ invoice: paid(id, '2026-11-26T11:00:00+00:00'), source: 'read' }), false);
      assert.deepEqual(await store.lastSeen(id), { status: 'paid', updatedAt: Date.parse('2026-11-26T12:00:00Z') });
      const end = Date.now() + 2000;
      while (heard.length < 1 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(heard, ['2026-11-26T12:00:00+00:00']);
      await subscription.close();
      await store.close();
    });

    test('books: one holder at a time; a commit is what the next claim sees; a release changes nothing', async () => {
      const store = await make();
      const id = crypto.randomUUID();
      const first = await store.claimBooks(id, 5000);
      assert.equal(first.state, 'claimed');
      assert.equal((await store.claimBooks(id, 5000)).state, 'busy');
      if (first.state !== 'claimed') return;
      assert.equal(first.last, undefined);
      assert.equal(await first.commit(entry('one')), true);
      const second = await store.claimBooks(id, 5000);
      assert.equal(second.state === 'claimed' && second.last?.print, 'one');
      if (second.state === 'claimed') await second.release();
      const third = await store.claimBooks(id, 5000);
      assert.equal(third.state === 'claimed' && third.last?.print, 'one');
      if (third.state === 'claimed') await third.release();
      await store.close();
    });

    test('books: a lapsed claim taken by another caller cannot commit', async () => {
      const store = await make();
      const id = crypto.randomUUID();
      const lapsing = await store.claimBooks(id, 30);
      await new Promise((resolve) => setTimeout(resolve, 60));
      const taker = await store.claimBooks(id, 5000);
      assert.equal(taker.state, 'claimed');
      assert.equal(lapsing.state === 'claimed' && (await lapsing.commit(entry('late'))), false);
      if (taker.state === 'claimed') assert.equal(await taker.commit(entry('taker')), true);
      const after = await store.claimBooks(id, 5000);
      assert.equal(after.state === 'claimed' && after.last?.print, 'taker');
      await store.close();
    });

    test('a wall clock set back an hour holds no claim longer than it was taken for', async (t) => {
      const store = await make();
      const id = crypto.randomUUID();
      const real = Date.now.bind(Date);
      const first = await store.claimBooks(id, 30);
      assert.equal(first.state, 'claimed');
      assert.ok(await store.claimDispute(id, 30));
      t.mock.method(Date, 'now', () => real() - 60 * 60 * 1000);
      await new Promise((resolve) => setTimeout(resolve, 80));
      assert.equal((await store.claimBooks(id, 5000)).state, 'claimed', 'the books claim lapsed after its 30 ms');
      assert.ok(await store.claimDispute(id, 5000), 'the dispute claim lapsed too');
      t.mock.restoreAll();
      await store.close();
    });

    test('tracked invoices: due ones are claimed once per lease, rescheduled, untracked', async () => {
      const store = await make();
      const [a, b, c] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
      await store.track(a, 'T1', 1000);
      await store.track(b, undefined, 2000);
      await store.track(c, 'T3', 9000);
      assert.equal(await store.trackedCount(), 3);
      assert.deepEqual(await store.claimDue(5000, 10, 60_000), [
        { id: a, terminal: 'T1' },
        { id: b, terminal: undefined },
      ]);
      assert.deepEqual(await store.claimDue(5000, 10, 60_000), [], 'leased');
      await store.reschedule(a, 5000);
      // Tracked again without a terminal: the one known is kept.
      await store.track(a, undefined, 5000);
      assert.deepEqual(await store.claimDue(5000, 1, 60_000), [{ id: a, terminal: 'T1' }]);
      await store.untrack(b);
      await store.reschedule(b, 0);
      assert.equal(await store.trackedCount(), 2);
      // Oldest due first: c at 9 000, then a, leased until 65 000.
      assert.deepEqual(await store.claimDue(70_000, 10, 1000), [
        { id: c, terminal: 'T3' },
        { id: a, terminal: 'T1' },
      ]);
      await store.close();
    });

    test('outbox: one message per id; claimed, retried, failed, redelivered, delivered once', async () => {
      const store = await make();
      const [m1, m2] = [crypto.randomUUID(), crypto.randomUUID()];
      assert.equal(await store.outboxAdd({ id: m1, body: '{"a":1}', createdAt: 100 }, 1000), true);
      assert.equal(await store.outboxAdd({ id: m1, body: '{"a":2}', createdAt: 100 }, 1000), false);
      assert.equal(await store.outboxAdd({ id: m2, body: '{"b":1}', createdAt: 200 }, 1500), true);
      const claimed = await store.outboxClaim(2000, 10, 30_000);
      assert.deepEqual(
        claimed.map((message) => [message.id, message.body, message.attempts]),
        [
          [m1, '{"a":1}', 0],
          [m2, '{"b":1}', 0],
        ],
      );
      assert.deepEqual(await store.outboxClaim(2000, 10, 30_000), [], 'leased');
      await store.outboxSettle(m1, { delivered: false, error: 'HTTP 503', nextAt: 3000 }, 2000);
      await store.outboxSettle(m2, { delivered: false, error: 'HTTP 410' }, 2000);
      const pending = await store.outboxList('pending', 10);
      assert.deepEqual(
        pending.map((message) => [message.id, message.attempts, message.lastError, message.at]),
        [[m1, 1, 'HTTP 503', 3000]],
      );
      assert.deepEqual(
        (await store.outboxList('failed', 10)).map((message) => [message.id, message.attempts, message.lastError]),
        [[m2, 1, 'HTTP 410']],
      );
      assert.equal(await store.outboxRedeliver(m2, 2500), true);
      assert.equal(await store.outboxRedeliver(crypto.randomUUID(), 2500), false);
      assert.deepEqual(
        (await store.outboxClaim(3000, 10, 30_000)).map((message) => message.id),
        [m2, m1],
      );
      await store.outboxSettle(m1, { delivered: true }, 3100);
      await store.outboxSettle(m2, { delivered: true }, 3100);
      assert.deepEqual(await store.outboxList('pending', 10), []);
      assert.deepEqual(await store.outboxList('failed', 10), []);
      assert.equal(await store.outboxAdd({ id: m1, body: '{"a":1}', createdAt: 100 }, 4000), false, 'delivered: never again');
      assert.equal(await store.outboxRedeliver(m1, 4000), false);
      await store.close();
    });

    test('disputes: one claim at a time; kept, none again; released, another may claim', async () => {
      const store = await make();
      const [kept, released] = [crypto.randomUUID(), crypto.randomUUID()];
      const claim = await store.claimDispute(kept, 5000);
      assert.ok(claim);
      assert.equal(await store.claimDispute(kept, 5000), undefined);
      await claim.settle('kept');
      assert.equal(await store.claimDispute(kept, 5000), undefined);
      const other = await store.claimDispute(released, 5000);
      await other!.settle('released');
      assert.ok(await store.claimDispute(released, 5000));
      await store.close();
    });

    test('refresh turns: one caller per interval', async () => {
      const store = await make();
      const id = crypto.randomUUID();
      assert.equal(await store.claimRefresh(id, 60_000), true);
      assert.equal(await store.claimRefresh(id, 60_000), false);
      await store.close();
    });

    test('journal: entries newest first, capped to the newest, found by order, open ones listed past their deadline', async () => {
      const store = await make();
      const journal = store.journal;
      assert.ok(journal, `the ${name} store keeps journals`);
      const [id, other] = [crypto.randomUUID(), crypto.randomUUID()];
      const order = `order-${crypto.randomUUID()}`;
      const limits = { maxEntries: 3, ttlMs: 60_000 };
      assert.deepEqual(await journal.read(id, 10), { records: [], total: 0 });
      assert.equal(await journal.append(id, { at: 1000, entry: '{"n":1}', orderId: order, open: 5000 }, limits), 1);
      for (const n of [2, 3, 4]) await journal.append(id, { at: 1000 + n, entry: `{"n":${n}}` }, limits);
      assert.deepEqual(await journal.read(id, 10), {
        records: [
          { seq: 4, entry: '{"n":4}' },
          { seq: 3, entry: '{"n":3}' },
          { seq: 2, entry: '{"n":2}' },
        ],
        total: 4,
      });
      assert.deepEqual((await journal.read(id, 1)).records, [{ seq: 4, entry: '{"n":4}' }]);
      assert.deepEqual(await journal.find(order, 10), [id]);
      assert.deepEqual(await journal.find(`order-${crypto.randomUUID()}`, 10), []);
      await journal.append(other, { at: 1000, entry: '{}', open: 3000 }, limits);
      assert.deepEqual(await journal.overdue(2000, 10), []);
      assert.deepEqual(await journal.overdue(6000, 10), [
        { invoiceId: other, deadline: 3000 },
        { invoiceId: id, deadline: 5000 },
      ]);
      await journal.append(other, { at: 1100, entry: '{"settled":true}', open: false }, limits);
      assert.deepEqual(await journal.overdue(6000, 10), [{ invoiceId: id, deadline: 5000 }]);
      assert.deepEqual(await journal.overdue(6000, 0), []);
      await store.close();
    });
  });
}
