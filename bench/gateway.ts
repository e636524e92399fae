/**
 * The gateway's cost (issue 26), against the built bin (`dist/node/cli.js serve`, as a shop
 * runs it) in its own process, in front of the mock service on a port:
 *
 * 1. Checkout reads: `GET /checkout-api/invoices/{id}` with each invoice's checkout token,
 *    autocannon, 10 connections over 10 invoices (one each: no single flight), against the
 *    gateway on its default store (SQLite in a data folder), the same gateway on
 *    `GATEWAY_DATA_DIR=:memory:`, and the in-process kit (bench/proxy-servers.ts `kit`:
 *    `createCheckoutServer` as the README runs it, on `createNodeServer(kit.fetch)`, the kit
 *    bundled as it ships), all warmed up for 2 s, then alternated, 5 rounds of 8 s each (medians).
 * 2. A notification to the shop's webhook: the mock marks an invoice created through a
 *    gateway paid and posts its notification; the gateway verifies it with the service,
 *    records the change (on disk, on its default store) and posts the signed webhook to a shop
 *    server here. Time from the mock's control call to the webhook's arrival, one invoice at a
 *    time, on loopback, alternating between the SQLite and the memory gateway.
 * 3. Idle event streams: 10,000 streams (each with its token) held by one gateway process,
 *    its RSS (from /proc) before and after.
 *
 *   node --import tsx bench/gateway.ts       (about 2 minutes; run `npm run build` first)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startMockServer, type MockServer } from '../src/mock/index.js';
import { signCheckoutToken } from '../src/server/node.js';
import { MERCHANT } from './fixtures.js';
import { openIdle as openRawStream } from './events.js';
import { log, median, percentile, sleep } from './lib.js';
import { load, startChild, stopChild } from './proxy.js';

const BIN = fileURLToPath(new URL('../dist/node/cli.js', import.meta.url));
const SECRET = 'gateway-bench-token-secret-0001';
const BEARER = 'gateway-bench-bearer-0123456789';
const WEBHOOK_SECRET = `whsec_${Buffer.from('gateway-bench-webhook-secret-32b').toString('base64')}`;
const NOTIFICATION_TOKEN = 'bench-token';
export const READ_ROUNDS = 5;
export const READ_SECONDS = 8;
export const WEBHOOKS = 200;
export const IDLE_STREAMS = 10_000;
/** Goals: reads within 10 % of the kit's, and on the durable default within 10 % of memory; a webhook p99 under 50 ms. */
export const READ_GOAL_RATIO = 0.9;
export const DURABLE_READ_GOAL_RATIO = 0.9;
export const WEBHOOK_P99_GOAL_MS = 50;

interface Latency {
  samples: number;
  p50: number;
  p99: number;
  max: number;
}

export interface GatewayResult {
  /** `gateway`: on its default store (SQLite); `memory`: the same on `:memory:`. */
  reads: {
    gateway: number[];
    memory: number[];
    kit: number[];
    gatewayMedian: number;
    memoryMedian: number;
    kitMedian: number;
    ratio: number;
    durableRatio: number;
    gatewayErrors: number;
  };
  /** On the default store (SQLite). */
  webhook: Latency;
  /** The same on `:memory:`, alternated with it. */
  webhookMemory: Latency;
  idle: { asked: number; opened: number; rssBefore: number; rssAfter: number; perStream: number };
}

const rssOf = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((each) => each.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
};

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** The gateways' data folders (the SQLite store, their default), removed when the bench ends. */
const dataRoot = mkdtempSync(join(tmpdir(), 'bench-gateway-'));
process.once('exit', () => rmSync(dataRoot, { recursive: true, force: true }));

/** The built gateway on a free port (its own URL is the invoices' notificationUrl); resolves once it logs that it listens. */
const startGateway = async (
  mockUrl: string,
  webhookUrl: string,
  store: 'sqlite' | 'memory' = 'sqlite',
): Promise<{ child: ChildProcess; url: string }> => {
  const port = await freePort();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: {
        ...process.env,
        PAYMENT_API_URL: mockUrl,
        PAYMENT_API_KEY: MERCHANT.apiKey,
        PAYMENT_SECRET_KEY: MERCHANT.secretKey,
        PAYMENT_NOTIFICATION_TOKEN: NOTIFICATION_TOKEN,
        GATEWAY_SECRET: SECRET,
        GATEWAY_API_KEY: BEARER,
        SHOP_WEBHOOK_URL: webhookUrl,
        SHOP_WEBHOOK_SECRET: WEBHOOK_SECRET,
        PORT: String(port),
        GATEWAY_DATA_DIR: store === 'memory' ? ':memory:' : join(dataRoot, String(port)),
        GATEWAY_PUBLIC_URL: `http://127.0.0.1:${port}`,
        // The log a shop runs with: a line per request, to a pipe read here.
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (buffer.length > 4096) return;
      buffer += chunk.toString('utf8');
      const match = /"msg":"listening","url":"([^"]+)"/.exec(buffer);
      if (match) {
        buffer = 'x'.repeat(5000);
        resolve({ child, url: match[1]! });
      }
    });
    child.once('exit', (code) => reject(new Error(`the gateway exited with ${code} before it listened`)));
  });
};

const stopProcess = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
};

/** One idle stream of the gateway: the proxy's raw opener, with the invoice's token. */
const openIdle = (url: URL, id: string, token: string): Promise<Socket> => openRawStream(url, id, `X-Checkout-Token: ${token}\r\n`);

export const runGateway = async (): Promise<GatewayResult> => {
  // 1. Reads: the mock of the proxy benchmark (its invoices), the kit's process and the gateway.
  const mockChild = await startChild('mock');
  const info = mockChild.info!;
  const kit = await startChild('kit', info);
  const quiet = createServer((_req, res) => res.writeHead(204).end());
  await new Promise<void>((resolve) => quiet.listen(0, '127.0.0.1', resolve));
  const quietUrl = `http://127.0.0.1:${(quiet.address() as AddressInfo).port}/`;
  const readGateway = await startGateway(info.url, quietUrl);
  const memoryGateway = await startGateway(info.url, quietUrl, 'memory');
  const expiry = Date.now() + 3_600_000;
  const reads = { gateway: [] as number[], memory: [] as number[], kit: [] as number[], gatewayErrors: 0 };
  try {
    const ids = info.invoices.map((invoice) => /invoices\/([^/?]+)/.exec(invoice.lookupPath)?.[1] ?? '');
    const tokens = await Promise.all(ids.map((id) => signCheckoutToken(SECRET, id, expiry)));
    const gatewayUrls = ids.map((id) => `${readGateway.url}/checkout-api/invoices/${id}`);
    const memoryUrls = ids.map((id) => `${memoryGateway.url}/checkout-api/invoices/${id}`);
    const kitUrls = ids.map((id) => `${kit.url}/checkout-api/invoices/${id}`);
    // A token per URL: autocannon's requests carry one header set, so each connection loads one invoice with its token.
    const withToken = (index: number) => ({ 'x-checkout-token': tokens[index]! });
    // Both loaded alike (warmed up first): ten autocannon instances, one connection each, one invoice each.
    await Promise.all(kitUrls.map((url) => load(url, {}, 2, 1)));
    await Promise.all(gatewayUrls.map((url, index) => load(url, withToken(index), 2, 1)));
    await Promise.all(memoryUrls.map((url, index) => load(url, withToken(index), 2, 1)));
    for (let round = 0; round < READ_ROUNDS; round++) {
      const kitLoads = await Promise.all(kitUrls.map((url) => load(url, {}, READ_SECONDS, 1)));
      reads.kit.push(kitLoads.reduce((sum, each) => sum + each.okPerSecond, 0));
      // The gateway: ten autocannon instances, one per invoice and token, one connection each.
      const gatewayLoads = await Promise.all(gatewayUrls.map((url, index) => load(url, withToken(index), READ_SECONDS, 1)));
      reads.gateway.push(gatewayLoads.reduce((sum, each) => sum + each.okPerSecond, 0));
      reads.gatewayErrors += gatewayLoads.reduce((sum, each) => sum + each.errors, 0);
      const memoryLoads = await Promise.all(memoryUrls.map((url, index) => load(url, withToken(index), READ_SECONDS, 1)));
      reads.memory.push(memoryLoads.reduce((sum, each) => sum + each.okPerSecond, 0));
      reads.gatewayErrors += memoryLoads.reduce((sum, each) => sum + each.errors, 0);
      log(
        `gateway: reads round ${round + 1}: kit ${Math.round(reads.kit.at(-1)!)}/s, gateway on SQLite ${Math.round(reads.gateway.at(-1)!)}/s, on memory ${Math.round(reads.memory.at(-1)!)}/s`,
      );
    }
  } finally {
    await stopProcess(readGateway.child);
    await stopProcess(memoryGateway.child);
    await stopChild(kit);
    await stopChild(mockChild);
    quiet.close();
  }

  // 2 and 3: an in-process mock with controls; the shop's webhook receiver here.
  const mock: MockServer = await startMockServer({ merchants: [MERCHANT], controls: true, port: 0 });
  const arrivals = new Map<string, (at: number) => void>();
  const shop: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; data: { invoiceId: string } };
      if (body.type === 'invoice.paid') arrivals.get(body.data.invoiceId)?.(at);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  const shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/webhook`;
  const gateway = await startGateway(mock.url, shopUrl);
  const inMemory = await startGateway(mock.url, shopUrl, 'memory');
  const samples: number[] = [];
  const memorySamples: number[] = [];
  let idle: GatewayResult['idle'];
  try {
    const create = async (at = gateway) => {
      const answer = await fetch(`${at.url}/v1/invoices`, {
        method: 'POST',
        headers: { authorization: `Bearer ${BEARER}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'in', amount: '1500.00', currency: 'RUB', startDeal: true, paymentOption: 'SBP' }),
      });
      if (answer.status !== 201) throw new Error(`create: ${answer.status} ${await answer.text()}`);
      return (await answer.json()) as { invoice: { id: string }; checkoutToken: string };
    };
    // Alternated: an invoice through the SQLite gateway, then one through the memory gateway.
    for (let index = 0; index < 2 * (WEBHOOKS + 10); index++) {
      const durable = index % 2 === 0;
      const { invoice } = await create(durable ? gateway : inMemory);
      const arrived = new Promise<number>((resolve) => arrivals.set(invoice.id, resolve));
      const started = performance.now();
      mock.service.markPaid(invoice.id);
      const at = await Promise.race([arrived, sleep(10_000).then(() => Number.NaN)]);
      arrivals.delete(invoice.id);
      // The first ten of each warm the code up.
      if (index >= 20 && Number.isFinite(at)) (durable ? samples : memorySamples).push(at - started);
    }
    samples.sort((a, b) => a - b);
    memorySamples.sort((a, b) => a - b);
    log(
      `gateway: webhook p50 ${percentile(samples, 0.5).toFixed(1)} ms, p99 ${percentile(samples, 0.99).toFixed(1)} ms over ${samples.length}`,
    );

    // 3. Idle streams on 100 open invoices of the gateway.
    const open = await Promise.all(Array.from({ length: 100 }, () => create()));
    const url = new URL(gateway.url);
    const sockets: Socket[] = [];
    try {
      for (const { invoice, checkoutToken } of open) sockets.push(await openIdle(url, invoice.id, checkoutToken));
      await sleep(500);
      const rssBefore = rssOf(gateway.child.pid!);
      while (sockets.length < IDLE_STREAMS) {
        const batch = Math.min(200, IDLE_STREAMS - sockets.length);
        const from = sockets.length;
        sockets.push(
          ...(await Promise.all(
            Array.from({ length: batch }, (_, index) => open[(from + index) % open.length]!).map((each) =>
              openIdle(url, each.invoice.id, each.checkoutToken),
            ),
          )),
        );
      }
      await sleep(1000);
      const rssAfter = rssOf(gateway.child.pid!);
      idle = {
        asked: IDLE_STREAMS,
        opened: sockets.length,
        rssBefore,
        rssAfter,
        perStream: (rssAfter - rssBefore) / (sockets.length - open.length),
      };
      log(`gateway: ${sockets.length} idle streams, ${((rssAfter - rssBefore) / 1e6).toFixed(1)} MB more RSS`);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  } finally {
    await stopProcess(gateway.child);
    await stopProcess(inMemory.child);
    shop.closeAllConnections();
    shop.close();
    await mock.close();
  }
  const gatewayMedian = median(reads.gateway);
  const memoryMedian = median(reads.memory);
  const kitMedian = median(reads.kit);
  const latency = (sorted: number[]): Latency => ({
    samples: sorted.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? Number.NaN,
  });
  return {
    reads: {
      ...reads,
      gatewayMedian,
      memoryMedian,
      kitMedian,
      ratio: gatewayMedian / kitMedian,
      durableRatio: gatewayMedian / memoryMedian,
    },
    webhook: latency(samples),
    webhookMemory: latency(memorySamples),
    idle,
  };
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(JSON.stringify(await runGateway(), null, 2));
}
