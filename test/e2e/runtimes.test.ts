/**
 * The kit on every runtime the docs name besides Node: Bun (`Bun.serve`), Deno (`Deno.serve`)
 * and workerd (Cloudflare's runtime, through miniflare, without `nodejs_compat`), each serving
 * the shop of test/e2e/runtimes/app.js with the built package installed as an adopter installs
 * it (packed, test/e2e/support/scratch-app.ts), against the mock service on Node. On each: a
 * checkout read; the event stream, and a change pushed to it by a notification the kit verified
 * with the service; reconciliation on demand, by a scheduler's call (`kit.cron`) and, where the
 * runtime keeps timers between requests, by the kit's own timer; a receipt upload. On Bun and
 * Deno the kit keeps its books in SQLite through the runtime's own binding (`bun:sqlite`, Deno's
 * `node:sqlite`); on workerd in memory (docs/server.md, "Runtimes").
 *
 * Needs the build and the `bun`, `deno` and `miniflare` packages (`npm ci`); a missing runtime
 * fails its tests, saying so.
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
import { freePort, startProcess, stop } from './support/processes.js';
import { RUNTIMES, TIMER_RUNTIMES } from './support/runtimes.js';
import { scratchApp, type ScratchApp } from './support/scratch-app.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const MERCHANT = { apiKey: 'runtimes-api-key', secretKey: 'runtimes-secret-key', storeId: 31, storeName: 'Runtimes Shop' };
const NOTIFICATION_TOKEN = 'runtimes-notification-token';
const CRON_SECRET = 'runtimes-cron-secret-0123456789';

let scratch: ScratchApp;
let mock: MockEntry.MockServer;

before(async () => {
  scratch = scratchApp('runtimes', []);
  const fixtures = join(root, 'test', 'e2e', 'runtimes');
  for (const name of readdirSync(fixtures)) copyFileSync(join(fixtures, name), join(scratch.app, name));
  const { startMockServer } = (await import('merchant-checkout/mock')) as typeof MockEntry;
  // Two tries 200 ms apart: a notification the shop cannot take is given up in well under a second.
  mock = await startMockServer({ merchants: [MERCHANT], notificationRetry: { attempts: 2, intervalMs: 200 } });
});

after(async () => {
  await mock?.close();
  scratch?.remove();
});

interface Shop {
  url: string;
  stop(): Promise<void>;
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

/** Bun or Deno serving the shop as a process of its own. */
const startProcessShop = async (runtime: 'Bun' | 'Deno'): Promise<Shop> => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const command = runtime === 'Bun' ? [binary('bun', 'bun'), 'bun.js'] : [binary('deno', 'deno'), 'run', '-A', 'deno.js'];
  const child: ChildProcess = await startProcess(
    command[0]!,
    command.slice(1),
    {
      ...settings(url),
      PORT: String(port),
      TIMER: '1',
      DATABASE_FILE: join(scratch.scratch, `${runtime}.db`),
      // Nothing is fetched from elsewhere: no update check, no telemetry.
      DENO_NO_UPDATE_CHECK: '1',
      DO_NOT_TRACK: '1',
    },
    `${url}/shop/changes`,
    scratch.app,
  );
  return { url, stop: () => stop(child) };
};

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
  return { url, stop: () => worker.dispose() };
};

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

for (const runtime of RUNTIMES) {
  describe(`the kit on ${runtime}`, () => {
    let shop: Shop;
    before(async () => {
      shop = runtime === 'workerd' ? await startWorkerShop() : await startProcessShop(runtime);
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
    const changeOf = async (kit: string, invoiceId: string, source: string) =>
      (await changes()).find((change) => change.kit === kit && change.invoiceId === invoiceId && change.source === source);
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
      const report = await json<{ checked: number; findings: { invoiceId: string; status: string }[] }>(
        await fetch(`${shop.url}/shop/reconcile?id=${id}`, { method: 'POST' }),
      );
      assert.equal(report.checked, 1);
      assert.equal(report.findings[0]?.invoiceId, id);
      assert.equal(report.findings[0]?.status, 'paid');
      assert.equal((await changeOf('cron', id, 'reconcile'))?.status, 'paid');
    });

    test("reconciles by a scheduler's call (kit.cron): refused without the secret, finds the lost payment with it", async () => {
      const id = await create({ lost: true });
      await paidUnheard(id);
      assert.equal((await fetch(`${shop.url}/cron/cron`)).status, 401);
      const found = await waitFor('the cron call finds the payment', async () => {
        const answer = await json<{ findings: { invoiceId: string; status: string }[] }>(
          await fetch(`${shop.url}/cron/cron`, { headers: { authorization: `Bearer ${CRON_SECRET}` } }),
        );
        return answer.findings.find((finding) => finding.invoiceId === id);
      });
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
  });
}
