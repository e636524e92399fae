/**
 * Invoices, deals, payment variants and the create-invoice request of `merchant-api.md`.
 *
 * Response objects are `looseObject`s: unknown extra fields from the service pass through
 * untouched. Fields whose type the service does not show ("null in examples") are `unknown`
 * and optional, so a filled-in dispute or payment does not break a checkout. Request bodies
 * are strict: a misspelt field is an error before anything is sent.
 */
import * as z from 'zod/mini';
import {
  decimalString,
  httpUrl,
  isoDateTime,
  nonEmptyString,
  openEnum,
  positiveDecimalString,
  uuidString,
} from './primitives.js';

export const DIRECTION_TYPES = ['in', 'out'] as const;
export const DirectionTypeSchema = z.enum(DIRECTION_TYPES, {
  error: (issue) => `must be "in" or "out", got ${JSON.stringify(issue.input)}`,
});
export type DirectionType = z.infer<typeof DirectionTypeSchema>;

/** Payment options that occur in the reference; the complete set is not shown. */
export const KNOWN_PAYMENT_OPTIONS = ['TO_CARD', 'SBP'] as const;
export const PaymentOptionSchema = openEnum(KNOWN_PAYMENT_OPTIONS);
export type PaymentOption = z.infer<typeof PaymentOptionSchema>;

/** Bank code; the set of codes is not shown, so any non-empty string. */
export const PaymentMethodSchema = openEnum([] as const);
export type PaymentMethod = z.infer<typeof PaymentMethodSchema>;

/** Invoice statuses that occur in the reference; the complete list is not shown. */
export const KNOWN_INVOICE_STATUSES = ['new', 'canceled'] as const;
export const InvoiceStatusSchema = openEnum(KNOWN_INVOICE_STATUSES);
export type InvoiceStatus = z.infer<typeof InvoiceStatusSchema>;

/** Deal statuses that occur in the reference; the complete list is not shown. */
export const KNOWN_DEAL_STATUSES = ['transfer_waiting'] as const;
export const DealStatusSchema = openEnum(KNOWN_DEAL_STATUSES);
export type DealStatus = z.infer<typeof DealStatusSchema>;

export const MoneySchema = z.looseObject({
  amount: decimalString(),
  currency: nonEmptyString(),
  subunit: z.int().check(z.nonnegative(), z.lte(30)),
});
export type Money = z.infer<typeof MoneySchema>;

/**
 * Payment details of the payee on an invoice. Its fields are not shown by the reference, so
 * any JSON object is accepted (a deal's own `requisites` has a known shape, see below).
 */
export const RequisitesSchema = z.record(z.string(), z.unknown());
export type Requisites = z.infer<typeof RequisitesSchema>;

/** The requisites of a deal: where the payer sends the money. */
export const DealRequisitesSchema = z.looseObject({
  requisites: z.string(),
  holder: z.string(),
});
export type DealRequisites = z.infer<typeof DealRequisitesSchema>;

const dealFields = {
  id: uuidString(),
  type: DirectionTypeSchema,
  status: DealStatusSchema,
  paymentMethod: PaymentMethodSchema,
  paymentOption: PaymentOptionSchema,
  requisites: DealRequisitesSchema,
  canceledAt: z.optional(z.nullable(isoDateTime())),
  disputeAttachment: z.optional(z.unknown()),
  disputeReason: z.optional(z.unknown()),
  disputeReasonData: z.optional(z.array(z.unknown())),
  payment: z.optional(z.unknown()),
  rate: z.optional(z.nullable(decimalString())),
  isActive: z.boolean(),
  qrCodeLink: z.optional(z.nullable(z.string())),
};

/** A deal as the create-invoice response carries it (with `paymentMethodName`). */
export const DealSchema = z.looseObject({
  ...dealFields,
  paymentMethodName: nonEmptyString(),
});
export type Deal = z.infer<typeof DealSchema>;

/**
 * A deal as the lookup by internal id carries it: adds `disputeResult` and `attachments`;
 * `paymentMethodName` is only promised by the create response, so here it may be missing.
 */
export const DealLookupSchema = z.looseObject({
  ...dealFields,
  paymentMethodName: z.optional(nonEmptyString()),
  disputeResult: z.optional(z.unknown()),
  attachments: z.optional(z.array(z.unknown())),
});
export type DealLookup = z.infer<typeof DealLookupSchema>;

const invoiceFields = {
  id: uuidString(),
  internalId: z.nullable(z.string()),
  userId: z.nullable(z.string()),
  type: DirectionTypeSchema,
  status: InvoiceStatusSchema,
  paymentMethod: z.nullable(PaymentMethodSchema),
  paymentOption: z.nullable(PaymentOptionSchema),
  paymentRequisites: z.nullable(RequisitesSchema),
  sum: MoneySchema,
  storeId: z.int(),
  storeName: z.string(),
  receivedSumFromTaker: z.optional(z.unknown()),
  receivedSumFromMaker: z.optional(z.unknown()),
  serviceFeeSum: z.optional(z.unknown()),
  payoutSum: z.optional(z.unknown()),
  createdAt: isoDateTime(),
  expireAt: isoDateTime(),
  updatedAt: isoDateTime(),
  invoiceUrl: z.string(),
};

/** InvoiceDTO as the create-invoice response carries it. */
export const InvoiceSchema = z.looseObject({
  ...invoiceFields,
  deals: z.array(DealSchema),
});
export type Invoice = z.infer<typeof InvoiceSchema>;

/** InvoiceDTO as the lookup by internal id carries it (deals with dispute fields). */
export const InvoiceLookupSchema = z.looseObject({
  ...invoiceFields,
  deals: z.array(DealLookupSchema),
});
export type InvoiceLookup = z.infer<typeof InvoiceLookupSchema>;

/** The different set of invoice fields the cancel operation returns. */
export const CanceledInvoiceSchema = z.looseObject({
  id: uuidString(),
  internalId: z.nullable(z.string()),
  type: DirectionTypeSchema,
  paymentMethod: z.nullable(PaymentMethodSchema),
  paymentOption: z.nullable(PaymentOptionSchema),
  paymentRequisites: z.nullable(RequisitesSchema),
  expiredAt: isoDateTime(),
  sum: MoneySchema,
  status: InvoiceStatusSchema,
  deals: z.array(DealLookupSchema),
  successUrl: z.nullable(z.string()),
  cancelUrl: z.nullable(z.string()),
  isSumChanged: z.boolean(),
  flow: z.string(),
  flowData: z.optional(z.unknown()),
});
export type CanceledInvoice = z.infer<typeof CanceledInvoiceSchema>;

export const PaymentVariantSchema = z.looseObject({
  option: PaymentOptionSchema,
  method: PaymentMethodSchema,
});
export type PaymentVariant = z.infer<typeof PaymentVariantSchema>;

export const PaymentVariantListSchema = z.array(PaymentVariantSchema);

/** Body of `POST /api/merchant/invoices`. */
export const CreateInvoiceRequestSchema = z
  .strictObject({
    type: DirectionTypeSchema,
    amount: positiveDecimalString(),
    currency: nonEmptyString(),
    notificationUrl: httpUrl(),
    notificationToken: nonEmptyString(),
    internalId: z.optional(nonEmptyString()),
    userId: z.optional(nonEmptyString()),
    paymentOption: z.optional(z.nullable(PaymentOptionSchema)),
    paymentMethod: z.optional(PaymentMethodSchema),
    paymentRequisites: z.optional(RequisitesSchema),
    startDeal: z.optional(z.boolean()),
  })
  .check(
    z.superRefine((request, ctx) => {
      if (request.type === 'out') {
        for (const field of ['paymentOption', 'paymentMethod', 'paymentRequisites'] as const) {
          if (request[field] === undefined || request[field] === null) {
            ctx.issues.push({
              code: 'custom',
              path: [field],
              message: 'is required when type is "out"',
              input: request[field],
            });
          }
        }
      }
      // `startDeal: false` on a pay-out asks for nothing, so only `true` is refused.
      if (request.startDeal === true && request.type !== 'in') {
        ctx.issues.push({
          code: 'custom',
          path: ['startDeal'],
          message: 'is only allowed when type is "in"',
          input: request.startDeal,
        });
      }
    }),
  );
export type CreateInvoiceRequest = z.infer<typeof CreateInvoiceRequestSchema>;
