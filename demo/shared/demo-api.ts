/**
 * The demo merchant's own small API (`/demo-api`, served by demo/server/backend.ts) and the
 * mock service's test controls (`/__mock`), as the demo pages call them. A real shop has its
 * own order API instead; the checkout itself only ever talks to `/checkout-api`.
 */
import type { DemoScenario } from './scenarios.js';

/** An order of the demo shop and the invoice behind it, as the shop's database knows it. */
export interface DemoOrder {
  /** The service's invoice UUID: what `<merchant-checkout invoice-id>` gets. */
  invoiceId: string;
  /** The shop's own order number, sent to the service as `internalId`. */
  orderId: string;
  type: 'in' | 'out';
  /** The invoice's sum as the service wrote it (decimal text, `subunit` digits). */
  sum: { amount: string; currency: string; subunit: number };
  /** The last status the shop heard of: the create answer, then the service's notifications. */
  status: string;
  /** ISO 8601. */
  createdAt: string;
  /** The QA scenario that made it, if any. */
  scenario?: DemoScenario;
  /** The invoice as the mock service holds it now (QA only: a shop knows only what notifications say). */
  service?: ServiceView;
}

/**
 * What the mock service knows of one invoice beyond the shop's notifications: the deal's own
 * status (confirm-transfer changes only that, and no notification is sent for it), the expiry
 * on the mock's clock, and every notification with its attempts.
 */
export interface ServiceView {
  dealStatus: string | undefined;
  /** ISO 8601, the mock's clock. */
  expireAt: string;
  notifications: NotificationView[];
}

export interface NotificationView {
  /** `new → paid`. */
  change: string;
  state: 'pending' | 'delivered' | 'failed' | 'skipped' | 'canceled';
  /** The receiver's HTTP status of each attempt (null: no answer), oldest first. */
  attempts: (number | null)[];
}

/** The mock service's switches the demo keeps, and its clock. */
export interface ServiceState {
  /** ISO 8601: the mock's clock (it runs ahead once advanced). */
  now: string;
  /** No bank has free requisites (`setNoRequisites(['*'])`). */
  noRequisites: boolean;
  /** The shop's notification receiver answers 500, so the service retries (60 s apart). */
  receiverDown: boolean;
}

/** The service's reference lists, as `MerchantClient` reads them. */
export interface ServiceReference {
  /** `listPaymentMethods('RUB')`: the banks' codes and names. */
  methods: { code: string; name: string }[];
  /** `getCurrencyRates()`: pay-in and pay-out rates. */
  rates: { in: { pair: string | null; rate: string } | null; out: { pair: string | null; rate: string } | null };
}

/** The create form. Amounts stay decimal text all the way to the service. */
export interface CreateOrderInput {
  type: 'in' | 'out';
  amount: string;
  currency: string;
  startDeal?: boolean;
  /** Bank code; empty for "let the service choose". */
  paymentMethod?: string;
  /** `TO_CARD`, `SBP`…; empty for "let the service choose". */
  paymentOption?: string;
  /** Pay-outs only: the payee's card or phone number and name. */
  requisites?: string;
  holder?: string;
  /** Documented extras: where the service's own page sends the payer, and the top of a randomised amount. */
  successUrl?: string;
  cancelUrl?: string;
  maxAmount?: string;
  /** A cross-border invoice: the currency of the payer's card abroad (`TJS`, `UZS`). */
  crossBorderCurrency?: string;
}

/**
 * What can happen to one invoice, through the demo server: the mock's own moves, and the
 * merchant operations `confirm` (confirm-transfer with a receipt) and `dispute`.
 */
export const INVOICE_ACTIONS = ['paid', 'expire', 'deal', 'unknown-status', 'confirm', 'dispute', 'resolve'] as const;
export type InvoiceAction = (typeof INVOICE_ACTIONS)[number];

/** The switches of `POST /demo-api/service`. */
export type ServiceSwitch = 'noRequisites' | 'receiverDown';

/** The mock's faults, straight through its `/__mock` controls. */
export type Fault =
  | { kind: 'latency'; ms: number }
  | { kind: 'fail'; count: number; status: number }
  | { kind: 'hang'; count: number }
  | { kind: 'malform'; count: number }
  | { kind: 'reset' };

/** An answer that was not 2xx: the `{ error: { code, message, field?, service? } }` body. */
export class DemoApiError extends Error {
  override name = 'DemoApiError';
  readonly code: string;
  readonly field: string | undefined;
  /** The payment service refused: `message` is in its words and `code` is the client's stable one (`amount_too_small`). */
  readonly fromService: boolean;
  constructor(code: string, message: string, field?: string, fromService = false) {
    super(message);
    this.code = code;
    this.field = field;
    this.fromService = fromService;
  }
}

const call = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new DemoApiError('network_error', 'The demo server is not reachable.');
  }
  const data = (await response.json().catch(() => undefined)) as
    (T & { error?: undefined }) | { error?: { code?: string; message?: string; field?: string; service?: boolean } } | undefined;
  if (!response.ok || data === undefined) {
    const error = data?.error;
    throw new DemoApiError(error?.code ?? 'http_error', error?.message ?? `HTTP ${response.status}`, error?.field, error?.service === true);
  }
  return data as T;
};

export const demoApi = {
  listOrders: () => call<{ orders: DemoOrder[] }>('GET', '/demo-api/orders').then((answer) => answer.orders),
  /** The mock's switches and clock. */
  service: () => call<{ service: ServiceState }>('GET', '/demo-api/service').then((answer) => answer.service),
  reference: () => call<ServiceReference>('GET', '/demo-api/reference'),
  setSwitch: (name: ServiceSwitch, on: boolean) =>
    call<{ service: ServiceState }>('POST', '/demo-api/service', { [name]: on }).then((answer) => answer.service),
  /** Moves the mock's clock on: expiries and notification retries that fall due run now. */
  advanceClock: (ms: number) => call<{ now: string }>('POST', '/__mock/clock', { advanceMs: ms }),
  createOrder: (input: CreateOrderInput) => call<{ order: DemoOrder }>('POST', '/demo-api/orders', input).then((answer) => answer.order),
  /** Creates an order in the state of `scenario` (resetting the mock's faults first). */
  scenario: (scenario: DemoScenario) =>
    call<{ order: DemoOrder }>('POST', `/demo-api/scenarios/${scenario}`).then((answer) => answer.order),
  invoiceAction: (invoiceId: string, action: InvoiceAction, body: Record<string, string> = {}) =>
    call<{ order: DemoOrder }>('POST', `/demo-api/orders/${encodeURIComponent(invoiceId)}/${action}`, body).then((answer) => answer.order),
  /** The shop's server stops answering notifications for `ms` of the mock's time (its outage control); answers when it ends. */
  notificationOutage: (ms: number) => call<{ until: string }>('POST', '/__mock/notifications/outage', { durationMs: ms }),
  fault: (fault: Fault) => {
    const { kind, ...body } = fault;
    return call<{ ok: true }>('POST', `/__mock/${kind}`, body);
  },
};
