/**
 * The mock's state and every transition of it: invoices, deals, withdrawals and balances. A
 * status never moves on from a final one; each invoice status change is reported to
 * `onChange` (the notifier listens). Imports records, errors, requisites, money, clock, options.
 */
import type { MockClock } from './clock.js';
import { MockControlError, notFound, refused } from './errors.js';
import { convert, percentOf, toMinor } from './money.js';
import { DEFAULTS, subunitOf } from './options.js';
import type { Random } from './random.js';
import {
  FINAL_DEAL_STATUSES,
  FINAL_INVOICE_STATUSES,
  activeDeal,
  type DealRecord,
  type InvoiceRecord,
  type InvoiceStatus,
  type MerchantRecord,
  type WithdrawalRecord,
} from './records.js';
import { drawRequisites, type Variant } from './requisites.js';

export interface StoreOptions {
  clock: MockClock;
  random: Random;
  newId: () => string;
  baseUrl: string;
  dealTtlMs: { min: number; max: number };
  serviceFeePercent: string;
  dealIdIsInvoiceId: boolean;
  noRequisites: readonly string[];
  onChange: (invoice: InvoiceRecord, previousStatus: InvoiceStatus) => void;
}

export type NewInvoice = Omit<InvoiceRecord, 'id' | 'status' | 'settlement' | 'createdAt' | 'expireAt' | 'updatedAt' | 'invoiceUrl' | 'deals'> & {
  ttlMs: number;
  invoicePageUrl: string;
};

export class Store {
  readonly invoices = new Map<string, InvoiceRecord>();
  readonly withdrawals = new Map<string, WithdrawalRecord>();
  /** Bank codes without free requisites; `*` for all. */
  readonly noRequisites: Set<string>;
  readonly #o: StoreOptions;

  constructor(options: StoreOptions) {
    this.#o = options;
    this.noRequisites = new Set(options.noRequisites);
  }

  now(): number {
    return this.#o.clock.now();
  }

  invoice(id: string): InvoiceRecord {
    const found = this.invoices.get(id.toLowerCase());
    if (!found) throw notFound(`no invoice ${id}`);
    return found;
  }

  add(invoice: InvoiceRecord): void {
    this.invoices.set(invoice.id, invoice);
    this.#o.clock.at(invoice.expireAt, () => this.sweep());
    for (const deal of invoice.deals) if (deal.isActive) this.#o.clock.at(deal.canceledAt, () => this.sweep());
  }

  create(input: NewInvoice): InvoiceRecord {
    const at = this.now();
    const id = this.#o.newId();
    const { ttlMs, invoicePageUrl, ...fields } = input;
    const invoice: InvoiceRecord = {
      ...fields,
      id,
      status: 'new',
      settlement: null,
      createdAt: at,
      expireAt: at + ttlMs,
      updatedAt: at,
      invoiceUrl: `${invoicePageUrl}?id=${id}`,
      deals: [],
    };
    this.add(invoice);
    return invoice;
  }

  hasRequisites(method: string): boolean {
    return !this.noRequisites.has('*') && !this.noRequisites.has(method);
  }

  /** Starts a deal; null when no requisites are free for what was asked (null/absent = any variant). */
  startDeal(invoice: InvoiceRecord, asked: { option?: string | null; method?: string | null }): DealRecord | null {
    this.#require(invoice, ['new'], 'start a deal');
    if (invoice.type !== 'in') throw refused('Deals start only on pay-in invoices');
    if (activeDeal(invoice)) throw refused(`Invoice ${invoice.id} already has an active deal`);
    const variant = this.#choose(invoice, asked);
    if (!variant) return null;
    const at = this.now();
    const { min, max } = this.#o.dealTtlMs;
    const ttl = min + Math.floor((this.#o.random() * (max - min + 60_000)) / 60_000) * 60_000;
    const id = this.#o.dealIdIsInvoiceId && invoice.deals.length === 0 ? invoice.id : this.#o.newId();
    const drawn = drawRequisites(variant, this.#o.random, { amountMinor: invoice.amountMinor, currency: invoice.currency, invoiceId: invoice.id, baseUrl: this.#o.baseUrl });
    const deal: DealRecord = {
      id,
      type: invoice.type,
      status: 'transfer_waiting',
      paymentMethod: variant.method,
      paymentOption: variant.option,
      requisites: drawn.requisites,
      canceledAt: Math.min(at + Math.min(ttl, max), invoice.expireAt),
      rate: invoice.rate,
      isActive: true,
      qrCodeLink: drawn.qrCodeLink,
      disputeReason: null,
      disputeAmount: null,
      attachments: [],
      disputeResult: null,
      paidAt: null,
    };
    invoice.deals.push(deal);
    invoice.updatedAt = at;
    this.#o.clock.at(deal.canceledAt, () => this.sweep());
    return deal;
  }

  cancel(invoice: InvoiceRecord): void {
    this.#require(invoice, ['new'], 'cancel');
    // The documented cancel answer carries the invoice with an empty `deals` list.
    invoice.deals = [];
    this.#set(invoice, 'canceled');
  }

  confirmTransfer(invoice: InvoiceRecord, attachment: string | null): DealRecord {
    this.#require(invoice, ['new'], 'confirm a transfer');
    const deal = activeDeal(invoice);
    if (!deal || deal.status !== 'transfer_waiting') throw refused('Invoice has no deal waiting for a transfer');
    deal.status = 'transfer_confirmed';
    if (attachment) deal.attachments.push(attachment);
    invoice.updatedAt = this.now();
    return deal;
  }

  openDispute(invoice: InvoiceRecord, dispute: { dealId: string; reason: string; amount: string | null; attachment: string | null }): void {
    // Documented: 404 null when the invoice was not created or is canceled.
    if (invoice.status === 'canceled') throw notFound(`invoice ${invoice.id} is canceled`);
    this.#require(invoice, ['new'], 'open a dispute');
    const deal = invoice.deals.find((each) => each.id === dispute.dealId);
    if (!deal) throw refused(`This value is not valid. field: "dealId"`, 'validation_failed');
    if (!['transfer_waiting', 'transfer_confirmed', 'expired'].includes(deal.status)) throw refused(`Deal is ${deal.status}; a dispute is not possible`);
    Object.assign(deal, { status: 'dispute', isActive: true, disputeReason: dispute.reason, disputeAmount: dispute.amount });
    if (dispute.attachment) deal.attachments.push(dispute.attachment);
    this.#set(invoice, 'dispute');
  }

  /** The service's decision on a dispute: paid (with the disputed amount for `invalid_sum`) or canceled. */
  resolveDispute(invoice: InvoiceRecord, outcome: 'paid' | 'canceled'): void {
    this.#require(invoice, ['dispute'], 'resolve a dispute');
    const deal = invoice.deals.find((each) => each.status === 'dispute');
    if (deal) deal.disputeResult = outcome === 'paid' ? 'accepted' : 'rejected';
    if (outcome === 'paid') this.markPaid(invoice);
    else {
      this.#endDeals(invoice, 'canceled');
      this.#set(invoice, 'canceled');
    }
  }

  /** The payer paid (or a dispute was accepted): `paid`, the deal `completed`, the balance grows. */
  markPaid(invoice: InvoiceRecord): void {
    this.#require(invoice, ['new', 'dispute'], 'mark paid');
    const at = this.now();
    const deal = invoice.deals.find((each) => each.isActive);
    const taker = deal?.disputeAmount ? toMinor(deal.disputeAmount, invoice.subunit) : invoice.amountMinor;
    const maker = convert(taker, invoice.subunit, invoice.rate, subunitOf(DEFAULTS.settlementCurrency));
    const fee = percentOf(maker, this.#o.serviceFeePercent);
    invoice.settlement = { takerMinor: taker, makerMinor: maker, feeMinor: fee, payoutMinor: maker - fee };
    invoice.merchant.balanceMinor += maker - fee;
    if (deal) deal.paidAt = at;
    this.#endDeals(invoice, 'completed');
    this.#set(invoice, 'paid');
  }

  expire(invoice: InvoiceRecord, at = this.now()): void {
    this.#require(invoice, ['new'], 'expire');
    this.#endDeals(invoice, 'expired');
    if (invoice.expireAt > at) invoice.expireAt = at;
    this.#set(invoice, 'expired', at);
  }

  /** Applies what the clock says is due: invoices past `expireAt`, deals past their deadline. */
  sweep(): void {
    const at = this.now();
    for (const invoice of this.invoices.values()) {
      if (invoice.status !== 'new') continue;
      if (invoice.expireAt <= at) this.expire(invoice, invoice.expireAt);
      else
        for (const deal of invoice.deals) {
          if (deal.isActive && deal.status === 'transfer_waiting' && deal.canceledAt <= at) Object.assign(deal, { status: 'expired', isActive: false });
        }
    }
  }

  withdraw(merchant: MerchantRecord, apiKey: string, request: { accountId: string; amountMinor: bigint; feeMinor: bigint; address: string; txDelayMs: number }): WithdrawalRecord {
    if (request.amountMinor + request.feeMinor > merchant.balanceMinor) throw refused('Insufficient funds', 'insufficient_funds');
    merchant.balanceMinor -= request.amountMinor + request.feeMinor;
    const at = this.now();
    const currency = DEFAULTS.settlementCurrency;
    const withdrawal: WithdrawalRecord = {
      id: this.#o.newId(),
      apiKey,
      accountId: request.accountId,
      currency,
      subunit: subunitOf(currency),
      sumMinor: request.amountMinor,
      feeMinor: request.feeMinor,
      address: request.address,
      createdAt: at,
      txId: this.#o.newId().replace(/-/g, '') + this.#o.newId().replace(/-/g, ''),
      txAt: at + request.txDelayMs,
    };
    this.withdrawals.set(withdrawal.id, withdrawal);
    return withdrawal;
  }

  #choose(invoice: InvoiceRecord, asked: { option?: string | null; method?: string | null }): Variant | null {
    const { option, method } = asked;
    if (option && method) return this.hasRequisites(method) ? { option, method } : null;
    const fitting = invoice.variants.filter((v) => (!option || v.option === option) && (!method || v.method === method) && this.hasRequisites(v.method));
    if (fitting.length) return fitting[Math.floor(this.#o.random() * fitting.length) % fitting.length] ?? null;
    const fallback = { option: option ?? 'TO_CARD', method: method ?? invoice.variants[0]?.method ?? 'sberbank' };
    return (option || method) && this.hasRequisites(fallback.method) ? fallback : null;
  }

  #endDeals(invoice: InvoiceRecord, status: 'completed' | 'canceled' | 'expired'): void {
    for (const deal of invoice.deals) if (deal.isActive && !FINAL_DEAL_STATUSES.includes(deal.status)) Object.assign(deal, { status, isActive: false });
  }

  #require(invoice: InvoiceRecord, allowed: readonly InvoiceStatus[], action: string): void {
    if (!allowed.includes(invoice.status)) throw new MockControlError(400, 'invalid_state', `Can not ${action}: invoice ${invoice.id} is ${invoice.status}`);
  }

  #set(invoice: InvoiceRecord, status: InvoiceStatus, at = this.now()): void {
    const previous = invoice.status;
    if (FINAL_INVOICE_STATUSES.includes(previous)) throw refused(`Invoice ${invoice.id} is ${previous}`);
    invoice.status = status;
    invoice.updatedAt = at;
    this.#o.onChange(invoice, previous);
  }
}
