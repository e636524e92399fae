/**
 * The demo shop's server side, as Fetch handlers: the mock payment service (in process), the
 * signing proxy the element talks to, the shop's notification receiver, and the shop's small
 * order API that the demo page uses. It imports the package's sources (not `dist/`), so the
 * demo runs without a build; a real shop imports `merchant-checkout/server` instead.
 */
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import * as z from 'zod/mini';
import { createMockService, MockControlError, type MockService } from '../../src/mock/index.js';
import { safeParse } from '../../src/schemas/index.js';
import {
  createCheckoutServer,
  createMemoryStore,
  MerchantApiError,
  MerchantClient,
  MerchantClientError,
  MerchantTimeoutError,
  MerchantValidationError,
  type CreateInvoiceRequest,
} from '../../src/server/node.js';
import { createRedisStore } from '../../src/server/redis.js';
import {
  INVOICE_ACTIONS,
  type CreateOrderInput,
  type DemoOrder,
  type InvoiceAction,
  type ServiceReference,
  type ServiceState,
  type ServiceView,
} from '../shared/demo-api.js';
import {
  type DemoScenario,
  ERROR_FAILURES,
  isOptionScenario,
  isScenario,
  OPTION_SCENARIOS,
  type OptionScenario,
  type OptionScenarioName,
  SLOW_LATENCY_MS,
  UNKNOWN_STATUS,
  type Scenario,
} from '../shared/scenarios.js';

/** The shop's keys at the mock: obviously not secret, and nothing to configure. */
export const DEMO_MERCHANT = {
  apiKey: 'demo-api-key',
  secretKey: 'demo-secret-key-not-secret',
  storeId: 1,
  storeName: 'Samovar Tea',
} as const;

/** The service's `{base_url}` as the client signs it; never dialled, the client's `fetch` is the mock's. */
const SERVICE_URL = 'https://pay.mock.invalid';
/** The mock's public API (its pictures of QR codes), which the demo server serves to the payer's browser. */
export const SERVICE_PUBLIC_PATH = '/api/public';
/** Where the mock "sends" notifications; they are handed to the receiver in process. */
const NOTIFICATION_URL = 'http://localhost/demo-api/notify';

export const CHECKOUT_BASE_PATH = '/checkout-api';
export const DEMO_API_BASE_PATH = '/demo-api';

export interface DemoBackendOptions {
  /** Failures the payer only sees as a generic error (upstream errors, injected faults), for the console. */
  log?: (message: string) => void;
  /** Passed to the mock (tests make the draws of requisites repeatable with it). */
  random?: () => number;
  /** The mock's `quirks` (a seed): answers vary over every shape the service may send (`MOCK_QUIRKS=7 npm run demo`). */
  quirks?: boolean | number;
  /**
   * The service's `{base_url}` (default a host never dialled): the demo server gives its own,
   * so that the links of the mock's public API in its answers (a deal's picture of a QR code)
   * load in the payer's browser, from the demo's origin.
   */
  serviceUrl?: string;
}

export interface DemoBackend {
  /** The signing proxy, mounted at `/checkout-api`: what `<merchant-checkout endpoint>` calls. */
  checkout: (request: Request) => Promise<Response>;
  /** The shop's order API at `/demo-api`. */
  api: (request: Request) => Promise<Response>;
  /** The mock service itself; the server mounts its `/__mock` controls. */
  mock: MockService;
  close(this: void): void;
}

const CreateOrderSchema = z.strictObject({
  type: z.enum(['in', 'out']),
  amount: z.string(),
  currency: z.string(),
  startDeal: z.optional(z.boolean()),
  paymentMethod: z.optional(z.string()),
  paymentOption: z.optional(z.string()),
  requisites: z.optional(z.string()),
  holder: z.optional(z.string()),
  successUrl: z.optional(z.string()),
  cancelUrl: z.optional(z.string()),
  maxAmount: z.optional(z.string()),
  crossBorderCurrency: z.optional(z.string()),
});
const DealSchema = z.strictObject({ option: z.optional(z.string()), method: z.optional(z.string()) });
const DisputeSchema = z.strictObject({ reason: z.enum(['no_payment', 'invalid_sum']), amount: z.optional(z.string()) });
const ResolveSchema = z.strictObject({ outcome: z.enum(['paid', 'canceled']) });
const SwitchesSchema = z.strictObject({ noRequisites: z.optional(z.boolean()), receiverDown: z.optional(z.boolean()) });
const EmptySchema = z.strictObject({});

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });

class DemoHttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  constructor(status: number, code: string, message: string, field?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

const readJson = async <Schema extends z.ZodMiniType>(request: Request, schema: Schema): Promise<z.output<Schema>> => {
  const text = await request.text();
  let value: unknown = {};
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      throw new DemoHttpError(400, 'bad_request', 'the body is not JSON');
    }
  }
  const parsed = safeParse(schema, value);
  if (!parsed.success) throw new DemoHttpError(400, 'bad_request', parsed.message, parsed.issues[0]?.field);
  return parsed.data;
};

/**
 * The field a documented refusal is about, where the service's message does not name one
 * ("Invoice amount should be not less than 1000.00"): the form marks that field.
 */
const FIELD_OF_CODE: Readonly<Record<string, string>> = {
  amount_too_small: 'amount',
  amount_too_large: 'amount',
  max_amount_too_small: 'maxAmount',
  method_not_allowed: 'paymentMethod',
  option_not_allowed: 'paymentOption',
};

/** The payer's receipt the demo attaches to confirm-transfer and dispute (the service wants a file). */
const receiptFor = (order: DemoOrder): File =>
  new File(
    [`Receipt (demo): transfer of ${order.sum.amount} ${order.sum.currency} for order ${order.orderId}\n`],
    `receipt-${order.orderId}.txt`,
    {
      type: 'text/plain',
    },
  );

/** The invoice of a lookup answer (one object or a one-element array), if it is one. */
const lookedUpInvoice = (data: unknown): { id?: unknown; status?: unknown; deals?: unknown } | undefined => {
  const value: unknown = Array.isArray(data) ? data[0] : data;
  return typeof value === 'object' && value !== null ? value : undefined;
};

export const createDemoBackend = (options: DemoBackendOptions = {}): DemoBackend => {
  const serviceUrl = options.serviceUrl ?? SERVICE_URL;
  const log = options.log ?? (() => undefined);
  const notificationToken = randomUUID();
  /** The shop's database: its orders by invoice id, oldest first. */
  const orders = new Map<string, DemoOrder>();
  /**
   * Invoices the demo shows with a status the mock never sends ("other status" screen). The
   * reference lists only `new` and `canceled`, so a real service may well send others.
   */
  const unknownStatus = new Map<string, string>();
  let nextOrderNumber = 1001;
  /** The mock's switches the page shows (the mock has setters only). */
  const switches = { noRequisites: false, receiverDown: false };
  /** The service's lists change rarely: read once, so a page load never spends a fault meant for the element. */
  let reference: Promise<ServiceReference> | undefined;

  /**
   * One store for the proxy and the receiver, so the payer's event stream hears every
   * notification at once; `REDIS_URL=redis://… npm run demo` shares it between instances.
   */
  const store = process.env.REDIS_URL
    ? createRedisStore({
        url: process.env.REDIS_URL,
        prefix: 'merchant-checkout-demo:',
        onError: (error) => log(`redis: ${String(error)}`),
      })
    : createMemoryStore();

  const mock: MockService = createMockService({
    merchants: [{ ...DEMO_MERCHANT }],
    publicBaseUrl: serviceUrl,
    controls: true,
    // "Receiver down" answers 500, so the service's retries (60 s apart on its clock) show.
    notificationFetch: (request) =>
      switches.receiverDown ? Promise.resolve(new Response('the shop is down (demo switch)', { status: 500 })) : kit.notifications(request),
    notificationAllowed: () => true,
    // The demo lets a payer cancel on the bank picker too; the service's own rule is the default elsewhere.
    cancelWithoutDeal: 'allow',
    // Bank names on every deal until the proxy reads them from the service's payment-methods list.
    paymentMethodName: 'always',
    ...(options.random ? { random: options.random } : {}),
    ...(options.quirks !== undefined ? { quirks: options.quirks } : {}),
  });

  /**
   * The mock's `fetch`, with two overlays on its lookups: the demo's unknown status while the
   * invoice is still `new`, and, for any status but `new`, deals shown inactive. The latter is a
   * workaround: the element shows an active deal's requisites whatever the invoice's status, and
   * a deal in `dispute` stays active at the service, so the payer would be asked to pay again.
   */
  const serviceFetch = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    const started = /^\/api\/merchant\/invoices\/([^/]+)\/start-deal$/.exec(path);
    if (started?.[1]) unknownStatus.delete(decodeURIComponent(started[1]));
    const response = await mock.fetch(request);
    const read = request.method === 'GET' && /^\/api\/merchant\/invoices\/(?:internal-id\/)?[^/]+$/.test(path);
    if (!response.ok || !read) return response;
    const text = await response.text();
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return new Response(text, { status: response.status, headers: response.headers });
    }
    const invoice = lookedUpInvoice(data);
    const status = typeof invoice?.id === 'string' ? unknownStatus.get(invoice.id) : undefined;
    if (invoice && status !== undefined && invoice.status === 'new') invoice.status = status;
    const activeDeals = invoice && invoice.status !== 'new' && Array.isArray(invoice.deals) ? (invoice.deals as unknown[]) : [];
    const isActive = (deal: unknown) => typeof deal === 'object' && deal !== null && (deal as { isActive?: unknown }).isActive === true;
    if (status === undefined && !activeDeals.some(isActive))
      return new Response(text, { status: response.status, headers: response.headers });
    if (invoice && activeDeals.length)
      invoice.deals = activeDeals.map((deal) => (isActive(deal) ? { ...(deal as object), isActive: false } : deal));
    return new Response(JSON.stringify(data), { status: response.status, headers: { 'content-type': 'application/json' } });
  };

  const client = new MerchantClient({
    baseUrl: serviceUrl,
    apiKey: DEMO_MERCHANT.apiKey,
    secretKey: DEMO_MERCHANT.secretKey,
    fetch: serviceFetch,
  });

  /**
   * The kit: one store for the proxy, the receiver and the reconciler, so the payer's event
   * stream hears every notification at once and a payment whose notifications were lost ("the
   * shop's server down") is still found by the reconciler, on the mock's clock.
   */
  const kit = createCheckoutServer({
    client,
    basePath: CHECKOUT_BASE_PATH,
    store,
    // What a shop's database lookup does: only its own orders are served. (A real shop also
    // checks that this visitor owns the order: session, cookie or a signed link.) Deals start
    // at the service's start-deal, which the mock serves.
    authorize: (invoiceId) => orders.has(invoiceId),
    timeoutMs: 8000,
    notifications: { token: notificationToken },
    onChange: (change) => {
      const order = orders.get(change.invoiceId);
      if (order) order.status = change.invoice.status;
      if (change.source === 'reconcile') log(`reconciler: ${change.invoiceId} ${change.kind} (no notification told of it)`);
    },
    reconcile: { tickMs: 1000 },
    now: () => Date.parse(mock.now()),
    onError: (error, { source, request, invoiceId }) => {
      const what = error instanceof Error ? error.message : String(error);
      const where = request ? `${request.method} ${new URL(request.url).pathname}` : `${source}${invoiceId ? ` ${invoiceId}` : ''}`;
      log(`${where}: ${what}`);
    },
  });
  const checkout = kit.checkout;

  const orderOf = (invoiceId: string): DemoOrder => {
    const order = orders.get(invoiceId);
    if (!order) throw new DemoHttpError(404, 'not_found', 'no such order in this shop');
    return order;
  };

  /** Lets the notifications of what just happened reach the orders (in process: milliseconds). */
  const settle = async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([mock.notificationsSettled(), new Promise((resolve) => (timer = setTimeout(resolve, 1000)))]);
    clearTimeout(timer);
  };

  const createOrder = async (input: CreateOrderInput, scenario?: DemoScenario): Promise<DemoOrder> => {
    const orderId = `SMV-${nextOrderNumber++}`;
    const request: CreateInvoiceRequest = {
      type: input.type,
      amount: input.amount.trim(),
      currency: input.currency.trim().toUpperCase(),
      notificationUrl: NOTIFICATION_URL,
      notificationToken,
      internalId: orderId,
    };
    if (input.startDeal) request.startDeal = true;
    if (input.paymentMethod) request.paymentMethod = input.paymentMethod;
    if (input.paymentOption) request.paymentOption = input.paymentOption;
    if (input.type === 'out')
      request.paymentRequisites = { requisites: input.requisites?.trim() ?? '', holder: input.holder?.trim() ?? '' };
    for (const field of ['successUrl', 'cancelUrl', 'maxAmount', 'crossBorderCurrency'] as const) {
      const value = input[field]?.trim();
      if (value) request[field] = value;
    }
    const invoice = await client.createInvoice(request);
    const order: DemoOrder = {
      invoiceId: invoice.id,
      orderId,
      type: invoice.type,
      sum: { amount: invoice.sum.amount, currency: invoice.sum.currency, subunit: invoice.sum.subunit },
      status: invoice.status,
      createdAt: invoice.createdAt ?? new Date().toISOString(),
      ...(scenario ? { scenario } : {}),
    };
    orders.set(invoice.id, order);
    return order;
  };

  const waitingOrder = (amount: string, scenario: Scenario) =>
    createOrder({ type: 'in', amount, currency: 'RUB', startDeal: true, paymentMethod: 'sberbank', paymentOption: 'SBP' }, scenario);

  const setNoRequisites = (on: boolean) => {
    mock.setNoRequisites(on ? ['*'] : []);
    switches.noRequisites = on;
  };

  /** The merchant's confirm-transfer (multipart, with a receipt): the deal becomes `transfer_confirmed`. */
  const confirmTransfer = async (order: DemoOrder) => {
    await client.confirmTransfer(order.invoiceId, receiptFor(order));
  };

  /** The merchant's dispute (multipart) on the invoice's latest deal. */
  const openDispute = async (order: DemoOrder, reason: 'no_payment' | 'invalid_sum', amount?: string) => {
    const invoice = await client.getInvoice(order.invoiceId);
    const deal = invoice.deals.find((each) => each.isActive) ?? invoice.deals.at(-1);
    if (!deal?.id) throw new DemoHttpError(409, 'invalid_state', 'the invoice has no deal to dispute');
    await client.openDispute(order.invoiceId, {
      dealId: deal.id,
      reason,
      ...(reason === 'invalid_sum' ? { amount: amount?.trim() ?? '' } : {}),
      attachment: receiptFor(order),
    });
  };

  const serviceState = (): ServiceState => ({ now: mock.now(), ...switches });

  /** The mock's view of an order's invoice; nothing when the mock has forgotten it. */
  const serviceView = (order: DemoOrder): ServiceView | undefined => {
    const invoice = mock.getInvoice(order.invoiceId);
    if (!invoice) return undefined;
    const deal = invoice.deals.find((each) => each.isActive) ?? invoice.deals.at(-1);
    return {
      dealStatus: deal?.status,
      expireAt: invoice.expireAt,
      notifications: mock.notifications
        .filter((record) => record.invoiceId === order.invoiceId)
        .map((record) => ({
          change: `${record.previousStatus ?? '∅'} → ${record.status}`,
          state: record.state,
          attempts: record.attempts.map((attempt) => attempt.status),
        })),
    };
  };

  const withService = (order: DemoOrder): DemoOrder => {
    const service = serviceView(order);
    return service ? { ...order, service } : order;
  };

  const readReference = async (): Promise<ServiceReference> => {
    const [methods, rates] = await Promise.all([client.listPaymentMethods('RUB'), client.getCurrencyRates()]);
    const rate = (side: { pair?: string | null | undefined; rate: string } | null | undefined) =>
      side ? { pair: side.pair ?? null, rate: side.rate } : null;
    return {
      methods: methods.map((method) => ({ code: method.code, name: method.name ?? method.code })),
      rates: { in: rate(rates.in), out: rate(rates.out) },
    };
  };

  /** A waiting deal of one payment option, in its currency (a cross-border one with a card abroad), from a clean mock. */
  const setUpOptionScenario = async (name: OptionScenarioName): Promise<DemoOrder> => {
    mock.reset();
    setNoRequisites(false);
    switches.receiverDown = false;
    const scenario: OptionScenario = OPTION_SCENARIOS[name];
    const { option, method, currency, amount, crossBorderCurrency } = scenario;
    const input: CreateOrderInput = { type: 'in', amount, currency, startDeal: true, paymentMethod: method, paymentOption: option };
    const order = await createOrder(crossBorderCurrency ? { ...input, crossBorderCurrency } : input, name);
    await settle();
    return order;
  };

  /** Creates an order in the state the scenario names, from a clean mock (no faults, no latency). */
  const setUpScenario = async (scenario: Scenario): Promise<DemoOrder> => {
    mock.reset();
    setNoRequisites(false);
    switches.receiverDown = false;
    let order: DemoOrder;
    switch (scenario) {
      case 'waiting':
        order = await waitingOrder('1500.00', scenario);
        break;
      case 'checking':
        // A waiting deal: the page presses "I have paid" for the payer.
        order = await waitingOrder('1500.00', scenario);
        break;
      case 'sbp-qr':
        // An SBP QR deal: the QR code of the NSPK link, and on a phone "Choose your bank".
        order = await createOrder(
          { type: 'in', amount: '2750.00', currency: 'RUB', startDeal: true, paymentMethod: 'sberbank', paymentOption: 'SBP_QR' },
          scenario,
        );
        break;
      case 'no-deal':
        order = await createOrder({ type: 'in', amount: '2490.00', currency: 'RUB' }, scenario);
        break;
      case 'no-requisites':
        order = await createOrder({ type: 'in', amount: '2790.00', currency: 'RUB' }, scenario);
        setNoRequisites(true);
        break;
      case 'transfer-confirmed':
        order = await waitingOrder('1850.00', scenario);
        await confirmTransfer(order);
        break;
      case 'unique-amount':
        // The service may keep the order's amount; the scenario shows the case where it asked for more.
        for (let attempt = 0; ; attempt++) {
          order = await createOrder(
            {
              type: 'in',
              amount: '1500.00',
              maxAmount: '1510.00',
              currency: 'RUB',
              startDeal: true,
              paymentMethod: 'sberbank',
              paymentOption: 'SBP',
            },
            scenario,
          );
          if (mock.getInvoice(order.invoiceId)?.receivedSumFromTaker?.amount !== '1500.00' || attempt >= 20) break;
        }
        break;
      case 'corrected':
        order = await waitingOrder('5000.00', scenario);
        mock.markPaid(order.invoiceId);
        mock.correctAmount(order.invoiceId, '5004.50');
        break;
      case 'dispute':
        order = await waitingOrder('2200.00', scenario);
        await openDispute(order, 'no_payment');
        break;
      case 'payout':
        order = await createOrder(
          {
            type: 'out',
            amount: '5000.00',
            currency: 'RUB',
            paymentMethod: 'tinkoff',
            paymentOption: 'TO_CARD',
            requisites: '2200700155554444',
            holder: 'Мария Сергеевна К.',
          },
          scenario,
        );
        break;
      case 'canceled':
        order = await waitingOrder('1990.00', scenario);
        await client.cancelInvoice(order.invoiceId);
        break;
      case 'expired':
        order = await waitingOrder('3200.00', scenario);
        mock.expire(order.invoiceId);
        break;
      case 'paid':
        order = await waitingOrder('1250.50', scenario);
        mock.markPaid(order.invoiceId);
        break;
      case 'other':
        order = await waitingOrder('4100.00', scenario);
        unknownStatus.set(order.invoiceId, UNKNOWN_STATUS);
        order.status = UNKNOWN_STATUS;
        break;
      case 'error':
        order = await waitingOrder('1500.00', scenario);
        mock.failNext(ERROR_FAILURES, 503, { invoiceId: order.invoiceId });
        break;
      case 'slow':
        order = await waitingOrder('1500.00', scenario);
        mock.setLatency(SLOW_LATENCY_MS);
        break;
    }
    await settle();
    return order;
  };

  const invoiceAction = async (invoiceId: string, action: InvoiceAction, request: Request): Promise<DemoOrder> => {
    const order = orderOf(invoiceId);
    switch (action) {
      case 'paid':
        await readJson(request, EmptySchema);
        mock.markPaid(invoiceId);
        break;
      case 'expire':
        await readJson(request, EmptySchema);
        mock.expire(invoiceId);
        break;
      case 'deal': {
        const { option, method } = await readJson(request, DealSchema);
        mock.startDeal(invoiceId, { ...(option ? { option } : {}), ...(method ? { method } : {}) });
        break;
      }
      case 'confirm':
        await readJson(request, EmptySchema);
        await confirmTransfer(order);
        break;
      case 'dispute': {
        const { reason, amount } = await readJson(request, DisputeSchema);
        await openDispute(order, reason, amount);
        break;
      }
      case 'resolve':
        mock.resolveDispute(invoiceId, (await readJson(request, ResolveSchema)).outcome);
        break;
      case 'unknown-status': {
        await readJson(request, EmptySchema);
        if (mock.getInvoice(invoiceId)?.status !== 'new') {
          throw new DemoHttpError(409, 'invalid_state', 'only a new invoice can be given another status');
        }
        unknownStatus.set(invoiceId, UNKNOWN_STATUS);
        order.status = UNKNOWN_STATUS;
        return order;
      }
    }
    unknownStatus.delete(invoiceId);
    await settle();
    return withService(order);
  };

  /** The shop's order API on Hono: one row a route, one error answer for every failure. */
  const app = new Hono().basePath(DEMO_API_BASE_PATH);
  const only = (allowed: string) => () => {
    throw new DemoHttpError(405, 'method_not_allowed', `use ${allowed}`);
  };
  app.all('/notify', (c) => kit.notifications(c.req.raw));
  app.get('/orders', () => json(200, { orders: [...orders.values()].reverse().map(withService) }));
  app.post('/orders', async (c) => json(201, { order: await createOrder(await readJson(c.req.raw, CreateOrderSchema)) }));
  app.all('/orders', only('GET or POST'));
  app.get('/orders/:invoiceId', (c) => json(200, { order: withService(orderOf(c.req.param('invoiceId'))) }));
  app.all('/orders/:invoiceId', only('GET'));
  app.post('/orders/:invoiceId/:action', async (c) => {
    const action = INVOICE_ACTIONS.find((each) => each === c.req.param('action'));
    if (!action) throw new DemoHttpError(404, 'not_found', `no action ${c.req.param('action')}`);
    return json(200, { order: await invoiceAction(c.req.param('invoiceId'), action, c.req.raw) });
  });
  app.all('/orders/:invoiceId/:action', only('POST'));
  app.get('/service', () => json(200, { service: serviceState() }));
  app.post('/service', async (c) => {
    const asked = await readJson(c.req.raw, SwitchesSchema);
    if (asked.noRequisites !== undefined) setNoRequisites(asked.noRequisites);
    if (asked.receiverDown !== undefined) switches.receiverDown = asked.receiverDown;
    return json(200, { service: serviceState() });
  });
  app.all('/service', only('GET or POST'));
  app.get('/reference', async () => {
    reference ??= readReference();
    try {
      return json(200, await reference);
    } catch (error) {
      reference = undefined;
      throw error;
    }
  });
  app.all('/reference', only('GET'));
  app.post('/scenarios/:name', async (c) => {
    const name = c.req.param('name');
    if (isOptionScenario(name)) return json(200, { order: withService(await setUpOptionScenario(name)) });
    if (!isScenario(name)) throw new DemoHttpError(404, 'not_found', `no scenario ${name}`);
    return json(200, { order: withService(await setUpScenario(name)) });
  });
  app.all('/scenarios/:name', only('POST'));
  app.notFound((c) => json(404, { error: { code: 'not_found', message: `nothing at ${new URL(c.req.url).pathname}` } }));
  app.onError((error, c) => {
    const request = c.req.raw;
    const answer = (status: number, code: string, message: string, field?: string, service = false) =>
      json(status, { error: { code, message, ...(field ? { field } : {}), ...(service ? { service } : {}) } });
    if (error instanceof DemoHttpError) return answer(error.status, error.code, error.message, error.field);
    if (error instanceof MockControlError) return answer(error.status, error.code, error.message);
    if (error instanceof MerchantValidationError) return answer(400, 'validation_failed', error.message, error.field);
    // A refusal is passed on in the service's own words with the client's stable code
    // (`amount_too_small`: "Invoice amount should be not less than 1000.00"); a failure stays a 502.
    if (error instanceof MerchantApiError && error.status < 500) {
      const message = error.messages.length ? error.messages.join('; ') : `The payment service answered ${error.status}.`;
      return answer(error.status === 404 ? 404 : 400, error.code, message, error.field ?? FIELD_OF_CODE[error.code], true);
    }
    if (error instanceof MerchantApiError) {
      return answer(502, 'upstream_error', `The payment service answered ${error.status}: ${error.bodyExcerpt}`);
    }
    if (error instanceof MerchantTimeoutError) return answer(504, 'upstream_timeout', 'The payment service did not answer in time.');
    if (error instanceof MerchantClientError) return answer(502, 'upstream_error', error.message);
    if (error instanceof URIError) return answer(400, 'bad_request', 'bad percent-encoding in the path');
    log(`${request.method} ${request.url}: ${error.stack ?? error.message}`);
    return answer(500, 'internal_error', 'the demo server failed');
  });
  const api = (request: Request): Promise<Response> => Promise.resolve(app.fetch(request));

  return {
    checkout,
    api,
    mock,
    close: () => {
      mock.close();
      void kit.close().then(() => store.close());
    },
  };
};
