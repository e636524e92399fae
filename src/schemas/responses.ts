/**
 * Response schemas of each merchant API operation, accepting the single object of the
 * examples or the one-element array of the reference's wording.
 */
import * as z from 'zod/mini';
import {
  CanceledInvoiceSchema,
  InvoiceLookupSchema,
  InvoiceSchema,
  PaymentVariantListSchema,
} from './invoice.js';
import { unwrapVariantList } from './patterns.js';
import { oneOrSingleton } from './primitives.js';
import { WithdrawalSchema } from './withdrawal.js';

export const CreateInvoiceResponseSchema = oneOrSingleton(InvoiceSchema);
export const CancelInvoiceResponseSchema = oneOrSingleton(CanceledInvoiceSchema);
export const GetInvoiceResponseSchema = oneOrSingleton(InvoiceLookupSchema);
/** Already an array of variants; a response wrapped in one more array is unwrapped too. */
export const PaymentVariantsResponseSchema = z.pipe(z.transform(unwrapVariantList), PaymentVariantListSchema);
export const CreateWithdrawalResponseSchema = oneOrSingleton(WithdrawalSchema);
export const GetWithdrawalResponseSchema = oneOrSingleton(WithdrawalSchema);
