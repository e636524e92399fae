/**
 * The any-stack examples (examples/php/shop.php, examples/python/shop.py) against the built
 * `merchant-checkout serve` and the mock service, in Chromium: each shop creates an invoice
 * through the gateway's bearer API, renders the element with its checkout token (the element's
 * script from the gateway, another origin), the payer sees the invoice paid, and the shop's
 * signed webhook credits the order once: a replayed delivery is a duplicate, a forged one is
 * refused. Needs Debian's php-cli and python3 (.ci/run installs them); without them the suite
 * fails saying so.
 */
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { ConsoleWatch, launchChromium } from './support/browser.js';
import { freePort, startProcess, stop } from './support/processes.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const BIN = `${root}dist/node/cli.js`;
const MERCHANT = { apiKey: 'any-stack-key', secretKey: 'any-stack-secret', storeId: 26, storeName: 'Any Stack Shop' };
const BEARER = 'any-stack-bearer-key-0123456789';
const SECRET_BYTES = Buffer.from('any-stack-webhook-secret-32bytes');
const WEBHOOK_SECRET = `whsec_${SECRET_BYTES.toString('base64')}`;

const requireCommand = (command: string, args: string[]) => {
  const run = spawnSync(command, args, { encoding: 'utf8' });
  assert.equal(
    run.error,
    undefined,
    `${command} is needed for the any-stack examples: sudo apt-get install -y ${command === 'php' ? 'php-cli' : 'python3'}`,
  );
};

const signed = (id: string, body: string, secret = SECRET_BYTES) => {
  const timestamp = String(Math.floor(Date.now() / 1000));
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${createHmac('sha256', secret).update(`${id}.${timestamp}.${body}`).digest('base64')}`,
  };
};

interface Books {
  [order: string]: { status: string; credited: string; changes: { id: string; type: string; credited: string }[] };
}

let mock: MockServer;
let browser: Browser;

/** The gateways' data folders (their SQLite stores, the default), removed at the end. */
const dataRoot = mkdtempSync(join(tmpdir(), 'any-stack-'));

/** The built gateway for one shop: its webhook to that shop, its pages allowed from that shop's origin. */
const startGateway = async (shopUrl: string): Promise<{ child: ChildProcess; url: string }> => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = await startProcess(
    process.execPath,
    [BIN, 'serve'],
    {
      PAYMENT_API_URL: mock.url,
      PAYMENT_API_KEY: MERCHANT.apiKey,
      PAYMENT_SECRET_KEY: MERCHANT.secretKey,
      PAYMENT_NOTIFICATION_TOKEN: 'any-stack-notification-token',
      GATEWAY_SECRET: 'any-stack-gateway-token-secret-01',
      GATEWAY_API_KEY: BEARER,
      GATEWAY_PUBLIC_URL: url,
      GATEWAY_ALLOWED_ORIGINS: shopUrl,
      SHOP_WEBHOOK_URL: `${shopUrl}/webhook`,
      SHOP_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      GATEWAY_DATA_DIR: join(dataRoot, String(port)),
    },
    `${url}/healthz`,
  );
  return { child, url };
};

before(async () => {
  requireCommand('php', ['--version']);
  requireCommand('python3', ['--version']);
  mock = await startMockServer({ merchants: [MERCHANT], controls: true, port: 0 });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await mock?.close();
  rmSync(dataRoot, { recursive: true, force: true });
});

const SHOPS = {
  php: (port: number, books: string) =>
    ['php', ['-S', `127.0.0.1:${port}`, 'examples/php/shop.php'], { SHOP_BOOKS: books, PHP_CLI_SERVER_WORKERS: '4' }] as const,
  python: (port: number) => ['python3', ['examples/python/shop.py'], { PORT: String(port) }] as const,
};

for (const language of ['php', 'python'] as const) {
  describe(`the ${language} shop`, () => {
    let shop: ChildProcess | undefined;
    let gateway: ChildProcess | undefined;
    let gatewayUrl = '';
    let shopUrl = '';
    before(async () => {
      const port = await freePort();
      shopUrl = `http://127.0.0.1:${port}`;
      ({ child: gateway, url: gatewayUrl } = await startGateway(shopUrl));
      const [command, args, env] = SHOPS[language](port, join(tmpdir(), `any-stack-${process.pid}.json`));
      shop = await startProcess(
        command,
        [...args],
        { ...env, GATEWAY_URL: gatewayUrl, GATEWAY_API_KEY: BEARER, SHOP_WEBHOOK_SECRET: WEBHOOK_SECRET },
        `${shopUrl}/orders`,
      );
    });
    after(async () => {
      await stop(shop);
      await stop(gateway);
    });

    test(
      'creates the invoice through the gateway, shows the checkout with its token, and credits the paid order once',
      { timeout: 90_000 },
      async () => {
        const context = await browser.newContext();
        const watch = new ConsoleWatch(context);
        const page = await context.newPage();
        const order = `${language}-${Date.now()}`;
        const tokens = new Set<string>();
        page.on('request', (request) => {
          if (request.url().startsWith(`${gatewayUrl}/checkout-api/`)) tokens.add(request.headers()['x-checkout-token'] ?? '(none)');
        });
        await page.goto(`${shopUrl}/pay?order=${order}&amount=1500.00`);
        const element = page.locator('merchant-checkout');
        const invoiceId = (await element.getAttribute('invoice-id'))!;
        const base = page.locator('merchant-checkout [part~="base"]');
        // A new invoice: the payer picks a way to pay.
        await base.and(page.locator('[data-screen="picker"]')).waitFor({ timeout: 20_000 });
        assert.deepEqual([...tokens], [await element.getAttribute('checkout-token')], "every checkout request carried the page's token");

        mock.service.markPaid(invoiceId);
        await base.and(page.locator('[data-screen="paid"]')).waitFor({ timeout: 20_000 });
        const books = async () => (await (await fetch(`${shopUrl}/orders`)).json()) as Books;
        const end = Date.now() + 20_000;
        while ((await books())[order]?.status !== 'paid') {
          assert.ok(Date.now() < end, `the ${language} shop was not told of the payment: ${JSON.stringify(await books())}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const credited = (await books())[order]!;
        assert.equal(credited.credited, '1500.00 RUB', 'the amount as the service settled it, decimal text with its currency');
        assert.deepEqual(credited.changes.filter((change) => change.type === 'invoice.paid').length, 1, 'one paid change');

        // The same delivery again (a retry, another instance): applied once.
        const paidChange = credited.changes.find((change) => change.type === 'invoice.paid')!;
        const replayBody = JSON.stringify({
          type: 'invoice.paid',
          timestamp: new Date().toISOString(),
          data: {
            id: paidChange.id,
            invoiceId,
            internalId: order,
            current: { status: 'paid', sum: '1500.00 RUB', receivedSumFromTaker: '1500.00 RUB' },
          },
        });
        const replay = await fetch(`${shopUrl}/webhook`, { method: 'POST', headers: signed(paidChange.id, replayBody), body: replayBody });
        assert.deepEqual(await replay.json(), { ok: true, duplicate: true });
        // Signed with another secret: refused, and nothing changes.
        const forged = await fetch(`${shopUrl}/webhook`, {
          method: 'POST',
          headers: signed('forged-change', replayBody, Buffer.from('not-the-shops-secret')),
          body: replayBody,
        });
        assert.equal(forged.status, 401);
        assert.deepEqual((await books())[order], credited, 'the replay and the forgery changed nothing');
        assert.deepEqual(watch.take(), [], "no console error on the shop's page");
        await context.close();
      },
    );
  });
}
