/**
 * The demo merchant's own small API (`/demo-api`, served by demo/server/backend.ts) and the
 * mock service's test controls (`/__mock`), as the demo pages call them. A real shop has its
 * own order API instead; the checkout itself only ever talks to `/checkout-api`.
 */
import type { Scenario } from './scenarios.js';

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
  scenario?: Scenario;
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
}

/** What the mock can do to one invoice, through the demo server. */
export type InvoiceAction = 'paid' | 'expire' | 'deal' | 'unknown-status';

/** The mock's faults, straight through its `/__mock` controls. */
export type Fault =
  | { kind: 'latency'; ms: number }
  | { kind: 'fail'; count: number; status: number }
  | { kind: 'hang'; count: number }
  | { kind: 'malform'; count: number }
  | { kind: 'reset' };

/** An answer that was not 2xx: the `{ error: { code, message, field? } }` body. */
export class DemoApiError extends Error {
  override name = 'DemoApiError';
  readonly code: string;
  readonly field: string | undefined;
  constructor(code: string, message: string, field?: string) {
    super(message);
    this.code = code;
    this.field = field;
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
    | (T & { error?: undefined })
    | { error?: { code?: string; message?: string; field?: string } }
    | undefined;
  if (!response.ok || data === undefined) {
    const error = data?.error;
    throw new DemoApiError(error?.code ?? 'http_error', error?.message ?? `HTTP ${response.status}`, error?.field);
  }
  return data as T;
};

export const demoApi = {
  listOrders: () => call<{ orders: DemoOrder[] }>('GET', '/demo-api/orders').then((answer) => answer.orders),
  createOrder: (input: CreateOrderInput) => call<{ order: DemoOrder }>('POST', '/demo-api/orders', input).then((answer) => answer.order),
  /** Creates an order in the state of `scenario` (resetting the mock's faults first). */
  scenario: (scenario: Scenario) => call<{ order: DemoOrder }>('POST', `/demo-api/scenarios/${scenario}`).then((answer) => answer.order),
  invoiceAction: (invoiceId: string, action: InvoiceAction, body: Record<string, string> = {}) =>
    call<{ order: DemoOrder }>('POST', `/demo-api/orders/${encodeURIComponent(invoiceId)}/${action}`, body).then((answer) => answer.order),
  fault: (fault: Fault) => {
    const { kind, ...body } = fault;
    return call<{ ok: true }>('POST', `/__mock/${kind}`, body);
  },
};
