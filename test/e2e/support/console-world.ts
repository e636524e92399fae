/**
 * The console's world (test/e2e/console.test.ts, bench/console-screenshots.ts): the mock
 * service on a port, a shop whose webhook endpoint answers what the test says, and a gateway
 * on SQLite with the console on, notified by the mock. `story()` plays the invoice: a
 * deal started by the payer, a forged `paid` refused, a wrong token refused, the payment and
 * its correction verified, each change's webhook failing at the shop until it is back.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonLog, startGateway, type RunningGateway } from '../../../src/gateway/server.js';
import { readConfig, settingsSource } from '../../../src/gateway/settings.js';
import { startMockServer, type MockServer } from '../../../src/mock/index.js';
import { startShopWebhooks, type ReceivedWebhook } from '../../support/shop-webhooks.js';

export const MERCHANT = { apiKey: 'console-api-key', secretKey: 'console-secret-key', storeId: 40, storeName: 'Console Shop' };
export const NOTIFICATION_TOKEN = 'console-notification-token';
export const GATEWAY_SECRET = 'console-token-secret-0123456789';
export const BEARER = 'console-shop-bearer-0123456789';
export const CONSOLE_KEY = 'console-key-for-support-0123456789';
export const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;

export interface ConsoleWorld {
  url: string;
  gateway: RunningGateway;
  mock: MockServer;
  /** The webhooks the shop received. */
  received: ReceivedWebhook[];
  /** What the shop answers its webhooks. */
  setShopAnswer(status: number): void;
  logLines: string[];
  close(): Promise<void>;
}

const freePort = async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
};

export const startConsoleWorld = async (): Promise<ConsoleWorld> => {
  const mock = await startMockServer({
    merchants: [MERCHANT],
    controls: true,
    port: 0,
    notificationRetry: { attempts: 1, baseDelayMs: 20, maxDelayMs: 40, timeoutMs: 2000 },
  });
  const shop = await startShopWebhooks(500);
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'console-world-'));
  const logLines: string[] = [];
  const config = readConfig(
    settingsSource(
      {
        PAYMENT_API_URL: mock.url,
        PAYMENT_API_KEY: MERCHANT.apiKey,
        PAYMENT_SECRET_KEY: MERCHANT.secretKey,
        PAYMENT_NOTIFICATION_TOKEN: NOTIFICATION_TOKEN,
        GATEWAY_SECRET,
        GATEWAY_API_KEY: BEARER,
        GATEWAY_CONSOLE_KEY: CONSOLE_KEY,
        GATEWAY_PUBLIC_URL: `http://127.0.0.1:${port}`,
        SHOP_WEBHOOK_URL: shop.url,
        SHOP_WEBHOOK_SECRET: WEBHOOK_SECRET,
        // One retry, an hour away: a failed webhook stays pending until someone delivers it again.
        SHOP_WEBHOOK_RETRY_DELAYS_MS: '3600000',
        PORT: String(port),
        GATEWAY_DATA_DIR: dataDir,
      },
      undefined,
    ),
  );
  // A gateway that cannot start (no SQLite binding for this Node, say) must not leave the mock
  // and the shop listening: the test process would wait for them instead of failing.
  const gateway = await startGateway(
    config,
    jsonLog('info', (line) => void logLines.push(line)),
  ).catch(async (error: unknown) => {
    await shop.close();
    await mock.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  return {
    url: gateway.url,
    gateway,
    mock,
    received: shop.received,
    setShopAnswer: shop.answer,
    logLines,
    close: async () => {
      await gateway.stop();
      await shop.close();
      await mock.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

export const api = (world: ConsoleWorld, path: string, init: RequestInit = {}) =>
  fetch(`${world.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${BEARER}`, 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` answers something, within `ms`. */
export const until = async <T>(what: string, check: () => T | undefined | Promise<T | undefined>, ms = 10_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await pause(25);
  }
};

/** What the story leaves behind: the invoice, its order id, the deal's whole requisites (which must never show). */
export interface Story {
  invoiceId: string;
  orderId: string;
  requisites: string;
  checkoutToken: string;
  /** The ids of the changes handed to the shop: the payment and its correction. */
  paid: string;
  corrected: string;
}

/**
 * The invoice: paid, then corrected, its first notification forged; each webhook failing
 * at the shop. Played again in the same world, it tells of a new invoice of its own.
 */
export const story = async (world: ConsoleWorld): Promise<Story> => {
  world.setShopAnswer(500);
  const earlier = world.received.length;
  const orderId = `order-${randomBytes(4).toString('hex')}`;
  const created = await api(world, '/v1/invoices', {
    method: 'POST',
    body: JSON.stringify({ type: 'in', amount: '1500.00', currency: 'RUB', internalId: orderId }),
  });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`);
  const { invoice, checkoutToken } = (await created.json()) as { invoice: { id: string }; checkoutToken: string };
  const page = { 'x-checkout-token': checkoutToken };
  const variants = (await (
    await fetch(`${world.url}/checkout-api/invoices/${invoice.id}/available-payment-variants`, { headers: page })
  ).json()) as { option: string; method: string }[];
  const deal = await fetch(`${world.url}/checkout-api/invoices/${invoice.id}/deal`, {
    method: 'POST',
    headers: { ...page, 'content-type': 'application/json' },
    body: JSON.stringify({ option: variants[0]!.option, method: variants[0]!.method }),
  });
  if (deal.status !== 200) throw new Error(`deal: ${deal.status} ${await deal.text()}`);
  const requisites = ((await deal.json()) as { deals: { isActive: boolean; requisites: { requisites: string } }[] }).deals.find(
    (one) => one.isActive,
  )!.requisites.requisites;
  await fetch(`${world.url}/checkout-api/invoices/${invoice.id}`, { headers: page });
  // A forged paid: the right token (it travels unsigned), a state the service does not show.
  const forged = await fetch(`${world.url}/notifications`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-notification-token': NOTIFICATION_TOKEN },
    body: JSON.stringify({ invoice: { id: invoice.id, status: 'paid', updatedAt: new Date(Date.now() + 3_600_000).toISOString() } }),
  });
  if (forged.status !== 409) throw new Error(`the forged notification was answered ${forged.status}`);
  const wrong = await fetch(`${world.url}/notifications`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-notification-token': 'a-guessed-token' },
    body: JSON.stringify({ invoice: { id: invoice.id, status: 'paid' } }),
  });
  if (wrong.status !== 401) throw new Error(`the wrong token was answered ${wrong.status}`);
  world.mock.service.markPaid(invoice.id);
  await world.mock.service.notificationsSettled();
  world.mock.service.correctAmount(invoice.id, '1400.00');
  await world.mock.service.notificationsSettled();
  const changeOf = (type: string) =>
    world.received.slice(earlier).find((message) => (JSON.parse(message.body) as { type: string }).type === type)?.headers['webhook-id'] as
      string | undefined;
  const paid = await until('the paid webhook', () => changeOf('invoice.paid'));
  const corrected = await until('the correction webhook', () => changeOf('invoice.amount_corrected'));
  await world.gateway.gateway.kit.journal.idle();
  // The attempts' journal entries are noted after the shop answered.
  await until('both attempts in the journal', async () => {
    const view = await world.gateway.gateway.kit.journal.read(invoice.id);
    return view.entries.filter((entry) => entry.kind === 'webhook').length >= world.received.length - earlier ? true : undefined;
  });
  return { invoiceId: invoice.id, orderId, requisites, checkoutToken, paid, corrected };
};
