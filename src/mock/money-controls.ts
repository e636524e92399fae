/**
 * The service-side moves of money that the test controls make (`/__mock/invoices/{id}/dispute`,
 * `…/resolve`, `…/correct`, and the methods of the same names): their input checked, with a 400
 * naming the field, before the store makes the move. Imports store, records, errors, money and
 * the shared dispute lists.
 */
import { DOCUMENTED_DISPUTE_REASONS, type DisputeResult } from '../schemas/dispute.js';
import { invalidField } from './errors.js';
import { AmountError, toMinor } from './money.js';
import type { InvoiceRecord } from './records.js';
import type { Store } from './store.js';

/** A dispute opened on the service's side: a documented reason, and with `invalid_sum` the amount the payer says was sent. */
export interface MockDisputeOpening {
  /** `no_payment` (default), `invalid_sum`, or another reason the documentation's type lists. */
  reason?: (typeof DOCUMENTED_DISPUTE_REASONS)[number];
  /** Decimal text; only (and then required) with `invalid_sum`. */
  amount?: string;
}

/** The moves, by invoice id; `invoice` finds one (404) once the mock is known to be open. */
export interface MoneyControls {
  openDispute(invoiceId: string, dispute?: MockDisputeOpening): void;
  resolveDispute(invoiceId: string, result: DisputeResult | 'paid' | 'canceled', amount?: string): void;
  correctAmount(invoiceId: string, amount: string): void;
}

/** Decimal text → minor units, above zero; a 400 naming `amount` otherwise. */
const positiveAmount = (text: unknown, subunit: number): bigint => {
  if (typeof text !== 'string') throw invalidField('amount', `must be decimal text (e.g. "5004.50"), got ${JSON.stringify(text)}`);
  let minor: bigint;
  try {
    minor = toMinor(text, subunit);
  } catch (error) {
    if (error instanceof AmountError) throw invalidField('amount', error.message);
    throw error;
  }
  if (minor <= 0n) throw invalidField('amount', `must be greater than zero, got ${JSON.stringify(text)}`);
  return minor;
};

export const moneyControls = (store: Store, invoice: (id: string) => InvoiceRecord): MoneyControls => ({
  openDispute: (id, dispute = {}) => {
    const found = invoice(id);
    const reason = dispute.reason ?? 'no_payment';
    if (!(DOCUMENTED_DISPUTE_REASONS as readonly string[]).includes(reason))
      throw invalidField('reason', `must be one of ${DOCUMENTED_DISPUTE_REASONS.join(', ')}`);
    if ((reason === 'invalid_sum') !== (dispute.amount !== undefined))
      throw invalidField('amount', reason === 'invalid_sum' ? 'is required with invalid_sum' : 'goes only with invalid_sum');
    if (dispute.amount !== undefined) positiveAmount(dispute.amount, found.subunit);
    store.openDispute(found, { reason, amount: dispute.amount ?? null, attachment: null }, 'service');
  },
  resolveDispute: (id, result, amount) => {
    const found = invoice(id);
    // The older outcomes: "paid" was an accepted dispute, "canceled" a rejected one without a stated reason.
    const named = result === 'paid' ? 'ACCEPTED' : result === 'canceled' ? 'UNKNOWN' : result;
    store.resolveDispute(found, named, amount === undefined ? null : positiveAmount(amount, found.subunit));
  },
  correctAmount: (id, amount) => {
    const found = invoice(id);
    store.correctAmount(found, positiveAmount(amount, found.subunit));
  },
});
