/**
 * How records are written as the documented objects: InvoiceDTO (create, lookups, start-deal,
 * confirm-transfer, dispute), the cancel variant, Notifications\InvoiceDTO with its one
 * `deal`, WithdrawalDTO. Field sets and order follow the documentation's examples.
 * Imports records, money, time, banks, options.
 */
import { bankByCode } from './banks.js';
import { money } from './money.js';
import { DEFAULTS, WITHDRAWAL_STATUS_CREATED, subunitOf } from './options.js';
import type { DealRecord, InvoiceRecord, WithdrawalRecord } from './records.js';
import { isoWithOffset } from './time.js';

export interface DtoOptions {
  utcOffsetMinutes: number;
  paymentMethodName: 'create' | 'always' | 'never';
}

/** `[]` when empty, `{"amount": "210"}` when set: as documented. */
const disputeReasonData = (deal: DealRecord): Record<string, string> | never[] => (deal.disputeAmount === null ? [] : { amount: deal.disputeAmount });

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

const sums = (invoice: InvoiceRecord) => {
  const s = invoice.settlement;
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
  sum: money(invoice.amountMinor, invoice.currency, invoice.subunit),
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

/** The other set of invoice fields the cancel operation answers with (documented example). */
export const canceledInvoiceDto = (invoice: InvoiceRecord, o: DtoOptions) => ({
  id: invoice.id,
  internalId: invoice.internalId,
  type: invoice.type,
  paymentMethod: invoice.paymentMethod,
  paymentOption: invoice.paymentOption,
  paymentRequisites: invoice.paymentRequisites === null ? null : structuredClone(invoice.paymentRequisites),
  expiredAt: isoWithOffset(invoice.expireAt, o.utcOffsetMinutes),
  sum: money(invoice.amountMinor, invoice.currency, invoice.subunit),
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
    sum: money(invoice.amountMinor, invoice.currency, invoice.subunit),
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
