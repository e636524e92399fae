/**
 * What `merchant-checkout doctor` may send, made structural: the doctor's client is not a
 * `MerchantClient` but an object with only the allow-listed operations
 * ({@link DOCTOR_OPERATIONS}: reads, lists, one create, start-deal, cancel), and every request
 * it makes goes through {@link guardedFetch}, which refuses any other host than the configured
 * one and any request that would confirm a transfer, open a dispute or withdraw, whatever the
 * code above it asks. The answers' text is kept (`Tap`) so that the checks can report the
 * shape the brand wrote, not only what the kit read from it.
 */
import { OPERATION_LIST, PUBLIC_API_PREFIX, createNodeFetch, type MerchantClient, type OperationName } from '../../server/node.js';

/** The operations the doctor calls; nothing else of the client is reachable from it. */
export const DOCTOR_OPERATIONS = [
  'listAccounts',
  'listPaymentMethods',
  'listPaymentOptions',
  'getCurrencyRates',
  'listPublicPaymentMethods',
  'getInvoice',
  'getInvoiceByInternalId',
  'listPaymentVariants',
  'getInvoiceQrCode',
  'createInvoice',
  'startDeal',
  'cancelInvoice',
] as const satisfies readonly OperationName[];

export type DoctorOperation = (typeof DOCTOR_OPERATIONS)[number];

/** One request and its answer as they went on the wire (headers left out: they carry the signature). */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  text: string;
}

/** The answers of the doctor's requests, in order. */
export class Tap {
  readonly exchanges: Exchange[] = [];
  /** The last answer's text parsed as JSON (`undefined` when it is not JSON). */
  lastJson(): unknown {
    const text = this.exchanges.at(-1)?.text ?? '';
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }
  lastText(): string {
    return this.exchanges.at(-1)?.text ?? '';
  }
}

/** The hosted payment page's undocumented public calls (only `X-Identity`), answered raw. */
export interface HostedPageCalls {
  hostedPaymentVariants(id: string): Promise<Exchange>;
  hostedStartDeal(id: string): Promise<Exchange>;
}

/** All the doctor can call. */
export type DoctorClient = Pick<MerchantClient, DoctorOperation> & HostedPageCalls;

/** A request the guard refused; never sent. */
export class RefusedRequestError extends Error {
  override name = 'RefusedRequestError';
}

const templatePattern = (template: string): RegExp =>
  new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}/?$`);

/** The rows that change state and are not allowed: confirm-transfer, dispute, withdrawals. */
export const FORBIDDEN_OPERATIONS = OPERATION_LIST.filter(
  (row) => row.changesState && !(DOCTOR_OPERATIONS as readonly string[]).includes(row.name),
);
const FORBIDDEN = FORBIDDEN_OPERATIONS.map((row) => ({ method: row.method, pattern: templatePattern(row.path) }));

/**
 * A `fetch` for the doctor's clients: only `base`'s origin under its path, never a forbidden
 * operation, and every answer recorded in `tap`.
 */
export const guardedFetch = (base: URL, tap: Tap, fetchImpl: (request: Request) => Promise<Response> = createNodeFetch()) => {
  const prefix = base.pathname.replace(/\/+$/, '');
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (url.origin !== base.origin || !url.pathname.startsWith(`${prefix}/api/`))
      throw new RefusedRequestError(`doctor: refused a request to ${url.origin}${url.pathname}: not the configured service`);
    const path = url.pathname.slice(prefix.length);
    if (FORBIDDEN.some((row) => row.method === request.method && row.pattern.test(path)))
      throw new RefusedRequestError(`doctor: refused ${request.method} ${path}: the doctor never confirms, disputes or withdraws`);
    const response = await fetchImpl(request);
    const text = await response.text();
    tap.exchanges.push({ method: request.method, path, status: response.status, text });
    return new Response(response.status === 204 || response.status === 304 ? null : text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
};

/** The doctor's client over `client`: the allow-listed methods, bound, and the hosted page's two calls. */
export const doctorClient = (
  client: MerchantClient,
  apiKey: string,
  send: (request: Request) => Promise<Response>,
  tap: Tap,
): DoctorClient => {
  const methods = Object.fromEntries(
    DOCTOR_OPERATIONS.map((name) => [name, (client[name] as (...args: unknown[]) => unknown).bind(client)]),
  ) as Pick<MerchantClient, DoctorOperation>;
  const hosted = async (method: 'GET' | 'POST', id: string, tail: string): Promise<Exchange> => {
    const init: RequestInit = {
      method,
      headers: { accept: 'application/json', 'x-identity': apiKey, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
      redirect: 'manual',
      signal: AbortSignal.timeout(client.timeoutMs),
    };
    if (method === 'POST') init.body = JSON.stringify({ paymentMethod: null, paymentOption: null });
    await send(new Request(`${client.baseUrl}${PUBLIC_API_PREFIX}/invoices/${encodeURIComponent(id)}/${tail}`, init));
    return tap.exchanges.at(-1)!;
  };
  return {
    ...methods,
    hostedPaymentVariants: (id) => hosted('GET', id, 'available-payment-variants'),
    hostedStartDeal: (id) => hosted('POST', id, 'start-deal'),
  };
};
