/**
 * One shop instance of bench/books.ts, in its own process: the kit (`createCheckoutServer`) on a
 * Redis store shared with the others, its receiver on node:http, its clock the simulation's
 * (set by the parent), its reconciler run by the parent's passes. It creates the shop's
 * invoices (so its client meets them), and tells the parent over IPC of every change handed to
 * `onChange` and of every read its reconciler made.
 *
 * Messages in: `{ type: 'now', now }`, `{ type: 'create', count, amount }`, `{ type: 'pass' }`.
 * Out: `{ type: 'listening', url }`, `{ type: 'created', ids }`, `{ type: 'change', … }`,
 * `{ type: 'passed', reads: [id, at][] }`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MerchantClient, createCheckoutServer, createNodeFetch, toNodeHandler } from '../src/server/node.js';
import { createRedisStore } from '../src/server/redis.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`books-instance: ${name} is not set`);
  return value;
};

let now = Number(env('SIM_START'));
/** Reads of the reconciler during the pass under way: invoice id and the simulation's time. */
let passReads: [string, number][] | undefined;
const nodeFetch = createNodeFetch();
const client = new MerchantClient({
  baseUrl: env('MOCK_URL'),
  apiKey: env('API_KEY'),
  secretKey: env('SECRET_KEY'),
  timeoutMs: 30_000,
  fetch: (request) => {
    const read = /\/api\/merchant\/invoices\/([0-9a-f-]{36})$/.exec(new URL(request.url).pathname);
    if (read && request.method === 'GET') passReads?.push([read[1]!, now]);
    return nodeFetch(request);
  },
});
const store = createRedisStore({ url: env('REDIS_URL'), prefix: env('REDIS_PREFIX'), commandTimeoutMs: 5000 });
// Listen only once Redis answers (commands fail while the store connects).
for (let attempt = 0; ; attempt++) {
  try {
    await store.trackedCount();
    break;
  } catch (error) {
    if (attempt > 100) throw error;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const kit = createCheckoutServer({
  client,
  store,
  authorize: () => true,
  now: () => now,
  handlerTimeoutMs: 30_000,
  // The parent runs each pass at its step; the timer never fires within a run.
  reconcile: { tickMs: 2 ** 30, settleAfterMs: Number(env('SETTLE_AFTER_MS')), batch: 400, concurrency: 16, leaseMs: 10 * 60_000 },
  notifications: { token: env('NOTIFICATION_TOKEN'), path: '/notify' },
  onChange: (change) => {
    process.send?.({
      type: 'change',
      id: change.id,
      invoiceId: change.invoiceId,
      kind: change.kind,
      status: change.invoice.status,
      source: change.source,
      amount: change.invoice.receivedSumFromTaker?.amount ?? null,
      at: now,
    });
  },
});

const server = createServer(toNodeHandler(kit.fetch));
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () =>
  process.send?.({ type: 'listening', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
);

process.on('message', (message: { type: string; now?: number; count?: number; amount?: string; notifyUrl?: string }) => {
  if (message.type === 'now') {
    now = message.now!;
  } else if (message.type === 'create') {
    void (async () => {
      const ids: string[] = [];
      for (let index = 0; index < message.count!; index++) {
        const invoice = await createWithRetry({
          type: 'in',
          amount: message.amount!,
          currency: 'RUB',
          notificationUrl: message.notifyUrl!,
          notificationToken: env('NOTIFICATION_TOKEN'),
          startDeal: true,
        });
        ids.push(invoice.id);
      }
      process.send?.({ type: 'created', ids });
    })();
  } else if (message.type === 'pass') {
    void (async () => {
      passReads = [];
      let checked = 0;
      let error: string | undefined;
      try {
        for (;;) {
          const report = await kit.reconciler.pass();
          checked += report.checked;
          if (report.checked < 400) break;
        }
      } catch (cause) {
        error = String(cause);
      }
      const reads = passReads;
      passReads = undefined;
      process.send?.({ type: 'passed', checked, reads, error });
    })();
  }
});
/** A create that failed on the wire is tried again (the bench counts invoices, not errors). */
async function createWithRetry(input: Parameters<typeof client.createInvoice>[0]) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await client.createInvoice(input);
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
process.on('disconnect', () => process.exit(0));
