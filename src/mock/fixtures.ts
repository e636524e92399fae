/**
 * Fixtures: the state as JSON (times ISO 8601, amounts decimal text) that `dump()` writes and
 * the `fixtures` option reads back, so a run can start where another stopped. Hand-written
 * fixtures may leave out what has a default. Imports records, money, options, errors, time.
 */
import { MockControlError } from './errors.js';
import { fromMinor, toMinor } from './money.js';
import { DEFAULTS, subunitOf } from './options.js';
import {
  DEAL_STATUSES,
  INVOICE_STATUSES,
  type DealRecord,
  type InvoiceRecord,
  type MerchantRecord,
  type Settlement,
  type WithdrawalRecord,
} from './records.js';
import { parseInstant } from './time.js';

type Loose = Record<string, unknown>;

const iso = (ms: number): string => new Date(ms).toISOString();
const usdtSubunit = subunitOf(DEFAULTS.settlementCurrency);

const sumsOf = (s: Settlement | null, subunit: number) =>
  s && {
    taker: fromMinor(s.takerMinor, subunit),
    maker: fromMinor(s.makerMinor, usdtSubunit),
    fee: fromMinor(s.feeMinor, usdtSubunit),
    payout: fromMinor(s.payoutMinor, usdtSubunit),
  };

const dumpDeal = ({ canceledAt, paidAt, ...deal }: DealRecord) => ({
  ...deal,
  canceledAt: iso(canceledAt),
  paidAt: paidAt === null ? null : iso(paidAt),
});

export const dumpState = (
  invoices: Iterable<InvoiceRecord>,
  withdrawals: Iterable<WithdrawalRecord>,
  merchants: Iterable<MerchantRecord>,
) => ({
  version: 1,
  balances: Object.fromEntries([...merchants].map((m) => [m.apiKey, fromMinor(m.balanceMinor, usdtSubunit)])),
  invoices: [...invoices].map((invoice) => {
    const {
      merchant: _merchant,
      amountMinor,
      requestedMinor,
      settlement,
      expected,
      holdMinor,
      createdAt,
      expireAt,
      updatedAt,
      deals,
      removedDeals,
      ...rest
    } = invoice;
    return {
      ...rest,
      amount: fromMinor(amountMinor, invoice.subunit),
      requestedAmount: fromMinor(requestedMinor, invoice.subunit),
      settlement: sumsOf(settlement, invoice.subunit),
      expected: sumsOf(expected, invoice.subunit),
      hold: holdMinor === null ? null : fromMinor(holdMinor, usdtSubunit),
      createdAt: iso(createdAt),
      expireAt: iso(expireAt),
      updatedAt: iso(updatedAt),
      deals: deals.map(dumpDeal),
      removedDeals: removedDeals.map(dumpDeal),
    };
  }),
  withdrawals: [...withdrawals].map(({ sumMinor, feeMinor, createdAt, txAt, ...rest }) => ({
    ...rest,
    sum: fromMinor(sumMinor, rest.subunit),
    fee: fromMinor(feeMinor, rest.subunit),
    createdAt: iso(createdAt),
    txAt: iso(txAt),
  })),
});
/** The mock's state as `dump()` and `GET /__mock/state` write it and the `fixtures` option reads it. */
export type MockFixtures = ReturnType<typeof dumpState>;

const bad = (message: string): MockControlError => new MockControlError(400, 'bad_fixtures', `fixtures: ${message}`);

const time = (value: unknown, fallback: number, name: string): number => {
  if (value === undefined || value === null) return fallback;
  const ms = parseInstant(value);
  if (Number.isNaN(ms)) throw bad(`${name} is not a timestamp: ${JSON.stringify(value)}`);
  return ms;
};

/** A decimal from JSON: text, or a number written by hand. */
const decimal = (value: unknown, fallback: string): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : fallback;

const text = (value: unknown, fallback: string | null): string | null => (typeof value === 'string' ? value : fallback);

export interface LoadContext {
  merchants: Map<string, MerchantRecord>;
  now: number;
  newId: () => string;
  invoicePageUrl: string;
  invoiceTtlMs: number;
  rates: Record<string, string>;
}

export const loadFixtures = (data: unknown, context: LoadContext): { invoices: InvoiceRecord[]; withdrawals: WithdrawalRecord[] } => {
  const root = (typeof data === 'object' && data !== null ? data : {}) as Loose;
  const firstKey = [...context.merchants.keys()][0]!;
  const merchantOf = (apiKey: unknown): MerchantRecord => {
    const merchant = context.merchants.get(typeof apiKey === 'string' ? apiKey : firstKey);
    if (!merchant) throw bad(`unknown apiKey ${JSON.stringify(apiKey)}`);
    return merchant;
  };
  for (const [apiKey, balance] of Object.entries((root.balances ?? {}) as Loose))
    merchantOf(apiKey).balanceMinor = toMinor(decimal(balance, '0'), usdtSubunit);
  const invoices = ((root.invoices ?? []) as Loose[]).map((raw): InvoiceRecord => {
    const apiKey = typeof raw.apiKey === 'string' ? raw.apiKey : firstKey;
    const currency = text(raw.currency, 'RUB')!;
    const subunit = subunitOf(currency);
    const amountMinor = toMinor(decimal(raw.amount, '1000'), subunit);
    const status = (raw.status ?? 'new') as InvoiceRecord['status'];
    if (!INVOICE_STATUSES.includes(status)) throw bad(`unknown invoice status ${JSON.stringify(status)}`);
    const createdAt = time(raw.createdAt, context.now, 'createdAt');
    const id = text(raw.id, null) ?? context.newId();
    const usdt = (value: unknown) => toMinor(decimal(value, '0'), usdtSubunit);
    const sums = (value: unknown): Settlement | null => {
      const s = value as Loose | null | undefined;
      return s
        ? {
            takerMinor: toMinor(decimal(s.taker, '0'), subunit),
            makerMinor: usdt(s.maker),
            feeMinor: usdt(s.fee),
            payoutMinor: usdt(s.payout),
          }
        : null;
    };
    const rate = text(raw.rate, context.rates[currency] ?? DEFAULTS.defaultRate)!;
    const loadDeal = (deal: Loose): DealRecord => {
      const dealStatus = (deal.status ?? 'transfer_waiting') as DealRecord['status'];
      if (!DEAL_STATUSES.includes(dealStatus)) throw bad(`unknown deal status ${JSON.stringify(dealStatus)}`);
      return {
        id: text(deal.id, null) ?? context.newId(),
        type: deal.type === 'out' ? 'out' : 'in',
        status: dealStatus,
        paymentMethod: text(deal.paymentMethod, 'sberbank')!,
        paymentOption: text(deal.paymentOption, 'TO_CARD')!,
        requisites: (deal.requisites ?? { requisites: '4444 4444 4444 4444', holder: 'test' }) as DealRecord['requisites'],
        canceledAt: time(deal.canceledAt, createdAt + 15 * 60_000, 'canceledAt'),
        rate: text(deal.rate, rate)!,
        isActive: typeof deal.isActive === 'boolean' ? deal.isActive : !['canceled', 'completed', 'expired'].includes(dealStatus),
        qrCodeLink: text(deal.qrCodeLink, null),
        disputeReason: text(deal.disputeReason, null),
        disputeAmount: text(deal.disputeAmount, null),
        attachments: (deal.attachments ?? []) as string[],
        disputeResult: text(deal.disputeResult, null),
        paidAt: deal.paidAt ? time(deal.paidAt, createdAt, 'paidAt') : null,
      };
    };
    return {
      id,
      apiKey,
      merchant: merchantOf(apiKey),
      internalId: text(raw.internalId, null),
      userId: text(raw.userId, null),
      type: raw.type === 'out' ? 'out' : 'in',
      status,
      paymentMethod: text(raw.paymentMethod, null),
      paymentOption: text(raw.paymentOption, null),
      paymentRequisites: (raw.paymentRequisites ?? null) as Loose | null,
      currency,
      subunit,
      amountMinor,
      requestedMinor: raw.requestedAmount === undefined ? amountMinor : toMinor(decimal(raw.requestedAmount, '0'), subunit),
      uniqueAmount: raw.uniqueAmount === true,
      settlement: sums(raw.settlement),
      expected: sums(raw.expected),
      holdMinor: raw.hold === undefined || raw.hold === null ? null : usdt(raw.hold),
      rate,
      createdAt,
      expireAt: time(raw.expireAt, createdAt + context.invoiceTtlMs, 'expireAt'),
      updatedAt: time(raw.updatedAt, createdAt, 'updatedAt'),
      invoiceUrl: text(raw.invoiceUrl, `${context.invoicePageUrl}?id=${id}`)!,
      notificationUrl: text(raw.notificationUrl, 'http://127.0.0.1:9/notify')!,
      notificationToken: text(raw.notificationToken, 'fixture-token')!,
      successUrl: text(raw.successUrl, null),
      cancelUrl: text(raw.cancelUrl, null),
      crossBorderCurrency: text(raw.crossBorderCurrency, null),
      lang: text(raw.lang, null),
      variants: (raw.variants ?? [{ option: 'TO_CARD', method: 'sberbank' }]) as InvoiceRecord['variants'],
      deals: ((raw.deals ?? []) as Loose[]).map(loadDeal),
      removedDeals: ((raw.removedDeals ?? []) as Loose[]).map(loadDeal),
    };
  });
  const withdrawals = ((root.withdrawals ?? []) as Loose[]).map((raw): WithdrawalRecord => {
    const subunit = usdtSubunit;
    const createdAt = time(raw.createdAt, context.now, 'createdAt');
    return {
      id: text(raw.id, null) ?? context.newId(),
      apiKey: text(raw.apiKey, firstKey)!,
      accountId: text(raw.accountId, '')!,
      currency: DEFAULTS.settlementCurrency,
      subunit,
      sumMinor: toMinor(decimal(raw.sum, '0'), subunit),
      feeMinor: toMinor(decimal(raw.fee, '0'), subunit),
      address: text(raw.address, '')!,
      createdAt,
      txId: text(raw.txId, context.newId())!,
      txAt: time(raw.txAt, createdAt, 'txAt'),
    };
  });
  return { invoices, withdrawals };
};
