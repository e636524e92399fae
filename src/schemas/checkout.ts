/**
 * The checkout protocol between `<merchant-checkout>` and the merchant's proxy (see
 * docs/ARCHITECTURE.md). Its answers are allow-listed projections of the service's objects:
 * only what the checkout shows, timestamps as RFC 3339, and the kind of requisites a deal
 * carries. The browser's validator is generated from these schemas.
 */
import * as z from 'zod/mini';
import {
  DealStatusSchema,
  DirectionTypeSchema,
  InvoiceStatusSchema,
  MoneySchema,
  PaymentMethodSchema,
  PaymentOptionSchema,
} from './invoice.js';
import { nonEmptyString, rfc3339DateTime, uuidString } from './primitives.js';
import { REQUISITES_KINDS } from './requisites-kind.js';

/**
 * Error codes of the `{ "error": { "code", "message" } }` body, with the HTTP status the
 * proxy answers each with. `network_error` and `invalid_response` are produced by the
 * browser side when no usable answer arrived at all.
 */
export const CHECKOUT_ERROR_STATUS = {
  bad_request: 400,
  /** A notification without the right token (the notification receiver's answer). */
  unauthorized: 401,
  /** A state-changing request a browser marked as cross-site, from an origin not allowed. */
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  /** The request body did not arrive within the body deadline (a slow or stalled client). */
  request_timeout: 408,
  /** The bank (variant) the payer picked has no free requisites right now; pick another. */
  no_requisites: 409,
  /** The service refused the cancel (the invoice is paid, expired or has no deal to cancel): read it again. */
  cancel_refused: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** The merchant's own hook failed; no detail is sent. */
  internal_error: 500,
  /** The service refuses the payment option the payer picked. */
  option_not_allowed: 422,
  /** The service refuses the bank the payer picked. */
  bank_not_allowed: 422,
  not_implemented: 501,
  upstream_error: 502,
  /** The service answered something that is not what its reference describes. */
  upstream_invalid: 502,
  /** The service has this flow off for the shop (`Pay in disabled`). */
  service_unavailable: 503,
  upstream_timeout: 504,
} as const;
/** An error code the checkout proxy answers (a key of {@link CHECKOUT_ERROR_STATUS}). */
export type CheckoutProxyErrorCode = keyof typeof CHECKOUT_ERROR_STATUS;
/**
 * An error code the element may see: the proxy's, or one the browser adds (`network_error`, `invalid_response`, `http_error`).
 */
export type CheckoutErrorCode = CheckoutProxyErrorCode | 'network_error' | 'invalid_response' | 'http_error';

/** `{ error: { code, message } }`: the body of every error answer of the checkout protocol. */
export const CheckoutErrorBodySchema = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
  }),
});
/** The body of an error answer of the checkout protocol. */
export type CheckoutErrorBody = z.infer<typeof CheckoutErrorBodySchema>;

/** Body of `POST /invoices/{id}/deal`: the variant the payer picked. */
export const StartDealRequestSchema = z.strictObject({
  option: PaymentOptionSchema,
  method: PaymentMethodSchema,
});
/** The body of `POST /invoices/{id}/deal` of the checkout protocol: the variant the payer chose. */
export type StartDealRequest = z.infer<typeof StartDealRequestSchema>;

/** A deal as the browser sees it: where and how to pay, nothing of fees, payouts or tokens. */
export const CheckoutDealSchema = z.looseObject({
  id: z.optional(z.string()),
  status: DealStatusSchema,
  paymentMethod: z.nullable(PaymentMethodSchema),
  paymentOption: z.nullable(PaymentOptionSchema),
  paymentMethodName: z.optional(nonEmptyString()),
  /** Where to send the money; both null on a deal that shows none. */
  requisites: z.looseObject({
    requisites: z.nullable(z.string()),
    holder: z.nullable(z.string()),
  }),
  /** How the requisites read (optional: proxies before this field leave it out). */
  requisitesKind: z.optional(z.enum(REQUISITES_KINDS)),
  /** The deal's deadline (not the time of a cancel). */
  canceledAt: z.optional(z.nullable(rfc3339DateTime())),
  isActive: z.boolean(),
  qrCodeLink: z.optional(z.nullable(z.string())),
  disputeReason: z.optional(z.nullable(z.string())),
});
/** A deal as the element sees it: the proxy's allow-listed projection of a {@link Deal}. */
export type CheckoutDeal = z.infer<typeof CheckoutDealSchema>;

const checkoutInvoiceFields = {
  id: uuidString(),
  /** The merchant's order number, shown so a payer can quote it. */
  internalId: z.nullable(z.string()),
  /** The shop's name as the service knows it ("Payment to …"). */
  storeName: z.optional(z.string()),
  type: DirectionTypeSchema,
  status: InvoiceStatusSchema,
  sum: MoneySchema,
  paymentMethod: z.nullable(PaymentMethodSchema),
  paymentOption: z.nullable(PaymentOptionSchema),
  updatedAt: z.optional(rfc3339DateTime()),
  successUrl: z.optional(z.nullable(z.string())),
  cancelUrl: z.optional(z.nullable(z.string())),
  isSumChanged: z.optional(z.boolean()),
  deals: z.array(CheckoutDealSchema),
};

/** `GET /invoices/{id}` and `POST /invoices/{id}/deal`: the allow-listed projection of the invoice. */
export const CheckoutInvoiceSchema = z.looseObject({
  ...checkoutInvoiceFields,
  expireAt: rfc3339DateTime(),
});
/** An invoice as the element sees it: the proxy's allow-listed projection of an {@link Invoice}. */
export type CheckoutInvoice = z.infer<typeof CheckoutInvoiceSchema>;

/** `POST /invoices/{id}/cancel`: the cancel answer's projection (`expiredAt`, as the service spells it there). */
export const CheckoutCanceledInvoiceSchema = z.looseObject({
  ...checkoutInvoiceFields,
  expiredAt: z.optional(rfc3339DateTime()),
});
/** The invoice the proxy answers after a cancel: the projection of a {@link CanceledInvoice}. */
export type CheckoutCanceledInvoice = z.infer<typeof CheckoutCanceledInvoiceSchema>;
