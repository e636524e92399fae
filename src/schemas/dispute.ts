/**
 * Disputes as the service's documentation lists them: the reasons a dispute may carry and the
 * results the service sets on the deal when it decides one (`disputeResult`, upper case). A
 * successful result means the payment stands (`AMOUNT_CHANGED`: with another amount); every
 * other one means it does not. The sets stay open: a result the service adds later is read as
 * its text and is not a success.
 */
import type * as z from 'zod/mini';
import { openEnum } from './primitives.js';

/** Results that mean the dispute succeeded: the payment stands (`AMOUNT_CHANGED`: with a changed amount). */
export const SUCCESSFUL_DISPUTE_RESULTS = ['ACCEPTED', 'AMOUNT_CHANGED'] as const;

/** Results that mean the dispute failed, each with the documented reason. */
export const FAILED_DISPUTE_RESULTS = [
  'REQUISITES_MISMATCH_IN_CONFIRM_DOCS',
  'INVALID_PAYMENT_METHOD',
  'TTL_EXPIRED',
  'FRAUD_CONFIRM_DOCS',
  'WAITING_CONFIRM_DOCS_FROM_MERCHANT',
  'WAITING_CONFIRM_DOCS_FROM_TRADER',
  'UNKNOWN',
] as const;

/** Every documented dispute result, successful ones first. */
export const KNOWN_DISPUTE_RESULTS = [...SUCCESSFUL_DISPUTE_RESULTS, ...FAILED_DISPUTE_RESULTS] as const;

/** A dispute result: one of {@link KNOWN_DISPUTE_RESULTS}, or a newer one kept as its text. */
export const DisputeResultSchema = openEnum(KNOWN_DISPUTE_RESULTS);
/** `ACCEPTED`, `AMOUNT_CHANGED`, `TTL_EXPIRED`, …, or a result added later. */
export type DisputeResult = z.infer<typeof DisputeResultSchema>;

/** Whether `result` means the payment stands; an unknown result does not. */
export const isSuccessfulDisputeResult = (result: unknown): boolean =>
  typeof result === 'string' && (SUCCESSFUL_DISPUTE_RESULTS as readonly string[]).includes(result);

/**
 * Every dispute reason the documentation's type lists. A request sends only `no_payment` or
 * `invalid_sum` (`KNOWN_DISPUTE_REASONS`); a dispute opened on the service's side (the trader,
 * or the payer through support) may carry any of these.
 */
export const DOCUMENTED_DISPUTE_REASONS = ['unknown', 'has_payment', 'no_payment', 'invalid_sum', 'invalid_requisites'] as const;
