/**
 * Response schemas of each merchant API operation, accepting the single object of the
 * examples or the one-element array of the reference's wording.
 */
import * as z from 'zod/mini';
import { CanceledInvoiceSchema, InvoiceSchema, PaymentVariantListSchema } from './invoice.js';
import { unwrapVariantList } from './patterns.js';
import { oneOrSingleton } from './primitives.js';
import { WithdrawalSchema } from './withdrawal.js';

/** Create, read by id or internal id, start-deal, confirm-transfer, dispute: InvoiceDTO. */
export const InvoiceResponseSchema = oneOrSingleton(InvoiceSchema);
/** The answer of `POST /api/merchant/invoices`. */
export const CreateInvoiceResponseSchema = InvoiceResponseSchema;
/** The answer of `GET /api/merchant/invoices/{id}` and of the read by internal id. */
export const GetInvoiceResponseSchema = InvoiceResponseSchema;
/** The answer of `POST /api/merchant/invoices/{id}/cancel`. */
export const CancelInvoiceResponseSchema = oneOrSingleton(CanceledInvoiceSchema);
/** A list of variants; one variant as a bare object is a list of one, a list wrapped in one more array is unwrapped. */
export const PaymentVariantsResponseSchema = z.pipe(
  z.transform((value: unknown) => {
    const list = unwrapVariantList(value);
    return typeof list === 'object' && list !== null && !Array.isArray(list) ? [list] : list;
  }),
  PaymentVariantListSchema,
);
/** The answer of `POST /api/merchant/withdrawals`. */
export const CreateWithdrawalResponseSchema = oneOrSingleton(WithdrawalSchema);
/** The answer of `GET /api/merchant/withdrawals/{id}`. */
export const GetWithdrawalResponseSchema = oneOrSingleton(WithdrawalSchema);
