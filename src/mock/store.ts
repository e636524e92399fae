/**
 * The mock's state and every transition of it: invoices, deals, withdrawals and balances. A
 * final status moves on only by a documented revision (a dispute opened on the service's side,
 * and its decision); each invoice status change, and a paid invoice's corrected amount, is
 * reported to `onChange` (the notifier listens). Where money moves is ledger.ts.
 * Imports records, errors, requisites, money, clock, options, banks, ledger, the shared dispute results.
 */
import { KNOWN_DISPUTE_RESULTS, isSuccessfulDisputeResult } from '../schemas/dispute.js';
import { bankOfCard } from './banks.js';
import type { MockClock } from './clock.js';
import { MockControlError, invalidField, notFound, refused } from './errors.js';
import { Ledger } from './ledger.js';
import { toMinor } from './money.js';
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

export type NewInvoice = Omit<
  InvoiceRecord,
  | 'id'
  | 'status'
  | 'settlement'
  | 'expected'
  | 'holdMinor'
  | 'createdAt'
  | 'expireAt'
  | 'updatedAt'
  | 'invoiceUrl'
  | 'deals'
  | 'removedDeals'
> & {
  ttlMs: number;
  invoicePageUrl: string;
  /** A pay-out's payee: the requisites of its one deal. */
  payee: { requisites: string; holder: string } | null;
};

/** A dispute as it is opened: by the merchant API (on a deal it names) or on the service's side (the latest deal). */
export interface DisputeOpening {
  dealId?: string;
  reason: string;
  amount: string | null;
  attachment: string | null;
}

/** Statuses a dispute may be opened from on the service's side (documented revisions). */
const SERVICE_DISPUTE_FROM: readonly InvoiceStatus[] = ['new', 'paid', 'expired', 'canceled'];
/** Deal statuses the merchant API's dispute takes: the payer paid, the deal is not settled. */
const MERCHANT_DISPUTE_DEALS: readonly string[] = ['transfer_waiting', 'transfer_confirmed', 'expired'];
/** Timestamps are whole seconds: a revision is stamped at least this long after the state it follows, so the two can be ordered. */
const REVISION_STEP_MS = 1_000;

export class Store {
  readonly invoices = new Map<string, InvoiceRecord>();
  /** The invoices still `new`: what a sweep looks at (every request sweeps; a day of invoices made that quadratic). */
  readonly #open = new Set<InvoiceRecord>();
  /** The latest invoice of each terminal and `internalId` (`GET …?internalId=`). */
  readonly #byInternalId = new Map<string, InvoiceRecord>();
  readonly withdrawals = new Map<string, WithdrawalRecord>();
  /** Bank codes without free requisites; `*` for all. */
  readonly noRequisites: Set<string>;
  readonly ledger: Ledger;
  readonly #o: StoreOptions;

  constructor(options: StoreOptions) {
    this.#o = options;
    this.noRequisites = new Set(options.noRequisites);
    this.ledger = new Ledger(options.serviceFeePercent);
  }

  now(): number {
    return this.#o.clock.now();
  }

  /** The latest invoice a terminal created with `internalId`. */
  byInternalId(apiKey: string, internalId: string): InvoiceRecord | undefined {
    return this.#byInternalId.get(`${apiKey}\u0000${internalId}`);
  }

  invoice(id: string): InvoiceRecord {
    const found = this.invoices.get(id.toLowerCase());
    if (!found) throw notFound(`no invoice ${id}`);
    return found;
  }

  add(invoice: InvoiceRecord): void {
    this.invoices.set(invoice.id, invoice);
    if (invoice.status === 'new') this.#open.add(invoice);
    if (invoice.internalId) this.#byInternalId.set(`${invoice.apiKey}\u0000${invoice.internalId}`, invoice);
    this.#o.clock.at(invoice.expireAt, () => this.sweep());
    for (const deal of invoice.deals) if (deal.isActive) this.#o.clock.at(deal.canceledAt, () => this.sweep());
  }

  /** A new invoice; a pay-out holds its cost (400 `Insufficient funds`) and gets its one deal to the payee. */
  create(input: NewInvoice): InvoiceRecord {
    const at = this.now();
    const { ttlMs, invoicePageUrl, payee, ...fields } = input;
    const invoice: InvoiceRecord = {
      ...fields,
      id: '',
      status: 'new',
      settlement: null,
      expected: null,
      holdMinor: null,
      createdAt: at,
      expireAt: at + ttlMs,
      updatedAt: at,
      invoiceUrl: '',
      deals: [],
      removedDeals: [],
    };
    if (invoice.type === 'out') this.ledger.hold(invoice);
    invoice.id = this.#o.newId();
    invoice.invoiceUrl = `${invoicePageUrl}?id=${invoice.id}`;
    if (invoice.type === 'in' && (invoice.uniqueAmount || invoice.crossBorderCurrency !== null))
      invoice.expected = this.ledger.settle(invoice, invoice.amountMinor);
    if (invoice.type === 'out' && payee) this.#payoutDeal(invoice, payee);
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
    const drawn = drawRequisites(variant, this.#o.random, {
      amountMinor: invoice.amountMinor,
      currency: invoice.currency,
      invoiceId: invoice.id,
      baseUrl: this.#o.baseUrl,
    });
    const deal = this.#deal(invoice, variant, drawn.requisites, drawn.qrCodeLink, 'transfer_waiting');
    this.#o.clock.at(deal.canceledAt, () => this.sweep());
    return deal;
  }

  cancel(invoice: InvoiceRecord): void {
    this.#require(invoice, ['new'], 'cancel');
    this.#endDeals(invoice, 'canceled');
    // The documented cancel answer carries the invoice with an empty `deals` list.
    invoice.removedDeals.push(...invoice.deals);
    invoice.deals = [];
    this.ledger.release(invoice);
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

  /**
   * Opens a dispute. `merchant`: the merchant API's, on a `new` invoice's deal it names (404 when
   * canceled, as documented). `service`: opened on the service's side (the trader, or the payer
   * through support) on the latest deal of a `new`, `paid`, `expired` or `canceled` invoice.
   */
  openDispute(invoice: InvoiceRecord, dispute: DisputeOpening, side: 'merchant' | 'service'): void {
    if (side === 'merchant' && invoice.status === 'canceled') throw notFound(`invoice ${invoice.id} is canceled`);
    this.#require(invoice, side === 'merchant' ? ['new'] : SERVICE_DISPUTE_FROM, 'open a dispute');
    if (invoice.type !== 'in') throw refused('Disputes are opened on pay-in invoices');
    const deal = side === 'merchant' ? invoice.deals.find((each) => each.id === dispute.dealId) : this.#latestDeal(invoice);
    if (!deal)
      throw side === 'merchant'
        ? refused(`This value is not valid. field: "dealId"`, 'validation_failed')
        : refused(`Invoice ${invoice.id} has no deal to dispute`);
    if (side === 'merchant' && !MERCHANT_DISPUTE_DEALS.includes(deal.status))
      throw refused(`Deal is ${deal.status}; a dispute is not possible`);
    Object.assign(deal, {
      status: 'dispute',
      isActive: true,
      disputeReason: dispute.reason,
      disputeAmount: dispute.amount,
      disputeResult: null,
    });
    if (dispute.attachment) deal.attachments.push(dispute.attachment);
    this.#set(invoice, 'dispute', this.now(), side === 'service');
  }

  /**
   * The service decides a dispute (`disputeResult`, upper case as documented). A successful
   * result makes the invoice `paid`: `AMOUNT_CHANGED` at `amountMinor`, an accepted `invalid_sum`
   * at the disputed amount, else at what was paid (or is to be paid). A failed one makes it
   * `canceled` and takes back whatever had been received (README, "Choices").
   */
  resolveDispute(invoice: InvoiceRecord, result: string, amountMinor: bigint | null = null): void {
    if (!(KNOWN_DISPUTE_RESULTS as readonly string[]).includes(result))
      throw invalidField('result', `must be one of ${KNOWN_DISPUTE_RESULTS.join(', ')}, got ${JSON.stringify(result)}`);
    if (result === 'AMOUNT_CHANGED' && amountMinor === null)
      throw invalidField('amount', 'is required with AMOUNT_CHANGED (the settled amount)');
    if (result !== 'AMOUNT_CHANGED' && amountMinor !== null) throw invalidField('amount', 'goes only with AMOUNT_CHANGED');
    if (amountMinor !== null && amountMinor <= 0n) throw invalidField('amount', 'must be greater than zero');
    this.#require(invoice, ['dispute'], 'resolve a dispute');
    const deal = invoice.deals.find((each) => each.status === 'dispute');
    if (deal) deal.disputeResult = result;
    if (isSuccessfulDisputeResult(result)) {
      const disputed = deal?.disputeReason === 'invalid_sum' && deal.disputeAmount ? toMinor(deal.disputeAmount, invoice.subunit) : null;
      this.#pay(invoice, amountMinor ?? disputed ?? invoice.settlement?.takerMinor ?? invoice.amountMinor);
      return;
    }
    this.ledger.apply(invoice, null);
    for (const each of invoice.deals) each.paidAt = null;
    this.#endDeals(invoice, 'canceled');
    this.#set(invoice, 'canceled');
  }

  /** The payer paid, or a pay-out was sent: `paid`, the deal `completed`, the account moves. A dispute is accepted. */
  markPaid(invoice: InvoiceRecord): void {
    if (invoice.status === 'dispute') return this.resolveDispute(invoice, 'ACCEPTED');
    this.#require(invoice, ['new'], 'mark paid');
    this.#pay(invoice, invoice.amountMinor);
  }

  /**
   * The service corrects a paid pay-in's amount: the four sums and the deal's `payment` at the
   * invoice's rate, the credit by the difference, a later `updatedAt`, and another `paid`.
   */
  correctAmount(invoice: InvoiceRecord, amountMinor: bigint): void {
    if (amountMinor <= 0n) throw invalidField('amount', 'must be greater than zero');
    this.#require(invoice, ['paid'], 'correct the amount');
    if (invoice.type !== 'in') throw refused("Only a pay-in's amount is corrected");
    if (amountMinor === invoice.settlement?.takerMinor) throw invalidField('amount', 'is the amount the invoice has already');
    this.ledger.apply(invoice, this.ledger.settle(invoice, amountMinor));
    this.#stamp(invoice, this.now(), true);
    this.#o.onChange(invoice, 'paid');
  }

  expire(invoice: InvoiceRecord, at = this.now()): void {
    this.#require(invoice, ['new'], 'expire');
    this.#endDeals(invoice, 'expired');
    this.ledger.release(invoice);
    if (invoice.expireAt > at) invoice.expireAt = at;
    this.#set(invoice, 'expired', at);
  }

  /** Applies what the clock says is due: invoices past `expireAt`, deals past their deadline. */
  sweep(): void {
    const at = this.now();
    for (const invoice of this.#open) {
      if (invoice.status !== 'new') continue;
      if (invoice.expireAt <= at) this.expire(invoice, invoice.expireAt);
      else
        for (const deal of invoice.deals) {
          if (deal.isActive && deal.status === 'transfer_waiting' && deal.canceledAt <= at)
            Object.assign(deal, { status: 'expired', isActive: false });
        }
    }
  }

  /** A withdrawal leaves the account's sum at once and stays frozen until it is sent (`txAt`). */
  withdraw(
    merchant: MerchantRecord,
    apiKey: string,
    request: {
      accountId: string;
      amountMinor: bigint;
      feeMinor: bigint;
      address: string;
      txDelayMs: number;
      currency: string;
      subunit: number;
    },
  ): WithdrawalRecord {
    if (request.amountMinor + request.feeMinor > merchant.balanceMinor) throw refused('Insufficient funds', 'insufficient_funds');
    merchant.balanceMinor -= request.amountMinor + request.feeMinor;
    const at = this.now();
    const withdrawal: WithdrawalRecord = {
      id: this.#o.newId(),
      apiKey,
      accountId: request.accountId,
      currency: request.currency,
      subunit: request.subunit,
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

  /** What `merchant`'s account has frozen now. */
  frozen(merchant: MerchantRecord): bigint {
    return this.ledger.frozen(merchant, this.invoices.values(), this.withdrawals.values(), this.now());
  }

  #pay(invoice: InvoiceRecord, takerMinor: bigint): void {
    const deal = invoice.deals.find((each) => each.isActive);
    this.ledger.apply(invoice, this.ledger.settle(invoice, takerMinor));
    if (deal) deal.paidAt ??= this.now();
    this.#endDeals(invoice, 'completed');
    this.#set(invoice, 'paid');
  }

  /** A pay-out's one deal, to the payee, `new` (documented); `unknown` asks for the bank of the card number. */
  #payoutDeal(invoice: InvoiceRecord, payee: { requisites: string; holder: string }): DealRecord {
    const given = invoice.paymentMethod ?? 'unknown';
    const method = given === 'unknown' && invoice.paymentOption === 'TO_CARD' ? (bankOfCard(payee.requisites)?.code ?? given) : given;
    return this.#deal(invoice, { option: invoice.paymentOption ?? 'TO_CARD', method }, { ...payee }, null, 'new');
  }

  #deal(
    invoice: InvoiceRecord,
    variant: Variant,
    requisites: DealRecord['requisites'],
    qrCodeLink: string | null,
    status: DealRecord['status'],
  ): DealRecord {
    const at = this.now();
    const { min, max } = this.#o.dealTtlMs;
    const ttl = min + Math.floor((this.#o.random() * (max - min + 60_000)) / 60_000) * 60_000;
    const deal: DealRecord = {
      id: this.#o.dealIdIsInvoiceId && invoice.deals.length === 0 ? invoice.id : this.#o.newId(),
      type: invoice.type,
      status,
      paymentMethod: variant.method,
      paymentOption: variant.option,
      requisites,
      canceledAt: Math.min(at + Math.min(ttl, max), invoice.expireAt),
      rate: invoice.rate,
      isActive: true,
      qrCodeLink,
      disputeReason: null,
      disputeAmount: null,
      attachments: [],
      disputeResult: null,
      paidAt: null,
    };
    invoice.deals.push(deal);
    invoice.updatedAt = at;
    return deal;
  }

  /** The deal a dispute on the service's side is about: the latest, or the one a cancel took off. */
  #latestDeal(invoice: InvoiceRecord): DealRecord | undefined {
    const shown = invoice.deals.at(-1);
    if (shown) return shown;
    const removed = invoice.removedDeals.pop();
    if (removed) invoice.deals.push(removed);
    return removed;
  }

  #choose(invoice: InvoiceRecord, asked: { option?: string | null; method?: string | null }): Variant | null {
    const { option, method } = asked;
    if (option && method) return this.hasRequisites(method) ? { option, method } : null;
    const fitting = invoice.variants.filter(
      (v) => (!option || v.option === option) && (!method || v.method === method) && this.hasRequisites(v.method),
    );
    if (fitting.length) return fitting[Math.floor(this.#o.random() * fitting.length) % fitting.length] ?? null;
    const fallback = { option: option ?? 'TO_CARD', method: method ?? invoice.variants[0]?.method ?? 'sberbank' };
    return (option || method) && this.hasRequisites(fallback.method) ? fallback : null;
  }

  #endDeals(invoice: InvoiceRecord, status: 'completed' | 'canceled' | 'expired'): void {
    for (const deal of invoice.deals)
      if (deal.isActive && !FINAL_DEAL_STATUSES.includes(deal.status)) Object.assign(deal, { status, isActive: false });
  }

  #require(invoice: InvoiceRecord, allowed: readonly InvoiceStatus[], action: string): void {
    if (!allowed.includes(invoice.status))
      throw new MockControlError(400, 'invalid_state', `Can not ${action}: invoice ${invoice.id} is ${invoice.status}`);
  }

  /** `updatedAt` of a change; one that revises a reported state comes at least a second after it. */
  #stamp(invoice: InvoiceRecord, at: number, revision: boolean): void {
    invoice.updatedAt = revision ? Math.max(at, invoice.updatedAt + REVISION_STEP_MS) : at;
  }

  /** A status change; only a `revision` (documented: a dispute opened by the service) leaves a final status. */
  #set(invoice: InvoiceRecord, status: InvoiceStatus, at = this.now(), revision = false): void {
    const previous = invoice.status;
    if (FINAL_INVOICE_STATUSES.includes(previous) && !revision) throw refused(`Invoice ${invoice.id} is ${previous}`);
    invoice.status = status;
    if (status === 'new') this.#open.add(invoice);
    else this.#open.delete(invoice);
    this.#stamp(invoice, at, previous !== 'new');
    this.#o.onChange(invoice, previous);
  }
}
