/**
 * Requests and answers of the operations the first extract left out and the service's
 * documentation shows: starting a deal, confirming a transfer, opening a dispute, the lists of
 * banks and payment options, currency rates, balances, and the public API.
 *
 * Answers are read tolerantly, like the invoice's: unknown fields pass through, a list may
 * come as one object, and a field a caller does not need never rejects the answer.
 */
import * as z from 'zod/mini';
import { KNOWN_DISPUTE_REASONS, MoneySchema, PaymentMethodSchema, PaymentOptionSchema } from './invoice.js';
import { MAX_RECEIPT_BYTES, decimalString, lenient, nonEmptyString, oneOrSingleton, positiveDecimalString } from './primitives.js';

// ── Requests ─────────────────────────────────────────────────────────────────────────

/**
 * Body of `POST /api/merchant/invoices/{id}/start-deal`. `null` (or leaving a field out)
 * lets the service pick any free requisites for it.
 */
export const MerchantStartDealRequestSchema = z.strictObject({
  paymentMethod: z.optional(z.nullable(PaymentMethodSchema)),
  paymentOption: z.optional(z.nullable(PaymentOptionSchema)),
});
/** The body of the service's start-deal: the payment option and bank, both optional. */
export type MerchantStartDealRequest = z.infer<typeof MerchantStartDealRequestSchema>;

/** The largest receipt the service takes ("не более 10 Мб"; read as MiB, the larger reading). */
export const MAX_ATTACHMENT_BYTES = MAX_RECEIPT_BYTES;

/** A file part of a multipart request: a receipt or other proof of the transfer. */
export const attachmentFile = () =>
  z.file({ error: 'must be a Blob or File (the receipt of the transfer)' }).check(
    z.minSize(1, 'must not be an empty file'),
    z.maxSize(MAX_ATTACHMENT_BYTES, {
      error: (issue) => `must be at most 10 MB (${MAX_ATTACHMENT_BYTES} bytes), got ${(issue.input as Blob).size} bytes`,
    }),
  );

/** Fields of `POST /api/merchant/invoices/{id}/confirm-transfer` (multipart/form-data). */
export const ConfirmTransferFormSchema = z.strictObject({
  attachment: attachmentFile(),
});
/** The multipart form of confirm-transfer: the payer's receipt as `attachment`. */
export type ConfirmTransferForm = z.infer<typeof ConfirmTransferFormSchema>;

/** A dispute reason as a request sends it: only the documented ones. */
export const DisputeReasonSchema = z.enum(KNOWN_DISPUTE_REASONS, {
  error: (issue) => `must be "no_payment" or "invalid_sum", got ${JSON.stringify(issue.input)}`,
});
/** Why a dispute is opened: `no_payment` or `invalid_sum`. */
export type DisputeReason = z.infer<typeof DisputeReasonSchema>;

/** The form field that carries the disputed amount, spelled as the service reads it. */
export const DISPUTE_AMOUNT_FIELD = 'disputeReasonData[amount]';

/**
 * Fields of `POST /api/merchant/invoices/{id}/dispute` (multipart/form-data), by their names on
 * the wire. The amount goes with `invalid_sum` only, as decimal text.
 */
export const OpenDisputeFormSchema = z
  .strictObject({
    dealId: nonEmptyString(),
    disputeReason: DisputeReasonSchema,
    [DISPUTE_AMOUNT_FIELD]: z.optional(positiveDecimalString()),
    attachment: attachmentFile(),
  })
  .check(
    z.superRefine((form, ctx) => {
      const amount = form[DISPUTE_AMOUNT_FIELD];
      if (form.disputeReason === 'invalid_sum' && amount === undefined) {
        ctx.issues.push({
          code: 'custom',
          path: [DISPUTE_AMOUNT_FIELD],
          message: 'is required when disputeReason is "invalid_sum"',
          input: amount,
        });
      }
      if (form.disputeReason !== 'invalid_sum' && amount !== undefined) {
        ctx.issues.push({
          code: 'custom',
          path: [DISPUTE_AMOUNT_FIELD],
          message: 'is only sent when disputeReason is "invalid_sum"',
          input: amount,
        });
      }
    }),
  );
/** The multipart form of a dispute: its reason, the receipt, and the amount for `invalid_sum`. */
export type OpenDisputeForm = z.infer<typeof OpenDisputeFormSchema>;

// ── Answers ──────────────────────────────────────────────────────────────────────────

/** A list answer: an array, or one object standing for a list of one. */
export const listOf = <Schema extends z.ZodMiniType>(item: Schema) =>
  z.pipe(
    z.transform((value: unknown) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? [value] : value)),
    z.array(item),
  );

/** Decimal text; a JSON number is taken as its text (a rate is shown, never computed with). */
const decimalText = () =>
  z.union([
    decimalString(),
    z.pipe(
      z.number(),
      z.transform((value) => String(value)),
    ),
  ]);

/** A named code (bank, payment option); a missing `name` falls back to the code. */
const namedCode = <Code extends z.ZodMiniType<string>>(code: Code) =>
  z.pipe(
    z.looseObject({
      code,
      name: lenient(z.nullable(z.string())),
      currency: lenient(z.nullable(z.string())),
    }),
    z.transform((entry) => ({ ...entry, name: entry.name || entry.code })),
  );

/** A bank of `GET /api/merchant/payment-methods` and `GET /api/public/payment-methods/{currency}`. */
export const PaymentMethodInfoSchema = namedCode(PaymentMethodSchema);
/** A bank: its code and name. */
export type PaymentMethodInfo = z.infer<typeof PaymentMethodInfoSchema>;
/** A list of banks (one bank alone is read as a list of one). */
export const PaymentMethodListSchema = listOf(PaymentMethodInfoSchema);

/** A payment option of `GET /api/merchant/payment-options`. */
export const PaymentOptionInfoSchema = namedCode(PaymentOptionSchema);
/** A payment option: its code and name. */
export type PaymentOptionInfo = z.infer<typeof PaymentOptionInfoSchema>;
/** A list of payment options (one alone is read as a list of one). */
export const PaymentOptionListSchema = listOf(PaymentOptionInfoSchema);

/** One rate of `GET /api/merchant/currency-rates/current`: the pair and the rate as decimal text. */
export const CurrencyRateSchema = z.looseObject({
  pair: lenient(z.nullable(z.string())),
  rate: decimalText(),
});
/** A currency pair's rate, as decimal text. */
export type CurrencyRate = z.infer<typeof CurrencyRateSchema>;

/** `GET /api/merchant/currency-rates/current`: the pay-in and pay-out rates. */
export const CurrencyRatesSchema = oneOrSingleton(
  z.looseObject({
    in: lenient(z.nullable(CurrencyRateSchema)),
    out: lenient(z.nullable(CurrencyRateSchema)),
  }),
);
/** The current rates: in and out. */
export type CurrencyRates = z.infer<typeof CurrencyRatesSchema>;

/** A Money object of an account: read if it fits, else undefined (a balance is never shown to a payer). */
const accountMoney = () => lenient(z.nullable(MoneySchema));

/**
 * An account of `GET /api/merchant/accounts` (the documented AccountDTO): `sum` (the balance),
 * `frozenSum` (held by operations under way) and `withdrawalFee`, each a Money object. The
 * `id` (what a withdrawal's `accountId` names) is required. The older `{id, currency, balance}`
 * is still read: its `balance`, when a Money object, stands for `sum`.
 */
export const AccountSchema = z.pipe(
  z.looseObject({
    id: z.union([
      nonEmptyString(),
      z.pipe(
        z.int(),
        z.transform((value) => String(value)),
      ),
    ]),
    currency: lenient(z.nullable(z.string())),
    sum: accountMoney(),
    frozenSum: accountMoney(),
    withdrawalFee: accountMoney(),
    /** The older shape's balance: a Money object or decimal text. */
    balance: lenient(z.nullable(z.union([MoneySchema, decimalString()]))),
  }),
  z.transform((account) => {
    const older = typeof account.balance === 'object' ? account.balance : undefined;
    return { ...account, sum: account.sum ?? older ?? account.sum };
  }),
);
/** An account of the merchant: its currency, balance, frozen funds and withdrawal fee. */
export type Account = z.infer<typeof AccountSchema>;
/** The answer of `GET /api/merchant/accounts`. */
export const AccountListSchema = listOf(AccountSchema);

/** `GET /api/public/invoices/{id}/qr-code`: SVG markup. */
export const QrCodeSvgSchema = z
  .string()
  .check(z.refine((text) => /<svg[\s>/]/i.test(text), { error: 'must be SVG markup (an <svg> element)' }));
