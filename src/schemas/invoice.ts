/**
 * Invoices, deals, payment variants and the create-invoice request of the service's merchant API.
 *
 * A tolerant reader, strict where money is: an answer is refused only for what would show the
 * payer wrong money or a wrong place to pay (invoice id, type, status, amount, currency,
 * subunit, the requisites and holder of an active deal, a pay link's scheme), with a message
 * naming the field. Every other field may be missing, null or of another type (it then reads
 * as undefined), unknown fields pass, timestamps are normalized to RFC 3339. Request bodies
 * are strict: a misspelt field is an error before anything is sent.
 */
import * as z from 'zod/mini';
import { decimalString, httpUrl, isoDateTime, lenient, nonEmptyString, openEnum, positiveDecimalString, uuidString } from './primitives.js';
import { compareDecimals } from './patterns.js';

/** An invoice's direction: `in` (the payer pays the merchant), `out` (a pay-out to the payer). */
export const DIRECTION_TYPES = ['in', 'out'] as const;
/** {@link DIRECTION_TYPES}, strictly: any other value is refused. */
export const DirectionTypeSchema = z.enum(DIRECTION_TYPES, {
  error: (issue) => `must be "in" or "out", got ${JSON.stringify(issue.input)}`,
});
/** `in` or `out`. */
export type DirectionType = z.infer<typeof DirectionTypeSchema>;

/** Payment options of the service's documentation; the set stays open (a new option never breaks a checkout). */
export const KNOWN_PAYMENT_OPTIONS = [
  'SBP',
  'TO_CARD',
  'TO_ACCOUNT',
  'CROSS_BORDER',
  'MOBILE_TOP_UP',
  'SBP_QR',
  'CLICK_UZ_QR',
  'TIPS',
  'TO_BANK_DETAILS',
  'TO_PHONE_NUMBER',
  'TG_BOT',
  'P2C',
  'UPI',
  'QUASI_UPI',
  'IMPS',
  'CVU',
  'CARD_ACQUIRING',
  'MANUAL_ECOM',
  'VIET_QR',
  'MANUAL_SBP_QR',
] as const;
/** A payment option: one of {@link KNOWN_PAYMENT_OPTIONS}, or any other string the service adds later. */
export const PaymentOptionSchema = openEnum(KNOWN_PAYMENT_OPTIONS);
/** How the payer pays (`SBP`, `TO_CARD`, …); open to options added later. */
export type PaymentOption = z.infer<typeof PaymentOptionSchema>;

/** Bank code (`sberbank`, `tinkoff`, …: about 230 of them); names come from the service's payment-methods list. */
export const PaymentMethodSchema = openEnum([] as const);
/** A bank code (`sberbank`, `tinkoff`, …). */
export type PaymentMethod = z.infer<typeof PaymentMethodSchema>;

/** Invoice statuses of the service's documentation. */
export const KNOWN_INVOICE_STATUSES = ['new', 'paid', 'canceled', 'expired', 'dispute'] as const;
/** An invoice status: one of {@link KNOWN_INVOICE_STATUSES}, or a newer one kept as its text. */
export const InvoiceStatusSchema = openEnum(KNOWN_INVOICE_STATUSES);
/** `new`, `paid`, `canceled`, `expired`, `dispute`, or a status added later. */
export type InvoiceStatus = z.infer<typeof InvoiceStatusSchema>;

/** Invoice statuses from which nothing changes any more. */
export const TERMINAL_INVOICE_STATUSES: readonly string[] = ['paid', 'canceled', 'expired'];

/** Deal statuses of the service's documentation. */
export const KNOWN_DEAL_STATUSES = [
  'new',
  'transfer_waiting',
  'transfer_confirmed',
  'canceled',
  'completed',
  'dispute',
  'expired',
] as const;
/** A deal status: one of {@link KNOWN_DEAL_STATUSES}, or a newer one kept as its text. */
export const DealStatusSchema = openEnum(KNOWN_DEAL_STATUSES);
/** A deal's status, open to statuses added later. */
export type DealStatus = z.infer<typeof DealStatusSchema>;

/** Deal statuses in which the payer still has to (or just did) send the money: such a deal is shown. */
export const ACTIVE_DEAL_STATUSES: readonly string[] = ['new', 'transfer_waiting', 'transfer_confirmed'];

/** Dispute reasons of the service's documentation. */
export const KNOWN_DISPUTE_REASONS = ['no_payment', 'invalid_sum'] as const;

/** An amount: decimal text (never a float), its currency, and the number of digits after the point. */
export const MoneySchema = z.looseObject({
  amount: decimalString(),
  currency: nonEmptyString(),
  subunit: z.int().check(z.nonnegative(), z.lte(30)),
});
/** `{ amount: '1500.00', currency: 'RUB', subunit: 2 }`: the amount is decimal text, never a float. */
export type Money = z.infer<typeof MoneySchema>;

/**
 * Payment details of the payee on an invoice. Its fields are not shown by the reference, so
 * any JSON object is accepted (a deal's own `requisites` has a known shape, see below).
 */
export const RequisitesSchema = z.record(z.string(), z.unknown());
/** A payment method's requisites as the service sent them (any JSON object). */
export type Requisites = z.infer<typeof RequisitesSchema>;

/**
 * The requisites of a deal: where the payer sends the money. Read leniently here (a deal
 * that is not shown may carry `holder: null`); {@link InvoiceSchema} is strict about the
 * requisites and holder of the deal it would show.
 */
export const DealRequisitesSchema = z.looseObject({
  requisites: z.nullable(z.string()),
  holder: z.nullable(z.string()),
});
/** A deal's requisites: what the payer pays to (card, phone or account number) and its holder. */
export type DealRequisites = z.infer<typeof DealRequisitesSchema>;

const SAFE_LINK_SCHEMES = ['https:', 'http:'];

/** A link the payer may open or see as a QR code: http(s) only, never `javascript:` or another scheme. */
const payLink = () =>
  z.nullable(z.string()).check(
    z.refine(
      (value) => {
        if (value === null || value === '') return true;
        try {
          return SAFE_LINK_SCHEMES.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      { error: (issue) => `must be an http(s) URL, got ${JSON.stringify(String(issue.input).slice(0, 40))}` },
    ),
  );

/** A Money object in a field the checkout does not show: read if it fits, else undefined. */
const lenientMoney = () => lenient(z.nullable(MoneySchema));

/**
 * The payment of a paid deal (notifications): sums in the invoice's and the settlement currency.
 * Not shown by the checkout, so read leniently.
 */
export const DealPaymentSchema = z.looseObject({
  takerSum: lenientMoney(),
  makerSum: lenientMoney(),
  feeSum: lenientMoney(),
  date: lenient(isoDateTime()),
});
/** What a deal received: the amount paid, the fee, and when. */
export type DealPayment = z.infer<typeof DealPaymentSchema>;

/**
 * A deal, in every form the service writes one: in InvoiceDTO's `deals` (create, read,
 * start-deal, confirm-transfer), in the cancel answer, and as the one `deal` of a
 * notification (which has no `rate`, `isActive` or `qrCodeLink`). Strict only in `status` and
 * the link's scheme; `isActive`, when missing, follows from the status.
 */
export const DealSchema = z.pipe(
  z.looseObject({
    id: lenient(nonEmptyString()),
    type: lenient(DirectionTypeSchema),
    status: DealStatusSchema,
    paymentMethod: lenient(z.nullable(PaymentMethodSchema)),
    paymentOption: lenient(z.nullable(PaymentOptionSchema)),
    /** Not in the documented DealDTO; some answers carry the bank's name here. */
    paymentMethodName: lenient(nonEmptyString()),
    requisites: z._default(z.catch(z.nullable(DealRequisitesSchema), null), null),
    canceledAt: lenient(z.nullable(isoDateTime())),
    disputeAttachment: lenient(z.nullable(z.string())),
    disputeReason: lenient(z.nullable(z.string())),
    /** `[]` when empty, `{ "amount": "210" }` when set. */
    disputeReasonData: lenient(z.nullable(z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]))),
    payment: lenient(z.nullable(DealPaymentSchema)),
    rate: lenient(z.nullable(decimalString())),
    isActive: lenient(z.boolean()),
    qrCodeLink: z.optional(payLink()),
    disputeResult: lenient(z.unknown()),
    attachments: lenient(z.array(z.unknown())),
  }),
  z.transform((deal) => ({ ...deal, isActive: deal.isActive ?? ACTIVE_DEAL_STATUSES.includes(deal.status) })),
);
/** A deal: one attempt at paying an invoice, with its requisites, deadline and status. */
export type Deal = z.infer<typeof DealSchema>;
/** @deprecated The same as {@link DealSchema}: every deal is read alike now. */
export const DealLookupSchema = DealSchema;
/** @deprecated The same as {@link Deal}. */
export type DealLookup = Deal;

/** Where an answer would show the payer where to pay: there, requisites and holder must be present. */
const requireShownDeal = (deals: readonly Deal[], ctx: { issues: z.core.$ZodRawIssue[] }, path: PropertyKey[]) => {
  deals.forEach((deal, index) => {
    if (!deal.isActive) return;
    if (deal.requisites === null) {
      ctx.issues.push({ code: 'custom', path: [...path, index, 'requisites'], message: 'is required on an active deal', input: null });
      return;
    }
    if (typeof deal.requisites.requisites !== 'string' || deal.requisites.requisites.trim() === '') {
      ctx.issues.push({
        code: 'custom',
        path: [...path, index, 'requisites', 'requisites'],
        message: 'must be a non-empty string on an active deal',
        input: deal.requisites.requisites,
      });
    }
    if (typeof deal.requisites.holder !== 'string') {
      ctx.issues.push({
        code: 'custom',
        path: [...path, index, 'requisites', 'holder'],
        message: 'must be a string on an active deal',
        input: deal.requisites.holder,
      });
    }
  });
};

/** The invoice fields every form shares: strict in id, type, status and sum, lenient elsewhere. */
const invoiceFields = {
  id: uuidString(),
  internalId: z._default(z.catch(z.nullable(z.string()), null), null),
  userId: z._default(z.catch(z.nullable(z.string()), null), null),
  type: DirectionTypeSchema,
  status: InvoiceStatusSchema,
  paymentMethod: z._default(z.catch(z.nullable(PaymentMethodSchema), null), null),
  paymentOption: z._default(z.catch(z.nullable(PaymentOptionSchema), null), null),
  paymentRequisites: lenient(z.nullable(RequisitesSchema)),
  sum: MoneySchema,
  storeId: lenient(z.int()),
  storeName: lenient(z.string()),
  /**
   * The invoice's actual amount (documented meaning): what the payer must send when the service
   * picked a unique amount (`maxAmount`) or changed it, and what was paid once paid. Shown to
   * the payer, so strict when present: a malformed one refuses the answer, naming the field,
   * rather than the payer being shown `sum` instead.
   */
  receivedSumFromTaker: z.optional(z.nullable(MoneySchema)),
  receivedSumFromMaker: lenientMoney(),
  serviceFeeSum: lenientMoney(),
  payoutSum: lenientMoney(),
  rate: lenient(z.nullable(decimalString())),
  createdAt: lenient(isoDateTime()),
  updatedAt: lenient(isoDateTime()),
  invoiceUrl: lenient(z.string()),
  successUrl: lenient(z.nullable(z.string())),
  cancelUrl: lenient(z.nullable(z.string())),
  isSumChanged: lenient(z.boolean()),
  /**
   * A cross-border invoice's transfer currency (`TJS`, `UZS`, …): the currency of the payer's
   * card abroad. Shown by the documented cross-border create answer; absent otherwise.
   */
  crossBorderCurrency: lenient(z.nullable(nonEmptyString())),
  flow: lenient(z.nullable(z.string())),
  flowData: lenient(z.unknown()),
};

/** `deals` as InvoiceDTO writes it, or the one `deal` (or null) of a notification: always a list. */
const dealsOf = (value: unknown): unknown => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  if (record.deals === undefined && Object.hasOwn(record, 'deal')) {
    const { deal, ...rest } = record;
    return { ...rest, deals: deal === null || deal === undefined ? [] : [deal] };
  }
  return value;
};

/**
 * THE invoice: one normalized type for every form the service writes, InvoiceDTO (create,
 * read by id or internal id, start-deal, confirm-transfer, dispute) and the notification's
 * invoice (one `deal` instead of `deals`, no `userId`/`paymentMethod`/`paymentOption`/`invoiceUrl`).
 * Timestamps come out as RFC 3339 with `±HH:MM`; `deals` is always a list; fields the
 * checkout never shows are read leniently.
 */
export const InvoiceSchema = z.pipe(
  z.transform(dealsOf),
  z
    .looseObject({
      ...invoiceFields,
      expireAt: isoDateTime(),
      deals: z._default(z.array(DealSchema), []),
    })
    .check(z.superRefine((invoice, ctx) => requireShownDeal(invoice.deals, ctx, ['deals']))),
);
/**
 * An invoice as the service's merchant API answers it, read tolerantly (see the module's header); timestamps are RFC 3339.
 */
export type Invoice = z.infer<typeof InvoiceSchema>;
/**
 * A notification's invoice read as leniently as possible: what the merchant's books compare
 * (status, amounts, deals) must be readable, everything else (`expireAt`, a deal's `holder`)
 * may be missing or odd. The notification receiver compares it with the service's own read;
 * it is never shown to a payer.
 */
export const NotifiedInvoiceSchema = z.pipe(
  z.transform(dealsOf),
  z.looseObject({
    ...invoiceFields,
    expireAt: lenient(isoDateTime()),
    deals: z._default(z.array(DealSchema), []),
  }),
);
/** A notification's invoice as {@link NotifiedInvoiceSchema} reads it. */
export type NotifiedInvoice = z.infer<typeof NotifiedInvoiceSchema>;

/** @deprecated The same as {@link InvoiceSchema}. */
export const InvoiceLookupSchema = InvoiceSchema;
/** @deprecated The same as {@link Invoice}. */
export type InvoiceLookup = Invoice;

/**
 * The different set of invoice fields the cancel operation returns (`expiredAt`, `successUrl`,
 * `cancelUrl`, `isSumChanged`, `flow`), read as leniently as the rest.
 */
export const CanceledInvoiceSchema = z
  .looseObject({
    ...invoiceFields,
    expiredAt: lenient(isoDateTime()),
    expireAt: lenient(isoDateTime()),
    deals: z._default(z.array(DealSchema), []),
  })
  .check(z.superRefine((invoice, ctx) => requireShownDeal(invoice.deals, ctx, ['deals'])));
/** The invoice the cancel operation answers: its deals may be left out and `expireAt` may be missing. */
export type CanceledInvoice = z.infer<typeof CanceledInvoiceSchema>;

/** One payment variant of an invoice: a payment option and a bank. */
export const PaymentVariantSchema = z.looseObject({
  option: PaymentOptionSchema,
  method: PaymentMethodSchema,
});
/** `{ option, method }`: a way the payer may pay this invoice. */
export type PaymentVariant = z.infer<typeof PaymentVariantSchema>;

/** The variants of an invoice, as a list. */
export const PaymentVariantListSchema = z.array(PaymentVariantSchema);

/** Body of `POST /api/merchant/invoices`. */
export const CreateInvoiceRequestSchema = z
  .strictObject({
    type: DirectionTypeSchema,
    amount: positiveDecimalString(),
    currency: nonEmptyString(),
    notificationUrl: httpUrl(),
    notificationToken: nonEmptyString(),
    internalId: z.optional(z.nullable(nonEmptyString())),
    userId: z.optional(z.nullable(nonEmptyString())),
    paymentOption: z.optional(z.nullable(PaymentOptionSchema)),
    paymentMethod: z.optional(z.nullable(PaymentMethodSchema)),
    paymentRequisites: z.optional(z.nullable(RequisitesSchema)),
    startDeal: z.optional(z.nullable(z.boolean())),
    /** Where the service's own payment page sends the payer after a payment / a cancel. */
    successUrl: z.optional(z.nullable(httpUrl())),
    cancelUrl: z.optional(z.nullable(httpUrl())),
    /** Randomises the amount up to this (unique amounts); not less than `amount`. */
    maxAmount: z.optional(z.nullable(positiveDecimalString())),
    /** The payer's bank's currency for a cross-border transfer (`TJS`, `UZS`, …). */
    crossBorderCurrency: z.optional(z.nullable(nonEmptyString())),
    crossBorderRequisiteType: z.optional(z.nullable(openEnum(['PHONE', 'CARD'] as const))),
    strictlySingleTransfer: z.optional(z.nullable(z.boolean())),
    allowMatching: z.optional(z.nullable(z.boolean())),
    matchingSettings: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
    /** Language of the service's payment page: `ru`, `en`, `bn`, `uz`, `az`, `es`, `ko`. */
    lang: z.optional(z.nullable(nonEmptyString())),
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
      if (request.maxAmount != null && compareDecimals(request.maxAmount, request.amount) < 0) {
        ctx.issues.push({ code: 'custom', path: ['maxAmount'], message: 'can not be less than amount', input: request.maxAmount });
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
/** The body of `POST /api/merchant/invoices`, checked strictly before it is signed and sent. */
export type CreateInvoiceRequest = z.infer<typeof CreateInvoiceRequestSchema>;
