/**
 * `merchant-checkout simulate`: plays the payment service to a shop's notification receiver,
 * written in any language, and reports which of the documented notifications it handled
 * correctly (issue 27). The simulator is the service: a mock on a port (the receiver's
 * `PAYMENT_API_URL` points at it, with the same terminal keys), so what the receiver reads from
 * the service to check a notice is seen here. Each scenario makes an invoice of its own, moves
 * it at the mock, and posts the notices it produced (or forged ones) the way the scenario says:
 * once, twice, in the wrong order, late, after a correction or a dispute, with a wrong token,
 * unreadable, or with only the invoice's id. A receiver is right when it acknowledges (2xx)
 * what is real, refuses what it cannot trust or read, and reads the invoice from the service
 * whenever money may have changed, since a notification is only a hint (docs/notifications.md).
 *
 * Whether the receiver credited a payment twice is the shop's books, which the simulator
 * cannot see: it names the faults a receiver shows at its door (answers, and the reads it made
 * or did not make).
 */
import { commandArgs } from './args.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createMockService, type MockService } from '../mock/index.js';
import { MerchantClient } from '../server/node.js';
import type { CommandIo } from './reconcile.js';
import { SettingError } from '../gateway/env.js';
import { table } from './table.js';

export const SIMULATE_HELP = `merchant-checkout simulate: play the payment service to a notification receiver and report what it got right

Usage: merchant-checkout simulate --receiver <url> [--port <n>] [--grace-ms <n>] [--json]

The simulator listens as the payment service on --port (default: a free one, printed first):
start the receiver with PAYMENT_API_URL at that address and the same PAYMENT_API_KEY,
PAYMENT_SECRET_KEY and PAYMENT_NOTIFICATION_TOKEN as here. Then, one invoice per scenario, it
posts the service's notifications to --receiver: paid, repeated, out of order, late, a corrected
amount, a dispute after paid, forged (the right token, an invoice never paid), a wrong token,
an unreadable body and a body with only the invoice's id.

  --receiver <url>   where the receiver takes the service's notifications
  --port <n>         the simulated service's port (default: any free one)
  --grace-ms <n>     how long after an answer a read from the receiver still counts (default 1000)
  --json             the report as JSON

Settings (environment): PAYMENT_API_KEY, PAYMENT_SECRET_KEY (the terminal the receiver signs
with; default simulate-api-key / simulate-secret-key), PAYMENT_NOTIFICATION_TOKEN (default
simulate-notification-token).

Exit status: 0 every scenario handled right, 1 a fault (listed), 2 a wrong argument.
`;

/** One posted notice: its body and headers. */
interface Notice {
  body: string;
  headers: Record<string, string>;
}

/** What a scenario saw: the receiver's answers in order, and its reads of the invoice after each notice. */
interface Seen {
  answers: (number | null)[];
  /** Reads of the invoice the receiver made after each notice (until the next, or the grace after the last). */
  readsAfter: number[];
}

export interface ScenarioReport {
  name: string;
  sent: string;
  expected: string;
  answers: (number | null)[];
  reads: number;
  ok: boolean;
  fault?: string;
}

interface World {
  mock: MockService;
  client: MerchantClient;
  /** The notices the mock produced for an invoice, in order (captured, not delivered). */
  notices: (invoiceId: string) => Notice[];
  /** Posts notices to the receiver one by one; what it answered and read. */
  deliver: (invoiceId: string, notices: readonly Notice[]) => Promise<Seen>;
  token: string;
}

interface Scenario {
  name: string;
  sent: string;
  expected: string;
  run: (world: World) => Promise<{ seen: Seen; fault: string | undefined }>;
}

const ok2xx = (status: number | null) => status !== null && status >= 200 && status < 300;
const refused = (status: number | null) => status !== null && status >= 400 && status < 500;
const answered = (seen: Seen) =>
  seen.answers.every(ok2xx)
    ? undefined
    : `answered ${seen.answers.map((status) => status ?? 'nothing').join(', ')} to real notices: the service sends them again, or they are lost`;

const created = async (world: World, startDeal = true) =>
  (
    await world.client.createInvoice({
      type: 'in',
      amount: '1500.00',
      currency: 'RUB',
      internalId: `simulate-${crypto.randomUUID()}`,
      notificationUrl: 'http://simulated.receiver/notifications',
      notificationToken: world.token,
      startDeal,
      paymentOption: 'SBP',
    })
  ).id;

/** The last notice the mock produced for `id` (after `settled`). */
const last = async (world: World, id: string): Promise<Notice> => {
  await world.mock.notificationsSettled();
  const all = world.notices(id);
  if (all.length === 0) throw new Error(`the simulated service sent no notice for ${id}`);
  return all.at(-1)!;
};

/** A notice of `id` with `invoice` replaced by `invoice(old)`, the same headers (token). */
const edited = (notice: Notice, change: (body: Record<string, unknown>) => unknown, token?: string): Notice => ({
  body: JSON.stringify(change(JSON.parse(notice.body) as Record<string, unknown>)),
  headers: { ...notice.headers, ...(token === undefined ? {} : { 'x-notification-token': token }) },
});

/** A paid invoice moved on by `moves` at the service: its id and the notices the service made, in order. */
const story = async (world: World, moves: readonly ((mock: MockService, id: string) => void)[]) => {
  const id = await created(world);
  world.mock.markPaid(id);
  const notices = [await last(world, id)];
  for (const move of moves) {
    move(world.mock, id);
    notices.push(await last(world, id));
  }
  return { id, notices };
};

/**
 * A scenario of real notices: the invoice paid and moved on (`moves`), its notices delivered as
 * `order` says; every one must be acknowledged, and the invoice read after the one at `readAfter`.
 */
const real = (
  name: string,
  sent: string,
  expected: string,
  moves: readonly ((mock: MockService, id: string) => void)[],
  order: (notices: readonly Notice[]) => Notice[],
  [readAfter, unread]: [number, string],
): Scenario => ({
  name,
  sent,
  expected,
  run: async (world) => {
    const { id, notices } = await story(world, moves);
    const seen = await world.deliver(id, order(notices));
    return { seen, fault: answered(seen) ?? (readAfter >= 0 && seen.readsAfter[readAfter] === 0 ? unread : undefined) };
  },
});

const correct = (mock: MockService, id: string) => mock.correctAmount(id, '1400.00');

/** A paid invoice's notice, changed by `change`, delivered alone. */
const alone = async (world: World, change: (paid: Notice, id: string) => Notice): Promise<Seen> => {
  const { id, notices } = await story(world, []);
  return world.deliver(id, [change(notices[0]!, id)]);
};

/** Every scenario, one row each. */
export const SCENARIOS: readonly Scenario[] = [
  real('paid', 'the documented paid notice', 'acknowledged after reading the invoice from the service', [], (n) => [n[0]!], [
    0,
    'took a paid notice at its word: never read the invoice from the service',
  ]),
  real(
    'repeated',
    'the same paid notice twice (the service repeats what it thinks was not received)',
    "both acknowledged (credited once: the shop's books)",
    [],
    (n) => [n[0]!, n[0]!],
    [-1, ''],
  ),
  real(
    'out of order',
    'paid with a corrected amount, then the first paid (older, with the old amount)',
    'both acknowledged, and the invoice read after the older one: it changes nothing',
    [correct],
    (n) => [n[1]!, n[0]!],
    [1, 'never read the invoice after an older notice: it may have been taken as the latest'],
  ),
  real(
    'late',
    'a paid notice that arrives after the invoice moved on (a dispute was opened)',
    'acknowledged, and the invoice read: its state now is a dispute',
    [(mock, id) => mock.openDispute(id)],
    (n) => [n[0]!],
    [0, 'took a late notice at its word: never read what the invoice is now'],
  ),
  real(
    'corrected',
    'paid, then a second paid with a corrected amount',
    'both acknowledged, and the invoice read again after the second: a correction is a change, not a duplicate',
    [correct],
    (n) => [n[0]!, n[1]!],
    [1, "took the corrected amount's paid as a duplicate: never read the new amount"],
  ),
  real(
    'dispute',
    'paid, a dispute opened, the dispute resolved with another amount (AMOUNT_CHANGED)',
    'all acknowledged, the invoice read after each change',
    [
      (mock, id) => mock.openDispute(id, { reason: 'invalid_sum', amount: '1450.00' }),
      (mock, id) => mock.resolveDispute(id, 'AMOUNT_CHANGED', '1450.00'),
    ],
    (n) => [...n],
    [2, 'never read the invoice after the dispute was resolved: the settled amount is unknown'],
  ),
  {
    name: 'forged',
    sent: 'a paid notice with the right token for an invoice the service never paid',
    expected: 'the invoice read from the service, and nothing credited (the kit answers 409 so that a real but early notice comes again)',
    run: async (world) => {
      // A real paid notice of another invoice, made out to one that nobody paid.
      const other = await created(world);
      world.mock.markPaid(other);
      const template = await last(world, other);
      const id = await created(world);
      // Stamped as news (a second from now): an older stamp would be old news, not a forgery.
      const fresh = new Date(Date.now() + 1000).toISOString();
      const notice = edited(template, (body) => ({
        ...body,
        notificationDate: fresh,
        invoice: { ...(body.invoice as object), id, updatedAt: fresh },
      }));
      const seen = await world.deliver(id, [notice]);
      return {
        seen,
        fault:
          seen.readsAfter[0] === 0
            ? ok2xx(seen.answers[0]!)
              ? 'took a forged paid at its word: acknowledged it without asking the service'
              : 'refused it without asking the service: a real notice would be refused the same way'
            : undefined,
      };
    },
  },
  {
    name: 'wrong token',
    sent: 'the paid notice with a wrong X-Notification-Token',
    expected: 'refused (401 or 403), nothing read',
    run: async (world) => {
      const seen = await alone(world, (paid) => edited(paid, (body) => body, `wrong-${world.token}`));
      return {
        seen,
        fault: refused(seen.answers[0]!)
          ? undefined
          : `answered ${seen.answers[0] ?? 'nothing'} to a notice with a wrong token: anybody can post to it`,
      };
    },
  },
  {
    name: 'unreadable',
    sent: 'a body cut in the middle, with the right token',
    expected: 'refused (400): the service sends it again',
    run: async (world) => {
      const seen = await alone(world, (paid) => ({ body: paid.body.slice(0, Math.floor(paid.body.length / 2)), headers: paid.headers }));
      return {
        seen,
        fault: refused(seen.answers[0]!)
          ? undefined
          : `answered ${seen.answers[0] ?? 'nothing'} to a body it cannot read: ${ok2xx(seen.answers[0]!) ? 'the notice is lost' : 'a server error, not a refusal'}`,
      };
    },
  },
  {
    name: 'sparse',
    sent: "a paid invoice's notice with only the invoice's id (the right token)",
    expected: 'acknowledged after reading the invoice: nothing the service can tell is refused',
    run: async (world) => {
      const seen = await alone(world, (paid, id) => edited(paid, () => ({ invoice: { id } })));
      return {
        seen,
        fault: ok2xx(seen.answers[0]!)
          ? seen.readsAfter[0] === 0
            ? 'acknowledged without reading the invoice'
            : undefined
          : `answered ${seen.answers[0] ?? 'nothing'}: a notice a read of the invoice completes was refused`,
      };
    },
  },
];

export interface SimulateOptions {
  receiver: string;
  apiKey: string;
  secretKey: string;
  token: string;
  port?: number;
  graceMs?: number;
  /** Told once the simulated service listens (its base URL). */
  listening?: (url: string) => void;
  timeoutMs?: number;
}

/** Runs every scenario against the receiver; answers one report per scenario. */
export const simulate = async (options: SimulateOptions): Promise<ScenarioReport[]> => {
  const grace = options.graceMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const captured = new Map<string, Notice[]>();
  // The service needs the port for its base URL, so it exists only once the server listens.
  const ready: { service?: MockService } = {};
  const listener = getRequestListener(
    (request: Request) => (ready.service ? ready.service.fetch(request) : new Response(null, { status: 503 })),
    { overrideGlobalObjects: false },
  );
  const server: Server = createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const service = createMockService({
    merchants: [{ apiKey: options.apiKey, secretKey: options.secretKey, storeId: 1, storeName: 'Simulated shop' }],
    publicBaseUrl: url,
    // Every notice is kept here; the scenario decides how it reaches the receiver.
    notificationAllowed: () => true,
    notificationFetch: async (request) => {
      const body = await request.text();
      const id = (JSON.parse(body) as { invoice?: { id?: string } }).invoice?.id ?? '';
      captured.set(id, [...(captured.get(id) ?? []), { body, headers: Object.fromEntries(request.headers) }]);
      return new Response(null, { status: 200 });
    },
  });
  ready.service = service;
  options.listening?.(url);
  const readsOf = (id: string, from: number) =>
    service.requests.slice(from).filter((record) => record.method === 'GET' && `${record.path}${record.query}`.includes(id)).length;
  const post = async (notice: Notice): Promise<number | null> => {
    try {
      const answer = await fetch(options.receiver, {
        method: 'POST',
        headers: notice.headers,
        body: notice.body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await answer.arrayBuffer();
      return answer.status;
    } catch {
      return null;
    }
  };
  const world: World = {
    mock: service,
    client: new MerchantClient({ baseUrl: url, apiKey: options.apiKey, secretKey: options.secretKey, fetch: service.fetch }),
    notices: (id) => captured.get(id) ?? [],
    token: options.token,
    deliver: async (id, notices) => {
      const seen: Seen = { answers: [], readsAfter: [] };
      for (const [index, notice] of notices.entries()) {
        const from = service.requests.length;
        seen.answers.push(await post(notice));
        if (index === notices.length - 1) await new Promise((resolve) => setTimeout(resolve, grace));
        seen.readsAfter.push(readsOf(id, from));
      }
      return seen;
    },
  };
  const reports: ScenarioReport[] = [];
  try {
    for (const scenario of SCENARIOS) {
      const ran = await scenario.run(world);
      const { seen } = ran;
      // Nothing answered at all: the receiver is not there, whatever the scenario.
      const fault = seen.answers.every((status) => status === null)
        ? `no answer from ${options.receiver} (is the receiver running there?)`
        : ran.fault;
      reports.push({
        name: scenario.name,
        sent: scenario.sent,
        expected: scenario.expected,
        answers: seen.answers,
        reads: seen.readsAfter.reduce((sum, reads) => sum + reads, 0),
        ok: fault === undefined,
        ...(fault === undefined ? {} : { fault }),
      });
    }
  } finally {
    service.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  return reports;
};

/** The report as a table, and the faults under it. */
export const simulateReport = (receiver: string, reports: readonly ScenarioReport[]): string => {
  const faults = reports.filter((report) => !report.ok);
  const rows = [
    ['scenario', 'answers', 'reads', 'verdict'],
    ...reports.map((report) => [
      report.name,
      report.answers.map((status) => status ?? '-').join(' '),
      String(report.reads),
      report.ok ? 'ok' : 'FAULT',
    ]),
  ];
  return `Notifications posted to ${receiver}:\n\n${table(rows)}\n${
    faults.length === 0
      ? `Every scenario handled right (${reports.length}).\n`
      : `${faults.length} of ${reports.length} wrong:\n${faults.map((report) => `- ${report.name} (${report.sent}): ${report.fault}. Expected: ${report.expected}.`).join('\n')}\n`
  }`;
};

export const simulateCommand = async (args: readonly string[], io: CommandIo): Promise<number> => {
  const values = commandArgs(
    'simulate',
    args,
    { receiver: { type: 'string' }, port: { type: 'string' }, 'grace-ms': { type: 'string' }, json: { type: 'boolean' } },
    SIMULATE_HELP,
    io,
  );
  if (typeof values === 'number') return values;
  let options: SimulateOptions;
  try {
    const receiver = values.receiver;
    if (!receiver) throw new SettingError('give --receiver, the URL the receiver takes notifications at');
    if (!/^https?:$/.test(URL.canParse(receiver) ? new URL(receiver).protocol : ''))
      throw new SettingError(`--receiver must be an http(s) URL, got ${JSON.stringify(receiver)}`);
    const number = (name: string, value: string | undefined, max: number) => {
      if (value === undefined) return undefined;
      if (!/^\d+$/.test(value) || Number(value) > max)
        throw new SettingError(`--${name} must be a whole number up to ${max}, got ${JSON.stringify(value)}`);
      return Number(value);
    };
    options = {
      receiver,
      apiKey: io.env.PAYMENT_API_KEY || 'simulate-api-key',
      secretKey: io.env.PAYMENT_SECRET_KEY || 'simulate-secret-key',
      token: io.env.PAYMENT_NOTIFICATION_TOKEN || 'simulate-notification-token',
      port: number('port', values.port, 65_535),
      graceMs: number('grace-ms', values['grace-ms'], 60_000),
      listening: (url) => io.err(`merchant-checkout simulate: the simulated service listens at ${url} (the receiver's PAYMENT_API_URL)\n`),
    };
  } catch (error) {
    if (!(error instanceof SettingError)) throw error;
    io.err(`merchant-checkout simulate: ${error.message}\n`);
    return 2;
  }
  const reports = await simulate(options);
  io.out(
    values.json
      ? `${JSON.stringify({ receiver: options.receiver, faults: reports.filter((report) => !report.ok).length, scenarios: reports }, null, 2)}\n`
      : simulateReport(options.receiver, reports),
  );
  return reports.every((report) => report.ok) ? 0 : 1;
};
