/**
 * The merchant's books under a hostile notification channel (issue 24): 10,000 invoices over a
 * simulated day on the mock's clock, three shop instances (bench/books-instance.ts, each its
 * own process) on one real `redis-server`, the mock on a port in this process. The channel:
 *
 * 70 % of the invoices are paid within 50 minutes, the others expire after an hour.
 *
 * - 30 % of the invoices' notifications dropped, every attempt (the shop down);
 * - 10 % delivered twice; 5 % held and delivered three minutes late (out of order);
 * - 2 % of the paid invoices paid twice, the second time with a corrected amount;
 * - 1 % of the paid invoices disputed after payment (and resolved `ACCEPTED`);
 * - 1 % of the unpaid invoices get a forged `paid` with the right token.
 *
 * The shop's ledger is this process: every change the instances hand to `onChange`. Reported:
 * paid invoices left uncredited, changes credited twice, forged credits, corrections delivered
 * (once each), how soon a dropped `paid` was found (mock time), reconciler reads of an invoice
 * closer than a minute apart, and reads after an invoice settled. Mock time moves in 10 s
 * steps; each step the mock's timers fire (expiries, notifications), then every instance runs
 * a reconciliation pass. `settleAfterMs` is 6 h here (72 h by default) so that settling shows
 * within the run.
 *
 *   node --import tsx bench/books.ts [invoices]     (default 10,000; about 5 minutes)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startMockServer, type MockServer } from '../src/mock/index.js';
import { startRedis, type RedisProcess } from '../test/support/redis-server.js';
import { log, percentile } from './lib.js';

const INSTANCE = fileURLToPath(new URL('./books-instance.ts', import.meta.url));
const MERCHANT = { apiKey: 'books-bench-key', secretKey: 'books-bench-secret', storeId: 24, storeName: 'Books Bench Shop' };
const TOKEN = 'books-bench-notification-token';
const START = Date.parse('2026-11-26T00:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const STEP = 10_000;
const SETTLE_AFTER_MS = 6 * HOUR;
export const BOOKS_INVOICES = 10_000;
/** Goal: a dropped `paid` found within 5 minutes of mock time, p99. */
export const FOUND_GOAL_MS = 5 * MINUTE;

export interface BooksResult {
  invoices: number;
  paid: number;
  /** Paid at the service, never credited by the end. */
  uncredited: number;
  /** A change id handed on twice, or a payment credited more often than the service paid it. */
  creditedTwice: number;
  forged: number;
  forgedCredits: number;
  corrected: number;
  correctionsDelivered: number;
  disputed: number;
  disputesDelivered: number;
  /** Dropped paid invoices, and how long (mock time) until each was credited. */
  droppedPaid: number;
  foundP50Ms: number;
  foundP99Ms: number;
  foundMaxMs: number;
  /** Reconciler reads of one invoice less than a minute apart, and reads after an invoice settled. */
  readsCloserThanAMinute: number;
  readsAfterSettled: number;
  reconcilerReads: number;
  wallSeconds: number;
}

interface Plan {
  id: string;
  createdAt: number;
  outcome: 'paid' | 'expired';
  payAt: number;
  dropped: boolean;
  repeated: boolean;
  late: boolean;
  corrected: boolean;
  disputed: boolean;
  forged: boolean;
  /** When the service paid it (mock time), and how often it became paid. */
  paidAt?: number;
  paidTimes: number;
  /** When it was last changed at the service (mock time): it settles SETTLE_AFTER_MS later. */
  lastChange: number;
}

interface Instance {
  child: ChildProcess;
  url: string;
}

const seeded = (seed: number) => () => {
  seed = (seed * 1664525 + 1013904223) % 2 ** 32;
  return seed / 2 ** 32;
};

const waitMessage = <T>(child: ChildProcess, type: string): Promise<T> =>
  new Promise((resolve) => {
    const listener = (message: { type: string }) => {
      if (message.type !== type) return;
      child.off('message', listener);
      resolve(message as T);
    };
    child.on('message', listener);
  });

export const runBooks = async (count = BOOKS_INVOICES): Promise<BooksResult> => {
  const wall = Date.now();
  const random = seeded(24);
  const redis: RedisProcess = await startRedis();
  let simNow = START;
  const plans = new Map<string, Plan>();
  /** Notifications held to be delivered late: when, and the request. */
  const held: { at: number; body: string; headers: Record<string, string> }[] = [];
  let next = 0;
  let instances: Instance[] = [];
  const forward = (body: string, headers: Record<string, string>) => {
    const target = instances[next++ % instances.length]!;
    return fetch(`${target.url}/notify`, { method: 'POST', headers, body });
  };
  const mock: MockServer = await startMockServer({
    merchants: [MERCHANT],
    port: 0,
    clock: { start: START, frozen: true },
    seed: 24,
    controls: true,
    notificationRetry: { attempts: 3, intervalMs: MINUTE, timeoutMs: 30_000 },
    notificationFetch: async (request) => {
      const body = await request.text();
      const headers = Object.fromEntries(request.headers);
      const id = (JSON.parse(body) as { invoice: { id: string } }).invoice.id;
      const plan = plans.get(id);
      if (plan?.dropped) return new Response('the shop is down', { status: 503 });
      if (plan?.late) {
        held.push({ at: simNow + 3 * MINUTE, body, headers });
        return new Response('{"ok":true}', { status: 200 });
      }
      const answer = await forward(body, headers);
      if (plan?.repeated) await (await forward(body, headers)).text();
      return new Response(await answer.text(), { status: answer.status });
    },
  });

  const ledger = new Map<string, number>();
  const credits = new Map<string, { kind: string; status: string; at: number; source: string }[]>();
  const reads = new Map<string, number[]>();
  instances = await Promise.all(
    [0, 1, 2].map(async () => {
      const child = fork(INSTANCE, [], {
        execArgv: ['--import', 'tsx'],
        env: {
          ...process.env,
          MOCK_URL: mock.url,
          API_KEY: MERCHANT.apiKey,
          SECRET_KEY: MERCHANT.secretKey,
          NOTIFICATION_TOKEN: TOKEN,
          REDIS_URL: redis.url,
          REDIS_PREFIX: `books-bench-${process.pid}:`,
          SIM_START: String(START),
          SETTLE_AFTER_MS: String(SETTLE_AFTER_MS),
        },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      child.on(
        'message',
        (message: { type: string; id?: string; invoiceId?: string; kind?: string; status?: string; at?: number; source?: string }) => {
          if (message.type !== 'change') return;
          ledger.set(message.id!, (ledger.get(message.id!) ?? 0) + 1);
          const list = credits.get(message.invoiceId!) ?? [];
          list.push({ kind: message.kind!, status: message.status!, at: message.at!, source: message.source! });
          credits.set(message.invoiceId!, list);
        },
      );
      const { url } = await waitMessage<{ url: string }>(child, 'listening');
      return { child, url };
    }),
  );
  const notifyUrl = `${instances[0]!.url}/notify`;

  // The day's invoices: created over 24 hours, in batches per step, by the instances in turn.
  const createdAt = Array.from({ length: count }, () => START + Math.floor(random() * 24 * HOUR)).sort((a, b) => a - b);
  let created = 0;
  const end = START + 24 * HOUR + SETTLE_AFTER_MS + 2 * HOUR;
  const events: { at: number; run: () => void }[] = [];
  const schedule = (at: number, run: () => void) => events.push({ at, run });
  const pending: Promise<unknown>[] = [];

  const step = async () => {
    simNow += STEP;
    for (const instance of instances) instance.child.send({ type: 'now', now: simNow });
    await mock.service.advanceClock(STEP);
    // Invoices due now, spread over the instances.
    const due = createdAt.slice(created).findIndex((at) => at > simNow);
    const batch = due === -1 ? count - created : due;
    if (batch > 0) {
      const per = Math.ceil(batch / instances.length);
      const made = await Promise.all(
        instances.map(async (instance, index) => {
          const share = Math.max(0, Math.min(per, batch - index * per));
          if (share === 0) return [];
          const answer = waitMessage<{ ids: string[] }>(instance.child, 'created');
          instance.child.send({ type: 'create', count: share, amount: '1500.00', notifyUrl });
          return (await answer).ids;
        }),
      );
      for (const id of made.flat()) {
        const roll = random();
        const outcome = roll < 0.7 ? 'paid' : 'expired';
        const plan: Plan = {
          id,
          createdAt: simNow,
          outcome,
          payAt: simNow + Math.floor(random() * 50 * MINUTE),
          dropped: random() < 0.3,
          repeated: random() < 0.1,
          late: random() < 0.05,
          corrected: outcome === 'paid' && random() < 0.02,
          disputed: outcome === 'paid' && random() < 0.01,
          forged: outcome !== 'paid' && random() < 0.01,
          paidTimes: 0,
          lastChange: simNow,
        };
        plans.set(id, plan);
        if (outcome === 'paid') {
          schedule(plan.payAt, () => {
            mock.service.markPaid(id);
            plan.paidAt = simNow;
            plan.paidTimes++;
            plan.lastChange = simNow;
          });
          if (plan.corrected) {
            schedule(plan.payAt + 10 * MINUTE, () => {
              mock.service.correctAmount(id, '1504.50');
              plan.lastChange = simNow;
            });
          }
          if (plan.disputed) {
            schedule(plan.payAt + 20 * MINUTE, () => {
              mock.service.openDispute(id);
              plan.lastChange = simNow;
            });
            schedule(plan.payAt + 50 * MINUTE, () => {
              mock.service.resolveDispute(id, 'ACCEPTED');
              plan.paidTimes++;
              plan.lastChange = simNow;
            });
          }
        } else {
          // The mock expires it by itself an hour after its creation (its invoiceTtlMs).
          plan.lastChange = plan.createdAt + HOUR;
          if (plan.forged) {
            schedule(plan.createdAt + 5 * MINUTE, () => {
              const body = JSON.stringify({
                notificationType: 'invoice',
                notificationDate: new Date(simNow).toISOString(),
                invoice: { id, status: 'paid', updatedAt: new Date(simNow).toISOString() },
              });
              pending.push(
                forward(body, { 'content-type': 'application/json', 'x-notification-token': TOKEN }).then((answer) => answer.text()),
              );
            });
          }
        }
      }
      created += batch;
    }
    // Events due: payments, corrections, disputes, cancels, forgeries; then late notifications.
    events.sort((a, b) => a.at - b.at);
    while (events.length > 0 && events[0]!.at <= simNow) events.shift()!.run();
    // Forgeries answered before the passes, so that their verifying reads are not counted as the reconciler's.
    await Promise.all(pending.splice(0));
    await mock.service.notificationsIdle();
    for (let index = held.length - 1; index >= 0; index--) {
      if (held[index]!.at > simNow) continue;
      const [late] = held.splice(index, 1);
      await (await forward(late!.body, late!.headers)).text();
    }
    // Every instance reconciles what is due now.
    const passes = await Promise.all(
      instances.map((instance) => {
        const answer = waitMessage<{ reads: [string, number][] }>(instance.child, 'passed');
        instance.child.send({ type: 'pass' });
        return answer;
      }),
    );
    for (const { reads: made } of passes) for (const [id, at] of made) reads.set(id, [...(reads.get(id) ?? []), at]);
  };

  let lastLog = 0;
  while (simNow < end) {
    await step();
    if (simNow - lastLog >= 2 * HOUR) {
      lastLog = simNow;
      log(`books: ${((simNow - START) / HOUR).toFixed(0)} h of mock time, ${created} invoices, ${ledger.size} changes handed on`);
    }
  }

  // The ledger against the service.
  let paid = 0;
  let uncredited = 0;
  let creditedTwice = [...ledger.values()].filter((times) => times > 1).length;
  let forgedCredits = 0;
  let correctionsDelivered = 0;
  let disputesDelivered = 0;
  const found: number[] = [];
  let closer = 0;
  let afterSettled = 0;
  let reconcilerReads = 0;
  for (const plan of plans.values()) {
    const status = mock.service.getInvoice(plan.id)?.status;
    const changes = credits.get(plan.id) ?? [];
    const paidCredits = changes.filter((change) => change.kind === 'paid').length;
    if (status === 'paid') {
      paid++;
      if (changes.at(-1)?.status !== 'paid') uncredited++;
    }
    if (paidCredits > plan.paidTimes) creditedTwice++;
    if (plan.forged && paidCredits > 0) forgedCredits++;
    if (plan.corrected && changes.filter((change) => change.kind === 'amount_corrected').length === 1) correctionsDelivered++;
    if (plan.disputed && changes.some((change) => change.kind === 'disputed')) disputesDelivered++;
    if (plan.dropped && plan.paidAt !== undefined) {
      const credit = changes.find((change) => change.kind === 'paid');
      if (credit) found.push(credit.at - plan.paidAt);
    }
    const times = (reads.get(plan.id) ?? []).sort((a, b) => a - b);
    reconcilerReads += times.length;
    for (let index = 1; index < times.length; index++) if (times[index]! - times[index - 1]! < MINUTE) closer++;
    afterSettled += times.filter((at) => at > plan.lastChange + SETTLE_AFTER_MS + STEP).length;
  }
  found.sort((a, b) => a - b);
  for (const instance of instances) instance.child.kill();
  await mock.close();
  await redis.stop();
  return {
    invoices: count,
    paid,
    uncredited,
    creditedTwice,
    forged: [...plans.values()].filter((plan) => plan.forged).length,
    forgedCredits,
    corrected: [...plans.values()].filter((plan) => plan.corrected).length,
    correctionsDelivered,
    disputed: [...plans.values()].filter((plan) => plan.disputed).length,
    disputesDelivered,
    droppedPaid: found.length,
    foundP50Ms: percentile(found, 0.5),
    foundP99Ms: percentile(found, 0.99),
    foundMaxMs: found.at(-1) ?? 0,
    readsCloserThanAMinute: closer,
    readsAfterSettled: afterSettled,
    reconcilerReads,
    wallSeconds: (Date.now() - wall) / 1000,
  };
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const count = Number(process.argv[2] ?? 10_000);
  console.log(JSON.stringify(await runBooks(count), null, 2));
}
