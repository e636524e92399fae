/**
 * A hostile world for the built gateway (`merchant-checkout serve`), for test/e2e/chaos.test.ts
 * and bench/chaos.ts: the mock service on a port (notifications retried fast, some of them
 * dropped by outages), a shop whose webhook endpoint flaps (503 on a share of the attempts) and
 * records every delivery, gateways started on fixed ports and SIGKILLed at will, and a shop that
 * creates invoices through `/v1/invoices` (retrying while no gateway answers) and has them paid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startMockServer, type MockServer } from '../../../src/mock/index.js';
import { freePort } from './processes.js';

const BIN = fileURLToPath(new URL('../../../dist/node/cli.js', import.meta.url));
export const MERCHANT = { apiKey: 'chaos-api-key', secretKey: 'chaos-secret-key', storeId: 31, storeName: 'Chaos Shop' };
const NOTIFICATION_TOKEN = 'chaos-notification-token';
const WEBHOOK_SECRET = `whsec_${Buffer.from('chaos-webhook-secret-0123456789').toString('base64')}`;
const BEARER = 'chaos-gateway-bearer-key-0001';

/** One webhook the shop took (answered 200), checked against the secret. */
export interface Delivery {
  webhookId: string;
  type: string;
  invoiceId: string;
  changeId: string;
  at: number;
}

/** A small deterministic random source (mulberry32), so a failing run can be replayed by its seed. */
export const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The shop's webhook endpoint: refuses `flapShare` of the attempts with a 503, takes the rest once verified. */
export const startShop = async (random: () => number, flapShare: number) => {
  const deliveries: Delivery[] = [];
  let attempts = 0;
  let refused = 0;
  const key = Buffer.from(WEBHOOK_SECRET.slice('whsec_'.length), 'base64');
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      attempts++;
      const id = String(request.headers['webhook-id']);
      const timestamp = String(request.headers['webhook-timestamp']);
      const expected = `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
      if (request.headers['webhook-signature'] !== expected) {
        response.writeHead(400).end('bad signature');
        return;
      }
      if (random() < flapShare) {
        refused++;
        response.writeHead(503).end();
        return;
      }
      const payload = JSON.parse(body) as { type: string; data: { id: string; invoiceId: string } };
      deliveries.push({ webhookId: id, type: payload.type, invoiceId: payload.data.invoiceId, changeId: payload.data.id, at: Date.now() });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`,
    deliveries,
    counts: () => ({ attempts, refused }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** The mock service, its notifications retried three times 300 ms apart (so an outage or a dead gateway drops them). */
export const startService = (): Promise<MockServer> =>
  startMockServer({
    merchants: [MERCHANT],
    controls: true,
    port: 0,
    notificationRetry: { attempts: 3, intervalMs: 300, timeoutMs: 2000 },
  });

/** A gateway process on a fixed port (the invoices' notificationUrl), restartable after a SIGKILL. */
export class GatewayProcess {
  #child: ChildProcess | undefined;
  readonly url: string;
  /** When each start answered (ms), for the time from a restart to a delivery. */
  readonly startedAt: number[] = [];
  readonly log: string[] = [];

  constructor(
    readonly port: number,
    readonly env: Record<string, string>,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  get running(): boolean {
    return this.#child !== undefined;
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, ...this.env, PORT: String(this.port), GATEWAY_PUBLIC_URL: this.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child = child;
    let printed = '';
    const keep = (chunk: Buffer) => {
      printed += chunk.toString('utf8');
      if (printed.length > 200_000) printed = printed.slice(-100_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('exit', () => this.log.push(printed));
    const end = Date.now() + 20_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the gateway exited (${child.exitCode}): ${printed}`);
      try {
        const answer = await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(1000) });
        if (answer.ok) break;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > end) throw new Error(`the gateway did not answer /readyz: ${printed}`);
      await sleep(25);
    }
    this.startedAt.push(Date.now());
  }

  /** SIGKILL: a crash, no goodbye; waits until the process is gone. */
  async kill(): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

/** The settings of a gateway of the chaos world: fast reconciliation and webhook retries, so a test sees them within seconds. */
export const gatewayEnv = (service: MockServer, webhookUrl: string, extra: Record<string, string>): Record<string, string> => ({
  PAYMENT_API_URL: service.url,
  PAYMENT_API_KEY: MERCHANT.apiKey,
  PAYMENT_SECRET_KEY: MERCHANT.secretKey,
  PAYMENT_NOTIFICATION_TOKEN: NOTIFICATION_TOKEN,
  GATEWAY_SECRET: 'chaos-gateway-token-secret-0001',
  GATEWAY_API_KEY: BEARER,
  SHOP_WEBHOOK_URL: webhookUrl,
  SHOP_WEBHOOK_SECRET: WEBHOOK_SECRET,
  SHOP_WEBHOOK_TIMEOUT_MS: '1000',
  SHOP_WEBHOOK_RETRY_DELAYS_MS: '100,200,400,800,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000',
  GATEWAY_RECONCILE_INTERVAL_MS: '1000',
  GATEWAY_TIMEOUT_MS: '2000',
  LOG_LEVEL: 'warn',
  ...extra,
});

/**
 * Creates an invoice through the gateways (any that answers), as a shop would: the same
 * `internalId` again while none answers or one answers 5xx. Answers the invoice id the shop got.
 */
export const createThroughGateway = async (gateways: readonly GatewayProcess[], internalId: string, random: () => number) => {
  const end = Date.now() + 60_000;
  for (;;) {
    const gateway = gateways[Math.floor(random() * gateways.length)]!;
    try {
      const answer = await fetch(`${gateway.url}/v1/invoices`, {
        method: 'POST',
        headers: { authorization: `Bearer ${BEARER}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'in', amount: '1500.00', currency: 'RUB', internalId, startDeal: true }),
        signal: AbortSignal.timeout(5000),
      });
      if (answer.status === 201) return ((await answer.json()) as { invoice: { id: string } }).invoice.id;
    } catch {
      // No gateway there right now: the shop tries again.
    }
    if (Date.now() > end) throw new Error(`no gateway created ${internalId} within 60 s`);
    await sleep(100);
  }
};

export { freePort };

/**
 * The shop's side of a run: `count` invoices created through the gateways and paid at the
 * service, one after another with a short random pause; about one in four paid during a
 * notification outage, so every notification of it is lost. Answers each paid invoice and when.
 */
export const createAndPay = async (service: MockServer, gateways: readonly GatewayProcess[], count: number, random: () => number) => {
  const paid: { id: string; at: number }[] = [];
  for (let index = 0; index < count; index++) {
    const id = await createThroughGateway(gateways, `chaos-order-${index}-${crypto.randomUUID()}`, random);
    if (random() < 0.25) service.service.notificationOutage(1000);
    service.service.markPaid(id);
    paid.push({ id, at: Date.now() });
    await sleep(50 + random() * 150);
  }
  return paid;
};

/** The invoices whose `invoice.paid` webhook the shop took. */
export const paidDelivered = (deliveries: readonly Delivery[]): Set<string> =>
  new Set(deliveries.filter((each) => each.type === 'invoice.paid').map((each) => each.invoiceId));

/** The webhook ids each change (an invoice's kind of change) came under: one each, at least once. */
export const idsByChange = (deliveries: readonly Delivery[]): Map<string, Set<string>> => {
  const ids = new Map<string, Set<string>>();
  for (const delivery of deliveries) {
    const key = `${delivery.invoiceId} ${delivery.type}`;
    ids.set(key, (ids.get(key) ?? new Set()).add(delivery.webhookId));
  }
  return ids;
};
