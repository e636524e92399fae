/**
 * `createMockService`: an in-process fake of the payment service. It composes the parts, each
 * importing only those before it: options → clock/random/banks → store → dto/quirks →
 * notifier/faults → api/public-api → pipeline → controls → app → this module. Its `fetch` is
 * the Hono app's: it serves `/api/merchant/*`, `/api/public/*` and (with `controls`)
 * `/__mock/*`, so it mounts in any server that speaks Fetch, or on a port through
 * `startMockServer`.
 */
import type { ApiEnv } from './api.js';
import { MockClock } from './clock.js';
import { CONTROL_PREFIX, createMockApp } from './app.js';
import { CONTROL_ROUTES, type ControlTarget } from './controls.js';
import type { DisputeResult } from '../schemas/dispute.js';
import { accountDto, invoiceDto, notificationInvoiceDto, withdrawalDto, type AccountDto, type DtoOptions, type InvoiceDto } from './dto.js';
import { MockControlError, invalidField } from './errors.js';
import { Faults, type FaultScope } from './faults.js';
import { dumpState, loadFixtures, type MockFixtures } from './fixtures.js';
import { merchantRecords } from './merchants.js';
import { moneyControls, type MockDisputeOpening } from './money-controls.js';
import { Notifier, type NotificationRecord } from './notifier.js';
import {
  DEFAULTS,
  isLoopbackUrl,
  type MockClockOptions,
  type MockMerchant,
  type MockRefusal,
  type MockServiceOptions,
  type NotificationRetryOptions,
} from './options.js';
import { checkOptions, type OptionShapeOf } from '../server/options-check.js';
import { MERCHANT_PREFIX, type MockRequestRecord } from './pipeline.js';
import { createQuirks, plainRender, type Quirks } from './quirks.js';
import { hash32, seededRandom, uuidFrom } from './random.js';
import type { InvoiceRecord, InvoiceStatus } from './records.js';
import { Store } from './store.js';
import { isoWithOffset, parseInstant } from './time.js';

export { CONTROL_ROUTES };
export type { MockDisputeOpening } from './money-controls.js';

/** The merchant API's path prefix under `{base_url}`. */
export const MOCK_API_PREFIX = MERCHANT_PREFIX;
/** The prefix of the test controls; the real service has no such path. */
export const MOCK_CONTROL_PREFIX = CONTROL_PREFIX;

/** Every method is a closure: pass `service.fetch` (or any other) around unbound. */
export interface MockService extends ControlTarget {
  /** Answers one request: the merchant API, the public API and (with `controls`) `/__mock/*`. */
  fetch(this: void, request: Request): Promise<Response>;
  /** Every API request received, in order (method, path, query, headers, body, status). */
  readonly requests: readonly MockRequestRecord[];
  /** Every notification sent or skipped, with its attempts. */
  readonly notifications: readonly NotificationRecord[];
  /** The payer paid (or a pay-out was sent): `new` (or `dispute`, accepted) → `paid`; the active deal becomes `completed`. */
  markPaid(this: void, invoiceId: string): void;
  /** Expires now: `new` → `expired`; the active deal becomes `expired`. */
  expire(this: void, invoiceId: string): void;
  /** Starts a deal on a `new` pay-in without an active deal (the payer's choice; no checks of the codes). */
  startDeal(this: void, invoiceId: string, variant?: { option?: string; method?: string }): void;
  /** The payer confirmed the transfer: the active deal becomes `transfer_confirmed`. */
  confirmTransfer(this: void, invoiceId: string): void;
  /**
   * Opens a dispute on the service's side (the trader, or the payer through support) on the
   * latest deal of a `new`, `paid`, `expired` or `canceled` pay-in (default reason `no_payment`;
   * `invalid_sum` with the `amount` the payer says was sent).
   */
  openDispute(this: void, invoiceId: string, dispute?: MockDisputeOpening): void;
  /**
   * The service decides a dispute: a successful result (`ACCEPTED`, `AMOUNT_CHANGED` with the
   * settled `amount`) makes the invoice `paid`, a failed one `canceled` (src/mock/README.md,
   * "Choices"). The older `'paid'` / `'canceled'` stand for `ACCEPTED` / `UNKNOWN`.
   */
  resolveDispute(this: void, invoiceId: string, result: DisputeResult | 'paid' | 'canceled', amount?: string): void;
  /** The service corrects a paid pay-in's amount (decimal text): new sums, a later `updatedAt`, and a second `paid` notification. */
  correctAmount(this: void, invoiceId: string, amount: string): void;
  /**
   * The shop's server is down for `durationMs` of mock time: every notification attempt in that
   * window fails as if it did not answer (the documented retries run out past two minutes); 0
   * ends it. Answers when it ends (ISO 8601).
   */
  notificationOutage(this: void, durationMs: number): { until: string };
  /** These bank codes (`*`: all) have no free requisites from now on; `[]` frees them all. */
  setNoRequisites(this: void, methods: readonly string[]): void;
  /** Waits this many milliseconds before every API answer; 0 for none. */
  setLatency(this: void, ms: number): void;
  /**
   * Answers the next `count` API requests with an error of this status (default 500); with
   * `scope.invoiceId`, the next `count` requests about that invoice only.
   */
  failNext(this: void, count: number, status?: number, scope?: FaultScope): void;
  /** Never answers the next `count` API requests (of `scope`, as in failNext) until they abort or the mock closes. */
  hangNext(this: void, count: number, scope?: FaultScope): void;
  /** Answers the next `count` API requests (of `scope`, as in failNext) with JSON cut in the middle. */
  malformNext(this: void, count: number, scope?: FaultScope): void;
  /** Clears pending faults and latency. */
  reset(this: void): void;
  /** Moves the mock's clock on: expiries and notification retries that fall due run now; resolves when their attempts finished. */
  advanceClock(this: void, ms: number): Promise<void>;
  /** The mock's time (ISO 8601). */
  now(this: void): string;
  /** The state in the fixtures format (the `fixtures` option reads it back). */
  dump(this: void): MockFixtures;
  /** Stops every timer, notification and hanging request; later requests are answered 503. */
  close(this: void): void;
  /** An invoice as the API would answer it, without a request; undefined when unknown. */
  getInvoice(this: void, invoiceId: string): InvoiceDto | undefined;
  /** Every invoice, as the API would answer each. */
  listInvoices(this: void): InvoiceDto[];
  /** The accounts of a terminal (default the first), as `GET /accounts` answers them. */
  listAccounts(this: void, apiKey?: string): AccountDto[];
  /** A withdrawal as the API would answer it; undefined when unknown. */
  getWithdrawal(this: void, withdrawalId: string): ReturnType<typeof withdrawalDto> | undefined;
  /** Applies what the clock says is due (expiries); done before every request anyway. */
  sweep(this: void): void;
  /** Resolves once every notification is delivered, has failed for good, or was canceled. */
  notificationsSettled(this: void): Promise<void>;
  /** Resolves once no notification attempt is in flight (retries may still be scheduled). */
  notificationsIdle(this: void): Promise<void>;
}

/** The longest outage of the shop's server a control sets: a week of mock time. */
const MAX_OUTAGE_MS = 7 * 86_400_000;

const outageMs = (durationMs: unknown): number => {
  if (typeof durationMs !== 'number' || !Number.isFinite(durationMs) || durationMs < 0 || durationMs > MAX_OUTAGE_MS) {
    throw invalidField('durationMs', `must be a number of milliseconds from 0 to ${MAX_OUTAGE_MS}, got ${JSON.stringify(durationMs)}`);
  }
  return durationMs;
};

const normaliseBase = (value: string, name: string): string => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`createMockService: ${name} must be an absolute URL, got ${JSON.stringify(value)}`);
  }
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '');
};

/**
 * The notifier, and what the store calls on each reported change: the documented body (or the
 * older one), a snapshot at the change, sent with the invoice's token.
 */
const notifications = (options: MockServiceOptions, clock: MockClock, dto: DtoOptions, quirks: Quirks) => {
  const format = options.notificationFormat ?? DEFAULTS.notificationFormat;
  const notifier = new Notifier({
    retry: options.notificationRetry,
    fetch: options.notificationFetch ?? ((request) => fetch(request)),
    allowed: options.notificationAllowed ?? isLoopbackUrl,
    clock,
    delivered: format === 'legacy' ? (status) => status >= 200 && status < 300 : (status) => status === 200,
  });
  const notify = (invoice: InvoiceRecord, previousStatus: InvoiceStatus): void => {
    // A revision's `updatedAt` may be a second ahead of a frozen clock; its notification is not older.
    const changedAt = Math.max(clock.now(), invoice.updatedAt);
    const documented = {
      notificationType: 'invoice',
      notificationDate: isoWithOffset(changedAt, dto.utcOffsetMinutes),
      invoice: notificationInvoiceDto(invoice, dto),
    };
    const lookup = invoiceDto(invoice, dto);
    notifier.send({
      record: {
        invoiceId: invoice.id,
        url: invoice.notificationUrl,
        event: format === 'legacy' ? 'invoice.status_changed' : 'invoice',
        previousStatus,
        status: invoice.status,
        state: 'pending',
        attempts: [],
      },
      token: invoice.notificationToken,
      body: (at) =>
        format === 'legacy'
          ? JSON.stringify({
              event: 'invoice.status_changed',
              invoice: lookup,
              previousStatus,
              sentAt: isoWithOffset(at, dto.utcOffsetMinutes),
            })
          : quirks.render(documented, 'notification'),
    });
  };
  return { notifier, notify };
};

/** A fault's scope as given: only a non-empty `invoiceId` narrows it. */
const scoped = (scope: FaultScope | undefined): FaultScope => {
  if (scope?.invoiceId === undefined) return {};
  if (typeof scope.invoiceId !== 'string' || scope.invoiceId === '')
    throw new RangeError('a fault scope: invoiceId must be a non-empty string');
  return { invoiceId: scope.invoiceId };
};

/** The controls that make the next answers fail, hang, come malformed or late. */
const faultControls = (faults: Faults): Pick<MockService, 'setLatency' | 'failNext' | 'hangNext' | 'malformNext' | 'reset'> => ({
  setLatency: (ms) => faults.setLatency(ms),
  failNext: (count, status = 500, scope) => {
    if (!Number.isInteger(status) || status < 400 || status > 599)
      throw new RangeError(`failNext: status must be an HTTP error status (400–599), got ${status}`);
    faults.push('failNext', count, { kind: 'fail', status, ...scoped(scope) });
  },
  hangNext: (count, scope) => faults.push('hangNext', count, { kind: 'hang', ...scoped(scope) }),
  malformNext: (count, scope) => faults.push('malformNext', count, { kind: 'malform', ...scoped(scope) }),
  reset: () => faults.reset(),
});

/** The keys of a `merchants` entry (options-check.ts). */
const MOCK_MERCHANT_OPTIONS = {
  apiKey: true,
  secretKey: true,
  storeId: true,
  storeName: true,
  accountId: true,
  successUrl: true,
  cancelUrl: true,
  payIn: true,
  payOut: true,
  twoFactorEnabled: true,
  balance: true,
} as const satisfies OptionShapeOf<MockMerchant>;

/**
 * The keys `createMockService` takes (options-check.ts). `amountLimits` and `rates` are keyed
 * by currency, so their keys are not checked.
 */
export const MOCK_SERVICE_OPTIONS = {
  merchants: [MOCK_MERCHANT_OPTIONS],
  publicBaseUrl: true,
  invoicePageUrl: true,
  controls: true,
  now: true,
  clock: { start: true, frozen: true } satisfies OptionShapeOf<MockClockOptions>,
  seed: true,
  random: true,
  quirks: true,
  fixtures: true,
  invoiceTtlMs: true,
  dealTtlMs: { min: true, max: true } satisfies OptionShapeOf<NonNullable<MockServiceOptions['dealTtlMs']>>,
  amountLimits: true,
  cancelWithoutDeal: { status: true, message: true } satisfies OptionShapeOf<MockRefusal>,
  noRequisites: true,
  paymentMethodName: true,
  dealIdIsInvoiceId: true,
  hostedPageRoutes: true,
  notificationFormat: true,
  errorFormat: true,
  notificationRetry: {
    attempts: true,
    intervalMs: true,
    baseDelayMs: true,
    maxDelayMs: true,
    timeoutMs: true,
  } satisfies OptionShapeOf<NotificationRetryOptions>,
  notificationFetch: true,
  notificationAllowed: true,
  utcOffsetMinutes: true,
  withdrawalTxDelayMs: true,
  maxBodyBytes: true,
  maxUploadBytes: true,
  bodyTimeoutMs: true,
  code2FA: true,
  serviceFeePercent: true,
  rates: true,
} as const satisfies OptionShapeOf<MockServiceOptions>;

export const createMockService = (options: MockServiceOptions): MockService => {
  checkOptions('createMockService', options, MOCK_SERVICE_OPTIONS);
  const publicBaseUrl = normaliseBase(options.publicBaseUrl, 'publicBaseUrl');
  const invoicePageUrl = options.invoicePageUrl ? normaliseBase(options.invoicePageUrl, 'invoicePageUrl') : `${publicBaseUrl}/invoice`;
  const seed = options.seed;
  const random = options.random ?? (seed === undefined ? Math.random : seededRandom(seed));
  const idRandom = seed === undefined ? undefined : seededRandom(hash32(`${seed}:ids`));
  const newId = () => (idRandom ? uuidFrom(idRandom) : crypto.randomUUID());
  const start = options.clock?.start === undefined ? undefined : parseInstant(options.clock.start);
  if (start !== undefined && Number.isNaN(start)) throw new TypeError('createMockService: clock.start must be a timestamp');
  const clock = new MockClock(options.now ?? Date.now, {
    ...(start === undefined ? {} : { start }),
    frozen: options.clock?.frozen ?? false,
  });
  const quirkSeed = options.quirks === true ? (seed ?? 1) : typeof options.quirks === 'number' ? options.quirks : undefined;
  const quirks = quirkSeed === undefined ? plainRender : createQuirks(quirkSeed);
  const dto = {
    utcOffsetMinutes: options.utcOffsetMinutes ?? DEFAULTS.utcOffsetMinutes,
    paymentMethodName: options.paymentMethodName ?? DEFAULTS.paymentMethodName,
  };
  const maxUploadBytes = options.maxUploadBytes ?? DEFAULTS.maxUploadBytes;
  const rates = { ...DEFAULTS.rates, ...options.rates };
  const invoiceTtlMs = options.invoiceTtlMs ?? DEFAULTS.invoiceTtlMs;

  const merchants = merchantRecords(options.merchants ?? []);

  const { notifier, notify } = notifications(options, clock, dto, quirks);
  const store = new Store({
    clock,
    random,
    newId,
    baseUrl: publicBaseUrl,
    dealTtlMs: options.dealTtlMs ?? DEFAULTS.dealTtlMs,
    serviceFeePercent: options.serviceFeePercent ?? DEFAULTS.serviceFeePercent,
    dealIdIsInvoiceId: options.dealIdIsInvoiceId ?? false,
    noRequisites: options.noRequisites ?? [],
    onChange: notify,
  });
  if (options.fixtures !== undefined) {
    const loaded = loadFixtures(options.fixtures, { merchants, now: clock.now(), newId, invoicePageUrl, invoiceTtlMs, rates });
    for (const invoice of loaded.invoices) store.add(invoice);
    for (const withdrawal of loaded.withdrawals) store.withdrawals.set(withdrawal.id, withdrawal);
  }
  const env: ApiEnv = {
    store,
    dto,
    quirks,
    random,
    invoicePageUrl,
    invoiceTtlMs,
    amountLimits: { ...DEFAULTS.amountLimits, ...options.amountLimits },
    cancelWithoutDeal: options.cancelWithoutDeal ?? DEFAULTS.cancelWithoutDeal,
    hostedPageRoutes: options.hostedPageRoutes ?? DEFAULTS.hostedPageRoutes,
    code2FA: options.code2FA,
    withdrawalTxDelayMs: options.withdrawalTxDelayMs ?? DEFAULTS.withdrawalTxDelayMs,
    maxUploadBytes,
    rates,
  };
  const faults = new Faults();
  const requests: MockRequestRecord[] = [];
  let closed = false;

  const control = (invoiceId: string): InvoiceRecord => {
    if (closed) throw new MockControlError(503, 'service_closed', 'the mock service is closed');
    store.sweep();
    return store.invoice(invoiceId);
  };

  const service: MockService = {
    requests,
    notifications: notifier.records,
    fetch: async (request) => app.fetch(request),
    markPaid: (id) => store.markPaid(control(id)),
    expire: (id) => store.expire(control(id)),
    startDeal: (id, variant = {}) => {
      const invoice = control(id);
      const asked = {
        option: variant.option ?? (variant.method ? undefined : invoice.paymentOption),
        method: variant.method ?? (variant.option ? undefined : invoice.paymentMethod),
      };
      if (!store.startDeal(invoice, asked)) throw new MockControlError(400, 'payment_method_not_available', 'PAYMENT_METHOD_NOT_AVAILABLE');
    },
    confirmTransfer: (id) => void store.confirmTransfer(control(id), null),
    ...moneyControls(store, control),
    notificationOutage: (durationMs) => {
      if (closed) throw new MockControlError(503, 'service_closed', 'the mock service is closed');
      const until = clock.now() + outageMs(durationMs);
      notifier.outage(until);
      return { until: isoWithOffset(until, dto.utcOffsetMinutes) };
    },
    setNoRequisites: (methods) => {
      store.noRequisites.clear();
      for (const method of methods) store.noRequisites.add(method);
    },
    ...faultControls(faults),
    advanceClock: async (ms) => {
      await clock.advance(ms);
      store.sweep();
      await notifier.idle();
    },
    now: () => isoWithOffset(clock.now(), dto.utcOffsetMinutes),
    dump: () => dumpState(store.invoices.values(), store.withdrawals.values(), merchants.values()),
    close: () => {
      if (closed) return;
      closed = true;
      faults.close();
      clock.close();
      notifier.close();
    },
    getInvoice: (id) => {
      store.sweep();
      const invoice = store.invoices.get(id.toLowerCase());
      return invoice && invoiceDto(invoice, dto);
    },
    listInvoices: () => (store.sweep(), [...store.invoices.values()].map((invoice) => invoiceDto(invoice, dto))),
    listAccounts: (apiKey = [...merchants.keys()][0]!) => {
      const merchant = merchants.get(apiKey);
      if (!merchant) throw new MockControlError(404, 'not_found', `no terminal ${apiKey}`);
      return [accountDto(merchant, store.frozen(merchant))];
    },
    getWithdrawal: (id) => {
      const withdrawal = store.withdrawals.get(id.toLowerCase());
      return withdrawal && withdrawalDto(withdrawal, dto, 'lookup', clock.now());
    },
    sweep: () => {
      if (!closed) store.sweep();
    },
    notificationsSettled: () => notifier.settled(),
    notificationsIdle: () => notifier.idle(),
  };
  const app = createMockApp({
    env,
    merchants,
    publicBaseUrl,
    faults,
    errorFormat: options.errorFormat ?? DEFAULTS.errorFormat,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    maxMultipartBytes: maxUploadBytes + DEFAULTS.multipartOverheadBytes,
    bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULTS.bodyTimeoutMs,
    log: requests,
    controls: options.controls ? service : undefined,
    isClosed: () => closed,
    sweep: () => store.sweep(),
  });
  return service;
};
