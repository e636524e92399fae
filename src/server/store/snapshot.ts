/**
 * What the merchant's books compare (docs/ARCHITECTURE.md, "The merchant's books"): the part
 * of an invoice that money or the order's state depend on, and the difference between two of
 * them. Two states with the same snapshot are the same news whatever their timestamps
 * (`updatedAt` and a notification's date only order them); any other difference is a change
 * the shop hears of: an amount (`sum`, `receivedSumFromTaker`, `receivedSumFromMaker`, a
 * deal's payment sums), the status, a deal's status or its dispute's reason or result.
 */
import type { Deal, Invoice, Money } from '../../schemas/index.js';
import { fingerprint, instant } from '../fingerprint.js';

/** One deal as the books see it. */
export interface DealSnapshot {
  /** The deal's id (null when the service gave none). */
  id: string | null;
  /** The deal's status (`transfer_waiting`, `completed`, `dispute`, …). */
  status: string;
  /** What the payer paid, in the invoice's currency (`payment.takerSum`), as `"5000.00 RUB"`. */
  takerSum: string | null;
  /** What the shop received, in the settlement currency (`payment.makerSum`). */
  makerSum: string | null;
  /** The service's fee (`payment.feeSum`). */
  feeSum: string | null;
  /** The dispute's reason (`no_payment`, `invalid_sum`, …), once one is open. */
  disputeReason: string | null;
  /** The dispute's result (`ACCEPTED`, `AMOUNT_CHANGED`, `TTL_EXPIRED`, …), once resolved. */
  disputeResult: string | null;
}

/** One state of an invoice as the books see it. Amounts are `"<decimal text> <currency>"`, never numbers. */
export interface InvoiceSnapshot {
  /** The invoice's status (`new`, `paid`, `dispute`, …). */
  status: string;
  /** The amount given at creation. */
  sum: string;
  /** The invoice's actual amount: unique amounts (`maxAmount`), or a correction or a dispute. */
  receivedSumFromTaker: string | null;
  /** What the shop received or sent (usually USDT). */
  receivedSumFromMaker: string | null;
  /** Its deals, as the service lists them. */
  deals: DealSnapshot[];
  /** The service's `updatedAt` (RFC 3339), which orders states; not part of what is compared. */
  updatedAt: string | null;
}

/** One field that changed, with its value before and after (null: absent). */
export interface FieldChange {
  /** `status`, `sum`, `receivedSumFromTaker`, `receivedSumFromMaker`, or `deals[<id>].<field>`. */
  field: string;
  /** The value before (null: absent). */
  from: string | null;
  /** The value now (null: absent). */
  to: string | null;
}

/** Decimal text without leading zeros and trailing fractional zeros: `05000.50` and `5000.5` are one amount. */
export const canonicalDecimal = (amount: string): string => {
  const [whole = '', fraction = ''] = amount.split('.');
  const int = whole.replace(/^0+(?=\d)/, '');
  const frac = fraction.replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
};

const moneyText = (money: Money | null | undefined): string | null =>
  money && typeof money.amount === 'string' ? `${money.amount} ${money.currency}` : null;

/** Money text compared by value: `"5000.00 RUB"` equals `"5000 RUB"`. */
const sameMoney = (a: string | null, b: string | null): boolean => {
  if (a === null || b === null) return a === b;
  const [amountA = '', currencyA] = a.split(' ');
  const [amountB = '', currencyB] = b.split(' ');
  return currencyA === currencyB && canonicalDecimal(amountA) === canonicalDecimal(amountB);
};

const textOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

const dealSnapshot = (deal: Deal): DealSnapshot => ({
  id: deal.id ?? null,
  status: deal.status,
  takerSum: moneyText(deal.payment?.takerSum),
  makerSum: moneyText(deal.payment?.makerSum),
  feeSum: moneyText(deal.payment?.feeSum),
  disputeReason: textOf(deal.disputeReason),
  disputeResult: textOf(deal.disputeResult),
});

/** The fields of an invoice the books read. */
export type SnapshotSource = Pick<Invoice, 'status' | 'sum' | 'receivedSumFromTaker' | 'receivedSumFromMaker' | 'deals' | 'updatedAt'>;

/** The snapshot of a normalized invoice (any form: a read, a notification's, a create answer). */
export const snapshotOf = (invoice: SnapshotSource): InvoiceSnapshot => ({
  status: invoice.status,
  sum: `${invoice.sum.amount} ${invoice.sum.currency}`,
  receivedSumFromTaker: moneyText(invoice.receivedSumFromTaker),
  receivedSumFromMaker: moneyText(invoice.receivedSumFromMaker),
  deals: invoice.deals.map(dealSnapshot),
  updatedAt: invoice.updatedAt ?? null,
});

/**
 * A notification's snapshot over the one before: a notification carries one `deal`, so the
 * deals it leaves out are kept (its deal replaces the one with the same id, or is added).
 */
export const mergeSnapshot = (previous: InvoiceSnapshot | undefined, notified: InvoiceSnapshot): InvoiceSnapshot => {
  if (!previous) return notified;
  const deals = [...previous.deals];
  for (const deal of notified.deals) {
    const index = deal.id === null ? -1 : deals.findIndex((each) => each.id === deal.id);
    if (index >= 0) deals[index] = deal;
    else deals.push(deal);
  }
  return { ...notified, deals };
};

const MONEY_FIELDS = ['sum', 'receivedSumFromTaker', 'receivedSumFromMaker'] as const;
const DEAL_MONEY_FIELDS = ['takerSum', 'makerSum', 'feeSum'] as const;
const DEAL_TEXT_FIELDS = ['status', 'disputeReason', 'disputeResult'] as const;

/** Every field that differs between `previous` (none: the first state the books see) and `next`. */
export const diffSnapshots = (previous: InvoiceSnapshot | undefined, next: InvoiceSnapshot): FieldChange[] => {
  const changes: FieldChange[] = [];
  const before = previous ?? {
    status: null,
    sum: null,
    receivedSumFromTaker: null,
    receivedSumFromMaker: null,
    deals: [] as DealSnapshot[],
  };
  if (before.status !== next.status) changes.push({ field: 'status', from: before.status, to: next.status });
  for (const field of MONEY_FIELDS) {
    if (!sameMoney(before[field], next[field])) changes.push({ field, from: before[field], to: next[field] });
  }
  next.deals.forEach((deal, index) => {
    const old = deal.id === null ? before.deals[index] : before.deals.find((each) => each.id === deal.id);
    const name = `deals[${deal.id ?? index}]`;
    for (const field of DEAL_TEXT_FIELDS) {
      const from = old?.[field] ?? null;
      if (from !== deal[field]) changes.push({ field: `${name}.${field}`, from, to: deal[field] });
    }
    for (const field of DEAL_MONEY_FIELDS) {
      const from = old?.[field] ?? null;
      if (!sameMoney(from, deal[field])) changes.push({ field: `${name}.payment.${field}`, from, to: deal[field] });
    }
  });
  return changes;
};

/** What two snapshots are compared by: everything but `updatedAt`, amounts in canonical form. */
export const snapshotPrint = (snapshot: InvoiceSnapshot): string => {
  const money = (text: string | null) => {
    if (text === null) return null;
    const [amount = '', currency = ''] = text.split(' ');
    return `${canonicalDecimal(amount)} ${currency}`;
  };
  return fingerprint(
    JSON.stringify([
      snapshot.status,
      MONEY_FIELDS.map((field) => money(snapshot[field])),
      snapshot.deals.map((deal) => [
        deal.id,
        ...DEAL_TEXT_FIELDS.map((field) => deal[field]),
        ...DEAL_MONEY_FIELDS.map((field) => money(deal[field])),
      ]),
    ]),
  );
};

/**
 * What kind of change `changes` is, for a shop's `switch`: a new status wins (`paid`,
 * `disputed`, `canceled`, `expired`, `reopened`), then a changed amount (`amount_corrected`),
 * then a dispute's result (`dispute_resolved`), then anything else about a deal (`deal_updated`).
 * The first state the books see of an invoice is `first_seen` unless its status says more.
 */
export type ChangeKind =
  | 'first_seen'
  | 'paid'
  | 'disputed'
  | 'canceled'
  | 'expired'
  | 'reopened'
  | 'status_changed'
  | 'amount_corrected'
  | 'dispute_resolved'
  | 'deal_updated';

const STATUS_KINDS: Readonly<Record<string, ChangeKind>> = {
  paid: 'paid',
  dispute: 'disputed',
  canceled: 'canceled',
  expired: 'expired',
  new: 'reopened',
};

export const changeKind = (previous: InvoiceSnapshot | undefined, changes: readonly FieldChange[], next: InvoiceSnapshot): ChangeKind => {
  const status = changes.find((change) => change.field === 'status');
  if (!previous) return next.status === 'new' ? 'first_seen' : (STATUS_KINDS[next.status] ?? 'status_changed');
  if (status) return STATUS_KINDS[next.status] ?? 'status_changed';
  if (changes.some((change) => isMoneyField(change.field))) return 'amount_corrected';
  if (changes.some((change) => change.field.endsWith('.disputeResult'))) return 'dispute_resolved';
  return 'deal_updated';
};

/** Whether a changed field is an amount. */
export const isMoneyField = (field: string): boolean => (MONEY_FIELDS as readonly string[]).includes(field) || field.includes('.payment.');

/** Whether `next` is older than `last` by the service's own timestamps (both known). */
export const isOlder = (next: InvoiceSnapshot, last: InvoiceSnapshot | undefined): boolean => {
  const nextAt = instant(next.updatedAt);
  const lastAt = instant(last?.updatedAt);
  return nextAt !== undefined && lastAt !== undefined && nextAt < lastAt;
};

/** What a notification states of an invoice: a snapshot whose every field may be left out (null). */
export type SnapshotClaim = { [Field in keyof InvoiceSnapshot]: Field extends 'deals' ? DealSnapshot[] : InvoiceSnapshot[Field] | null };

/**
 * What a claim (a notification's snapshot) states that `actual` (the service's read) does not
 * show: a status, an amount or a deal's status, payment or dispute that differs, or a deal the
 * service does not have. A field the claim leaves out (null) states nothing.
 */
export const contradictions = (claim: SnapshotClaim, actual: InvoiceSnapshot): FieldChange[] => {
  const found: FieldChange[] = [];
  if (claim.status !== null && claim.status !== actual.status) found.push({ field: 'status', from: actual.status, to: claim.status });
  for (const field of MONEY_FIELDS) {
    if (claim[field] !== null && !sameMoney(claim[field], actual[field])) found.push({ field, from: actual[field], to: claim[field] });
  }
  claim.deals.forEach((deal, index) => {
    const real = deal.id === null ? actual.deals[index] : actual.deals.find((each) => each.id === deal.id);
    const name = `deals[${deal.id ?? index}]`;
    if (!real) {
      found.push({ field: name, from: null, to: deal.status });
      return;
    }
    for (const field of DEAL_TEXT_FIELDS) {
      if (deal[field] !== null && deal[field] !== real[field])
        found.push({ field: `${name}.${field}`, from: real[field], to: deal[field] });
    }
    for (const field of DEAL_MONEY_FIELDS) {
      if (deal[field] !== null && !sameMoney(deal[field], real[field]))
        found.push({ field: `${name}.payment.${field}`, from: real[field], to: deal[field] });
    }
  });
  return found;
};
