/**
 * Where money moves in the mock: an invoice's four sums at its rate, and the account they
 * move. A pay-in credits its payout once paid (and a correction or a dispute moves the credit
 * by the difference); a pay-out holds what it will cost while it runs, is debited from that
 * hold once sent, and gives it back when it ends otherwise. A withdrawal has left the balance
 * at once and is frozen until it is sent. All in bigint minor units: never a float.
 * Imports records, money, options, errors.
 */
import { refused } from './errors.js';
import { convert, percentOf } from './money.js';
import { DEFAULTS, subunitOf } from './options.js';
import type { InvoiceRecord, MerchantRecord, Settlement, WithdrawalRecord } from './records.js';

const USDT_SUBUNIT = subunitOf(DEFAULTS.settlementCurrency);

export class Ledger {
  readonly #feePercent: string;

  constructor(serviceFeePercent: string) {
    this.#feePercent = serviceFeePercent;
  }

  /**
   * The sums of `takerMinor` (in the invoice's currency) at the invoice's rate: the maker side
   * in USDT, the service's fee, and the payout: what a pay-in credits (maker − fee) or what a
   * pay-out costs its account (maker + fee).
   */
  settle(invoice: InvoiceRecord, takerMinor: bigint): Settlement {
    const makerMinor = convert(takerMinor, invoice.subunit, invoice.rate, USDT_SUBUNIT);
    const feeMinor = percentOf(makerMinor, this.#feePercent);
    return { takerMinor, makerMinor, feeMinor, payoutMinor: invoice.type === 'out' ? makerMinor + feeMinor : makerMinor - feeMinor };
  }

  /** A new pay-out holds its cost; 400 `Insufficient funds` (documented) when the account has less. */
  hold(invoice: InvoiceRecord): void {
    const cost = this.settle(invoice, invoice.amountMinor).payoutMinor;
    if (cost > invoice.merchant.balanceMinor) throw refused('Insufficient funds', 'insufficient_funds');
    invoice.merchant.balanceMinor -= cost;
    invoice.holdMinor = cost;
  }

  /** A pay-out that ends unsent gives its hold back. */
  release(invoice: InvoiceRecord): void {
    invoice.merchant.balanceMinor += invoice.holdMinor ?? 0n;
    invoice.holdMinor = null;
  }

  /**
   * The invoice's sums become `next` (null: nothing received after all), and its account moves
   * by the difference: a pay-in's credit, a pay-out's debit (taken from its hold).
   */
  apply(invoice: InvoiceRecord, next: Settlement | null): void {
    const before = invoice.settlement?.payoutMinor ?? 0n;
    const after = next?.payoutMinor ?? 0n;
    if (invoice.type === 'out') {
      this.release(invoice);
      invoice.merchant.balanceMinor -= after - before;
    } else {
      invoice.merchant.balanceMinor += after - before;
    }
    invoice.settlement = next;
  }

  /** What the account has frozen at `now`: running pay-outs' holds and withdrawals not yet sent. */
  frozen(merchant: MerchantRecord, invoices: Iterable<InvoiceRecord>, withdrawals: Iterable<WithdrawalRecord>, now: number): bigint {
    let total = 0n;
    for (const invoice of invoices) if (invoice.merchant === merchant) total += invoice.holdMinor ?? 0n;
    for (const withdrawal of withdrawals)
      if (withdrawal.apiKey === merchant.apiKey && withdrawal.txAt > now) total += withdrawal.sumMinor + withdrawal.feeMinor;
    return total;
  }
}
