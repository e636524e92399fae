/**
 * The serverless setup of docs/server.md ("Serverless hosts"), run as an adopter would: the
 * Next.js example (examples/nextjs) as it is, built by `next build` (production) in a scratch
 * app with the packed package and `redis` installed (test/e2e/support/next-app.ts), served by
 * `next start`, on a real `redis-server` and the package's own mock service.
 *
 * The shop's invoices are created by another instance of the shop (a kit in this process on the
 * same Redis, as a serverless app's checkout function would be) and paid at the mock while the
 * shop's server is down for the service (the mock's `notificationOutage`): all three tries of
 * every notification fail. The scheduler is played by this test: it calls the example's cron
 * route (app/api/cron/reconcile) once the invoices are due (the reconciler reads an open invoice
 * again a minute after it met it, `openIntervalMs`). A call without the secret or with another is
 * 401 and reads nothing; two calls at once with `CRON_SECRET` find each paid invoice and hand it
 * to the example's `onChange`, which logs one line per change: each invoice once.
 *
 * Needs Debian's `redis-server` (it fails saying so when missing) and the build (`npm run build`).
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type * as MockEntry from 'merchant-checkout/mock';
import type * as RedisEntry from 'merchant-checkout/redis';
import type * as ServerEntry from 'merchant-checkout/server';
import { DURABLE_REDIS_ARGS, startRedis, storeConnected, type RedisProcess } from '../support/redis-server.js';
import { NEXT_APP, nextApp, nextBin, nextBuild } from './support/next-app.js';
import { freePort, startProcess, stop } from './support/processes.js';
import { scratchApp, type ScratchApp } from './support/scratch-app.js';

const MERCHANT = { apiKey: 'serverless-api-key', secretKey: 'serverless-secret-key', storeId: 11, storeName: 'Serverless Shop' };
const NOTIFICATION_TOKEN = 'serverless-notification-token';
const CRON_SECRET = 'serverless-cron-secret-0123456789abcdef';

let scratch: ScratchApp;
let redis: RedisProcess;
let mock: MockEntry.MockServer;
let creator: ServerEntry.CheckoutServer;
let built: { status: number | null; output: string };
let app: ChildProcess | undefined;
let origin: string;
/** What the app printed (stdout and stderr) since it started. */
let printed = '';
/** The paid invoices, and when they are due at the latest (the reconciler's clock: ms since the epoch). */
const invoiceIds: string[] = [];
let dueBy = 0;

/** `next start` of the built example, as a platform would run it, with what it prints kept in `printed`. */
const startApp = async (): Promise<ChildProcess> => {
  const started = await startProcess(
    process.execPath,
    [nextBin(scratch.app), 'start', '--port', new URL(origin).port, '--hostname', '127.0.0.1'],
    {
      NEXT_TELEMETRY_DISABLED: '1',
      PAYMENT_API_URL: mock.url,
      PAYMENT_API_KEY: MERCHANT.apiKey,
      PAYMENT_SECRET_KEY: MERCHANT.secretKey,
      PAYMENT_NOTIFICATION_TOKEN: NOTIFICATION_TOKEN,
      REDIS_URL: redis.url,
      CRON_SECRET,
    },
    // A page the app does not have: it answers without making the kit.
    `${origin}/no-such-page`,
    scratch.app,
  );
  for (const output of [started.stdout, started.stderr]) output?.on('data', (chunk: Buffer) => void (printed += chunk.toString('utf8')));
  return started;
};

const importFrom = async <T>(path: string): Promise<T> => (await import(pathToFileURL(path).href)) as T;

before(
  async () => {
    // Run as docs/server.md asks (appendonly yes, noeviction): the setup as documented, nothing to warn of.
    redis = await startRedis({ args: DURABLE_REDIS_ARGS });
    scratch = scratchApp('next-serverless', [...NEXT_APP, 'redis']);
    nextApp(scratch.app);
    const requireInApp = createRequire(join(scratch.app, 'package.json'));
    const server = await importFrom<typeof ServerEntry>(requireInApp.resolve('merchant-checkout/server'));
    const redisEntry = await importFrom<typeof RedisEntry>(requireInApp.resolve('merchant-checkout/redis'));
    const mockEntry = await importFrom<typeof MockEntry>(requireInApp.resolve('merchant-checkout/mock'));

    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    // Three tries 100 ms apart (the documented 60 s would hold the test for two minutes), all while the shop is down.
    mock = await mockEntry.startMockServer({ merchants: [MERCHANT], notificationRetry: { attempts: 3, intervalMs: 100 } });
    mock.service.notificationOutage(60 * 60_000);

    // Another instance of the shop creates the invoices with its kit's client: the kit tracks them in the shared Redis.
    const store = redisEntry.createRedisStore({ url: redis.url });
    await storeConnected(store);
    const client = new server.MerchantClient({ baseUrl: mock.url, apiKey: MERCHANT.apiKey, secretKey: MERCHANT.secretKey });
    creator = server.createCheckoutServer({ client, authorize: () => false, store, reconcile: false });
    for (let index = 0; index < 2; index++) {
      const invoice = await client.createInvoice({
        type: 'in',
        amount: '1500',
        currency: 'RUB',
        notificationUrl: `${origin}/payments/notify`,
        notificationToken: NOTIFICATION_TOKEN,
        internalId: `order-${crypto.randomUUID()}`,
        startDeal: true,
      });
      invoiceIds.push(invoice.id);
    }
    for (let tries = 0; (await store.trackedCount()) < invoiceIds.length; tries++) {
      assert.ok(tries < 100, 'the creating kit tracks its invoices');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Read again one open interval (and its 10 % spread) after they were met.
    dueBy = Date.now() + server.DEFAULT_OPEN_INTERVAL_MS * 1.1 + 1000;
    for (const id of invoiceIds) mock.service.markPaid(id);
    await mock.service.notificationsSettled();

    built = await nextBuild(scratch.app);
    assert.equal(built.status, 0, built.output.slice(-4000));
    app = await startApp();
  },
  { timeout: 400_000 },
);

after(async () => {
  await stop(app);
  await creator?.close();
  await creator?.store.close();
  await mock?.close();
  await redis?.stop();
  scratch?.remove();
});

/** The example's `onChange` log: one line per change handed to the shop. */
const changeLines = () => [...printed.matchAll(/^order change (\S+): invoice (\S+) (\S+), now (\S+)$/gm)].map((line) => line.slice(1));

/** The mock's reads of an invoice by id (the kit's reads of it). */
const readsOf = (id: string) =>
  mock.service.requests.filter((request) => request.method === 'GET' && request.path === `/api/merchant/invoices/${id}`).length;

const cron = (authorization?: string) =>
  fetch(`${origin}/api/cron/reconcile`, { headers: authorization === undefined ? {} : { authorization } });

interface CronAnswer {
  checked: number;
  changes: number;
  stopped: string;
  stillDue: boolean;
  findings: { invoiceId: string; finding: string; status: string }[];
}

test('every notification of the paid invoices failed at the mock, and the build has the cron route', () => {
  for (const id of invoiceIds) {
    const paid = mock.service.notifications.filter((record) => record.invoiceId === id && record.status === 'paid');
    assert.equal(paid.length, 1, id);
    assert.equal(paid[0]!.state, 'failed');
    assert.equal(paid[0]!.attempts.length, 3);
    for (const attempt of paid[0]!.attempts) assert.match(attempt.error ?? '', /server is down/);
  }
  assert.match(built.output, /\/api\/cron\/reconcile/);
});

test('a missing or wrong secret is 401 and reconciles nothing, once the invoices are due', { timeout: 120_000 }, async () => {
  const wait = dueBy - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  for (const authorization of [
    undefined,
    'Bearer not-the-secret-0123456789abcdef',
    `Bearer ${CRON_SECRET}x`,
    `Basic ${btoa(`cron:${CRON_SECRET}`)}`,
  ]) {
    const answer = await cron(authorization);
    assert.equal(answer.status, 401, `${authorization ?? 'no Authorization'}: ${await answer.clone().text()}`);
  }
  for (const id of invoiceIds) assert.equal(readsOf(id), 0, 'the service was not asked');
  assert.deepEqual(changeLines(), []);
});

test('on a cold instance, two calls at once with CRON_SECRET hand each paid invoice whose notifications all failed to onChange, once', async () => {
  // Another instance, as a serverless platform starts one: the scheduler's calls are its first requests.
  await stop(app);
  app = await startApp();
  const answers = await Promise.all([cron(`Bearer ${CRON_SECRET}`), cron(`Bearer ${CRON_SECRET}`)]);
  const done = await Promise.all(
    answers.map(async (answer) => {
      assert.equal(answer.status, 200, await answer.clone().text());
      return (await answer.json()) as CronAnswer;
    }),
  );
  assert.equal(
    done.reduce((sum, each) => sum + each.checked, 0),
    invoiceIds.length,
    'each due invoice was read by one of the calls',
  );
  assert.equal(
    done.reduce((sum, each) => sum + each.changes, 0),
    invoiceIds.length,
  );
  assert.deepEqual(
    done
      .flatMap((each) => each.findings)
      .map(({ invoiceId, finding, status }) => `${invoiceId} ${finding} ${status}`)
      .sort(),
    invoiceIds.map((id) => `${id} paid_never_notified paid`).sort(),
  );
  for (const id of invoiceIds) assert.equal(readsOf(id), 1, id);

  // The app logs each change before it is committed, and the call answers after: the lines are there.
  for (let tries = 0; changeLines().length < invoiceIds.length && tries < 50; tries++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(
    changeLines()
      .map(([, invoiceId, kind, status]) => `${invoiceId} ${kind} ${status}`)
      .sort(),
    invoiceIds.map((id) => `${id} paid paid`).sort(),
  );

  // Read and told: the scheduler's next call finds nothing due, and nothing is told twice.
  const next = await cron(`Bearer ${CRON_SECRET}`);
  const nothing = (await next.json()) as CronAnswer;
  assert.deepEqual([next.status, nothing.checked, nothing.changes, nothing.stopped, nothing.stillDue], [200, 0, 0, 'nothing_due', false]);
  assert.equal(changeLines().length, invoiceIds.length);
  // On Redis run as documented: no word of the memory store, nor of a Redis setting that loses data.
  assert.doesNotMatch(printed, /merchant-checkout: /);
});
