/**
 * Three gateway processes (`merchant-checkout serve`, the built bin, as a shop runs it) on one
 * real `redis-server`, behind a round-robin balancer, in front of the mock service on a port.
 * Invoices are created and paid while one gateway is killed (SIGKILL, a crash) mid-way: the
 * shop's webhook receives every change, each once, and nothing is lost.
 *
 * Needs Debian's `redis-server`; without it the suite fails saying so, it is not skipped.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { startRedis, type RedisProcess } from '../support/redis-server.js';

const BIN = fileURLToPath(new URL('../../dist/node/cli.js', import.meta.url));
const MERCHANT = { apiKey: 'cluster-gateway-key', secretKey: 'cluster-gateway-secret', storeId: 31, storeName: 'Clustered Gateway Shop' };
const BEARER = 'cluster-bearer-key-0123456789';
const WEBHOOK_SECRET = `whsec_${Buffer.from('cluster-webhook-secret-bytes-32!').toString('base64')}`;

let redis: RedisProcess;
let mock: MockServer;
let balancer: Server;
let balancerUrl: string;
let shop: Server;
let shopUrl: string;
const gateways: { child: ChildProcess; url: string; alive: boolean }[] = [];
/** Every webhook the shop received: its id and type. */
const deliveries: { id: string; type: string }[] = [];

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );

/** Starts one gateway process; resolves with its URL once it logs that it listens. */
const startGateway = (): Promise<{ child: ChildProcess; url: string; alive: boolean }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: {
        ...process.env,
        PAYMENT_API_URL: mock.url,
        PAYMENT_API_KEY: MERCHANT.apiKey,
        PAYMENT_SECRET_KEY: MERCHANT.secretKey,
        PAYMENT_NOTIFICATION_TOKEN: 'cluster-notification-token',
        GATEWAY_SECRET: 'cluster-gateway-token-secret-0001',
        GATEWAY_API_KEY: BEARER,
        GATEWAY_PUBLIC_URL: balancerUrl,
        SHOP_WEBHOOK_URL: shopUrl,
        SHOP_WEBHOOK_SECRET: WEBHOOK_SECRET,
        REDIS_URL: redis.url,
        REDIS_PREFIX: `gateway-cluster-${process.pid}:`,
        PORT: '0',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`a gateway did not start: ${buffer}`)), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const match = /"msg":"listening","url":"([^"]+)"/.exec(buffer);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, alive: true });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => void (buffer += chunk.toString('utf8')));
    child.once('exit', () => clearTimeout(timer));
  });

before(async () => {
  redis = await startRedis();
  mock = await startMockServer({
    merchants: [MERCHANT],
    controls: true,
    port: 0,
    notificationRetry: { attempts: 3, baseDelayMs: 50, maxDelayMs: 200, timeoutMs: 5000 },
  });
  shop = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string };
      deliveries.push({ id: String(req.headers['webhook-id']), type: body.type });
      res.writeHead(204).end();
    });
  });
  shopUrl = `${await listen(shop)}/payments/webhook`;
  // Round robin over the live gateways, as a load balancer would; a dead one is skipped.
  let next = 0;
  balancer = createServer((req, res) => {
    const live = gateways.filter((gateway) => gateway.alive);
    const target = new URL(live[next++ % live.length]!.url);
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  balancerUrl = await listen(balancer);
  for (let index = 0; index < 3; index++) gateways.push(await startGateway());
});

after(async () => {
  for (const gateway of gateways) if (gateway.alive) gateway.child.kill('SIGTERM');
  await Promise.all(
    gateways.map((gateway) =>
      gateway.child.exitCode === null && gateway.child.signalCode === null
        ? new Promise((resolve) => gateway.child.once('exit', resolve))
        : Promise.resolve(),
    ),
  );
  for (const server of [balancer, shop]) {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  }
  await mock?.close();
  await redis?.stop();
});

const createInvoice = async (): Promise<string> => {
  const answer = await fetch(`${balancerUrl}/v1/invoices`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BEARER}`, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'in', amount: '2000.00', currency: 'RUB', internalId: `cluster-${crypto.randomUUID()}`, startDeal: true }),
  });
  assert.equal(answer.status, 201, await answer.clone().text());
  return ((await answer.json()) as { invoice: { id: string } }).invoice.id;
};

const waitFor = async (what: string, probe: () => boolean, timeoutMs = 30_000) => {
  const end = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

test('three gateways on one Redis, one killed mid-way: the shop receives every change once', { timeout: 120_000 }, async () => {
  const invoices: string[] = [];
  for (let index = 0; index < 12; index++) invoices.push(await createInvoice());
  // The first half is paid while all three run.
  for (const id of invoices.slice(0, 6)) mock.service.markPaid(id);
  // One gateway crashes; the balancer stops sending it anything.
  const victim = gateways[1]!;
  victim.child.kill('SIGKILL');
  victim.alive = false;
  await new Promise((resolve) => victim.child.once('exit', resolve));
  // The second half: paid, or canceled at the service.
  for (const id of invoices.slice(6, 10)) mock.service.markPaid(id);
  for (const id of invoices.slice(10)) mock.service.expire(id);
  await mock.service.notificationsSettled();
  const expected = new Set(invoices);
  await waitFor(
    'a webhook for every invoice',
    () => new Set(deliveries.map((delivery) => delivery.id.split(':')[0])).size >= expected.size,
  );
  // Settle: nothing more should come.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const byInvoice = new Map<string, string[]>();
  for (const { id, type } of deliveries) byInvoice.set(id.split(':')[0]!, [...(byInvoice.get(id.split(':')[0]!) ?? []), type]);
  for (const id of invoices.slice(0, 10)) assert.deepEqual(byInvoice.get(id), ['invoice.paid'], id);
  for (const id of invoices.slice(10)) assert.deepEqual(byInvoice.get(id), ['invoice.expired'], id);
  assert.equal(new Set(deliveries.map((delivery) => delivery.id)).size, deliveries.length, 'no change was delivered twice');
});
