/**
 * How records are written as the documented objects: InvoiceDTO (create, lookups, start-deal,
 * confirm-transfer, dispute), the pay-out's create answer, the cancel variant,
 * Notifications\InvoiceDTO with its one `deal`, WithdrawalDTO, AccountDTO. Field sets and
 * order follow the documentation's examples.
 * Imports records, money, time, banks, options.
 */
import { bankByCode } from './banks.js';
import { money, toMinor } from './money.js';
import { DEFAULTS, WITHDRAWAL_STATUS_CREATED, subunitOf } from './options.js';
import type { DealRecord, InvoiceRecord, MerchantRecord, WithdrawalRecord } from './records.js';
import { isoWithOffset } from './time.js';

export interface DtoOptions {
  utcOffsetMinutes: number;
  paymentMethodName: 'create' | 'always' | 'never';
}

/** `[]` when empty, `{"amount": "210"}` when set: as documented. */
const disputeReasonData = (deal: DealRecord): Record<string, string> | never[] =>
  deal.disputeAmount === null ? [] : { amount: deal.disputeAmount };

const usdt = (minor: bigint) => money(minor, DEFAULTS.settlementCurrency, subunitOf(DEFAULTS.settlementCurrency));

const paymentOf = (invoice: InvoiceRecord, deal: DealRecord, o: DtoOptions) => {
  const s = invoice.settlement;
  if (deal.paidAt === null || !s) return null;
  return {
    takerSum: money(s.takerMinor, invoice.currency, invoice.subunit),
    makerSum: usdt(s.makerMinor),
    feeSum: usdt(s.feeMinor),
    date: isoWithOffset(deal.paidAt, o.utcOffsetMinutes),
  };
};

/** The fields a deal has in every form, from `paymentMethod` to `payment`, in the documented order. */
const dealCore = (invoice: InvoiceRecord, deal: DealRecord, o: DtoOptions) => ({
  paymentMethod: deal.paymentMethod,
  paymentOption: deal.paymentOption,
  requisites: { ...deal.requisites },
  canceledAt: isoWithOffset(deal.canceledAt, o.utcOffsetMinutes),
  disputeAttachment: null,
  disputeReason: deal.disputeReason,
  disputeReasonData: disputeReasonData(deal),
  payment: paymentOf(invoice, deal, o),
});

/** A DealDTO; `form` tells whether `paymentMethodName` is written (see the option). */
export const dealDto = (invoice: InvoiceRecord, deal: DealRecord, o: DtoOptions, form: 'create' | 'other') => ({
  id: deal.id,
  type: deal.type,
  status: deal.status,
  ...(o.paymentMethodName === 'always' || (o.paymentMethodName === 'create' && form === 'create')
    ? { paymentMethodName: bankByCode(deal.paymentMethod)?.name ?? deal.paymentMethod }
    : {}),
  ...dealCore(invoice, deal, o),
  rate: deal.rate,
  isActive: deal.isActive,
  qrCodeLink: deal.qrCodeLink,
  disputeResult: deal.disputeResult,
  attachments: [...deal.attachments],
});

/** The four sums: what was received (or sent), else what an open invoice whose amount the service fixed expects. */
const sums = (invoice: InvoiceRecord) => {
  const s = invoice.settlement ?? (invoice.status === 'new' ? invoice.expected : null);
  return {
    receivedSumFromTaker: s ? money(s.takerMinor, invoice.currency, invoice.subunit) : null,
    receivedSumFromMaker: s ? usdt(s.makerMinor) : null,
    serviceFeeSum: s ? usdt(s.feeMinor) : null,
    payoutSum: s ? usdt(s.payoutMinor) : null,
  };
};

/** An InvoiceDTO with its `deals`. */
export const invoiceDto = (invoice: InvoiceRecord, o: DtoOptions, form: 'create' | 'other' = 'other') => ({
  id: invoice.id,
  internalId: invoice.internalId,
  userId: invoice.userId,
  type: invoice.type,
  status: invoice.status,
  paymentMethod: invoice.paymentMethod,
  paymentOption: invoice.paymentOption,
  paymentRequisites: invoice.paymentRequisites === null ? null : structuredClone(invoice.paymentRequisites),
  sum: money(invoice.requestedMinor, invoice.currency, invoice.subunit),
  storeId: invoice.merchant.storeId,
  storeName: invoice.merchant.storeName,
  ...sums(invoice),
  createdAt: isoWithOffset(invoice.createdAt, o.utcOffsetMinutes),
  expireAt: isoWithOffset(invoice.expireAt, o.utcOffsetMinutes),
  updatedAt: isoWithOffset(invoice.updatedAt, o.utcOffsetMinutes),
  invoiceUrl: invoice.invoiceUrl,
  ...(invoice.crossBorderCurrency ? { crossBorderCurrency: invoice.crossBorderCurrency } : {}),
  deals: invoice.deals.map((deal) => dealDto(invoice, deal, o, form)),
});
/** An invoice as the mock answers it: the documented InvoiceDTO. */
export type InvoiceDto = ReturnType<typeof invoiceDto>;

/**
 * The create answer of a pay-out, as the documented example: no `invoiceUrl` (no payment page),
 * and its one deal (to the payee) without `qrCodeLink`, `disputeResult` or `attachments`.
 */
export const payoutCreatedDto = (invoice: InvoiceRecord, o: DtoOptions) => {
  const { invoiceUrl: _url, deals: _deals, ...fields } = invoiceDto(invoice, o, 'other');
  return {
    ...fields,
    deals: invoice.deals.map((deal) => ({
      id: deal.id,
      type: deal.type,
      status: deal.status,
      ...dealCore(invoice, deal, o),
      rate: deal.rate,
      isActive: deal.isActive,
    })),
  };
};

/** The other set of invoice fields the cancel operation answers with (documented example). */
export const canceledInvoiceDto = (invoice: InvoiceRecord, o: DtoOptions) => ({
  id: invoice.id,
  internalId: invoice.internalId,
  type: invoice.type,
  paymentMethod: invoice.paymentMethod,
  paymentOption: invoice.paymentOption,
  paymentRequisites: invoice.paymentRequisites === null ? null : structuredClone(invoice.paymentRequisites),
  expiredAt: isoWithOffset(invoice.expireAt, o.utcOffsetMinutes),
  sum: money(invoice.requestedMinor, invoice.currency, invoice.subunit),
  status: invoice.status,
  deals: invoice.deals.map((deal) => dealDto(invoice, deal, o, 'other')),
  successUrl: invoice.successUrl,
  cancelUrl: invoice.cancelUrl,
  isSumChanged: invoice.amountMinor !== invoice.requestedMinor,
  flow: 'DEFAULT',
  flowData: null,
});

/** Notifications\InvoiceDTO: one `deal` (the latest, or null), no `deals`, `userId`, variant or URL. */
export const notificationInvoiceDto = (invoice: InvoiceRecord, o: DtoOptions) => {
  const deal = invoice.deals.find((each) => each.isActive) ?? invoice.deals.at(-1);
  return {
    id: invoice.id,
    internalId: invoice.internalId,
    type: invoice.type,
    status: invoice.status,
    sum: money(invoice.requestedMinor, invoice.currency, invoice.subunit),
    storeId: invoice.merchant.storeId,
    storeName: invoice.merchant.storeName,
    ...sums(invoice),
    rate: invoice.rate,
    createdAt: isoWithOffset(invoice.createdAt, o.utcOffsetMinutes),
    expireAt: isoWithOffset(invoice.expireAt, o.utcOffsetMinutes),
    updatedAt: isoWithOffset(invoice.updatedAt, o.utcOffsetMinutes),
    deal: deal
      ? {
          id: deal.id,
          type: deal.type,
          status: deal.status,
          ...dealCore(invoice, deal, o),
          attachments: [...deal.attachments],
          disputeResult: deal.disputeResult,
        }
      : null,
  };
};

/** The documented AccountDTO: `sum` (what the account may spend), `frozenSum`, `withdrawalFee`. */
export const accountDto = (merchant: MerchantRecord, frozenMinor: bigint) => ({
  id: merchant.accountId,
  currency: DEFAULTS.settlementCurrency,
  sum: usdt(merchant.balanceMinor),
  frozenSum: usdt(frozenMinor),
  withdrawalFee: usdt(toMinor(DEFAULTS.withdrawalFee, subunitOf(DEFAULTS.settlementCurrency))),
});
/** An account as the mock answers it: the documented AccountDTO. */
export type AccountDto = ReturnType<typeof accountDto>;

/** A WithdrawalDTO: the create answer adds `status` and `accountId`; `txId` is set once `txAt` passed. */
export const withdrawalDto = (withdrawal: WithdrawalRecord, o: DtoOptions, form: 'create' | 'lookup', now: number) => {
  const hasTx = now >= withdrawal.txAt;
  return {
    id: withdrawal.id,
    createdAt: isoWithOffset(withdrawal.createdAt, o.utcOffsetMinutes),
    updatedAt: isoWithOffset(hasTx ? withdrawal.txAt : withdrawal.createdAt, o.utcOffsetMinutes),
    sum: money(withdrawal.sumMinor, withdrawal.currency, withdrawal.subunit),
    fee: money(withdrawal.feeMinor, withdrawal.currency, withdrawal.subunit),
    address: withdrawal.address,
    txId: hasTx ? withdrawal.txId : null,
    ...(form === 'create' ? { status: WITHDRAWAL_STATUS_CREATED, accountId: withdrawal.accountId } : {}),
  };
};
