/**
 * The one options object of `createMockService`, with the defaults. Every behaviour the
 * service's documentation does not show is a field here; the default is the documented
 * choice where there is one, else the reason is given beside it (and in README.md).
 *
 * Imports nothing of the mock: every other module may import this one.
 */

/** One terminal of a shop: an API key with its secret (several keys may share a secret). */
export interface MockMerchant {
  /** Sent by the merchant as `X-Identity`. */
  apiKey: string;
  /** Signs the merchant's requests; several terminals may share one. */
  secretKey: string;
  /** The `storeId` of this terminal's invoices. */
  storeId: number;
  /** The `storeName` of this terminal's invoices. */
  storeName: string;
  /** The account `GET /accounts` lists (default: a UUID derived from `apiKey`). */
  accountId?: string;
  /** Default `successUrl` of its invoices when the create request has none. */
  successUrl?: string;
  /** Default `cancelUrl` of its invoices when the create request has none. */
  cancelUrl?: string;
  /** false: pay-in invoices are refused with 404 `Pay in disabled` (default true). */
  payIn?: boolean;
  /** false: pay-out invoices are refused with 404 `Pay out disabled` (default true). */
  payOut?: boolean;
  /** false: withdrawals are refused with 400 `2FA should be enabled for this operation` (default true). */
  twoFactorEnabled?: boolean;
  /** Balance of its account, decimal text in the withdrawal currency (default "10000"). */
  balance?: string;
}

/** The smallest and largest invoice amount of a currency. */
export interface AmountLimit {
  /** Smallest invoice amount, decimal text. */
  min: string;
  /** Largest invoice amount, decimal text. */
  max: string;
}

/** When the mock sends a notification again after a failed attempt. */
export interface NotificationRetryOptions {
  /** Attempts in all, the first one included (default 3: "retried twice more"). */
  attempts?: number;
  /** Wait between two attempts (default 60 000 ms, documented). */
  intervalMs?: number;
  /** When set, the wait starts here and doubles after each attempt (older behaviour of the mock). */
  baseDelayMs?: number;
  /** Longest wait with `baseDelayMs` (default 30 000 ms). */
  maxDelayMs?: number;
  /** An attempt with no complete answer after this long has failed (default 10 000 ms). */
  timeoutMs?: number;
}

/** The mock's clock: where it starts and whether it moves by itself. */
export interface MockClockOptions {
  /** The clock's start (ms since the epoch or ISO 8601); default the `now` option's time. */
  start?: number | string;
  /** true: time moves only by `advanceClock` (deterministic runs); default false. */
  frozen?: boolean;
}

/** A reply a refused operation gets: an HTTP status and the error message. */
export interface MockRefusal {
  /** The HTTP status of the refusal. */
  status: number;
  /** The error message, written in the configured error format. */
  message: string;
}

/**
 * Options of {@link createMockService}. Each behaviour the service's documentation does not
 * show is one of these, with the default in {@link MOCK_DEFAULTS}; the CLI sets them by flags
 * (docs/api/mock-cli.md).
 */
export interface MockServiceOptions {
  /** The merchants (terminals) the mock knows: each an API key, its secret and its store. */
  merchants: MockMerchant[];
  /** The `{base_url}` clients use; signatures are checked against `publicBaseUrl + path + query`. */
  publicBaseUrl: string;
  /** `invoiceUrl` is `${invoicePageUrl}?id=<id>` (default `${publicBaseUrl}/invoice`). */
  invoicePageUrl?: string;
  /** Serve the `/__mock/*` test controls (default false). */
  controls?: boolean;
  /** The time source, ms since the epoch (default `Date.now`); `advanceClock` adds to it. */
  now?: () => number;
  /** Start and mode of the mock's clock. */
  clock?: MockClockOptions;
  /** Seed of ids, requisites, variants and quirks; without it they are random. */
  seed?: number;
  /** Source of randomness (default: seeded by `seed`, else `Math.random`). */
  random?: () => number;
  /** Vary answers over every shape the documentation permits: true, or a seed (default off). */
  quirks?: boolean | number;
  /** Invoices (and withdrawals) to start with, in the format `dump()` writes. */
  fixtures?: unknown;
  /** `expireAt = createdAt + invoiceTtlMs` (default 60 minutes, as every documented example). */
  invoiceTtlMs?: number;
  /** A deal's deadline (`canceledAt`) is drawn in this range after its start (default 15–30 minutes, as documented examples). */
  dealTtlMs?: { min: number; max: number };
  /** Amount limits per currency; `*` for the others (default RUB 1000.00–100000.00, documented). */
  amountLimits?: Record<string, AmountLimit>;
  /** Cancel of an invoice without an active deal: allowed, or refused this way (default 400, see README). */
  cancelWithoutDeal?: 'allow' | MockRefusal;
  /** Bank codes without free requisites at start (`*`: every one); see `setNoRequisites`. */
  noRequisites?: readonly string[];
  /** Which deals carry `paymentMethodName` (default `create`: the create answer, as a documented example). */
  paymentMethodName?: 'create' | 'always' | 'never';
  /** A new deal takes its invoice's id (a documented quirk; default false). */
  dealIdIsInvoiceId?: boolean;
  /**
   * Serve the hosted payment page's undocumented public routes, `GET
   * /api/public/invoices/{id}/available-payment-variants` and `POST
   * /api/public/invoices/{id}/start-deal` (default true); false: they answer 404 as a path the
   * service does not have, as at a brand without them.
   */
  hostedPageRoutes?: boolean;
  /** Body of notifications: the documented one, or the mock's older `{event, invoice, previousStatus, sentAt}`. */
  notificationFormat?: 'documented' | 'legacy';
  /** Body of errors: the documented array of `{message}`, or the mock's older `{error: {code, message}}`. */
  errorFormat?: 'documented' | 'legacy';
  /** Attempts and intervals of notifications. */
  notificationRetry?: NotificationRetryOptions;
  /** Sends a notification (default: the global `fetch`); e.g. a notification handler in-process. */
  notificationFetch?: (request: Request) => Promise<Response>;
  /** Which `notificationUrl`s are called (default: loopback hosts only; the rest are recorded as `skipped`). */
  notificationAllowed?: (url: URL) => boolean;
  /** Minutes east of UTC that timestamps are written in (default 0: `+00:00`, as documented). */
  utcOffsetMinutes?: number;
  /** A withdrawal's `txId` appears this long after creation (default 5000 ms). */
  withdrawalTxDelayMs?: number;
  /** Largest JSON request body in bytes (default 64 KiB). */
  maxBodyBytes?: number;
  /** Largest file of a multipart operation (default 10 MB, documented). */
  maxUploadBytes?: number;
  /** A request body must have arrived this long after reading began, else 408 (default 30 000 ms). */
  bodyTimeoutMs?: number;
  /** When set, withdrawals need exactly this `code2FA` (else 403); by default any non-empty code passes. */
  code2FA?: string;
  /** Percentage of the settled sum taken as the service fee (default "5"). */
  serviceFeePercent?: string;
  /** Exchange rate USDT/<currency> of deals and `currency-rates/current`, decimal text. */
  rates?: Record<string, string>;
}

/** Defaults of every option that has one. */
export const DEFAULTS = {
  invoiceTtlMs: 60 * 60_000,
  dealTtlMs: { min: 15 * 60_000, max: 30 * 60_000 },
  amountLimits: {
    RUB: { min: '1000.00', max: '100000.00' },
    // No other currency's limits are documented; generous ones keep them out of the way.
    '*': { min: '0.01', max: '1000000000' },
    // The dong and the won have no minor unit.
    VND: { min: '1', max: '100000000000' },
    KRW: { min: '1', max: '10000000000' },
  } as Record<string, AmountLimit>,
  // The reference's transition table makes "has an active deal" the condition of a cancel.
  cancelWithoutDeal: { status: 400, message: 'Invoice has no active deal' },
  paymentMethodName: 'create',
  hostedPageRoutes: true,
  notificationFormat: 'documented',
  errorFormat: 'documented',
  notificationRetry: { attempts: 3, intervalMs: 60_000, maxDelayMs: 30_000, timeoutMs: 10_000 },
  utcOffsetMinutes: 0,
  withdrawalTxDelayMs: 5_000,
  maxBodyBytes: 64 * 1024,
  maxUploadBytes: 10 * 1024 * 1024,
  // Multipart framing and the small fields around a file.
  multipartOverheadBytes: 64 * 1024,
  // Long enough for 10 MB on a slow link; a body trickled in slower does not hold the mock.
  bodyTimeoutMs: 30_000,
  serviceFeePercent: '5',
  rates: {
    RUB: '96.50',
    KZT: '512.30',
    UZS: '12850.00',
    TJS: '10.95',
    INR: '84.20',
    BDT: '119.50',
    ARS: '1015.00',
    VND: '25400.00',
    KRW: '1385.00',
    AZN: '1.70',
  } as Record<string, string>,
  defaultRate: '1.00',
  settlementCurrency: 'USDT',
  withdrawalFee: '1',
  balance: '10000',
  maxIdLength: 255,
  maxUrlLength: 2048,
  maxIntegerDigits: 15,
  /** How many banks an invoice's variants come from. */
  variantBanks: { min: 3, max: 5 },
} as const;

/** Decimal places: 8 for these crypto codes (as the documented USDT sums), 2 for every other. */
export const CRYPTO_CURRENCIES: readonly string[] = ['USDT', 'USDC', 'BTC', 'ETH', 'TRX', 'TON'];
/** Currencies without a minor unit (ISO 4217): the Vietnamese dong and the Korean won. */
export const WHOLE_CURRENCIES: readonly string[] = ['VND', 'KRW'];
export const subunitOf = (currency: string): number =>
  CRYPTO_CURRENCIES.includes(currency) ? 8 : WHOLE_CURRENCIES.includes(currency) ? 0 : 2;

/** A currency code is 2–10 upper-case letters or digits (`RUB`, `USDT`). */
export const CURRENCY_PATTERN = /^[A-Z][A-Z0-9]{1,9}$/;

/** Documented: the status a withdrawal has right after creation. */
export const WITHDRAWAL_STATUS_CREATED = 2;

/**
 * A safety default: notifications go only to loopback hosts unless asked (a mock should not
 * call the internet by itself).
 */
export const isLoopbackUrl = (url: URL): boolean => {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(host) || host === '::1';
};

/** Languages of the payment page (documented for `lang`). */
export const PAGE_LANGUAGES: readonly string[] = ['ru', 'en', 'bn', 'uz', 'az', 'es', 'ko', 'ky'];
