/**
 * The service's operations, declared once: one row per documented operation of the merchant
 * API and the public API (method, path, query, how it is signed, request and answer schemas).
 * `MerchantClient` (src/server/client/) has one method per row, made from it, the mock
 * (src/mock/api.ts, public-api.ts) one handler per row keyed by its name, and the OpenAPI file
 * (scripts/gen-openapi.ts) and the tests' tables are built from the same rows.
 * See docs/ARCHITECTURE.md, "The server kit" (Operations declared once).
 */
import type * as z from 'zod/mini';
import { CreateInvoiceRequestSchema } from './invoice.js';
import {
  CancelInvoiceResponseSchema,
  CreateInvoiceResponseSchema,
  CreateWithdrawalResponseSchema,
  GetInvoiceResponseSchema,
  GetWithdrawalResponseSchema,
  PaymentVariantsResponseSchema,
} from './responses.js';
import {
  AccountListSchema,
  ConfirmTransferFormSchema,
  CurrencyRatesSchema,
  MerchantStartDealRequestSchema,
  OpenDisputeFormSchema,
  PaymentMethodListSchema,
  PaymentOptionListSchema,
  QrCodeSvgSchema,
} from './service.js';
import { CreateWithdrawalRequestSchema } from './withdrawal.js';

/** The path prefix of the merchant API under the service's `{base_url}`. */
export const MERCHANT_API_PREFIX = '/api/merchant';
/** The path prefix of the public API (no `X-Identity`, no signature). */
export const PUBLIC_API_PREFIX = '/api/public';

/**
 * How a request is authenticated (the service's "Authorization" page):
 * - `json`: `X-Signature` over METHOD + URL + the JSON body text;
 * - `url`: over METHOD + URL only (GET, and a POST without a body);
 * - `multipart`: over METHOD + URL only, the body is `multipart/form-data`;
 * - `public`: no `X-Identity`, no `X-Signature`.
 */
export type Signing = 'json' | 'url' | 'multipart' | 'public';

/** One operation of the service: everything the client, the mock, OpenAPI and the tests need to know of it. */
export interface OperationRow {
  /** The HTTP method. */
  method: 'GET' | 'POST';
  /** The path under `{base_url}`, with `{name}` for each path parameter. */
  path: `/api/${string}`;
  /** Query parameters (all optional), inside the signed URL. */
  query?: readonly string[];
  /** What is signed: the JSON body, the URL only (GET, body-less POST, multipart), or nothing (public). */
  signing: Signing;
  /** The JSON body (`json`) or the form fields by their wire names (`multipart`); none for the others. */
  request?: z.ZodMiniType;
  /** The answer, read tolerantly; its output is what the method resolves to. */
  answer: z.ZodMiniType;
  /** Media type of a 2xx answer. */
  answerType: 'application/json' | 'image/svg+xml';
  /**
   * True when the operation moves money or changes an invoice: it is never retried blindly,
   * and an unreadable 2xx answer to it is reported with its `body` and `id`.
   */
  changesState: boolean;
  /** One line for humans (OpenAPI `summary`). */
  summary: string;
  /** The answer is one whole invoice: the client's invoice observers (`MerchantClient.onInvoice`) see it. */
  answersInvoice?: true;
  /** The answer is a new invoice: the caller gets it only once the observers have recorded it (the kit tracks it first). */
  createsInvoice?: true;
}

const defineOperations = <const Rows extends Record<string, OperationRow>>(rows: Rows) =>
  Object.freeze(Object.fromEntries(Object.entries(rows).map(([name, row]) => [name, Object.freeze({ name, ...row })]))) as {
    readonly [Name in keyof Rows]: Readonly<Rows[Name] & { name: Name }>;
  };

/**
 * Every documented operation of the service, one row each. The client's methods are built
 * from these rows (src/server/client/operation-methods.ts: a row's TSDoc comment is its
 * `MerchantClient` method's); the mock's routes, the OpenAPI file and the tests' tables read
 * them too.
 */
export const OPERATIONS = defineOperations({
  /**
   * `POST /api/merchant/invoices`: creates a pay-in or pay-out invoice.
   *
   * A timeout, a cut connection or an unreadable 2xx answer leave it unknown whether the
   * invoice exists: never simply call this again. A `MerchantResponseError` carries the
   * answer's `body` and `id`; otherwise look the invoice up by its `internalId`. Or let
   * `MerchantClient.createInvoiceOnce` do that recovery.
   */
  createInvoice: {
    method: 'POST',
    path: '/api/merchant/invoices',
    signing: 'json',
    request: CreateInvoiceRequestSchema,
    answer: CreateInvoiceResponseSchema,
    answerType: 'application/json',
    changesState: true,
    summary: 'Create a pay-in or pay-out invoice',
    answersInvoice: true,
    createsInvoice: true,
  },
  /** `GET /api/merchant/invoices/{id}`: the invoice with its deals. */
  getInvoice: {
    method: 'GET',
    path: '/api/merchant/invoices/{id}',
    signing: 'url',
    answer: GetInvoiceResponseSchema,
    answerType: 'application/json',
    changesState: false,
    summary: 'Read an invoice by the service’s id',
    answersInvoice: true,
  },
  /** `GET /api/merchant/invoices/internal-id/{internalId}`: the invoice with its deals. */
  getInvoiceByInternalId: {
    method: 'GET',
    path: '/api/merchant/invoices/internal-id/{internalId}',
    signing: 'url',
    answer: GetInvoiceResponseSchema,
    answerType: 'application/json',
    changesState: false,
    summary: 'Read an invoice by the merchant’s own id',
    answersInvoice: true,
  },
  /** `GET /api/merchant/invoices/{id}/available-payment-variants`. */
  listPaymentVariants: {
    method: 'GET',
    path: '/api/merchant/invoices/{id}/available-payment-variants',
    signing: 'url',
    answer: PaymentVariantsResponseSchema,
    answerType: 'application/json',
    changesState: false,
    summary: 'List the payment variants (option and bank) an invoice can be paid with',
  },
  startDeal: {
    method: 'POST',
    path: '/api/merchant/invoices/{id}/start-deal',
    signing: 'json',
    request: MerchantStartDealRequestSchema,
    answer: GetInvoiceResponseSchema,
    answerType: 'application/json',
    changesState: true,
    summary: 'Start a deal for a variant (null: any free requisites)',
    answersInvoice: true,
  },
  confirmTransfer: {
    method: 'POST',
    path: '/api/merchant/invoices/{id}/confirm-transfer',
    signing: 'multipart',
    request: ConfirmTransferFormSchema,
    answer: GetInvoiceResponseSchema,
    answerType: 'application/json',
    changesState: true,
    summary: 'The payer confirms the transfer, with a receipt',
    answersInvoice: true,
  },
  openDispute: {
    method: 'POST',
    path: '/api/merchant/invoices/{id}/dispute',
    signing: 'multipart',
    request: OpenDisputeFormSchema,
    answer: GetInvoiceResponseSchema,
    answerType: 'application/json',
    changesState: true,
    summary: 'Open a dispute on a deal that was paid but not confirmed',
    answersInvoice: true,
  },
  /** `POST /api/merchant/invoices/{id}/cancel`: cancels the invoice's active deal. */
  cancelInvoice: {
    method: 'POST',
    path: '/api/merchant/invoices/{id}/cancel',
    signing: 'url',
    answer: CancelInvoiceResponseSchema,
    answerType: 'application/json',
    changesState: true,
    summary: 'Cancel an invoice’s active deal',
  },
  /** `GET /api/merchant/payment-methods[?currency=…]`: the banks, with their names. */
  listPaymentMethods: {
    method: 'GET',
    path: '/api/merchant/payment-methods',
    query: ['currency'],
    signing: 'url',
    answer: PaymentMethodListSchema,
    answerType: 'application/json',
    changesState: false,
    summary: 'List the banks (code, name, currency)',
  },
  /** `GET /api/merchant/payment-options`: the payment options, with their names. */
  listPaymentOptions: {
    method: 'GET',
    path: '/api/merchant/payment-options',
    signing: 'url',
    answer: PaymentOptionListSchema,
    answerType: 'application/json',
    changesState: false,
    summary: 'List the payment options (code, name, currency)',
  },
  /** `GET /api/merchant/currency-rates/current`: `{ in: { pair, rate }, out: { pair, rate } }`. */
  getCurrencyRates: {
    method: 'GET',
    path: '/api/merchant/currency-rates/current',
    signing: 'url',
    answer: CurrencyRatesSchema,
    answerType: 'application/json',
    changesState: false,
    summary: 'The current pay-in and pay-out rates',
  },
  /** `GET /api/merchant/accounts`: the store's accounts (an `id` is a withdrawal's `accountId`). */
  listAccounts: {
    method: 'GET',
    path: '/api/merchant/accounts',
    signing: 'url',
    answer: AccountListSchema,
    answerType: 'application/json',
    changesState: false,
    summary: 'The store’s accounts and balances',
  },
  /** `POST /api/merchant/withdrawals`: withdraws funds from an account (needs `code2FA`). */
  createWithdrawal: {
    method: 'POST',
    path: '/api/merchant/withdrawals',
    signing: 'json',
    request: CreateWithdrawalRequestSchema,
    answer: CreateWithdrawalResponseSchema,
    answerType: 'application/json',
    changesState: true,
    summary: 'Withdraw funds from an account (needs code2FA)',
  },
  /** `GET /api/merchant/withdrawals/{id}`. */
  getWithdrawal: {
    method: 'GET',
    path: '/api/merchant/withdrawals/{id}',
    signing: 'url',
    answer: GetWithdrawalResponseSchema,
    answerType: 'application/json',
    changesState: false,
    summary: 'Read a withdrawal',
  },
  /** `GET /api/public/payment-methods/{currency}`: `[{ code, name }]`, unsigned. */
  listPublicPaymentMethods: {
    method: 'GET',
    path: '/api/public/payment-methods/{currency}',
    signing: 'public',
    answer: PaymentMethodListSchema,
    answerType: 'application/json',
    changesState: false,
    summary: 'List the banks of a currency (code, name), unsigned',
  },
  /** `GET /api/public/invoices/{id}/qr-code`: the invoice's QR code as SVG text, unsigned. */
  getInvoiceQrCode: {
    method: 'GET',
    path: '/api/public/invoices/{id}/qr-code',
    signing: 'public',
    answer: QrCodeSvgSchema,
    answerType: 'image/svg+xml',
    changesState: false,
    summary: 'The invoice’s QR code as SVG, unsigned',
  },
});

/** The name of an operation: a key of {@link OPERATIONS} and the name of its `MerchantClient` method. */
export type OperationName = keyof typeof OPERATIONS;
/** The rows of {@link OPERATIONS} as a list, typed alike, for generators (OpenAPI, the mock's and tests' tables). */
export const OPERATION_LIST: readonly Readonly<OperationRow & { name: OperationName }>[] = Object.values(OPERATIONS);
/** What an operation's method resolves to. */
export type OperationAnswer<Name extends OperationName> = z.output<(typeof OPERATIONS)[Name]['answer']>;
