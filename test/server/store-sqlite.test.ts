/**
 * The SQLite store as a shop runs it (a real file): what is committed outlives the process
 * (closed, or SIGKILLed mid-write); an invoice the kit creates is in the store before the create
 * answers; faults (a full disk, a locked file, a file that is not a database, a newer schema)
 * are clear errors, reject the write, and leave the store serving once they pass.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { MerchantTrackingError, type CheckoutStore } from '../../src/server/node.js';
import { openSqliteFile } from '../../src/server/node/sqlite.js';
import { createSqliteStore } from '../../src/server/sqlite.js';
import type { SqliteDatabase } from '../../src/server/store/sqlite.js';
import { kitOnMock } from '../support/kit-on-mock.js';

const MERCHANT = { apiKey: 'sqlite-api-key', secretKey: 'sqlite-secret-key', storeId: 21, storeName: 'SQLite Shop' };
const TOKEN = 'sqlite-notification-token';
const folder = mkdtempSync(join(tmpdir(), 'store-sqlite-'));
after(() => rmSync(folder, { recursive: true, force: true }));
const file = () => join(folder, `${crypto.randomUUID()}.db`);
/** A pragma's value, read through the binding this Node line's store opens files with (node:sqlite or better-sqlite3). */
const pragma = (database: SqliteDatabase, name: string): unknown => Object.values(database.prepare(`PRAGMA ${name}`).get() as object)[0];

const createInvoice = (world: ReturnType<typeof kitOnMock>) =>
  world.client.createInvoice({
    type: 'in',
    amount: '1500.00',
    currency: 'RUB',
    notificationUrl: 'https://shop.example/merchant-checkout/notifications',
    notificationToken: TOKEN,
    internalId: `order-${crypto.randomUUID()}`,
  });

describe('the SQLite store keeps what it acknowledged', () => {
  test('books, tracked invoices, the outbox and kept disputes are there after the file is opened again', async () => {
    const path = file();
    const first = createSqliteStore({ path });
    const id = crypto.randomUUID();
    const claim = await first.claimBooks(id, 5000);
    assert.ok(claim.state === 'claimed' && (await claim.commit({ snapshot: { status: 'paid' } as never, print: 'paid-1' })));
    await first.track(id, 'T1', 1234);
    await first.outboxAdd({ id: `${id}:paid-1`, body: '{"paid":true}', createdAt: 1000 }, 2000);
    await (await first.claimDispute(id, 5000))!.settle('kept');
    await first.close();

    const again = createSqliteStore({ path });
    const books = await again.claimBooks(id, 5000);
    assert.equal(books.state === 'claimed' && books.last?.print, 'paid-1');
    assert.deepEqual(await again.claimDue(2000, 10, 1000), [{ id, terminal: 'T1' }]);
    assert.deepEqual(
      (await again.outboxList('pending', 10)).map((message) => [message.id, message.body]),
      [[`${id}:paid-1`, '{"paid":true}']],
    );
    assert.equal(await again.claimDispute(id, 5000), undefined, 'the made dispute is remembered');
    await again.close();
  });

  test('the file is in WAL with a full sync per commit, leases aside', async () => {
    const database = openSqliteFile(file());
    const store = createSqliteStore({ database });
    assert.equal(pragma(database, 'journal_mode'), 'wal');
    await store.outboxAdd({ id: 'one', body: '{}', createdAt: 1 }, 1);
    await store.outboxClaim(2, 10, 1000);
    await store.track('a', undefined, 1);
    await store.claimDue(2, 10, 1000);
    // 2 is FULL: a lease's lighter write (NORMAL) is set back at once.
    assert.equal(pragma(database, 'synchronous'), 2);
    await store.close();
  });

  test('a process SIGKILLed while it writes loses nothing it was told was written', async () => {
    const path = file();
    // A child adds outbox messages one after another and prints each id once its promise resolved.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { createSqliteStore } from ${JSON.stringify(new URL('../../src/server/sqlite.ts', import.meta.url).href)};
         const store = createSqliteStore({ path: ${JSON.stringify(path)} });
         for (let n = 0; ; n++) {
           await store.outboxAdd({ id: 'm' + n, body: '{}', createdAt: n }, n);
           await store.track('i' + n, undefined, n);
           process.stdout.write('m' + n + '\\n');
         }`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    await new Promise<void>((resolve) => {
      const waiting = setInterval(() => {
        if (printed.split('\n').length > 200) {
          clearInterval(waiting);
          resolve();
        }
      }, 5);
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const acknowledged = printed.split('\n').filter((line) => /^m\d+$/.test(line));
    const store = createSqliteStore({ path });
    const kept = new Set((await store.outboxList('pending', 100_000)).map((message) => message.id));
    const missing = acknowledged.filter((id) => !kept.has(id));
    assert.deepEqual(missing, [], `${acknowledged.length} acknowledged, ${kept.size} kept`);
    assert.ok((await store.trackedCount()) >= acknowledged.length);
    await store.close();
  });

  test('an invoice the kit creates is tracked before the create answers', async () => {
    const path = file();
    const world = kitOnMock(MERCHANT, {
      store: createSqliteStore({ path }),
      notifications: { token: TOKEN },
      reconcile: false,
    });
    const invoice = await createInvoice(world);
    // Read through a second connection to the same file, at once: what the process would find after a crash here.
    const reader = createSqliteStore({ path });
    assert.deepEqual(
      (await reader.claimDue(Date.now() + 24 * 60 * 60 * 1000, 10, 1000)).map((tracked) => tracked.id),
      [invoice.id.toLowerCase()],
    );
    await reader.close();
    await world.kit.close();
    await world.kit.store.close();
    world.mock.close();
  });

  test('a store that cannot record a new invoice fails the create with the invoice named, never silently', async () => {
    const store = createSqliteStore({ path: file() });
    const failing: CheckoutStore = { ...store, track: () => Promise.reject(new Error('disk full')) };
    const world = kitOnMock(MERCHANT, { store: failing, notifications: { token: TOKEN }, reconcile: false });
    const error = await createInvoice(world).then(
      () => assert.fail('the create answered though its invoice was not recorded'),
      (thrown: unknown) => thrown,
    );
    assert.ok(error instanceof MerchantTrackingError, String(error));
    assert.match(error.message, /was made, but not recorded: disk full/);
    assert.equal(world.mock.getInvoice(error.invoice.id)?.id, error.invoice.id, 'the invoice exists at the service');
    await world.kit.close();
    await store.close();
    world.mock.close();
  });
});

describe('the SQLite store under faults', () => {
  test("a full disk: the write is refused with SQLite's words, check() says so, nothing is half-written, and it works again once there is room", async () => {
    const database = openSqliteFile(file());
    const store = createSqliteStore({ database });
    await store.check!();
    // SQLite's page limit plays the full disk: the same SQLITE_FULL a disk without room gives.
    database.exec(`PRAGMA max_page_count = ${Number(pragma(database, 'page_count'))}`);
    const big = 'x'.repeat(64 * 1024);
    await assert.rejects(store.outboxAdd({ id: 'big', body: big, createdAt: 1 }, 1), /full/i);
    assert.deepEqual(await store.outboxList('pending', 10), [], 'nothing half-written');
    database.exec('PRAGMA max_page_count = 1073741823');
    assert.equal(await store.outboxAdd({ id: 'big', body: big, createdAt: 1 }, 1), true);
    await store.check!();
    await store.close();
  });

  test('a file locked by another writer: writes are refused after the busy wait, reads still answer', async () => {
    const path = file();
    const store = createSqliteStore({ path });
    await store.track('a', undefined, 1);
    const holder = openSqliteFile(path);
    holder.exec('BEGIN EXCLUSIVE');
    try {
      await assert.rejects(store.track('b', undefined, 1), /locked|busy/i);
      assert.equal(await store.trackedCount(), 1, 'a read in WAL is not blocked');
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    await store.track('b', undefined, 1);
    assert.equal(await store.trackedCount(), 2);
    await store.close();
  });

  test('a file that is not a database, and one of a newer schema, are refused at construction, naming the file', () => {
    const garbage = file();
    writeFileSync(garbage, 'this is not a database file, it is a shopping list: milk, eggs, bread, and more text');
    assert.throws(
      () => createSqliteStore({ path: garbage }),
      (error: Error) => error.message.includes(garbage) && /not a database/.test(error.message),
    );
    const newer = file();
    const raw = openSqliteFile(newer);
    raw.exec('PRAGMA user_version = 99');
    raw.close();
    assert.throws(() => createSqliteStore({ path: newer }), /newer merchant-checkout \(schema 99/);
  });

  test('options are checked: exactly one of path and database, and whole positive times', () => {
    assert.throws(() => createSqliteStore({}), /exactly one of path and database/);
    assert.throws(() => createSqliteStore({ path: file(), booksTtlMs: -1 }), /booksTtlMs must be a positive whole number/);
  });
});
