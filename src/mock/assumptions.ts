/**
 * Every behaviour of the mock that `merchant-api.md` does not show, in one place.
 *
 * The real service's reference leaves statuses after `new`, error bodies, status codes,
 * limits, bank codes and the notification protocol open ("not shown"). The mock has to answer
 * something, so each choice is a named constant here with the reason for it; the README's
 * "Assumptions" table lists them. Change one here and the whole mock follows.
 */

// ── Statuses ────────────────────────────────────────────────────────────────────────────

/** Invoice statuses. `new` and `canceled` occur in the reference; `paid` and `expired` are assumed. */
export const INVOICE_STATUS = {
  /** Seen in the reference: a created invoice. */
  new: 'new',
  /** Seen in the reference: after the cancel operation. */
  canceled: 'canceled',
  /** ASSUMED: the payer's transfer was confirmed (the reference shows no paid/completed status). */
  paid: 'paid',
  /** ASSUMED: `expireAt` passed while the invoice was still `new`. */
  expired: 'expired',
} as const;

/** Statuses from which nothing changes any more. */
export const FINAL_INVOICE_STATUSES: readonly string[] = [
  INVOICE_STATUS.canceled,
  INVOICE_STATUS.paid,
  INVOICE_STATUS.expired,
];

/** Deal statuses. `transfer_waiting` occurs in the reference; the others are assumed. */
export const DEAL_STATUS = {
  /** Seen in the reference: the payer is expected to transfer; `isActive: true`. */
  waiting: 'transfer_waiting',
  /** ASSUMED: the deal of a paid invoice; `isActive` becomes false. */
  completed: 'completed',
  /** ASSUMED: the deal of an invoice that expired; `isActive` becomes false. */
  canceled: 'canceled',
} as const;

/**
 * ASSUMED: the reference's cancel transition has the condition "the invoice has an active
 * deal" and does not say what happens without one. The mock also cancels a `new` invoice that
 * has no deal yet (a payer may cancel before picking a bank). Set to true to answer 409 instead.
 */
export const CANCEL_REQUIRES_ACTIVE_DEAL: boolean = false;

/**
 * ASSUMED: `getInvoiceByInternalId` names one invoice, but nothing forbids reusing an internal
 * id; the mock answers with the most recently created invoice of that merchant.
 */
export const INTERNAL_ID_LOOKUP: 'latest' | 'first' = 'latest';

// ── Success and error answers ───────────────────────────────────────────────────────────

/** ASSUMED: every successful operation answers 200 (the reference shows no status codes). */
export const SUCCESS_STATUS = 200;

/**
 * ASSUMED error body (the reference shows none), the same shape the checkout proxy uses:
 * `{ "error": { "code": "…", "message": "…", "issues"?: [{ "field", "message" }] } }`.
 * `issues` comes with validation errors and names every offending field.
 */
export interface MockErrorBody {
  error: { code: string; message: string; issues?: { field: string; message: string }[] };
}

export const errorBody = (code: string, message: string, issues?: { field: string; message: string }[]): MockErrorBody => ({
  error: issues?.length ? { code, message, issues } : { code, message },
});

/** ASSUMED error codes and the HTTP status of each. */
export const ERROR_STATUS = {
  /** Missing or wrong `X-Signature`, missing or unknown `X-Identity`. */
  unauthorized: 401,
  /** The body is not JSON, is empty where one is needed, or the request is otherwise unreadable. */
  malformed_json: 400,
  /** The body is JSON but breaks the shared schemas (wrong type, missing or unknown field, out-rules). */
  validation_failed: 400,
  /** The mock's `code2FA` option is set and the request's code differs. */
  invalid_2fa: 403,
  /** Unknown path, or an invoice/withdrawal that does not exist or belongs to another merchant. */
  not_found: 404,
  /** The path exists with another method (the answer has `Allow`). */
  method_not_allowed: 405,
  /** The invoice's status does not allow the operation (cancel a paid invoice, …). */
  invalid_state: 409,
  /** The body is larger than {@link LIMITS.maxBodyBytes}. */
  payload_too_large: 413,
  /** A JSON operation called with another `Content-Type`. */
  unsupported_media_type: 415,
  /** An operation the reference names but whose shapes it does not show (dispute, see below). */
  not_implemented: 501,
  /** The mock has been closed. */
  service_closed: 503,
} as const;
export type MockErrorCode = keyof typeof ERROR_STATUS;

/** Error code of an answer forced by the `failNext` control. */
export const INJECTED_FAILURE_CODE = 'injected_failure';
/** Status of an answer forced by `failNext` when none is given. */
export const INJECTED_FAILURE_DEFAULT_STATUS = 500;
/** ASSUMED shape of a broken answer from `malformNext`: valid-looking JSON cut in the middle. */
export const MALFORMED_BODY = '{"id":"6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b","status":"new","sum":{"amount":"15';

// ── Limits ──────────────────────────────────────────────────────────────────────────────

/** ASSUMED limits (the reference shows "Rate limits, amount bounds and size limits: not shown"). */
export const LIMITS = {
  /** Largest request body, in bytes. */
  maxBodyBytes: 64 * 1024,
  /** Longest `internalId`, `userId`, `notificationToken`, withdrawal `address`. */
  maxIdLength: 255,
  /** Longest `notificationUrl`. */
  maxUrlLength: 2048,
  /** Most digits before the decimal point of an amount. */
  maxIntegerDigits: 15,
} as const;

// ── Money ───────────────────────────────────────────────────────────────────────────────

/**
 * Decimal places per currency. The reference says 2 for the fiat amounts and 8 for the
 * withdrawal amounts it shows; ASSUMED: these crypto codes take 8, every other code 2.
 */
export const CRYPTO_CURRENCIES: readonly string[] = ['USDT', 'USDC', 'BTC', 'ETH', 'TRX', 'TON'];
export const FIAT_SUBUNIT = 2;
export const CRYPTO_SUBUNIT = 8;
export const subunitOf = (currency: string): number => (CRYPTO_CURRENCIES.includes(currency) ? CRYPTO_SUBUNIT : FIAT_SUBUNIT);

/** ASSUMED: a currency code is 2–10 upper-case letters or digits (`RUB`, `USDT`). */
export const CURRENCY_PATTERN = /^[A-Z][A-Z0-9]{1,9}$/;

/**
 * ASSUMED: amounts with more decimal places than the currency has are refused (400) unless
 * the extra digits are zeros; never rounded (rounding money silently hides a merchant's bug).
 */
export const REFUSE_EXCESS_DECIMALS: boolean = true;

/** ASSUMED: a deal's `rate` (the reference shows a decimal string, not its meaning) per invoice currency. */
export const DEAL_RATES: Readonly<Record<string, string>> = { RUB: '96.50', KZT: '512.30', UZS: '12850.00' };
export const DEFAULT_DEAL_RATE = '1.00';

/**
 * ASSUMED: once paid, `receivedSumFromTaker` and `receivedSumFromMaker` are the invoice's sum,
 * `serviceFeeSum` is this percentage of it (rounded down to the currency's subunit) and
 * `payoutSum` the rest, each a Money object. (The reference shows them only as null.)
 */
export const SERVICE_FEE_PERCENT = '2.5';

/** ASSUMED: withdrawals are in this currency (8 decimal places, as the reference's examples). */
export const WITHDRAWAL_CURRENCY = 'USDT';
/** ASSUMED: a flat fee per withdrawal, in {@link WITHDRAWAL_CURRENCY}. */
export const WITHDRAWAL_FEE = '1';
/** Seen in the reference: the status a withdrawal has right after creation. */
export const WITHDRAWAL_STATUS_CREATED = 2;
/** ASSUMED: a withdrawal's `txId` is filled this long after creation (option `withdrawalTxDelayMs`). */
export const WITHDRAWAL_TX_DELAY_MS = 5_000;
/**
 * ASSUMED: a withdrawal's `accountId` must be a UUID (the reference's WithdrawalDTO says
 * "UUID"); any UUID is accepted and balances are not tracked.
 */
export const WITHDRAWAL_ACCOUNT_MUST_BE_UUID: boolean = true;

// ── Invoices ────────────────────────────────────────────────────────────────────────────

/** ASSUMED: an invoice expires this long after creation (option `invoiceTtlMs`). */
export const INVOICE_TTL_MS = 30 * 60 * 1000;

/**
 * ASSUMED: timestamps are written in Moscow time, `2026-11-22T10:00:00.000+03:00` (the
 * reference asks for ISO 8601 "with UTC offset" and shows no example).
 */
export const UTC_OFFSET_MINUTES = 180;

/** ASSUMED: the cancel variant's `flow` (the reference shows `DEFAULT`) and `isSumChanged`. */
export const CANCEL_FLOW = 'DEFAULT';

/**
 * ASSUMED: the cancel variant's `successUrl` and `cancelUrl` (the create request has no such
 * fields): a merchant's own `successUrl`/`cancelUrl` option, else the invoice page with a
 * `result` parameter.
 */
export const returnUrl = (invoiceUrl: string, result: 'success' | 'cancel'): string =>
  `${invoiceUrl}&result=${result}`;

/**
 * ASSUMED: an invoice's `paymentMethod` and `paymentOption` take the values of its deal once
 * one starts (the reference's example shows them equal).
 */
export const INVOICE_FOLLOWS_DEAL_VARIANT: boolean = true;

/**
 * ASSUMED: only SBP deals carry a `qrCodeLink` (an https link in the NSPK format); a card
 * transfer has no QR code, so `TO_CARD` deals have `qrCodeLink: null`.
 */
export const QR_CODE_OPTIONS: readonly string[] = ['SBP'];

// ── Banks and requisites ────────────────────────────────────────────────────────────────

export interface MockBank {
  /** Bank code (`paymentMethod`). */
  code: string;
  /** Human-readable name (`paymentMethodName`). */
  name: string;
  /** The options it offers (`paymentOption`). */
  options: readonly string[];
  /** First six digits of its card numbers (a Мир BIN range). */
  bin: string;
  /** Its member id in the Faster Payments System, used in SBP QR links. */
  sbpMemberId: string;
}

/**
 * ASSUMED bank codes and names (the reference shows "a bank code string; the set of codes: not
 * shown"). Several banks offer both options, so "one bank may occur with several options".
 */
export const BANKS: readonly MockBank[] = [
  { code: 'sberbank', name: 'Сбербанк', options: ['TO_CARD', 'SBP'], bin: '220220', sbpMemberId: '100000000111' },
  { code: 'tinkoff', name: 'Т-Банк', options: ['TO_CARD', 'SBP'], bin: '220070', sbpMemberId: '100000000004' },
  { code: 'alfabank', name: 'Альфа-Банк', options: ['TO_CARD', 'SBP'], bin: '220015', sbpMemberId: '100000000008' },
  { code: 'vtb', name: 'ВТБ', options: ['TO_CARD'], bin: '220024', sbpMemberId: '100000000005' },
  { code: 'raiffeisen', name: 'Райффайзенбанк', options: ['SBP'], bin: '220030', sbpMemberId: '100000000007' },
  { code: 'gazprombank', name: 'Газпромбанк', options: ['TO_CARD'], bin: '220056', sbpMemberId: '100000000001' },
  { code: 'ozonbank', name: 'Озон Банк', options: ['SBP'], bin: '220038', sbpMemberId: '100000000273' },
];

/** ASSUMED: how many banks an invoice's variants are drawn from. */
export const VARIANT_BANKS_PER_INVOICE = { min: 3, max: 5 } as const;

/** Realistic holder names as payment pages show them (first name, patronymic, initial). */
export const HOLDER_NAMES: readonly string[] = [
  'Иван Петрович С.',
  'Анна Сергеевна К.',
  'Дмитрий Алексеевич В.',
  'Елена Викторовна М.',
  'Сергей Николаевич П.',
  'Ольга Андреевна Л.',
  'Алексей Игоревич Н.',
  'Мария Дмитриевна Р.',
];

/** ASSUMED: an SBP deal's requisites are a Russian mobile number in this form. */
export const SBP_PHONE_PREFIX = '+79';

// ── Notifications ───────────────────────────────────────────────────────────────────────

/**
 * ASSUMED notification protocol (the reference shows none); the format itself lives in
 * `src/schemas/notification.ts` so the proxy's `createNotificationHandler` accepts exactly it:
 * `POST notificationUrl`, JSON `{ event: "invoice.status_changed", invoice: InvoiceDTO (lookup
 * form), previousStatus, sentAt }`, the invoice's `notificationToken` in `X-Notification-Token`.
 * Sent on every status change (not on creation). A 2xx answer is a delivery.
 */
export const NOTIFICATION_RETRY = {
  /** Attempts in all (the first one included). */
  attempts: 6,
  /** Wait before the first retry; doubled each time. */
  baseDelayMs: 1_000,
  /** Longest wait between two attempts. */
  maxDelayMs: 30_000,
  /** An attempt without a complete answer after this long counts as failed. */
  timeoutMs: 10_000,
} as const;

/**
 * ASSUMED safety default: notifications go only to loopback hosts (`localhost`, `127.x.x.x`,
 * `[::1]`); others are recorded as skipped. A mock should not call the internet unless asked
 * (option `notificationAllowed`, CLI `--notify-any-host`).
 */
export const isLoopbackUrl = (url: URL): boolean => {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(host) || host === '::1';
};

// ── Operations the reference names without shapes ──────────────────────────────────────

/**
 * ASSUMED: `POST /invoices/{id}/dispute` (multipart; request and answer not shown) checks the
 * signature and the invoice, then answers 501 `not_implemented` with this message: the mock
 * does not invent an operation whose shapes it cannot know.
 */
export const DISPUTE_NOT_SHOWN =
  "the reference does not show the dispute operation's fields or answer; the mock does not implement it";

/**
 * ASSUMED shape of `GET /accounts` (the reference shows none): one account per merchant,
 * `[{ "id": UUID, "currency": "USDT", "balance": Money }]`, the balance fixed at this amount.
 */
export const ACCOUNT_BALANCE = '10000';
