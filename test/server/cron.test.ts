/**
 * The kit's handler for a scheduler (`kit.cron`, issue 37 point 6): on a serverless host a
 * platform's cron calls it with `Authorization: Bearer <secret>` and it runs reconciliation
 * passes until nothing is due or its time budget is spent. A wrong or missing secret reads
 * nothing; a read the service does not answer is cut at the budget (or when the caller leaves)
 * and due again at the next call; calls at once, on one instance or on several sharing a store
 * (a real `redis-server` below), hand each change on once.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import {
  DEFAULT_CRON_PATH,
  MerchantClient,
  createCheckoutServer,
  createMemoryStore,
  type CheckoutServer,
  type CheckoutServerOptions,
  type CheckoutStore,
  type InvoiceChange,
} from '../../src/server/node.js';
import { createRedisStore } from '../../src/server/redis.js';
import { documentedPaidNotification } from '../fixtures/documented.js';
import { createScriptedService, type ScriptedService } from '../support/scripted-service.js';
import { DURABLE_REDIS_ARGS, startRedis, storeConnected, type RedisProcess } from '../support/redis-server.js';

const SECRET = 'cron-secret-of-the-shop-0123456789';
const START = Date.parse('2026-11-26T12:00:00Z');

let service: ScriptedService;
let now: number;
let changes: InvoiceChange[];
/** Invoices whose reads the service holds until the read is aborted (a service that does not answer). */
let hanging: Set<string>;
/** Reads of a hanging invoice that were aborted, by invoice. */
let aborted: Map<string, number>;
/** Resolves the reads of an invoice that started, for a test waiting for one. */
let started: ((id: string) => void) | undefined;
const kits: CheckoutServer[] = [];

const fetchOf = (request: Request): Promise<Response> => {
  const id = /\/invoices\/([0-9a-f-]{36})$/.exec(new URL(request.url).pathname)?.[1];
  if (id) started?.(id);
  if (!id || !hanging.has(id)) return service.fetch(request);
  return new Promise((_resolve, reject) => {
    const cut = () => {
      aborted.set(id, (aborted.get(id) ?? 0) + 1);
      reject(request.signal.reason as Error);
    };
    if (request.signal.aborted) cut();
    else request.signal.addEventListener('abort', cut, { once: true });
  });
};

const makeKit = (options: Partial<CheckoutServerOptions> = {}, store: CheckoutStore = createMemoryStore()) => {
  const kit = createCheckoutServer({
    // Longer than a test may take (60 s): a held read the kit does not cut fails the test.
    client: new MerchantClient({
      baseUrl: 'https://pay.example',
      apiKey: 'cron-key',
      secretKey: 'cron-secret',
      fetch: fetchOf,
      timeoutMs: 70_000,
    }),
    store,
    authorize: () => true,
    now: () => now,
    reconcile: { timer: false },
    cron: { secret: SECRET },
    onChange: (change) => void changes.push(change),
    ...options,
  });
  kits.push(kit);
  return kit;
};

beforeEach(() => {
  service = createScriptedService();
  now = START;
  changes = [];
  hanging = new Set();
  aborted = new Map();
  started = undefined;
});

afterEach(async () => {
  await Promise.all(kits.splice(0).map((kit) => kit.close()));
});

/** A paid invoice at the service, whose notifications never arrived: tracked and due now. */
const paidAndDue = async (store: CheckoutStore, id = crypto.randomUUID()) => {
  const { invoice } = documentedPaidNotification();
  invoice.id = id;
  invoice.updatedAt = new Date(now - 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
  service.set(invoice);
  await store.track(id, undefined, now);
  return id;
};

interface CronAnswer {
  ok: boolean;
  passes: number;
  checked: number;
  changes: number;
  errors: number;
  stillDue: boolean;
  stopped: string;
  findings: { invoiceId: string; finding: string; status: string | null }[];
}

const call = (kit: CheckoutServer, init: { secret?: string | null; method?: string; signal?: AbortSignal } = {}) => {
  const headers = new Headers();
  if (init.secret !== null) headers.set('authorization', `Bearer ${init.secret ?? SECRET}`);
  return kit.cron(new Request('https://shop.example/api/cron/reconcile', { method: init.method ?? 'GET', headers, signal: init.signal }));
};

const report = async (answer: Response): Promise<CronAnswer> => {
  assert.equal(answer.status, 200, await answer.clone().text());
  return (await answer.json()) as CronAnswer;
};

describe('kit.cron: the handler a scheduler calls', () => {
  test('a paid invoice whose notifications never came is handed to onChange; the answer says what was done', async () => {
    const kit = makeKit();
    const id = await paidAndDue(kit.store);
    const done = await report(await call(kit));
    assert.deepEqual(
      {
        passes: done.passes,
        checked: done.checked,
        changes: done.changes,
        errors: done.errors,
        stopped: done.stopped,
        stillDue: done.stillDue,
      },
      { passes: 1, checked: 1, changes: 1, errors: 0, stopped: 'nothing_due', stillDue: false },
    );
    assert.deepEqual(
      done.findings.map(({ invoiceId, finding, status }) => ({ invoiceId, finding, status })),
      [{ invoiceId: id, finding: 'paid_never_notified', status: 'paid' }],
    );
    assert.deepEqual(
      changes.map((change) => [change.invoiceId, change.kind, change.source]),
      [[id, 'paid', 'reconcile']],
    );
    // Read and told: the next call finds nothing due.
    const again = await report(await call(kit, { method: 'POST' }));
    assert.deepEqual([again.checked, again.changes, again.stopped], [0, 0, 'nothing_due']);
    assert.equal(changes.length, 1);
  });

  test('a missing or wrong secret is 401 and reads nothing; a kit without cron answers 404; other methods 405', async () => {
    const kit = makeKit();
    const id = await paidAndDue(kit.store);
    for (const secret of [null, 'not-the-secret-at-all-0123456789', `${SECRET}x`, '']) {
      const refused = await call(kit, { secret });
      assert.equal(refused.status, 401, `secret ${JSON.stringify(secret)}`);
      assert.equal(refused.headers.get('www-authenticate'), 'Bearer');
      assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'unauthorized');
    }
    const basic = await kit.cron(
      new Request('https://shop.example/cron', { headers: { authorization: `Basic ${btoa(`user:${SECRET}`)}` } }),
    );
    assert.equal(basic.status, 401);
    const put = await call(kit, { method: 'PUT' });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, POST');
    assert.equal(service.reads.get(id), undefined, 'the service was not asked');
    assert.equal(changes.length, 0);

    const without = makeKit({ cron: undefined }, kit.store);
    assert.equal((await call(without)).status, 404);
    assert.equal(service.reads.get(id), undefined);

    // Still due: the right secret reads it.
    assert.equal((await report(await call(kit))).changes, 1);
  });

  test('the kit refuses a short secret and options cron does not have', () => {
    assert.throws(() => makeKit({ cron: { secret: 'short' } }), /cron\.secret must be a string of at least 16 characters/);
    assert.throws(
      () => makeKit({ cron: { secret: SECRET, budget: 1000 } as never }),
      /`cron\.budget` is not an option of createCheckoutServer; did you mean `cron\.budgetMs`\?/,
    );
    assert.throws(() => makeKit({ secret: SECRET } as never), /`secret` belongs in `cron: \{ secret \}`/);
    assert.throws(() => makeKit({ cron: { secret: SECRET, budgetMs: 0 } }), /cron\.budgetMs must be a positive number/);
    assert.throws(() => makeKit({ cron: { secret: SECRET, path: 'cron' } }), /cron\.path must be a path/);
    assert.throws(() => makeKit({ reconcile: { timer: 'no' as never } }), /reconcile\.timer must be true or false/);
  });

  test('passes go on until nothing is due: five invoices in passes of two', async () => {
    const kit = makeKit({ reconcile: { timer: false, batch: 2 } });
    const ids = [];
    for (let index = 0; index < 5; index++) ids.push(await paidAndDue(kit.store));
    const done = await report(await call(kit));
    assert.deepEqual([done.passes, done.checked, done.changes, done.stopped, done.stillDue], [3, 5, 5, 'nothing_due', false]);
    assert.deepEqual(changes.map((change) => change.invoiceId).sort(), ids.sort());
  });

  test('the budget: a read the service does not answer is cut, no read starts after it, and both are due at the next call', async () => {
    const kit = makeKit({ reconcile: { timer: false, concurrency: 1 }, cron: { secret: SECRET, budgetMs: 200 } });
    const held = await paidAndDue(kit.store);
    now += 1;
    const next = await paidAndDue(kit.store);
    hanging.add(held);
    const done = await report(await call(kit));
    assert.deepEqual([done.checked, done.changes, done.stopped, done.stillDue], [0, 0, 'budget', true]);
    assert.equal(aborted.get(held), 1, 'the read of the invoice the service holds was aborted');
    assert.equal(service.reads.get(next), undefined, 'no read started after the budget');

    // Due again at once (the clock has not moved), not when their lease of 60 s lapses.
    hanging.clear();
    const later = await report(await call(kit));
    assert.deepEqual([later.checked, later.changes, later.stopped], [2, 2, 'nothing_due']);
    assert.deepEqual(changes.map((change) => change.invoiceId).sort(), [held, next].sort());
  });

  test('a claim of the books left by an instance that died holds the call no longer than its budget; the invoice is due again', async () => {
    const kit = makeKit({ cron: { secret: SECRET, budgetMs: 200 }, handlerTimeoutMs: 30_000 });
    const id = await paidAndDue(kit.store);
    // An instance claimed the invoice's books and was killed before it committed: its claim lapses only after 35 s.
    const dead = await kit.store.claimBooks(id, 35_000);
    assert.equal(dead.state, 'claimed');
    const began = Date.now();
    const done = await report(await call(kit));
    const took = Date.now() - began;
    assert.deepEqual([done.checked, done.errors, done.changes, done.stopped, done.stillDue], [0, 0, 0, 'budget', true]);
    assert.ok(took < 10_000, `the call waited ${took} ms for the dead instance's claim`);
    assert.equal(changes.length, 0);

    // Once the claim is gone, the next call tells the shop, once.
    if (dead.state === 'claimed') await dead.release();
    const later = await report(await call(kit));
    assert.deepEqual([later.checked, later.changes, later.stillDue], [1, 1, false]);
    assert.deepEqual(
      changes.map((change) => [change.invoiceId, change.kind, change.source]),
      [[id, 'paid', 'reconcile']],
    );
  });

  test("the caller's abort cuts the call as the budget does; the invoice is due again", async () => {
    const kit = makeKit();
    const held = await paidAndDue(kit.store);
    hanging.add(held);
    const leaving = new AbortController();
    const reading = new Promise<void>((resolve) => (started = (id) => id === held && resolve()));
    const answer = call(kit, { signal: leaving.signal });
    await reading;
    leaving.abort();
    const done = await report(await answer);
    assert.deepEqual([done.checked, done.stopped, done.stillDue], [0, 'aborted', true]);
    assert.equal(aborted.get(held), 1);

    hanging.clear();
    assert.equal((await report(await call(kit))).changes, 1);
    assert.equal(changes.length, 1);
  });

  test('calls at once on one instance hand each change on once, and share the invoices', async () => {
    const kit = makeKit({ reconcile: { timer: false, batch: 2 } });
    const ids = [];
    for (let index = 0; index < 6; index++) ids.push(await paidAndDue(kit.store));
    const answers = await Promise.all([call(kit), call(kit), call(kit, { method: 'POST' })]);
    const done = await Promise.all(answers.map(report));
    assert.equal(
      done.reduce((sum, each) => sum + each.checked, 0),
      6,
      'each due invoice was read by one call',
    );
    assert.equal(
      done.reduce((sum, each) => sum + each.changes, 0),
      6,
    );
    for (const id of ids) assert.equal(service.reads.get(id), 1, id);
    assert.deepEqual(changes.map((change) => change.invoiceId).sort(), ids.sort());
  });

  test('onReport hears each pass that found something; one that throws is told to onError and changes nothing of the answer', async () => {
    const reports: number[] = [];
    const errors: unknown[] = [];
    const kit = makeKit({
      reconcile: {
        timer: false,
        batch: 2,
        onReport: (found) => {
          reports.push(found.findings.length);
          throw new Error('the shop logger is down');
        },
      },
      onError: (error) => void errors.push(error),
    });
    for (let index = 0; index < 3; index++) await paidAndDue(kit.store);
    const done = await report(await call(kit));
    assert.deepEqual([done.passes, done.changes], [2, 3]);
    assert.deepEqual(reports, [2, 1]);
    assert.deepEqual(
      errors.map((error) => (error as Error).message),
      ['the shop logger is down', 'the shop logger is down'],
    );
  });

  test('kit.fetch serves the handler at cron.path (default /merchant-checkout/reconcile)', async () => {
    const kit = makeKit();
    await paidAndDue(kit.store);
    const at = (path: string, secret = SECRET) =>
      kit.fetch(new Request(`https://shop.example${path}`, { headers: { authorization: `Bearer ${secret}` } }));
    assert.equal((await at(DEFAULT_CRON_PATH, 'wrong-secret-wrong-secret')).status, 401);
    assert.equal((await report(await at(DEFAULT_CRON_PATH))).changes, 1);

    const moved = makeKit({ cron: { secret: SECRET, path: '/api/cron/reconcile' } }, createMemoryStore());
    await paidAndDue(moved.store);
    assert.equal((await moved.fetch(new Request(`https://shop.example${DEFAULT_CRON_PATH}`))).status, 404, 'the proxy: not a route of it');
    assert.equal(
      (
        await report(
          await moved.fetch(new Request('https://shop.example/api/cron/reconcile', { headers: { authorization: `Bearer ${SECRET}` } })),
        )
      ).changes,
      1,
    );
  });
});

describe('kit.cron on several instances sharing a real redis-server', () => {
  let redis: RedisProcess;
  const stores: CheckoutStore[] = [];
  before(async () => {
    redis = await startRedis({ args: DURABLE_REDIS_ARGS });
  });
  after(async () => {
    await redis?.stop();
  });
  afterEach(async () => {
    await Promise.all(kits.splice(0).map((kit) => kit.close()));
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  test('calls at once on two instances read each due invoice once and hand each change on once', async () => {
    const prefix = `cron-${crypto.randomUUID()}:`;
    const instance = async () => {
      const store = createRedisStore({ url: redis.url, prefix, commandTimeoutMs: 1000 });
      stores.push(store);
      await storeConnected(store);
      return makeKit({ reconcile: { timer: false, batch: 3 } }, store);
    };
    const [a, b] = [await instance(), await instance()];
    const ids = [];
    for (let index = 0; index < 12; index++) ids.push(await paidAndDue(a.store));
    const done = await Promise.all([call(a), call(b), call(a), call(b)].map(async (answer) => report(await answer)));
    assert.equal(
      done.reduce((sum, each) => sum + each.checked, 0),
      12,
    );
    assert.equal(
      done.reduce((sum, each) => sum + each.changes, 0),
      12,
    );
    for (const id of ids) assert.equal(service.reads.get(id), 1, id);
    assert.deepEqual(changes.map((change) => change.invoiceId).sort(), ids.sort());
    assert.deepEqual(
      done.map((each) => each.stopped),
      ['nothing_due', 'nothing_due', 'nothing_due', 'nothing_due'],
    );
  });
});
