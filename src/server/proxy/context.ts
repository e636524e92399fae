/**
 * What every route of the proxy shares (src/server/proxy/routes/): its settings, the reads it
 * shares with the kit, the merchant's hooks, and the steps each route is made of: the payer's
 * authorization, the invoice read and checked for this caller, the receipt policy, the
 * projection the browser gets. One per proxy; a route's handler is a plain function of it.
 */
import type { CheckoutReceiptsPolicy, Invoice } from '../../schemas/index.js';
import { RECEIPTS_POLICIES } from '../../schemas/index.js';
import type { MerchantClient } from '../client/merchant-client.js';
import type { InvoiceReader, ReadInvoice } from '../client/invoice-reader.js';
import { createInvoiceEvents, throttled, type InvoiceEvents } from '../events/invoice-events.js';
import type { RequestOptions, SharedReadOptions } from '../client/options.js';
import { remember } from '../remember.js';
import type { CheckoutStore } from '../store/types.js';
import { countRead } from '../telemetry.js';
import { createBankNames } from './bank-names.js';
import type { Context } from 'hono';
import { fail, upstreamUnavailable, type Budget } from './failures.js';
import { DEFAULT_BODY_TIMEOUT_MS, type Deadline } from '../http/answers.js';
import { errorContext, tellError, type CheckoutErrorContext } from '../http/error-context.js';
import { isClient } from '../client/clients.js';
import { DEFAULT_CHECKOUT_MAX_BODY_BYTES, type CheckoutHandlerOptions, type ReceiptsOption } from './options.js';
import { projectInvoice, withReceiptsPolicy } from '../events/projection.js';
import {
  createUploadFlight,
  receiptLimit,
  DEFAULT_CHECKOUT_MAX_UPLOAD_BYTES,
  DEFAULT_UPLOAD_TIMEOUT_MS,
  type UploadLimits,
} from './uploads.js';

/** How many invoices' receipt policies the proxy remembers (for their event streams). */
const MAX_REMEMBERED_POLICIES = 10_000;

/** Deal statuses a payer can no longer have paid to unnoticed: a settled deal, or one already disputed. */
export const UNDISPUTABLE_DEAL_STATUSES: readonly string[] = ['completed', 'dispute'];

/** The proxy's options without what the kit shares (the client(s) and the store). */
export type ProxyOptions = Omit<CheckoutHandlerOptions, 'client' | 'store'>;

/** What a proxy shares with the kit around it (or makes for itself alone). */
export interface ProxyShared {
  reader: InvoiceReader;
  store: CheckoutStore;
  /** The one writer of the states the proxy reads or is answered (the kit's `learnRead`); default the store's `record`. */
  record?: ((invoice: Invoice, client: MerchantClient | undefined) => Promise<unknown>) | undefined;
}

/** The proxy's shared state and steps (see the module's header). */
export class ProxyContext {
  readonly options: ProxyOptions;
  readonly reader: InvoiceReader;
  readonly store: CheckoutStore;
  readonly clients: readonly MerchantClient[];
  /** The time budget of one request (the merchant's hooks and every upstream call). */
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  readonly upload: UploadLimits;
  /** What the element may promise the payer: a receipt that fits this proxy's upload cap with its framing. */
  readonly receiptMaxBytes: number;
  readonly receipts: ReceiptsOption;
  /** The service's bank names, unless `bankNames: false`. */
  readonly bankNames: ReturnType<typeof createBankNames> | undefined;
  /** One confirm-transfer per invoice at a time, whoever sends the receipt. */
  readonly uploadFlight = createUploadFlight();
  readonly allowedOrigins: ReadonlySet<string>;
  /** The event streams, unless `events: false`. */
  readonly events: InvoiceEvents | undefined;
  /** The policy a function answered last per invoice: what the event stream (one projection per state) carries. */
  readonly #receiptsOf = new Map<string, CheckoutReceiptsPolicy>();

  /** Answers already recorded: the callers one single-flight read answered all see the same object. */
  readonly #recorded = new WeakSet<Invoice>();
  readonly #record: (invoice: Invoice, client: MerchantClient | undefined) => Promise<unknown>;
  readonly #storeFailed: (error: unknown, invoiceId: string) => void;

  /**
   * `shared.record` is the one writer of what the proxy reads or is answered: the kit's books
   * (`learnRead`, which records in the store), or, for the proxy alone, the store.
   */
  constructor(shared: ProxyShared, options: ProxyOptions) {
    this.options = options;
    this.reader = shared.reader;
    this.store = shared.store;
    this.#record = shared.record ?? ((invoice) => shared.store.record({ invoice, source: 'read' }));
    // During a store outage every read would tell it again: at most once per 5 s.
    this.#storeFailed = throttled(
      (error: unknown, invoiceId: string) => this.#tell(error, errorContext('books', undefined, invoiceId)),
      5000,
    );
    this.clients = shared.reader.clients;
    this.timeoutMs = options.timeoutMs ?? Math.max(...this.clients.map((client) => client.timeoutMs));
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_CHECKOUT_MAX_BODY_BYTES;
    this.bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
    this.upload = {
      maxBytes: options.maxUploadBytes ?? DEFAULT_CHECKOUT_MAX_UPLOAD_BYTES,
      timeoutMs: options.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS,
    };
    this.receiptMaxBytes = receiptLimit(this.upload.maxBytes);
    this.receipts = options.receipts ?? 'optional';
    this.bankNames = options.bankNames === false ? undefined : createBankNames();
    this.allowedOrigins = new Set(options.cors?.origins ?? []);
    this.events = options.events === false ? undefined : this.#createEvents();
  }

  #createEvents(): InvoiceEvents {
    const { receipts } = this;
    return createInvoiceEvents(
      {
        store: this.store,
        read: async (client, id) => (await this.reader.read(id, { client }))?.invoice ?? fail('not_found', 'unknown invoice'),
        withBankNames: async (invoice, client) =>
          withReceiptsPolicy(
            await this.withBankNames(invoice, client, {}),
            typeof receipts === 'function' ? this.#receiptsOf.get(invoice.id.toLowerCase()) : receipts,
            this.receiptMaxBytes,
          ),
        report: (error, invoiceId) => this.#tell(error, errorContext('events', undefined, invoiceId)),
        record: (invoice, client) => this.record(invoice, client),
        sent: () => countRead('push'),
      },
      this.options.events || undefined,
    );
  }

  /** Bank names filled into the invoice's deals (the invoice as it is with `bankNames: false`). */
  withBankNames(invoice: Invoice, client: MerchantClient, upstream: { signal?: AbortSignal; timeoutMs?: number }): Promise<Invoice> {
    return this.bankNames ? this.bankNames.fill(invoice, client, upstream) : Promise.resolve(invoice);
  }

  /** Tells the merchant's `onError` of a failure answering `request` (about invoice `invoiceId`, when it names one). */
  report(error: unknown, request: Request, invoiceId?: string): void {
    this.#tell(error, errorContext('checkout', request, invoiceId));
  }

  #tell(error: unknown, context: CheckoutErrorContext): void {
    tellError(this.options.onError, error, context);
  }

  /**
   * Refuses a state-changing request sent from another site (a form or `fetch` on an
   * attacker's page riding on the payer's cookies), unless its origin is listed in
   * `cors.origins`. A browser's `Sec-Fetch-Site: same-origin` (or `none`) is believed; without
   * that header (older browsers), an `Origin` that is present must be this proxy's own. A
   * request with neither (a server, curl) passes: `authorize` is still the authorization.
   */
  checkSameSite(request: Request): void {
    const origin = request.headers.get('origin');
    if (origin !== null && this.allowedOrigins.has(origin)) return;
    const site = request.headers.get('sec-fetch-site');
    if (site === 'same-origin' || site === 'none') return;
    if (site === null && (origin === null || origin === new URL(request.url).origin)) return;
    fail('forbidden', 'cross-site requests are not allowed');
  }

  /** Whether this caller may see `id` (else a 404), and the internal id the older hook answered. */
  async authorize(id: string, request: Request, deadline: Deadline): Promise<{ internalId?: string }> {
    const { authorize: authorizeHook, resolveInternalId } = this.options;
    if (authorizeHook) {
      if ((await deadline.race(authorizeHook(id, request))) !== true) fail('not_found', 'unknown invoice');
      if (!resolveInternalId) return {};
    }
    const internalId = await deadline.race(resolveInternalId!(id, request));
    if (internalId === null || internalId === undefined || internalId === '') fail('not_found', 'unknown invoice');
    if (typeof internalId !== 'string') {
      throw new TypeError(`resolveInternalId must answer a string or nothing, got ${typeof internalId}`);
    }
    return { internalId };
  }

  /** The invoice `id` read from its terminal, with that terminal; a 404 when none knows it. */
  async #invoiceAndClient(id: string, request: Request, deadline: Deadline): Promise<ReadInvoice> {
    const { clientFor } = this.options;
    const chosen = clientFor ? await deadline.race(clientFor(id, request)) : undefined;
    if (clientFor && !isClient(chosen)) fail('not_found', 'unknown invoice');
    const found = await this.reader.read(id, { client: chosen ?? undefined, signal: deadline.signal, traceContext: deadline.traceContext });
    if (!found) return fail('not_found', 'unknown invoice');
    this.events?.observe(found.invoice);
    this.record(found.invoice, found.client);
    return found;
  }

  /**
   * The invoice `id` for this caller. It must be `id` (a service or a hook that answers
   * another invoice must not hand it out), and with the older `resolveInternalId` its
   * `internalId` must be the one answered (an over-broad lookup must not widen access).
   */
  async verifiedInvoice(id: string, request: Request, deadline: Deadline, watched = false): Promise<ReadInvoice> {
    return this.checkedInvoice(id, request, deadline, (await this.authorize(id, request, deadline)).internalId, watched);
  }

  /** The invoice `id` for a caller already authorized (see {@link verifiedInvoice}). */
  async checkedInvoice(
    id: string,
    request: Request,
    deadline: Deadline,
    internalId: string | undefined,
    watched = false,
  ): Promise<ReadInvoice> {
    const found =
      (watched ? await this.#watchedInvoice(id, request, deadline) : undefined) ?? (await this.#invoiceAndClient(id, request, deadline));
    if (found.invoice.id.toLowerCase() !== id) {
      this.report(new Error(`the service answered invoice ${found.invoice.id} for ${id}`), request, id);
      fail('not_found', 'unknown invoice');
    }
    if (internalId !== undefined && found.invoice.internalId !== internalId) {
      this.report(
        new Error(
          `resolveInternalId answered ${JSON.stringify(internalId)} for invoice ${id}, whose internalId is ${JSON.stringify(found.invoice.internalId)}`,
        ),
        request,
        id,
      );
      fail('not_found', 'unknown invoice');
    }
    return found;
  }

  /** The state an open stream of `id` already holds (a stream need not read it again), if its terminal is the one `clientFor` picks. */
  async #watchedInvoice(id: string, request: Request, deadline: Deadline): Promise<ReadInvoice | undefined> {
    const { clientFor } = this.options;
    const watched = this.events?.current(id, request.headers.get('last-event-id'));
    if (!watched || (clientFor && (await deadline.race(clientFor(id, request))) !== watched.client)) return undefined;
    return watched;
  }

  /** The receipt policy for this invoice and caller: the option, or what its function answers (checked). */
  async receiptsPolicy(invoice: Invoice, request: Request, deadline: Deadline): Promise<CheckoutReceiptsPolicy> {
    const { receipts } = this;
    if (typeof receipts !== 'function') return receipts;
    const answer: unknown = await deadline.race(receipts(invoice, request));
    if (typeof answer !== 'string' || !(RECEIPTS_POLICIES as readonly string[]).includes(answer)) {
      throw new TypeError(`receipts must answer "off", "optional" or "required", got ${JSON.stringify(answer)}`);
    }
    const policy = answer as CheckoutReceiptsPolicy;
    remember(this.#receiptsOf, invoice.id.toLowerCase(), policy, MAX_REMEMBERED_POLICIES);
    return policy;
  }

  /** The invoice's projection for this caller: bank names filled in, the receipt policy (asked, unless known) added. */
  async projected(invoice: Invoice, client: MerchantClient, request: Request, deadline: Deadline, known?: CheckoutReceiptsPolicy) {
    const policy = known ?? (await this.receiptsPolicy(invoice, request, deadline));
    const named = await this.withBankNames(invoice, client, deadline.upstream());
    return projectInvoice(named, { receipts: policy, receiptMaxBytes: this.receiptMaxBytes });
  }

  /** An answer of a state change about `id`: it must be that invoice, then every stream hears it and it is recorded. */
  changed(invoice: Invoice, client: MerchantClient, id: string, request: Request, source: string): Invoice {
    if (invoice.id.toLowerCase() !== id) {
      this.report(new Error(`${source} answered invoice ${invoice.id} for ${id}`), request, id);
      throw upstreamUnavailable();
    }
    this.events?.observe(invoice);
    this.record(invoice, client);
    return invoice;
  }

  /**
   * Records a state the proxy read or was answered, once per answer, through its one writer
   * (the kit's books or the store). Not recorded (the store away): the same answer read again
   * is recorded then, rather than taken as done.
   */
  record(invoice: Invoice, client: MerchantClient | undefined): void {
    if (this.#recorded.has(invoice)) return;
    this.#recorded.add(invoice);
    this.#record(invoice, client).catch((error: unknown) => {
      this.#recorded.delete(invoice);
      this.#storeFailed(error, invoice.id);
    });
  }

  /** The options of a call whose answer the proxy records itself (`changed`): the clients' observers are told `recorded`. */
  recordedCall(upstream: Deadline | RequestOptions): RequestOptions {
    const options: SharedReadOptions = { ...('upstream' in upstream ? upstream.upstream() : upstream), recorded: true };
    return options;
  }
}

/** One request a route serves: its invoice id (lower-case; `''` for `banks`), its time budget, and Hono's context (for a streamed answer). */
export interface RouteCall {
  readonly request: Request;
  readonly id: string;
  readonly budget: Budget;
  readonly c: Context;
}

/**
 * A route's handler (one file per route, src/server/proxy/routes/): its answer, a value sent as
 * JSON or a `Response`; a failure is thrown (a `CheckoutHttpError`, or anything the router
 * turns into a checkout error).
 */
export interface ProxyRoute {
  /** Whether this proxy serves the route (one turned off by an option answers 404 like an unknown path). Default: always. */
  readonly enabled?: (proxy: ProxyContext) => boolean;
  readonly serve: (proxy: ProxyContext, call: RouteCall) => Promise<unknown>;
}
