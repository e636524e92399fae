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
import { nonEmptyString, openEnum, positiveDecimalString, rfc3339DateTime, uuidString } from './primitives.js';
import { REQUISITES_KINDS } from './requisites-kind.js';
import { DisputeReasonSchema, attachmentFile } from './service.js';

/**
 * Error codes of the `{ "error": { "code", "message" } }` body, with the HTTP status the
 * proxy answers each with. `network_error` and `invalid_response` are produced by the
 * browser side when no usable answer arrived at all.
 */
export const CHECKOUT_ERROR_STATUS = {
  bad_request: 400,
  /** A notification without the right token, or a scheduler's call without the right secret (the notification receiver's and the kit's `cron` answer). */
  unauthorized: 401,
  /** A state-changing request a browser marked as cross-site, from an origin not allowed. */
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  /** The merchant takes no receipts (`receipts: 'off'`): the payer confirms without one. */
  receipts_off: 403,
  /** The merchant's `dispute` hook refused the payer's report; nothing was sent. */
  dispute_refused: 403,
  /** The request body did not arrive within the body deadline (a slow or stalled client; an upload within `uploadTimeoutMs`). */
  request_timeout: 408,
  /** The bank (variant) the payer picked has no free requisites right now; pick another. */
  no_requisites: 409,
  /** The service refused the cancel (the invoice is paid, expired or has no deal to cancel): read it again. */
  cancel_refused: 409,
  /** No deal to confirm a transfer of (receipt) or to dispute: none waits for a transfer, or none was ever paid to. */
  no_deal: 409,
  /** The invoice already has its one dispute (opened, or reported to the merchant); another is not sent. */
  dispute_exists: 409,
  /** The invoice cannot be disputed any more (canceled or paid, or the service refused the dispute). */
  dispute_not_allowed: 409,
  /**
   * A notification the payment service does not confirm (the notification receiver's answer):
   * its invoice reads otherwise, or not at all. Nothing was credited; a real but early one is
   * delivered again by the service, and the reconciler reads the invoice anyway.
   */
  unconfirmed: 409,
  /** The body, or the receipt in it, is larger than allowed (a receipt: 10 MB). */
  payload_too_large: 413,
  /** Not the body's expected type, or a receipt that is not JPEG, PNG, WebP, HEIC/HEIF or PDF (declared type and content). */
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

/**
 * `{ error: { code, message } }`: the body of every error answer of the checkout protocol. A
 * `payload_too_large` answer also says the limit that refused the body (or the receipt in it),
 * `maxBytes`, which the element shows the payer; a 413 without it (another server in front)
 * names no figure.
 */
export const CheckoutErrorBodySchema = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    maxBytes: z.optional(z.number()),
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
  /**
   * How the requisites read (optional: proxies before this field leave it out). Any text, so an
   * element older than its proxy still reads the deal: a kind it does not know, it works out itself.
   */
  requisitesKind: z.optional(openEnum(REQUISITES_KINDS)),
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
  /**
   * A cross-border invoice's transfer currency (`TJS`, `UZS`, …), the currency of the payer's
   * card abroad; absent on other invoices and from older proxies.
   */
  crossBorderCurrency: z.optional(z.nullable(z.string())),
  /**
   * The amount the payer must send while the invoice is open, when the service says it
   * (`receivedSumFromTaker`: a unique amount picked up to `maxAmount`, or a changed sum); it may
   * differ from `sum`, and then it is the one to send. Absent: send `sum`. Absent from older
   * proxies.
   */
  amountDue: z.optional(MoneySchema),
  /**
   * What the service settled once the invoice is paid (`receivedSumFromTaker`, else the paid
   * deal's `payment.takerSum`): after a correction or a dispute it may differ from `sum`.
   */
  amountPaid: z.optional(MoneySchema),
  deals: z.array(CheckoutDealSchema),
};

/**
 * Whether the merchant takes the payer's receipt: `off` (none: the receipt route answers 403),
 * `optional` (the payer may attach one), `required` (the element opens the receipt form as soon
 * as the payer presses "I have paid", and labels it required).
 */
export const RECEIPTS_POLICIES = ['off', 'optional', 'required'] as const;
/** One of {@link RECEIPTS_POLICIES}. */
export type CheckoutReceiptsPolicy = (typeof RECEIPTS_POLICIES)[number];

/** `GET /invoices/{id}` and `POST /invoices/{id}/deal`: the allow-listed projection of the invoice. */
export const CheckoutInvoiceSchema = z.looseObject({
  ...checkoutInvoiceFields,
  expireAt: rfc3339DateTime(),
  /**
   * The merchant's receipt policy ({@link RECEIPTS_POLICIES}); absent from older proxies, which
   * means `optional`. Open: an unknown value is kept as text (read it as `optional`).
   */
  receipts: z.optional(openEnum(RECEIPTS_POLICIES)),
  /**
   * The largest receipt file this proxy takes, in bytes (its `maxUploadBytes` less the form's
   * framing, at most the service's 10 MB): the element's own check and words follow it.
   * Absent from older proxies, which means 10 MB; the element reads a value that is not a
   * positive number as absent (no limit is money or a place to pay).
   */
  receiptMaxBytes: z.optional(z.number()),
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

/** A bank of `GET /banks?currency=`: its code and the service's name for it. */
export const CheckoutBankSchema = z.looseObject({
  code: PaymentMethodSchema,
  name: z.string(),
});
/** A bank as the proxy's `GET /banks` lists it: `{ code, name }`. */
export type CheckoutBank = z.infer<typeof CheckoutBankSchema>;
/** `GET /banks?currency=`: the service's banks of a currency, with their names. */
export const CheckoutBankListSchema = z.array(CheckoutBankSchema);

/** A receipt part of a multipart request: a file of at most 10 MB (its type is checked by the proxy, with its content). */
const receiptPart = () => attachmentFile();

/** Body of `POST /invoices/{id}/receipt` (multipart/form-data): the payer's receipt as `attachment`. */
export const CheckoutReceiptFormSchema = z.strictObject({
  attachment: receiptPart(),
});
/** The form of `POST /invoices/{id}/receipt`. */
export type CheckoutReceiptForm = z.infer<typeof CheckoutReceiptFormSchema>;

/**
 * Body of `POST /invoices/{id}/dispute` (multipart/form-data): why the payer reports the
 * payment, the amount really sent (decimal text, with `invalid_sum` only) and the receipt.
 */
export const CheckoutDisputeFormSchema = z
  .strictObject({
    reason: DisputeReasonSchema,
    amount: z.optional(positiveDecimalString()),
    attachment: receiptPart(),
  })
  .check(
    z.superRefine((form, ctx) => {
      if (form.reason === 'invalid_sum' && form.amount === undefined) {
        ctx.issues.push({
          code: 'custom',
          path: ['amount'],
          message: 'is required when reason is "invalid_sum" (the amount really sent)',
          input: form.amount,
        });
      }
      if (form.reason !== 'invalid_sum' && form.amount !== undefined) {
        ctx.issues.push({ code: 'custom', path: ['amount'], message: 'is only sent when reason is "invalid_sum"', input: form.amount });
      }
    }),
  );
/** The form of `POST /invoices/{id}/dispute`. */
export type CheckoutDisputeForm = z.infer<typeof CheckoutDisputeFormSchema>;

/**
 * What became of a payer's report: `forwarded` (the service opened the dispute) or `reported`
 * (the merchant's hook kept it for the shop; nothing was sent to the service).
 */
export const DISPUTE_OUTCOMES = ['forwarded', 'reported'] as const;
/** One of {@link DISPUTE_OUTCOMES}. */
export type CheckoutDisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];

/** `POST /invoices/{id}/dispute`: the outcome, and the invoice as it is now. */
export const CheckoutDisputeAnswerSchema = z.looseObject({
  outcome: z.enum(DISPUTE_OUTCOMES),
  invoice: CheckoutInvoiceSchema,
});
/** The answer of `POST /invoices/{id}/dispute`. */
export type CheckoutDisputeAnswer = z.infer<typeof CheckoutDisputeAnswerSchema>;
