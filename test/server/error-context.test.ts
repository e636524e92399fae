/**
 * `onError(error, context)`: every part of the kit that fails tells the shop's `onError` where
 * (`CheckoutErrorContext`): the proxy and the receiver with the very `Request` their handler was
 * given, the scheduler's handler too; the event streams, the reconciler's timer, the books and
 * the journal with no request at all (none is made up) and the invoice concerned. A logger that
 * throws changes no answer. Real components: the mock service in process, the kit's memory
 * store with one method made to fail at a time.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { createMockService, type MockService } from '../../src/mock/index.js';
import {
  MerchantClient,
  createCheckoutServer,
  createMemoryStore,
  createNotificationHandler,
  createWebhookSender,
  type CheckoutErrorContext,
  type CheckoutServer,
  type CheckoutServerOptions,
  type CheckoutStore,
} from '../../src/server/node.js';
import { readSse } from '../support/sse.js';
import { waitFor } from '../support/wait.js';

const MERCHANT = { apiKey: 'context-key', secretKey: 'context-secret', storeId: 31, storeName: 'Context Shop' };
const SERVICE_URL = 'https://pay.mock.invalid';
const ORIGIN = 'https://shop.example';
const TOKEN = 'context-notification-token';
const CRON_SECRET = 'a-cron-secret-of-enough-length';

interface Told {
  error: unknown;
  context: CheckoutErrorContext;
}

/** The memory store with the methods named in `failing` rejecting (`journal.append` for the journal's). */
const storeFailing = (failing: Set<string>): CheckoutStore => {
  const store = createMemoryStore();
  const fail = (name: string) => () => Promise.reject(new Error(`the store is away (${name})`));
  const journal = store.journal && {
    ...store.journal,
    append: (...args: Parameters<NonNullable<CheckoutStore['journal']>['append']>) =>
      failing.has('journal.append') ? fail('journal.append')() : store.journal!.append(...args),
  };
  return new Proxy(store, {
    get: (target, key) => {
      if (key === 'journal') return journal;
      if (typeof key === 'string' && failing.has(key)) return fail(key);
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
};

interface World {
  mock: MockService;
  client: MerchantClient;
  kit: CheckoutServer;
  told: Told[];
  /** Store methods that reject from now on. */
  failing: Set<string>;
  /** The requests the mock sent the kit (its notifications), as sent. */
  notifications: Request[];
  /** While true, every call to the service fails as if the network were down. */
  serviceDown: { value: boolean };
}

let worlds: World[] = [];
afterEach(async () => {
  for (const { kit, mock } of worlds) {
    await kit.close();
    mock.close();
  }
  worlds = [];
});

const world = (options: Partial<CheckoutServerOptions> = {}, onError?: (error: unknown, context: CheckoutErrorContext) => void): World => {
  const made = { told: [] as Told[], failing: new Set<string>(), notifications: [] as Request[], serviceDown: { value: false } } as World;
  made.mock = createMockService({
    merchants: [MERCHANT],
    publicBaseUrl: SERVICE_URL,
    notificationFetch: (request) => {
      made.notifications.push(request);
      return made.kit.fetch(request);
    },
    notificationAllowed: () => true,
  });
  made.client = new MerchantClient({
    baseUrl: SERVICE_URL,
    apiKey: MERCHANT.apiKey,
    secretKey: MERCHANT.secretKey,
    fetch: (request) => (made.serviceDown.value ? Promise.reject(new TypeError('fetch failed')) : made.mock.fetch(request)),
  });
  made.kit = createCheckoutServer({
    client: made.client,
    basePath: '/checkout-api',
    authorize: () => true,
    store: storeFailing(made.failing),
    reconcile: false,
    onError: (error, context) => {
      made.told.push({ error, context });
      onError?.(error, context);
    },
    ...options,
  });
  worlds.push(made);
  return made;
};

const newInvoice = (client: MerchantClient, startDeal = true) =>
  client.createInvoice({
    type: 'in',
    amount: '1500.00',
    currency: 'RUB',
    notificationUrl: `${ORIGIN}/merchant-checkout/notifications`,
    notificationToken: TOKEN,
    internalId: `order-${crypto.randomUUID()}`,
    startDeal,
  });

const only = (told: Told[], source: CheckoutErrorContext['source']): Told => {
  const of = told.filter((each) => each.context.source === source);
  assert.equal(of.length, 1, `one failure told from ${source}: ${JSON.stringify(told.map((each) => each.context.source))}`);
  return of[0]!;
};

const throwing = () => {
  throw new Error('the logger itself failed');
};

const answered = async (response: Response) => ({ status: response.status, body: await response.text() });

describe('onError is told where each failure happened', () => {
  test('a checkout route: source checkout, the request its handler was given, the invoice of the path', async () => {
    const { client, kit, told, serviceDown } = world();
    const invoice = await newInvoice(client);
    serviceDown.value = true;
    const request = new Request(`${ORIGIN}/checkout-api/invoices/${invoice.id}`);
    const answer = await kit.fetch(request);
    assert.equal(answer.status, 502);
    const { context, error } = only(told, 'checkout');
    assert.equal(context.request, request, 'the very request the kit was given');
    assert.equal(context.invoiceId, invoice.id);
    assert.match(String(error), /fetch failed|network/);
  });

  test('a notification: source notification, the request the service sent, the invoice it names', async () => {
    const { client, mock, told, notifications } = world({
      notifications: { token: TOKEN },
      onChange: () => {
        throw new Error('the shop could not credit');
      },
    });
    const invoice = await newInvoice(client);
    mock.markPaid(invoice.id);
    await waitFor('the failing onChange told', () => told.some((each) => each.context.source === 'notification'));
    const { context, error } = told.find((each) => each.context.source === 'notification')!;
    assert.ok(
      notifications.some((sent) => sent === context.request),
      'the very request the service sent',
    );
    assert.equal(context.invoiceId, invoice.id.toLowerCase());
    assert.match(String(error), /could not credit/);
  });

  test('an event stream refreshing with its store away: source events, no request, the watched invoice', async () => {
    const { client, kit, told, failing } = world({ events: { refreshIntervalMs: 20 } });
    const invoice = await newInvoice(client);
    const aborted = new AbortController();
    const answer = await kit.fetch(new Request(`${ORIGIN}/checkout-api/invoices/${invoice.id}/events`, { signal: aborted.signal }));
    const stream = readSse(answer.body!);
    try {
      await stream.nextEvent();
      failing.add('claimRefresh');
      await waitFor('the stream’s store failure told', () => told.some((each) => each.context.source === 'events'));
    } finally {
      aborted.abort();
      await stream.close();
    }
    const { context } = told.find((each) => each.context.source === 'events')!;
    assert.deepEqual(Object.keys(context).sort(), ['invoiceId', 'source'], 'no request: none was being answered');
    assert.equal(context.invoiceId, invoice.id.toLowerCase());
  });

  test("the reconciler's timer with its store away: source reconciler, no request", async () => {
    const { told, failing } = world({ reconcile: { tickMs: 20 } });
    failing.add('claimDue');
    await waitFor('the pass’s failure told', () => told.some((each) => each.context.source === 'reconciler'));
    const { context, error } = told.find((each) => each.context.source === 'reconciler')!;
    assert.deepEqual(context, { source: 'reconciler' });
    assert.match(String(error), /claimDue/);
  });

  test("the scheduler's handler with its store away: source cron, the request it was given", async () => {
    const { kit, told, failing } = world({ cron: { secret: CRON_SECRET } });
    failing.add('claimDue');
    const request = new Request(`${ORIGIN}/merchant-checkout/reconcile`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CRON_SECRET}` },
    });
    assert.equal((await kit.fetch(request)).status, 500);
    const { context } = only(told, 'cron');
    assert.equal(context.request, request);
  });

  test("a state the shop's own call was answered, not recorded: source books, no request, the invoice", async () => {
    const { client, told, failing } = world();
    const invoice = await newInvoice(client, false);
    failing.add('record');
    // A new state (the deal), answered to the shop's own call: the kit learns it beside the call.
    await client.startDeal(invoice.id);
    await waitFor('the books’ failure told', () => told.some((each) => each.context.source === 'books'));
    const { context } = told.find((each) => each.context.source === 'books')!;
    assert.deepEqual(context, { source: 'books', invoiceId: invoice.id });
  });

  test("an invoice's journal that cannot be written: source journal, no request, the invoice", async () => {
    const { client, kit, told, failing } = world();
    failing.add('journal.append');
    const invoice = await newInvoice(client);
    await kit.journal.idle();
    const { context } = told.find((each) => each.context.source === 'journal')!;
    assert.deepEqual(context, { source: 'journal', invoiceId: invoice.id });
  });

  test("the webhook sender's pass with its store away: source webhook", async () => {
    const failing = new Set(['outboxClaim']);
    const told: Told[] = [];
    const sender = createWebhookSender({
      store: storeFailing(failing),
      url: `${ORIGIN}/hooks`,
      secret: 'whsec_' + Buffer.from('a webhook secret of enough length').toString('base64'),
      tickMs: 20,
      report: (error, context) => told.push({ error, context }),
    });
    sender.start();
    try {
      await waitFor('the pass’s failure told', () => told.length > 0);
    } finally {
      await sender.stop();
    }
    assert.deepEqual(told[0]!.context, { source: 'webhook' });
  });

  test('the receiver alone: source notification and the request it was given', async () => {
    const mock = createMockService({ merchants: [MERCHANT], publicBaseUrl: SERVICE_URL, notificationAllowed: () => false });
    const { apiKey, secretKey } = MERCHANT;
    const client = new MerchantClient({ baseUrl: SERVICE_URL, apiKey, secretKey, fetch: (request) => mock.fetch(request) });
    const told: Told[] = [];
    const handler = createNotificationHandler({
      client,
      token: TOKEN,
      onChange: () => Promise.reject(new Error('the shop could not credit')),
      onError: (error, context) => told.push({ error, context }),
    });
    try {
      const invoice = await newInvoice(client);
      const request = new Request(`${ORIGIN}/notify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-notification-token': TOKEN },
        body: JSON.stringify({ id: invoice.id, status: 'new' }),
      });
      assert.equal((await handler(request)).status, 500);
      const { context } = only(told, 'notification');
      assert.equal(context.request, request);
      assert.equal(context.invoiceId, invoice.id.toLowerCase());
    } finally {
      mock.close();
    }
  });
});

describe('a logger that throws changes no answer', () => {
  test('a checkout route answers the same with a throwing onError', async () => {
    const quiet = world();
    const loud = world({}, throwing);
    const answers = [];
    for (const { client, kit, serviceDown } of [quiet, loud]) {
      const invoice = await newInvoice(client);
      serviceDown.value = true;
      answers.push(await answered(await kit.fetch(new Request(`${ORIGIN}/checkout-api/invoices/${invoice.id}`))));
    }
    assert.equal(answers[0]!.status, 502);
    assert.deepEqual(answers[1], answers[0]);
    assert.equal(loud.told.length, 1, 'the throwing logger was called');
  });

  test("the scheduler's handler answers the same with a throwing onError", async () => {
    const answers = [];
    for (const logger of [undefined, throwing]) {
      const { kit, failing } = world({ cron: { secret: CRON_SECRET } }, logger);
      failing.add('claimDue');
      const request = new Request(`${ORIGIN}/merchant-checkout/reconcile`, { headers: { authorization: `Bearer ${CRON_SECRET}` } });
      answers.push(await answered(await kit.fetch(request)));
    }
    assert.equal(answers[0]!.status, 500);
    assert.deepEqual(answers[1], answers[0]);
  });

  test('a notification is answered the same with a throwing onError', async () => {
    const answers = [];
    for (const logger of [undefined, throwing]) {
      const made = world(
        {
          notifications: { token: TOKEN },
          onChange: () => {
            throw new Error('the shop could not credit');
          },
        },
        logger,
      );
      const invoice = await newInvoice(made.client);
      const request = new Request(`${ORIGIN}/merchant-checkout/notifications`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-notification-token': TOKEN },
        body: JSON.stringify({ id: invoice.id, status: 'new' }),
      });
      made.mock.markPaid(invoice.id);
      answers.push(await answered(await made.kit.fetch(request)));
    }
    assert.equal(answers[0]!.status, 500);
    assert.deepEqual(answers[1], answers[0]);
  });
});
