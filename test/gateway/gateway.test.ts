/**
 * The gateway (issue 26) as a shop on any stack meets it: configured by settings, not code;
 * pages get in with a checkout token only; invoices created with the shop's bearer key; every
 * change posted to the shop's webhook, signed the Standard Webhooks way, until it answers 2xx;
 * JSON logs with no secret; a graceful stop that loses no notification.
 */
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main.js';
import { pathOf } from '../../src/gateway/app.js';
import { databaseFile, jsonLog, startGateway, watchClock, type RunningGateway } from '../../src/gateway/server.js';
import { readConfig, settingsSource } from '../../src/gateway/settings.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { signCheckoutToken } from '../../src/server/node.js';
import { openSqliteFile } from '../../src/server/node/sqlite.js';
import { startShopWebhooks, type ReceivedWebhook, type ShopWebhooks } from '../support/shop-webhooks.js';
import { waitFor } from '../support/wait.js';

const MERCHANT = { apiKey: 'gateway-api-key', secretKey: 'gateway-secret-key', storeId: 9, storeName: 'Any Stack Shop' };
const TOKEN = 'gateway-notification-token';
const SECRET = 'gateway-token-secret-0123456789';
const BEARER = 'shop-bearer-key-9876543210abcdef';
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;

let mock: MockServer;
let shop: ShopWebhooks;
const logLines: string[] = [];
const gateways: RunningGateway[] = [];

before(async () => {
  mock = await startMockServer({
    merchants: [MERCHANT],
    controls: true,
    port: 0,
    notificationRetry: { attempts: 3, baseDelayMs: 20, maxDelayMs: 40, timeoutMs: 2000 },
  });
  shop = await startShopWebhooks(200, '/webhooks/payments');
});

after(async () => {
  await shop.close();
  await mock.close();
});

afterEach(async () => {
  await Promise.all(gateways.splice(0).map((gateway) => gateway.stop()));
  shop.received.length = 0;
  shop.answer(200);
});

/** Each gateway's data folder (its SQLite store, the default), under one folder removed at the end. */
const dataRoot = mkdtempSync(join(tmpdir(), 'gateway-test-'));
after(() => rmSync(dataRoot, { recursive: true, force: true }));

const env = (extra: Record<string, string> = {}) => ({
  PAYMENT_API_URL: mock.url,
  PAYMENT_API_KEY: MERCHANT.apiKey,
  PAYMENT_SECRET_KEY: MERCHANT.secretKey,
  PAYMENT_NOTIFICATION_TOKEN: TOKEN,
  GATEWAY_SECRET: SECRET,
  GATEWAY_API_KEY: BEARER,
  SHOP_WEBHOOK_URL: shop.url,
  SHOP_WEBHOOK_SECRET: WEBHOOK_SECRET,
  PORT: '0',
  GATEWAY_DATA_DIR: join(dataRoot, crypto.randomUUID()),
  ...extra,
});

/** A gateway whose invoices notify it (GATEWAY_PUBLIC_URL is itself): started on a port known first. */
/** The data folder a started gateway keeps its store in (its GATEWAY_DATA_DIR). */
const dataDirOf = (gateway: RunningGateway): string => dataDirs.get(gateway)!;
const dataDirs = new Map<RunningGateway, string>();

const startSelf = async (extra: Record<string, string> = {}) => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  const config = readConfig(
    settingsSource(env({ PORT: String(port), GATEWAY_PUBLIC_URL: `http://127.0.0.1:${port}`, ...extra }), undefined),
  );
  const running = await startGateway(
    config,
    jsonLog('debug', (line) => void logLines.push(line)),
  );
  gateways.push(running);
  dataDirs.set(running, config.dataDir);
  return running;
};

const api = (url: string, path: string, init: RequestInit = {}) =>
  fetch(`${url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${BEARER}`, 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });

const createInvoice = async (url: string, body: Record<string, unknown> = {}) => {
  const answer = await api(url, '/v1/invoices', {
    method: 'POST',
    body: JSON.stringify({
      type: 'in',
      amount: '1500.00',
      currency: 'RUB',
      internalId: `order-${crypto.randomUUID()}`,
      startDeal: true,
      ...body,
    }),
  });
  assert.equal(answer.status, 201, await answer.clone().text());
  return (await answer.json()) as {
    invoice: { id: string; status: string; notificationToken?: string };
    checkoutToken: string;
    checkoutTokenExpiresAt: string;
  };
};

/** Checks a Standard Webhooks signature the way a shop's own code would (node:crypto, not the kit's). */
const verifyWebhook = (message: ReceivedWebhook): boolean => {
  const id = String(message.headers['webhook-id']);
  const timestamp = String(message.headers['webhook-timestamp']);
  const key = Buffer.from(WEBHOOK_SECRET.slice('whsec_'.length), 'base64');
  const expected = `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${message.body}`).digest('base64')}`;
  return (
    String(message.headers['webhook-signature']).split(' ').includes(expected) && Math.abs(Date.now() / 1000 - Number(timestamp)) < 300
  );
};

describe('merchant-checkout serve: the gateway', () => {
  test("an invoice created with the bearer key carries the gateway's notificationUrl and token; its page reads it with the checkout token only", async () => {
    const gateway = await startSelf();
    const created = await createInvoice(gateway.url);
    assert.equal(created.invoice.status, 'new');
    assert.equal(created.invoice.notificationToken, undefined, 'the notification token never leaves the gateway');
    const read = await fetch(`${gateway.url}/checkout-api/invoices/${created.invoice.id}`, {
      headers: { 'x-checkout-token': created.checkoutToken },
    });
    assert.equal(read.status, 200);
    assert.ok(Date.parse(created.checkoutTokenExpiresAt) > Date.now());
    // The service notifies the gateway itself, which hears it with the token it filled in.
    mock.service.markPaid(created.invoice.id);
    await mock.service.notificationsSettled();
    const record = mock.service.notifications.find((each) => each.invoiceId === created.invoice.id);
    assert.deepEqual([record?.url, record?.state], [`${gateway.url}/notifications`, 'delivered']);
  });

  test("expired, tampered, wrong-invoice and missing tokens are refused with the protocol's 404, and nothing reaches the service", async () => {
    const gateway = await startSelf();
    const [one, other] = [await createInvoice(gateway.url), await createInvoice(gateway.url)];
    const before = mock.service.requests.length;
    const expired = await signCheckoutToken(SECRET, one.invoice.id, Date.now() - 1000);
    const [id, seconds, signature] = one.checkoutToken.split('.') as [string, string, string];
    const tampered = `${id}.${Number(seconds) + 3600}.${signature}`;
    const foreign = await signCheckoutToken('another-secret-entirely-0000', one.invoice.id, Date.now() + 60_000);
    for (const [name, token] of [
      ['expired', expired],
      ['tampered', tampered],
      ['wrong invoice', other.checkoutToken],
      ['another secret', foreign],
      ['missing', undefined],
    ] as const) {
      for (const path of ['', '/available-payment-variants', '/events']) {
        const answer = await fetch(`${gateway.url}/checkout-api/invoices/${one.invoice.id}${path}`, {
          headers: token ? { 'x-checkout-token': token } : {},
        });
        assert.equal(answer.status, 404, `${name} ${path}`);
        assert.equal(((await answer.json()) as { error: { code: string } }).error.code, 'not_found');
      }
      const cancel = await fetch(`${gateway.url}/checkout-api/invoices/${one.invoice.id}/cancel`, {
        method: 'POST',
        headers: token ? { 'x-checkout-token': token } : {},
      });
      assert.equal(cancel.status, 404, `${name} cancel`);
    }
    assert.equal(mock.service.requests.length, before, 'the service was not asked');
    assert.ok(!logLines.some((line) => line.includes(one.checkoutToken) || line.includes(signature)), 'no token in the log');
  });

  test("every change is posted to the shop's webhook, signed; a failure is retried and then never sent again", async () => {
    const gateway = await startSelf();
    const created = await createInvoice(gateway.url);
    shop.answer(500);
    mock.service.markPaid(created.invoice.id);
    await mock.service.notificationsSettled();
    const first = await waitFor('the first attempt', () => shop.received[0]);
    assert.ok(verifyWebhook(first), 'a valid Standard Webhooks signature');
    const payload = JSON.parse(first.body) as {
      type: string;
      data: { kind: string; invoiceId: string; id: string; invoice: Record<string, unknown> };
    };
    assert.equal(payload.type, 'invoice.paid');
    assert.equal(payload.data.invoiceId, created.invoice.id);
    assert.equal(first.headers['webhook-id'], payload.data.id);
    assert.equal('notificationToken' in payload.data.invoice, false);
    // Failed: pending, retried; the shop comes back; it is delivered, then never again.
    const pending = (await (await api(gateway.url, '/v1/webhooks?state=pending')).json()) as {
      webhooks: { id: string; attempts: number; lastError: string }[];
    };
    assert.deepEqual(
      pending.webhooks.map((each) => [each.id, each.attempts, each.lastError]),
      [[payload.data.id, 1, 'the shop answered 500']],
    );
    shop.answer(200);
    assert.equal((await api(gateway.url, `/v1/webhooks/${encodeURIComponent(payload.data.id)}/redeliver`, { method: 'POST' })).status, 202);
    await waitFor('the redelivery', () => (shop.received.length >= 2 ? true : undefined));
    assert.equal(shop.received[1]!.headers['webhook-id'], payload.data.id, 'the same id: the shop can tell a repeat');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await gateway.gateway.webhooks!.pass();
    assert.equal(shop.received.length, 2, 'delivered: never again');
    assert.equal(((await (await api(gateway.url, '/v1/webhooks?state=pending')).json()) as { webhooks: unknown[] }).webhooks.length, 0);
  });

  test('the bearer API refuses a wrong key and a notificationUrl the gateway fills itself; health and readiness answer', async () => {
    const gateway = await startSelf();
    assert.equal(
      (await fetch(`${gateway.url}/v1/invoices`, { method: 'POST', headers: { authorization: 'Bearer nope' }, body: '{}' })).status,
      401,
    );
    const filled = await api(gateway.url, '/v1/invoices', {
      method: 'POST',
      body: JSON.stringify({ type: 'in', amount: '1500.00', currency: 'RUB', notificationUrl: 'https://elsewhere.example' }),
    });
    assert.equal(filled.status, 400);
    assert.match(((await filled.json()) as { error: { message: string } }).error.message, /notificationUrl: the gateway fills it/);
    const invalid = await api(gateway.url, '/v1/invoices', {
      method: 'POST',
      body: JSON.stringify({ type: 'in', amount: 'lots', currency: 'RUB' }),
    });
    assert.equal(invalid.status, 400);
    assert.match(((await invalid.json()) as { error: { message: string } }).error.message, /amount/);
    assert.equal((await fetch(`${gateway.url}/healthz`)).status, 200);
    assert.equal((await fetch(`${gateway.url}/readyz`)).status, 200);
  });

  test('its store on disk cannot write (the file locked): /readyz says why, a notification is not acknowledged, pages still read; then it carries on', async () => {
    const gateway = await startSelf({ GATEWAY_RECONCILE_INTERVAL_MS: '500' });
    const created = await createInvoice(gateway.url);
    const holder = openSqliteFile(databaseFile(readConfig(settingsSource(env({ GATEWAY_DATA_DIR: dataDirOf(gateway) }), undefined))));
    holder.exec('BEGIN EXCLUSIVE');
    try {
      const ready = await fetch(`${gateway.url}/readyz`);
      assert.equal(ready.status, 503);
      assert.match(((await ready.json()) as { reason: string }).reason, /^store: .*locked/);
      mock.service.markPaid(created.invoice.id);
      await mock.service.notificationsIdle();
      const attempt = mock.service.notifications.find((each) => each.invoiceId === created.invoice.id);
      assert.notEqual(attempt?.state, 'delivered', 'nothing acknowledged that was not recorded');
      const read = await fetch(`${gateway.url}/checkout-api/invoices/${created.invoice.id}`, {
        headers: { 'x-checkout-token': created.checkoutToken },
      });
      assert.equal(read.status, 200, 'a page still reads its invoice');
      assert.ok(
        logLines.some((line) => line.includes('"not ready"') && line.includes('locked')),
        'the log says why',
      );
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    assert.equal((await fetch(`${gateway.url}/readyz`)).status, 200);
    // Every notification was refused while it was locked: the reconciler finds the payment.
    await waitFor('the paid webhook', () =>
      shop.received.find((each) => each.body.includes(created.invoice.id) && each.body.includes('invoice.paid')),
    );
  });

  test('a wall clock set back an hour is logged with the size of the jump', async (t) => {
    const lines: string[] = [];
    const watch = watchClock(
      jsonLog('debug', (line) => void lines.push(line)),
      20,
    );
    const real = Date.now.bind(Date);
    t.mock.method(Date, 'now', () => real() - 60 * 60 * 1000);
    await waitFor('the warning', () => lines.find((line) => line.includes('the clock jumped')));
    watch.stop();
    const logged = JSON.parse(lines.find((line) => line.includes('the clock jumped'))!.trim()) as { level: string; byMs: number };
    assert.equal(logged.level, 'warn');
    assert.ok(logged.byMs < -3_590_000 && logged.byMs > -3_610_000, String(logged.byMs));
  });

  test('the log is JSON lines without a secret, a token or requisites', async () => {
    logLines.length = 0;
    const gateway = await startSelf();
    const created = await createInvoice(gateway.url);
    await fetch(`${gateway.url}/checkout-api/invoices/${created.invoice.id}`, { headers: { 'x-checkout-token': created.checkoutToken } });
    mock.service.markPaid(created.invoice.id);
    await mock.service.notificationsSettled();
    await waitFor('the webhook', () => shop.received[0]);
    const requisites = mock.service.getInvoice(created.invoice.id)?.deals[0]?.requisites?.requisites;
    assert.ok(requisites);
    // One write may hold the lines of one turn of the event loop.
    const lines = logLines.join('').split('\n').filter(Boolean);
    for (const line of lines) {
      const parsed = JSON.parse(line) as { level: string; msg: string };
      assert.ok(parsed.level && parsed.msg, line);
      for (const canary of [
        SECRET,
        BEARER,
        WEBHOOK_SECRET,
        TOKEN,
        MERCHANT.secretKey,
        MERCHANT.apiKey,
        created.checkoutToken,
        requisites,
        requisites.replace(/\s/g, ''),
      ]) {
        assert.ok(!line.includes(canary), `the log holds a secret: ${line}`);
      }
    }
    assert.ok(lines.some((line) => line.includes('"msg":"request"')));
    // The same kit's metrics as Prometheus text, with nothing secret in a label either.
    const exposition = await (await fetch(`${gateway.url}/metrics`)).text();
    for (const name of ['merchant_checkout_upstream_duration', 'merchant_checkout_notifications', 'merchant_checkout_checkout_reads'])
      assert.ok(exposition.includes(name), name);
    for (const canary of [SECRET, BEARER, TOKEN, MERCHANT.secretKey, created.checkoutToken, created.invoice.id, requisites])
      assert.ok(!exposition.includes(canary), canary);
  });

  test('a failure of the kit is one error line with its source, the path it answered and the invoice', async () => {
    logLines.length = 0;
    const gateway = await startSelf();
    const created = await createInvoice(gateway.url);
    mock.service.failNext(1, 500, { invoiceId: created.invoice.id });
    const read = await fetch(`${gateway.url}/checkout-api/invoices/${created.invoice.id}`, {
      headers: { 'x-checkout-token': created.checkoutToken },
    });
    assert.equal(read.status, 502);
    const lines = logLines.join('').split('\n').filter(Boolean);
    const failure = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.msg === 'kit' && line.level === 'error');
    assert.ok(failure, lines.join('\n'));
    assert.equal(failure.source, 'checkout');
    assert.equal(failure.path, `/checkout-api/invoices/${created.invoice.id}`);
    assert.equal(failure.invoice, created.invoice.id);
    assert.match(String(failure.error), /500|service/i);
  });

  test('the log writes the lines of one turn at once, and a warning or an error without waiting', async () => {
    const writes: string[] = [];
    const log = jsonLog('info', (text) => void writes.push(text));
    log('debug', 'below the level');
    log('info', 'one', { n: 1 });
    log('info', 'two', { n: 2 });
    assert.equal(writes.length, 0, 'info waits for the end of the turn');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(writes.length, 1);
    assert.deepEqual(
      writes[0]!
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as { msg: string }).msg),
      ['one', 'two'],
    );
    log('info', 'three');
    log('error', 'four');
    assert.equal(writes.length, 2, 'an error goes at once, with what came before it');
    assert.deepEqual(
      writes[1]!
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as { msg: string }).msg),
      ['three', 'four'],
    );
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(writes.length, 2, 'nothing written twice');
  });

  test('routes: the protocol and the notifications reach the kit, every other path its own route, whatever the paths are set to', async () => {
    assert.equal(pathOf('http://127.0.0.1:1/checkout-api/invoices/x?lang=ru'), '/checkout-api/invoices/x');
    assert.equal(pathOf('https://shop.example'), '/');
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const config = readConfig(
      settingsSource(
        env({
          PORT: String(port),
          GATEWAY_PUBLIC_URL: `http://127.0.0.1:${port}`,
          GATEWAY_NOTIFICATIONS_PATH: '/',
          GATEWAY_BASE_PATH: '/pay',
        }),
        undefined,
      ),
    );
    const running = await startGateway(config, () => undefined);
    gateways.push(running);
    assert.equal((await fetch(`${running.url}/healthz`)).status, 200, 'a notifications path of / does not swallow the health check');
    assert.equal((await fetch(`${running.url}/v1/webhooks`)).status, 401, 'nor the bearer API');
    assert.equal(
      (await fetch(`${running.url}/`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status,
      401,
      'the notifications: a wrong token',
    );
    const created = await createInvoice(running.url);
    const read = await fetch(`${running.url}/pay/invoices/${created.invoice.id}`, {
      headers: { 'x-checkout-token': created.checkoutToken },
    });
    assert.equal(read.status, 200);
    assert.equal(((await read.json()) as { id: string }).id, created.invoice.id);
    assert.equal(
      (await fetch(`${running.url}/payx/invoices/${created.invoice.id}`, { headers: { 'x-checkout-token': created.checkoutToken } }))
        .status,
      404,
    );
  });

  test('SIGTERM: readiness turns 503 at once, a notification under way is finished and acknowledged, then the process stops', async () => {
    const gateway = await startSelf();
    const created = await createInvoice(gateway.url);
    // The service answers slowly: the notification's verifying read is under way when the stop comes.
    mock.service.setLatency(400);
    mock.service.markPaid(created.invoice.id);
    await waitFor('the notification under way', () => (gateway.inFlight() > 0 ? true : undefined));
    const stopping = gateway.stop();
    // What a load balancer probing on a kept connection hears during the grace.
    assert.equal((await gateway.gateway.fetch(new Request(`${gateway.url}/readyz`))).status, 503);
    assert.ok(gateway.inFlight() > 0, 'the notification is still under way');
    await stopping;
    mock.service.setLatency(0);
    const record = mock.service.notifications.find((each) => each.invoiceId === created.invoice.id && each.status === 'paid');
    assert.deepEqual(
      record?.attempts.map((attempt) => attempt.status),
      [200],
      'the notification under way was answered 200 before the stop',
    );
    assert.equal(
      await fetch(`${gateway.url}/healthz`).then(
        () => 'answered',
        () => 'closed',
      ),
      'closed',
    );
  });

  test('settings: a missing or malformed one is named and the exit status is 2; --check reaches the service', async () => {
    const io = () => {
      const out = { text: '', err: '' };
      return { out, io: { env: {}, out: (t: string) => void (out.text += t), err: (t: string) => void (out.err += t), stdin: () => '' } };
    };
    for (const [extra, message] of [
      [{ GATEWAY_SECRET: '' }, /GATEWAY_SECRET is not set/],
      [{ GATEWAY_SECRET: 'short' }, /GATEWAY_SECRET must be at least 16 characters/],
      [{ PORT: 'eighty' }, /PORT must be a port/],
      [{ SHOP_WEBHOOK_SECRET: 'plain' }, /SHOP_WEBHOOK_SECRET must be a Standard Webhooks secret/],
      [
        { GATEWAY_ALLOWED_ORIGINS: 'https://shop.example/path' },
        /GATEWAY_ALLOWED_ORIGINS: "https:\/\/shop.example\/path" is not an origin/,
      ],
      [{ PAYMENT_API_URL: '' }, /PAYMENT_API_URL is not set/],
    ] as [Record<string, string>, RegExp][]) {
      const run = io();
      const status = await runCli(['serve'], { ...run.io, env: env(extra) });
      assert.equal(status, 2, JSON.stringify(extra));
      assert.match(run.out.err, message);
    }
    const checked = io();
    assert.equal(await runCli(['serve', '--check'], { ...checked.io, env: env() }), 0, checked.out.text);
    assert.match(checked.out.text, /ok\s+terminal 1 \([0-9a-f]{16}\) reaches/);
    const wrong = io();
    assert.equal(await runCli(['serve', '--check'], { ...wrong.io, env: env({ PAYMENT_SECRET_KEY: 'not-the-secret' }) }), 1);
    assert.match(wrong.out.text, /FAIL\s+terminal 1/);
    const help = io();
    assert.equal(await runCli(['serve', '--help'], help.io), 0);
    for (const name of ['GATEWAY_SECRET', 'GATEWAY_API_KEY', 'REDIS_URL', 'SHOP_WEBHOOK_URL', 'PORT', '--check', '--config'])
      assert.ok(help.out.text.includes(name), name);
  });
});
