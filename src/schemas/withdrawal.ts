/** Withdrawals of the service's merchant API. */
import * as z from 'zod/mini';
import { MoneySchema } from './invoice.js';
import { isoDateTime, lenient, nonEmptyString, positiveDecimalString, uuidString } from './primitives.js';

/**
 * WithdrawalDTO. `status` and `accountId` come with the create response and are absent from
 * the lookup examples, so both are optional here; `status`'s integer meanings are not shown.
 */
export const WithdrawalSchema = z.looseObject({
  id: uuidString(),
  createdAt: lenient(isoDateTime()),
  updatedAt: lenient(isoDateTime()),
  sum: MoneySchema,
  fee: MoneySchema,
  address: lenient(z.string()),
  txId: z._default(z.catch(z.nullable(z.string()), null), null),
  status: lenient(z.int()),
  accountId: lenient(z.string()),
});
/** A withdrawal from the merchant's account, read tolerantly. */
export type Withdrawal = z.infer<typeof WithdrawalSchema>;

/** Body of `POST /api/merchant/withdrawals`. */
export const CreateWithdrawalRequestSchema = z.strictObject({
  accountId: nonEmptyString(),
  amount: positiveDecimalString(),
  address: nonEmptyString(),
  code2FA: nonEmptyString(),
  substractFeeFromAmount: z.optional(z.boolean()),
});
/** The body of `POST /api/merchant/withdrawals`, checked strictly before it is sent. */
export type CreateWithdrawalRequest = z.infer<typeof CreateWithdrawalRequestSchema>;
