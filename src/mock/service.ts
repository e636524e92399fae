/**
 * `createMockService`: an in-process fake of the payment service's merchant API. Its `fetch`
 * serves `/api/merchant/*` (and the `/__mock/*` test controls when enabled), so it mounts in
 * any server that speaks Fetch, or on a port through `startMockServer`.
 */
import { createHash } from 'node:crypto';
import {
  CreateInvoiceRequestSchema,
  CreateWithdrawalRequestSchema,
  UUID_PATTERN,
  safeParse,
  type InvoiceLookup,
} from '../schemas/index.js';
import { verifySignature } from '../server/signing.js';
import {
  ACCOUNT_BALANCE,
  CANCEL_REQUIRES_ACTIVE_DEAL,
  CURRENCY_PATTERN,
  DEAL_STATUS,
  DISPUTE_NOT_SHOWN,
  FINAL_INVOICE_STATUSES,
  INJECTED_FAILURE_CODE,
  INJECTED_FAILURE_DEFAULT_STATUS,
  INTERNAL_ID_LOOKUP,
  INVOICE_FOLLOWS_DEAL_VARIANT,
  INVOICE_STATUS,
  INVOICE_TTL_MS,
  LIMITS,
  MALFORMED_BODY,
  SERVICE_FEE_PERCENT,
  SUCCESS_STATUS,
  WITHDRAWAL_ACCOUNT_MUST_BE_UUID,
  WITHDRAWAL_CURRENCY,
  WITHDRAWAL_FEE,
  WITHDRAWAL_TX_DELAY_MS,
  errorBody,
  subunitOf,
} from './assumptions.js';
import { handleControl } from './controls.js';
import {
  canceledInvoiceDto,
  dealRate,
  invoiceDto,
  withdrawalDto,
  type DealRecord,
  type InvoiceDto,
  type InvoiceRecord,
  type MerchantRecord,
  type WithdrawalRecord,
} from './dto.js';
import { MockControlError, MockHttpError, errorResponse, jsonResponse, mediaType, parseJson, readBodyText } from './http.js';
import { AmountError, money, percentOf, toMinor } from './money.js';
import {
  Notifier,
  defaultNotificationAllowed,
  defaultNotificationFetch,
  type NotificationRecord,
  type NotificationRetryOptions,
} from './notifier.js';
import { drawRequisites, drawVariants, type Random, type Variant } from './requisites.js';

/** The merchant API's path prefix under `{base_url}`. */
export const MOCK_API_PREFIX = '/api/merchant';
/** The prefix of the test controls; the real service has no such path. */
export const MOCK_CONTROL_PREFIX = '/__mock';

export interface MockMerchant {
  /** Sent by the merchant as `X-Identity`. */
  apiKey: string;
  /** Signs the merchant's requests. */
  secretKey: string;
  storeId: number;
  storeName: string;
  /** The account `GET /accounts` lists (default: a UUID derived from `apiKey`). */
  accountId?: string;
  /** `successUrl` of the cancel answer (default: the invoice page with `&result=success`). */
  successUrl?: string;
  /** `cancelUrl` of the cancel answer (default: the invoice page with `&result=cancel`). */
  cancelUrl?: string;
}

export interface MockServiceOptions {
  merchants: MockMerchant[];
  /** The `{base_url}` clients use; signatures are checked against `publicBaseUrl + path + query`. */
  publicBaseUrl: string;
  /** `invoiceUrl` is `${invoicePageUrl}?id=<id>` (default `${publicBaseUrl}/invoice`). */
  invoicePageUrl?: string;
  /** Serve the `/__mock/*` test controls (default false). */
  controls?: boolean;
  /** The clock, in ms since the epoch (default `Date.now`). */
  now?: () => number;
  /** `expireAt = createdAt + invoiceTtlMs` (default 30 minutes). */
  invoiceTtlMs?: number;
  /** Source of randomness for variants and requisites (default `Math.random`); ids are always random UUIDs. */
  random?: Random;
  /** Attempts and backoff of status notifications. */
  notificationRetry?: NotificationRetryOptions;
  /** Sends a notification (default: the global `fetch`); e.g. a `createNotificationHandler` in-process. */
  notificationFetch?: (request: Request) => Promise<Response>;
  /** Which `notificationUrl`s are called (default: loopback hosts only; the rest are recorded as `skipped`). */
  notificationAllowed?: (url: URL) => boolean;
  /** A withdrawal's `txId` appears this long after creation (default 5000 ms). */
  withdrawalTxDelayMs?: number;
  /** Largest request body in bytes (default 64 KiB). */
  maxBodyBytes?: number;
  /** When set, withdrawals need exactly this `code2FA` (else 403); by default any non-empty code passes. */
  code2FA?: string;
}

export interface MockRequestRecord {
  method: string;
  /** From `/api/merchant` on, without the query. */
  path: string;
  /** The status answered; 0 while unanswered (a hanging request). */
  status: number;
}

/** Every method is a closure: pass `service.fetch` (or any other) around unbound. */
export interface MockService {
  /** Serves `/api/merchant/*` (and `/__mock/*` when `controls` is on); mount it in any Fetch server. */
  fetch(this: void, request: Request): Promise<Response>;
  /** Every `/api/merchant` request received, in order. */
  readonly requests: readonly MockRequestRecord[];
  /** Every notification sent or skipped, with its attempts. */
  readonly notifications: readonly NotificationRecord[];
  /** The payer paid: `new` → `paid`; the active deal becomes `completed` and inactive. */
  markPaid(this: void, invoiceId: string): void;
  /** Expires now: `new` → `expired`; the active deal becomes `canceled` and inactive. */
  expire(this: void, invoiceId: string): void;
  /** Starts a deal on a `new` pay-in without an active deal; the variant defaults as at creation. */
  startDeal(this: void, invoiceId: string, variant?: { option?: string; method?: string }): void;
  /** Adds this much delay before every API answer (0 removes it). */
  setLatency(this: void, ms: number): void;
  /** The next `count` API requests are answered with `status` (default 500) and a JSON error. */
  failNext(this: void, count: number, status?: number): void;
  /** The next `count` API requests never answer, until their request's signal aborts or `close()`. */
  hangNext(this: void, count: number): void;
  /** The next `count` API answers are 200 with broken JSON. */
  malformNext(this: void, count: number): void;
  /** Clears pending faults and latency. */
  reset(this: void): void;
  /** Stops every timer, notification and hanging request; later requests are answered 503. */
  close(this: void): void;
  /** An invoice in its lookup form (as `getInvoiceByInternalId` answers), or undefined. */
  getInvoice(this: void, invoiceId: string): InvoiceLookup | undefined;
  /** Every invoice (lookup form), oldest first. */
  listInvoices(this: void): InvoiceLookup[];
  /** A withdrawal in its lookup form, or undefined. */
  getWithdrawal(this: void, withdrawalId: string): ReturnType<typeof withdrawalDto> | undefined;
  /** Applies what the clock says is due (expiries); done before every request anyway. */
  sweep(this: void): void;
  /** Resolves once every notification is delivered, has failed for good, or was canceled. */
  notificationsSettled(this: void): Promise<void>;
}

const uuidFrom = (text: string): string => {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

const randomHex = (bytes: number): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) => byte.toString(16).padStart(2, '0')).join('');

const MAX_TIMER_MS = 2 ** 31 - 1;

/** Where a prefix starts in `path` as whole segments, or -1. */
const prefixAt = (path: string, prefix: string): number => {
  let from = 0;
  for (;;) {
    const at = path.indexOf(prefix, from);
    if (at < 0) return -1;
    const after = path[at + prefix.length];
    if (after === undefined || after === '/') return at;
    from = at + 1;
  }
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

const checkCount = (name: string, count: number): number => {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`${name}: count must be a non-negative integer, got ${count}`);
  return count;
};

export const createMockService = (options: MockServiceOptions): MockService => {
  const publicBaseUrl = normaliseBase(options.publicBaseUrl, 'publicBaseUrl');
  const invoicePageUrl = options.invoicePageUrl ? normaliseBase(options.invoicePageUrl, 'invoicePageUrl') : `${publicBaseUrl}/invoice`;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const invoiceTtlMs = options.invoiceTtlMs ?? INVOICE_TTL_MS;
  const withdrawalTxDelayMs = options.withdrawalTxDelayMs ?? WITHDRAWAL_TX_DELAY_MS;
  const maxBodyBytes = options.maxBodyBytes ?? LIMITS.maxBodyBytes;
  const controlsEnabled = options.controls ?? false;

  const merchants = new Map<string, MerchantRecord>();
  for (const merchant of options.merchants ?? []) {
    if (!merchant.apiKey || !merchant.secretKey) throw new TypeError('createMockService: every merchant needs apiKey and secretKey');
    if (merchants.has(merchant.apiKey)) throw new TypeError(`createMockService: two merchants share the apiKey ${merchant.apiKey}`);
    merchants.set(merchant.apiKey, {
      apiKey: merchant.apiKey,
      secretKey: merchant.secretKey,
      storeId: merchant.storeId,
      storeName: merchant.storeName,
      accountId: merchant.accountId ?? uuidFrom(`account:${merchant.apiKey}`),
      successUrl: merchant.successUrl,
      cancelUrl: merchant.cancelUrl,
    });
  }
  if (merchants.size === 0) throw new TypeError('createMockService: at least one merchant is needed');

  const invoices = new Map<string, InvoiceRecord>();
  const open = new Set<InvoiceRecord>();
  const withdrawals = new Map<string, WithdrawalRecord>();
  const requests: MockRequestRecord[] = [];
  const expiryTimers = new Map<InvoiceRecord, ReturnType<typeof setTimeout>>();
  const waits = new Set<{ cancel: (reason: Error) => void }>();
  const notifier = new Notifier({
    ...options.notificationRetry,
    fetch: options.notificationFetch ?? defaultNotificationFetch,
    allowed: options.notificationAllowed ?? defaultNotificationAllowed,
    now,
  });
  let closed = false;
  let latencyMs = 0;
  const faults: { kind: 'fail' | 'hang' | 'malform'; status: number }[] = [];

  // ── State transitions ──────────────────────────────────────────────────────────────

  const transition = (invoice: InvoiceRecord, status: string, at: number): void => {
    const previousStatus = invoice.status;
    invoice.status = status;
    invoice.updatedAt = at;
    if (FINAL_INVOICE_STATUSES.includes(status)) {
      open.delete(invoice);
      const timer = expiryTimers.get(invoice);
      if (timer) clearTimeout(timer);
      expiryTimers.delete(invoice);
    }
    notifier.send({
      url: invoice.notificationUrl,
      token: invoice.notificationToken,
      invoice: invoiceDto(invoice, 'lookup'),
      previousStatus,
    });
  };

  const expireInvoice = (invoice: InvoiceRecord, at: number): void => {
    for (const deal of invoice.deals) {
      if (!deal.isActive) continue;
      deal.isActive = false;
      deal.status = DEAL_STATUS.canceled;
      deal.canceledAt = at;
    }
    if (invoice.expireAt > at) invoice.expireAt = at;
    transition(invoice, INVOICE_STATUS.expired, at);
  };

  const sweep = (): void => {
    if (closed) return;
    const at = now();
    for (const invoice of [...open]) if (invoice.expireAt <= at) expireInvoice(invoice, invoice.expireAt);
  };

  const scheduleExpiry = (invoice: InvoiceRecord): void => {
    const timer = setTimeout(() => {
      expiryTimers.delete(invoice);
      if (!open.has(invoice)) return;
      // The clock may be a test's; only expire what it says is due, else look again later.
      if (now() >= invoice.expireAt) sweep();
      else scheduleExpiry(invoice);
    }, Math.min(Math.max(invoice.expireAt - now(), 0), MAX_TIMER_MS));
    timer.unref?.();
    expiryTimers.set(invoice, timer);
  };

  const createDeal = (invoice: InvoiceRecord, variant: Variant, at: number): DealRecord => {
    const generated = drawRequisites(variant, random, invoice.amountMinor, invoice.currency);
    const deal: DealRecord = {
      id: crypto.randomUUID(),
      type: invoice.type,
      status: DEAL_STATUS.waiting,
      paymentMethodName: generated.paymentMethodName,
      paymentMethod: variant.method,
      paymentOption: variant.option,
      requisites: generated.requisites,
      canceledAt: invoice.expireAt,
      rate: dealRate(invoice.currency),
      isActive: true,
      qrCodeLink: generated.qrCodeLink,
    };
    invoice.deals.push(deal);
    if (INVOICE_FOLLOWS_DEAL_VARIANT) {
      invoice.paymentMethod = variant.method;
      invoice.paymentOption = variant.option;
    }
    invoice.updatedAt = at;
    return deal;
  };

  /** The variant a deal uses: the one asked for, else one of the invoice's variants that fits what is known. */
  const chooseVariant = (invoice: InvoiceRecord, asked: { option?: string | null | undefined; method?: string | null | undefined }): Variant => {
    const option = asked.option ?? undefined;
    const method = asked.method ?? undefined;
    if (option && method) return { option, method };
    const fitting = invoice.variants.filter((v) => (!option || v.option === option) && (!method || v.method === method));
    const pool = fitting.length ? fitting : invoice.variants;
    return pool[Math.floor(random() * pool.length) % pool.length] ?? { option: option ?? 'TO_CARD', method: method ?? 'sberbank' };
  };

  const controlInvoice = (invoiceId: string): InvoiceRecord => {
    if (closed) throw new MockControlError(503, 'service_closed', 'the mock service is closed');
    sweep();
    const invoice = invoices.get(invoiceId);
    if (!invoice) throw new MockControlError(404, 'not_found', `no invoice ${invoiceId}`);
    return invoice;
  };

  const requireNew = (invoice: InvoiceRecord, action: string): void => {
    if (invoice.status !== INVOICE_STATUS.new) {
      throw new MockControlError(409, 'invalid_state', `cannot ${action}: invoice ${invoice.id} is ${invoice.status}`);
    }
  };

  // ── The merchant API ───────────────────────────────────────────────────────────────

  const authenticate = async (request: Request, apiPath: string, search: string, body: string): Promise<MerchantRecord> => {
    const identity = request.headers.get('x-identity');
    const signature = request.headers.get('x-signature');
    if (!identity) throw new MockHttpError('unauthorized', 'missing X-Identity header');
    if (!signature) throw new MockHttpError('unauthorized', 'missing X-Signature header');
    const merchant = merchants.get(identity);
    // Verify against a throwaway key for an unknown identity too, so both take the same time.
    const secretKey = merchant?.secretKey ?? `unknown:${identity}`;
    const signed = {
      method: request.method,
      url: `${publicBaseUrl}${apiPath}${search}`,
      body: mediaType(request) === 'application/json' && body !== '' ? body : undefined,
    };
    const valid = await verifySignature(signed, signature, secretKey);
    if (!merchant) throw new MockHttpError('unauthorized', 'unknown X-Identity');
    if (!valid) {
      throw new MockHttpError(
        'unauthorized',
        'X-Signature does not match: expected base64(HMAC-SHA1(secret, METHOD + full URL + JSON body)) over the URL ' +
          signed.url,
      );
    }
    return merchant;
  };

  const jsonBody = (request: Request, text: string): unknown => {
    if (mediaType(request) !== 'application/json') {
      throw new MockHttpError('unsupported_media_type', 'Content-Type must be application/json');
    }
    return parseJson(text);
  };

  const validation = (issues: { field: string; message: string }[]): MockHttpError =>
    new MockHttpError('validation_failed', issues.map((issue) => `${issue.field || '(root)'}: ${issue.message}`).join('; '), { issues });

  const ownInvoice = (merchant: MerchantRecord, id: string): InvoiceRecord => {
    const invoice = UUID_PATTERN.test(id) ? invoices.get(id.toLowerCase()) : undefined;
    if (!invoice || invoice.merchant !== merchant) throw new MockHttpError('not_found', `invoice ${id} not found`);
    return invoice;
  };

  const amountIn = (field: string, amount: string, subunit: number): bigint => {
    try {
      return toMinor(amount, subunit);
    } catch (error) {
      if (error instanceof AmountError) throw validation([{ field, message: error.message }]);
      throw error;
    }
  };

  const tooLong = (field: string, value: string | null | undefined, max: number) =>
    value != null && value.length > max ? [{ field, message: `must be at most ${max} characters` }] : [];

  const createInvoice = (merchant: MerchantRecord, body: unknown): Response => {
    const parsed = safeParse(CreateInvoiceRequestSchema, body);
    if (!parsed.success) throw validation(parsed.issues);
    const request = parsed.data;
    const issues = [
      ...(CURRENCY_PATTERN.test(request.currency)
        ? []
        : [{ field: 'currency', message: `must be a currency code like "RUB" (upper-case letters and digits), got ${JSON.stringify(request.currency)}` }]),
      ...tooLong('internalId', request.internalId, LIMITS.maxIdLength),
      ...tooLong('userId', request.userId, LIMITS.maxIdLength),
      ...tooLong('notificationToken', request.notificationToken, LIMITS.maxIdLength),
      ...tooLong('notificationUrl', request.notificationUrl, LIMITS.maxUrlLength),
    ];
    if (issues.length) throw validation(issues);
    const subunit = subunitOf(request.currency);
    const amountMinor = amountIn('amount', request.amount, subunit);
    const at = now();
    const id = crypto.randomUUID();
    const invoice: InvoiceRecord = {
      id,
      merchant,
      internalId: request.internalId ?? null,
      userId: request.userId ?? null,
      type: request.type,
      status: INVOICE_STATUS.new,
      paymentMethod: request.paymentMethod ?? null,
      paymentOption: request.paymentOption ?? null,
      paymentRequisites: request.paymentRequisites ?? null,
      currency: request.currency,
      subunit,
      amountMinor,
      settlement: null,
      createdAt: at,
      expireAt: at + invoiceTtlMs,
      updatedAt: at,
      invoiceUrl: `${invoicePageUrl}?id=${id}`,
      notificationUrl: request.notificationUrl,
      notificationToken: request.notificationToken,
      variants:
        request.type === 'out' && request.paymentMethod && request.paymentOption
          ? [{ option: request.paymentOption, method: request.paymentMethod }]
          : drawVariants(random, { method: request.paymentMethod, option: request.paymentOption ?? undefined }),
      deals: [],
    };
    if (request.startDeal === true) {
      createDeal(invoice, chooseVariant(invoice, { option: request.paymentOption, method: request.paymentMethod }), at);
    }
    invoices.set(id, invoice);
    open.add(invoice);
    scheduleExpiry(invoice);
    return jsonResponse(SUCCESS_STATUS, invoiceDto(invoice, 'create'));
  };

  const cancelInvoice = (merchant: MerchantRecord, id: string): Response => {
    const invoice = ownInvoice(merchant, id);
    if (invoice.status !== INVOICE_STATUS.new) {
      throw new MockHttpError('invalid_state', `invoice ${invoice.id} is ${invoice.status} and cannot be canceled`);
    }
    if (CANCEL_REQUIRES_ACTIVE_DEAL && !invoice.deals.some((deal) => deal.isActive)) {
      throw new MockHttpError('invalid_state', `invoice ${invoice.id} has no active deal to cancel`);
    }
    // The reference's cancel answer carries the invoice with an empty `deals` list.
    invoice.deals = [];
    transition(invoice, INVOICE_STATUS.canceled, now());
    return jsonResponse(SUCCESS_STATUS, canceledInvoiceDto(invoice));
  };

  const getByInternalId = (merchant: MerchantRecord, internalId: string): Response => {
    let found: InvoiceRecord | undefined;
    for (const invoice of invoices.values()) {
      if (invoice.merchant === merchant && invoice.internalId === internalId) {
        found = invoice;
        if (INTERNAL_ID_LOOKUP !== 'latest') break;
      }
    }
    if (!found) throw new MockHttpError('not_found', `no invoice with internalId ${JSON.stringify(internalId)}`);
    return jsonResponse(SUCCESS_STATUS, invoiceDto(found, 'lookup'));
  };

  const createWithdrawal = (merchant: MerchantRecord, body: unknown): Response => {
    const parsed = safeParse(CreateWithdrawalRequestSchema, body);
    if (!parsed.success) throw validation(parsed.issues);
    const request = parsed.data;
    const issues = [
      ...(!WITHDRAWAL_ACCOUNT_MUST_BE_UUID || UUID_PATTERN.test(request.accountId) ? [] : [{ field: 'accountId', message: `must be a UUID, got ${JSON.stringify(request.accountId.slice(0, 60))}` }]),
      ...tooLong('address', request.address, LIMITS.maxIdLength),
    ];
    if (issues.length) throw validation(issues);
    if (options.code2FA !== undefined && request.code2FA !== options.code2FA) {
      throw new MockHttpError('invalid_2fa', 'code2FA is not valid');
    }
    const subunit = subunitOf(WITHDRAWAL_CURRENCY);
    const amount = amountIn('amount', request.amount, subunit);
    const fee = toMinor(WITHDRAWAL_FEE, subunit);
    const sumMinor = request.substractFeeFromAmount === true ? amount - fee : amount;
    if (sumMinor <= 0n) {
      throw validation([{ field: 'amount', message: `must be greater than the fee (${WITHDRAWAL_FEE} ${WITHDRAWAL_CURRENCY}) when substractFeeFromAmount is true` }]);
    }
    const at = now();
    const withdrawal: WithdrawalRecord = {
      id: crypto.randomUUID(),
      merchant,
      accountId: request.accountId,
      currency: WITHDRAWAL_CURRENCY,
      subunit,
      sumMinor,
      feeMinor: fee,
      address: request.address,
      createdAt: at,
      txId: randomHex(32),
      txAt: at + withdrawalTxDelayMs,
    };
    withdrawals.set(withdrawal.id, withdrawal);
    return jsonResponse(SUCCESS_STATUS, withdrawalDto(withdrawal, 'create', at));
  };

  const getWithdrawal = (merchant: MerchantRecord, id: string): Response => {
    const withdrawal = UUID_PATTERN.test(id) ? withdrawals.get(id.toLowerCase()) : undefined;
    if (!withdrawal || withdrawal.merchant !== merchant) throw new MockHttpError('not_found', `withdrawal ${id} not found`);
    return jsonResponse(SUCCESS_STATUS, withdrawalDto(withdrawal, 'lookup', now()));
  };

  const methodNotAllowed = (allowed: string): MockHttpError =>
    new MockHttpError('method_not_allowed', `method not allowed here; use ${allowed}`, { headers: { allow: allowed } });

  const decodeSegment = (segment: string): string => {
    try {
      return decodeURIComponent(segment);
    } catch {
      throw new MockHttpError('not_found', 'malformed percent-encoding in the path');
    }
  };

  const route = async (request: Request, apiPath: string, search: string): Promise<Response> => {
    const text = await readBodyText(request, maxBodyBytes);
    const merchant = await authenticate(request, apiPath, search, text);
    const segments = apiPath.slice(MOCK_API_PREFIX.length).split('/').slice(1);
    const method = request.method.toUpperCase();
    const [first, second, third, ...rest] = segments;
    const only = (allowed: string) => {
      if (method !== allowed) throw methodNotAllowed(allowed);
    };

    if (first === 'invoices' && segments.length === 1) {
      only('POST');
      return createInvoice(merchant, jsonBody(request, text));
    }
    if (first === 'invoices' && second === 'internal-id' && third !== undefined && rest.length === 0 && third !== '') {
      only('GET');
      return getByInternalId(merchant, decodeSegment(third));
    }
    if (first === 'invoices' && second && third && rest.length === 0) {
      const id = decodeSegment(second);
      if (third === 'cancel') {
        only('POST');
        return cancelInvoice(merchant, id);
      }
      if (third === 'available-payment-variants') {
        only('GET');
        return jsonResponse(SUCCESS_STATUS, ownInvoice(merchant, id).variants.map((v) => ({ option: v.option, method: v.method })));
      }
      if (third === 'dispute') {
        only('POST');
        ownInvoice(merchant, id);
        throw new MockHttpError('not_implemented', DISPUTE_NOT_SHOWN);
      }
    }
    if (first === 'withdrawals' && segments.length === 1) {
      only('POST');
      return createWithdrawal(merchant, jsonBody(request, text));
    }
    if (first === 'withdrawals' && second && segments.length === 2) {
      only('GET');
      return getWithdrawal(merchant, decodeSegment(second));
    }
    if (first === 'accounts' && segments.length === 1) {
      only('GET');
      const subunit = subunitOf(WITHDRAWAL_CURRENCY);
      return jsonResponse(SUCCESS_STATUS, [
        {
          id: merchant.accountId,
          currency: WITHDRAWAL_CURRENCY,
          balance: money(toMinor(ACCOUNT_BALANCE, subunit), WITHDRAWAL_CURRENCY, subunit),
        },
      ]);
    }
    throw new MockHttpError('not_found', `no operation ${method} ${apiPath}`);
  };

  /** Waits `ms`, or rejects when the request is aborted or the service closes. */
  const wait = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const entry = {
        cancel: (reason: Error) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          waits.delete(entry);
          reject(reason);
        },
      };
      const onAbort = () => entry.cancel(signal?.reason instanceof Error ? signal.reason : new Error('request aborted'));
      const timer =
        ms === Infinity
          ? undefined
          : setTimeout(() => {
              signal?.removeEventListener('abort', onAbort);
              waits.delete(entry);
              resolve();
            }, ms);
      waits.add(entry);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });

  const serveApi = async (request: Request, apiPath: string, search: string): Promise<Response> => {
    const record: MockRequestRecord = { method: request.method.toUpperCase(), path: apiPath, status: 0 };
    requests.push(record);
    const answer = (response: Response): Response => {
      record.status = response.status;
      return response;
    };
    if (latencyMs > 0) await wait(latencyMs, request.signal);
    const fault = faults.shift();
    if (fault?.kind === 'hang') {
      await wait(Infinity, request.signal);
    }
    if (fault?.kind === 'fail') {
      await readBodyText(request, maxBodyBytes).catch(() => '');
      return answer(jsonResponse(fault.status, errorBody(INJECTED_FAILURE_CODE, `failure injected by the mock's failNext control (HTTP ${fault.status})`)));
    }
    if (fault?.kind === 'malform') {
      await readBodyText(request, maxBodyBytes).catch(() => '');
      return answer(new Response(MALFORMED_BODY, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } }));
    }
    try {
      return answer(await route(request, apiPath, search));
    } catch (error) {
      if (error instanceof MockHttpError) return answer(errorResponse(error));
      throw error;
    }
  };

  // ── The public object ──────────────────────────────────────────────────────────────

  const service: MockService = {
    requests,
    notifications: notifier.records,

    fetch: async (request: Request): Promise<Response> => {
      if (closed) return errorResponse(new MockHttpError('service_closed', 'the mock service is closed'));
      sweep();
      const url = new URL(request.url);
      const path = url.pathname;
      const apiAt = prefixAt(path, MOCK_API_PREFIX);
      const controlAt = controlsEnabled ? prefixAt(path, MOCK_CONTROL_PREFIX) : -1;
      if (controlAt >= 0 && (apiAt < 0 || controlAt < apiAt)) {
        return handleControl(service, request, path.slice(controlAt + MOCK_CONTROL_PREFIX.length), maxBodyBytes);
      }
      if (apiAt >= 0) return serveApi(request, path.slice(apiAt), url.search);
      return errorResponse(new MockHttpError('not_found', `nothing at ${path}; the merchant API is under ${MOCK_API_PREFIX}`));
    },

    markPaid: (invoiceId) => {
      const invoice = controlInvoice(invoiceId);
      requireNew(invoice, 'mark paid');
      const at = now();
      for (const deal of invoice.deals) {
        if (!deal.isActive) continue;
        deal.isActive = false;
        deal.status = DEAL_STATUS.completed;
      }
      const fee = percentOf(invoice.amountMinor, SERVICE_FEE_PERCENT);
      invoice.settlement = { received: invoice.amountMinor, fee, payout: invoice.amountMinor - fee };
      transition(invoice, INVOICE_STATUS.paid, at);
    },

    expire: (invoiceId) => {
      const invoice = controlInvoice(invoiceId);
      requireNew(invoice, 'expire');
      expireInvoice(invoice, now());
    },

    startDeal: (invoiceId, variant = {}) => {
      const invoice = controlInvoice(invoiceId);
      requireNew(invoice, 'start a deal');
      if (invoice.type !== 'in') throw new MockControlError(409, 'invalid_state', 'deals start only on pay-in (type "in") invoices');
      if (invoice.deals.some((deal) => deal.isActive)) {
        throw new MockControlError(409, 'invalid_state', `invoice ${invoice.id} already has an active deal`);
      }
      createDeal(
        invoice,
        chooseVariant(invoice, {
          option: variant.option ?? (variant.method ? undefined : invoice.paymentOption),
          method: variant.method ?? (variant.option ? undefined : invoice.paymentMethod),
        }),
        now(),
      );
    },

    setLatency: (ms) => {
      if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError(`setLatency: ms must be a finite number ≥ 0, got ${ms}`);
      latencyMs = ms;
    },

    failNext: (count, status = INJECTED_FAILURE_DEFAULT_STATUS) => {
      if (!Number.isInteger(status) || status < 400 || status > 599) {
        throw new RangeError(`failNext: status must be an HTTP error status (400–599), got ${status}`);
      }
      for (let i = 0; i < checkCount('failNext', count); i++) faults.push({ kind: 'fail', status });
    },

    hangNext: (count) => {
      for (let i = 0; i < checkCount('hangNext', count); i++) faults.push({ kind: 'hang', status: 0 });
    },

    malformNext: (count) => {
      for (let i = 0; i < checkCount('malformNext', count); i++) faults.push({ kind: 'malform', status: 200 });
    },

    reset: () => {
      faults.length = 0;
      latencyMs = 0;
    },

    close: () => {
      if (closed) return;
      closed = true;
      faults.length = 0;
      latencyMs = 0;
      for (const timer of expiryTimers.values()) clearTimeout(timer);
      expiryTimers.clear();
      for (const entry of [...waits]) entry.cancel(new Error('mock service closed'));
      notifier.close();
    },

    getInvoice: (invoiceId) => {
      sweep();
      const invoice = invoices.get(invoiceId.toLowerCase());
      return invoice ? invoiceDto(invoice, 'lookup') : undefined;
    },

    listInvoices: () => {
      sweep();
      return [...invoices.values()].map((invoice): InvoiceDto => invoiceDto(invoice, 'lookup'));
    },

    getWithdrawal: (withdrawalId) => {
      const withdrawal = withdrawals.get(withdrawalId.toLowerCase());
      return withdrawal ? withdrawalDto(withdrawal, 'lookup', now()) : undefined;
    },

    sweep,

    notificationsSettled: () => notifier.settled(),
  };
  return service;
};

