/**
 * The kit on every runtime the docs name besides Node: Bun (`Bun.serve`), Deno (`Deno.serve`)
 * and workerd (Cloudflare's runtime, through miniflare, without `nodejs_compat`), each serving
 * the shop of test/e2e/runtimes/app.js with the built package installed as an adopter installs
 * it (packed, test/e2e/support/scratch-app.ts), against the mock service on Node. On each: a
 * checkout read; the event stream, and a change pushed to it by a notification the kit verified
 * with the service; reconciliation on demand, by a scheduler's call (`kit.cron`), where the
 * runtime keeps timers between requests by the kit's own timer, and on workerd by the Worker's
 * `scheduled` handler (`kit.reconciler.drain`, a Cron Trigger sent through miniflare); a
 * receipt upload. On Bun and Deno all of it runs once per durable store: SQLite through the
 * runtime's own binding (`bun:sqlite`, Deno's `node:sqlite`), and Redis (a real `redis-server`,
 * through the `redis` package); on each, what the books were told is still there after the
 * runtime's process is SIGKILLed and a new one starts on the same store. On workerd the kit
 * keeps its books in memory (docs/server.md, "Runtimes").
 *
 * Needs the build, the `bun`, `deno`, `miniflare` and `redis` packages (`npm ci`) and Debian's
 * `redis-server`; a missing one fails the tests, saying so.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type * as MockEntry from 'merchant-checkout/mock';
import { readSse } from '../support/sse.js';
import { DURABLE_REDIS_ARGS, startRedis, type RedisProcess } from '../support/redis-server.js';
import { crash, freePort, startProcess, stop } from './support/processes.js';
import { RUNTIMES, SCHEDULED_RUNTIMES, STORES, TIMER_RUNTIMES, type Store } from './support/runtimes.js';
import { scratchApp, type ScratchApp } from './support/scratch-app.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const MERCHANT = { apiKey: 'runtimes-api-key', secretKey: 'runtimes-secret-key', storeId: 31, storeName: 'Runtimes Shop' };
const NOTIFICATION_TOKEN = 'runtimes-notification-token';
const CRON_SECRET = 'runtimes-cron-secret-0123456789';

let scratch: ScratchApp;
let mock: MockEntry.MockServer;
let redis: RedisProcess;

before(async () => {
  redis = await startRedis({ args: DURABLE_REDIS_ARGS });
  // The Redis store's client, as a shop installs it beside the package (an optional peer).
  scratch = scratchApp('runtimes', ['redis']);
  const fixtures = join(root, 'test', 'e2e', 'runtimes');
  for (const name of readdirSync(fixtures)) copyFileSync(join(fixtures, name), join(scratch.app, name));
  const { startMockServer } = (await import('merchant-checkout/mock')) as typeof MockEntry;
  // Two tries 200 ms apart: a notification the shop cannot take is given up in well under a second.
  mock = await startMockServer({ merchants: [MERCHANT], notificationRetry: { attempts: 2, intervalMs: 200 } });
});

after(async () => {
  await mock?.close();
  await redis?.stop();
  scratch?.remove();
});

interface Shop {
  url: string;
  stop(): Promise<void>;
  /** SIGKILLs the runtime's process, runs `whileDown`, and starts a new process on the same port and store (Bun, Deno). */
  crash?(whileDown: () => Promise<void>): Promise<void>;
  /** Sends the Worker one scheduled event (a Cron Trigger) and answers its outcome (workerd). */
  scheduled?(): Promise<string>;
}

/** A binary of an npm package in this repository's node_modules, or a clear failure naming the package. */
const binary = (name: string, pkg: string): string => {
  const path = join(root, 'node_modules', '.bin', name);
  assert.ok(existsSync(path), `${name} is missing: the devDependency ${pkg} installs it (npm ci)`);
  return path;
};

const settings = (url: string) => ({
  MOCK_URL: mock.url,
  API_KEY: MERCHANT.apiKey,
  SECRET_KEY: MERCHANT.secretKey,
  NOTIFICATION_TOKEN,
  CRON_SECRET,
  SELF_URL: url,
});

/** Bun or Deno serving the shop as a process of its own, the kit on `store`. */
const startProcessShop = async (runtime: 'Bun' | 'Deno', store: Store): Promise<Shop> => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const command =
    runtime === 'Bun'
      ? [binary('bun', 'bun'), 'bun.js']
      : // What the shop needs of Deno: the network (the service, Redis, its own port), its settings, and its files (node_modules, SQLite's).
        [binary('deno', 'deno'), 'run', '--allow-net', '--allow-env', '--allow-read', '--allow-write', 'deno.js'];
  const environment = {
    ...settings(url),
    PORT: String(port),
    TIMER: '1',
    STORE: store.toLowerCase(),
    DATABASE_FILE: join(scratch.scratch, `${runtime}.db`),
    REDIS_URL: redis.url,
    REDIS_PREFIX: `runtimes-${runtime.toLowerCase()}:`,
    // Nothing is fetched from elsewhere: no update check, no telemetry.
    DENO_NO_UPDATE_CHECK: '1',
    DO_NOT_TRACK: '1',
  };
  const start = () => startProcess(command[0]!, command.slice(1), environment, `${url}/shop/changes`, scratch.app);
  let child: ChildProcess = await start();
  return {
    url,
    stop: () => stop(child),
    crash: async (whileDown) => {
      await crash(child);
      await whileDown();
      child = await start();
    },
  };
};

/** The part of miniflare's handle on the Worker that sends a scheduled event (its type comes from `@cloudflare/workers-types`, not installed). */
interface ScheduledFetcher {
  scheduled(options: { cron: string; scheduledTime: Date }): Promise<{ outcome: string; noRetry: boolean }>;
}

/** workerd through miniflare: the Worker bundled as wrangler bundles one (esbuild, the `workerd` condition), no `nodejs_compat`. */
const startWorkerShop = async (): Promise<Shop> => {
  binary('workerd', 'miniflare');
  const { Miniflare } = await import('miniflare');
  const bundled = await build({
    entryPoints: [join(scratch.app, 'worker.js')],
    absWorkingDir: scratch.app,
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    logLevel: 'silent',
  });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const worker = new Miniflare({
    modules: true,
    script: bundled.outputFiles[0]!.text,
    compatibilityDate: '2026-07-01',
    compatibilityFlags: [],
    bindings: settings(url),
    host: '127.0.0.1',
    port,
  });
  await worker.ready;
  return {
    url,
    stop: () => worker.dispose(),
    scheduled: async () => {
      const fetcher = (await worker.getWorker()) as unknown as ScheduledFetcher;
      const { outcome } = await fetcher.scheduled({ cron: '* * * * *', scheduledTime: new Date() });
      return outcome;
    },
  };
};

/** One invoice's finding in a reconciler's report. */
interface Finding {
  invoiceId: string;
  finding: string;
  status: string;
}

interface Change {
  kit: string;
  invoiceId: string;
  source: string;
  verified: boolean;
  status: string;
}

const json = async <T>(response: Response): Promise<T> => {
  const text = await response.text();
  assert.ok(response.ok, `${response.status}: ${text}`);
  return JSON.parse(text) as T;
};

const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    assert.ok(Date.now() < end, `${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

for (const [runtime, store] of RUNTIMES.flatMap((runtime) => STORES[runtime].map((store) => [runtime, store] as const))) {
  describe(`the kit on ${runtime}, its books in ${store}`, () => {
    let shop: Shop;
    before(async () => {
      shop = runtime === 'workerd' ? await startWorkerShop() : await startProcessShop(runtime, store);
    });
    after(async () => {
      await shop?.stop();
    });

    /** An invoice made through the kit's client; `lost`: its notifications go where the shop answers 404. */
    const create = async (options: { startDeal?: boolean; lost?: boolean; kit?: 'timer' } = {}) => {
      const { id } = await json<{ id: string }>(
        await fetch(`${shop.url}/shop/invoices${options.kit ? `?kit=${options.kit}` : ''}`, {
          method: 'POST',
          body: JSON.stringify({ startDeal: options.startDeal ?? false, lost: options.lost ?? false }),
        }),
      );
      return id;
    };
    const changes = async () => json<Change[]>(await fetch(`${shop.url}/shop/changes`));
    /** What the shop's `onError` was told (by this process). */
    const errors = async () => json<string[]>(await fetch(`${shop.url}/shop/errors`));
    const changeOf = async (kit: string, invoiceId: string, source: string) =>
      (await changes()).find((change) => change.kit === kit && change.invoiceId === invoiceId && change.source === source);
    /** What the reconciler found when the shop asked it to read `id` now. */
    const reconcileNow = async (id: string) =>
      json<{ checked: number; findings: Finding[] }>(await fetch(`${shop.url}/shop/reconcile?id=${id}`, { method: 'POST' }));
    /** Calls the kit's cron handler, as a scheduler does, until a call finds something of `id`: that finding. */
    const cronFinds = (id: string) =>
      waitFor(`a cron call finds ${id}`, async () => {
        const answer = await json<{ findings: Finding[] }>(
          await fetch(`${shop.url}/cron/cron`, { headers: { authorization: `Bearer ${CRON_SECRET}` } }),
        );
        return answer.findings.find((finding) => finding.invoiceId === id);
      });
    /** Paid at the service, with every notification of it given up (the shop never heard of it). */
    const paidUnheard = async (id: string) => {
      mock.service.markPaid(id);
      await mock.service.notificationsSettled();
      assert.notEqual(mock.service.notifications.find((each) => each.invoiceId === id)?.state, 'delivered');
    };

    test('reads an invoice for the checkout', async () => {
      const id = await create();
      const invoice = await json<{ id: string; status: string; sum: { amount: string; currency: string } }>(
        await fetch(`${shop.url}/checkout-api/invoices/${id}`),
      );
      assert.equal(invoice.id, id);
      assert.equal(invoice.status, 'new');
      assert.deepEqual([invoice.sum.amount, invoice.sum.currency], ['1500.00', 'RUB']);
    });

    test('streams a change that a notification brought, verified with the service', async () => {
      const id = await create();
      const response = await fetch(`${shop.url}/checkout-api/invoices/${id}/events`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
      const stream = readSse(response.body!);
      try {
        const first = await stream.nextEvent(10_000);
        assert.equal((JSON.parse(first!.data!) as { status: string }).status, 'new');
        mock.service.markPaid(id);
        const pushed = await stream.nextEvent(10_000);
        assert.equal(pushed?.event, 'invoice');
        assert.equal((JSON.parse(pushed.data!) as { status: string }).status, 'paid');
      } finally {
        await stream.close();
      }
      await mock.service.notificationsSettled();
      assert.equal(mock.service.notifications.find((each) => each.invoiceId === id)?.state, 'delivered', 'the shop took the notification');
      assert.deepEqual(await changeOf('cron', id, 'notification'), {
        kit: 'cron',
        invoiceId: id,
        source: 'notification',
        verified: true,
        status: 'paid',
      });
    });

    test('reconciles an invoice on demand: a payment whose notifications were lost', async () => {
      const id = await create({ lost: true });
      await paidUnheard(id);
      const report = await reconcileNow(id);
      assert.equal(report.checked, 1);
      assert.equal(report.findings[0]?.invoiceId, id);
      assert.equal(report.findings[0]?.status, 'paid');
      assert.equal((await changeOf('cron', id, 'reconcile'))?.status, 'paid');
    });

    test("reconciles by a scheduler's call (kit.cron): refused without the secret, finds the lost payment with it", async () => {
      const id = await create({ lost: true });
      await paidUnheard(id);
      assert.equal((await fetch(`${shop.url}/cron/cron`)).status, 401);
      const found = await cronFinds(id);
      assert.equal(found.status, 'paid');
      assert.equal((await changeOf('cron', id, 'reconcile'))?.status, 'paid');
    });

    if (TIMER_RUNTIMES.includes(runtime)) {
      test("reconciles on the kit's own timer, with no call", async () => {
        const id = await create({ lost: true, kit: 'timer' });
        await paidUnheard(id);
        const change = await waitFor('the timer finds the payment', () => changeOf('timer', id, 'reconcile'));
        assert.equal(change.status, 'paid');
      });
    }

    if (SCHEDULED_RUNTIMES.includes(runtime)) {
      test("reconciles by the Worker's scheduled handler (a Cron Trigger): kit.reconciler.drain finds the lost payment", async () => {
        const id = await create({ lost: true });
        await paidUnheard(id);
        assert.equal(await changeOf('cron', id, 'reconcile'), undefined, 'nothing reconciles it before a scheduled event');
        const change = await waitFor('a scheduled event finds the payment', async () => {
          assert.equal(await shop.scheduled!(), 'ok');
          return changeOf('cron', id, 'reconcile');
        });
        assert.equal(change.status, 'paid');
      });
    }

    if (store !== 'memory') {
      test(`keeps its books in ${store} across a SIGKILL: the new process tells nothing twice, and finds a payment made while it was down`, async () => {
        const heard = await create();
        mock.service.markPaid(heard);
        await mock.service.notificationsSettled();
        assert.equal((await changeOf('cron', heard, 'notification'))?.status, 'paid', 'the shop was told of the payment once');
        const missed = await create({ lost: true });
        // The shop reads it once: the books the create began are settled before the kill (a claim of
        // them the killed process held would keep the new one waiting until it expires, `handlerTimeoutMs` + 5 s).
        assert.equal((await reconcileNow(missed)).findings[0]?.status, 'new');
        assert.deepEqual(await errors(), [], 'onError was told of nothing before the kill');
        await shop.crash!(() => paidUnheard(missed));

        assert.deepEqual(await changes(), [], 'a new process: the shop has heard nothing from it yet');
        // The books kept the payment the shop was told of: reading the invoice again is no news.
        const again = await reconcileNow(heard);
        assert.deepEqual(
          again.findings.map(({ invoiceId, finding, status }) => ({ invoiceId, finding, status })),
          [{ invoiceId: heard, finding: 'unchanged', status: 'paid' }],
        );
        assert.equal(await changeOf('cron', heard, 'reconcile'), undefined, 'not told of the payment a second time');
        // The invoices tracked were kept: the scheduler's call reads the one whose payment nobody heard of.
        const found = await cronFinds(missed);
        assert.equal(found.status, 'paid');
        assert.equal((await changeOf('cron', missed, 'reconcile'))?.status, 'paid');
      });
    }

    test("takes the payer's receipt: the service confirms the transfer", async () => {
      const id = await create({ startDeal: true });
      const form = new FormData();
      const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array<number>(120).fill(0)]);
      form.set('attachment', new File([png], 'receipt.png', { type: 'image/png' }));
      const answer = await json<{ deals: { isActive: boolean; status: string }[] }>(
        await fetch(`${shop.url}/checkout-api/invoices/${id}/receipt`, { method: 'POST', body: form }),
      );
      assert.equal(answer.deals.find((deal) => deal.isActive)?.status, 'transfer_confirmed');
      const sent = mock.service.requests.filter(
        (request) => request.method === 'POST' && request.path === `/api/merchant/invoices/${id}/confirm-transfer`,
      );
      assert.equal(sent.length, 1, 'the receipt reached the service');
    });

    test('told onError of no failure along the way', async () => {
      assert.deepEqual(await errors(), []);
    });
  });
}
