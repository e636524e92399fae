/**
 * The mock's records and how they are written as the DTOs of `merchant-api.md`, each with
 * exactly the field set of the reference's examples, in the order of its tables.
 */
import { CANCEL_FLOW, DEAL_RATES, DEFAULT_DEAL_RATE, WITHDRAWAL_STATUS_CREATED, returnUrl } from './assumptions.js';
import { money, type MoneyDTO } from './money.js';
import type { Variant } from './requisites.js';
import { isoWithOffset } from './time.js';

export interface MerchantRecord {
  apiKey: string;
  secretKey: string;
  storeId: number;
  storeName: string;
  accountId: string;
  successUrl?: string | undefined;
  cancelUrl?: string | undefined;
}

export interface DealRecord {
  id: string;
  type: 'in' | 'out';
  status: string;
  paymentMethodName: string;
  paymentMethod: string;
  paymentOption: string;
  requisites: { requisites: string; holder: string };
  /** When the deal is (or would be) canceled: the invoice's expiry, or the moment it expired. */
  canceledAt: number;
  rate: string;
  isActive: boolean;
  qrCodeLink: string | null;
}

export interface InvoiceRecord {
  id: string;
  merchant: MerchantRecord;
  internalId: string | null;
  userId: string | null;
  type: 'in' | 'out';
  status: string;
  paymentMethod: string | null;
  paymentOption: string | null;
  paymentRequisites: Record<string, unknown> | null;
  currency: string;
  subunit: number;
  amountMinor: bigint;
  /** Set when paid: the Money fields that are null while the invoice is new. */
  settlement: { received: bigint; fee: bigint; payout: bigint } | null;
  createdAt: number;
  expireAt: number;
  updatedAt: number;
  invoiceUrl: string;
  notificationUrl: string;
  notificationToken: string;
  variants: Variant[];
  deals: DealRecord[];
}

export interface WithdrawalRecord {
  id: string;
  merchant: MerchantRecord;
  accountId: string;
  currency: string;
  subunit: number;
  sumMinor: bigint;
  feeMinor: bigint;
  address: string;
  createdAt: number;
  /** The transaction id it gets once `txAt` has passed. */
  txId: string;
  txAt: number;
}

export const dealRate = (currency: string): string => DEAL_RATES[currency] ?? DEFAULT_DEAL_RATE;

const sumOf = (invoice: InvoiceRecord): MoneyDTO => money(invoice.amountMinor, invoice.currency, invoice.subunit);

/** A DealDTO; the lookup by internal id adds `disputeResult` and `attachments`. */
export const dealDto = (deal: DealRecord, form: 'create' | 'lookup') => ({
  id: deal.id,
  type: deal.type,
  status: deal.status,
  paymentMethodName: deal.paymentMethodName,
  paymentMethod: deal.paymentMethod,
  paymentOption: deal.paymentOption,
  requisites: { ...deal.requisites },
  canceledAt: isoWithOffset(deal.canceledAt),
  disputeAttachment: null,
  disputeReason: null,
  disputeReasonData: [] as unknown[],
  payment: null,
  rate: deal.rate,
  isActive: deal.isActive,
  qrCodeLink: deal.qrCodeLink,
  ...(form === 'lookup' ? { disputeResult: null, attachments: [] as unknown[] } : {}),
});

/** An InvoiceDTO as the create response (`create`) or the lookup by internal id (`lookup`) writes it. */
export const invoiceDto = (invoice: InvoiceRecord, form: 'create' | 'lookup') => {
  const settled = invoice.settlement;
  const amount = (minor: bigint | undefined) => (minor === undefined ? null : money(minor, invoice.currency, invoice.subunit));
  return {
    id: invoice.id,
    internalId: invoice.internalId,
    userId: invoice.userId,
    type: invoice.type,
    status: invoice.status,
    paymentMethod: invoice.paymentMethod,
    paymentOption: invoice.paymentOption,
    paymentRequisites: invoice.paymentRequisites === null ? null : structuredClone(invoice.paymentRequisites),
    sum: sumOf(invoice),
    storeId: invoice.merchant.storeId,
    storeName: invoice.merchant.storeName,
    receivedSumFromTaker: amount(settled?.received),
    receivedSumFromMaker: amount(settled?.received),
    serviceFeeSum: amount(settled?.fee),
    payoutSum: amount(settled?.payout),
    createdAt: isoWithOffset(invoice.createdAt),
    expireAt: isoWithOffset(invoice.expireAt),
    updatedAt: isoWithOffset(invoice.updatedAt),
    invoiceUrl: invoice.invoiceUrl,
    deals: invoice.deals.map((deal) => dealDto(deal, form)),
  };
};
export type InvoiceDto = ReturnType<typeof invoiceDto>;

/** The different set of invoice fields that the cancel operation answers with. */
export const canceledInvoiceDto = (invoice: InvoiceRecord) => ({
  id: invoice.id,
  internalId: invoice.internalId,
  type: invoice.type,
  paymentMethod: invoice.paymentMethod,
  paymentOption: invoice.paymentOption,
  paymentRequisites: invoice.paymentRequisites === null ? null : structuredClone(invoice.paymentRequisites),
  expiredAt: isoWithOffset(invoice.expireAt),
  sum: sumOf(invoice),
  status: invoice.status,
  deals: invoice.deals.map((deal) => dealDto(deal, 'lookup')),
  successUrl: invoice.merchant.successUrl ?? returnUrl(invoice.invoiceUrl, 'success'),
  cancelUrl: invoice.merchant.cancelUrl ?? returnUrl(invoice.invoiceUrl, 'cancel'),
  isSumChanged: false,
  flow: CANCEL_FLOW,
  flowData: null,
});

/** A WithdrawalDTO: the create response adds `status` and `accountId`; `txId` is set once `txAt` passed. */
export const withdrawalDto = (withdrawal: WithdrawalRecord, form: 'create' | 'lookup', now: number) => {
  const hasTx = now >= withdrawal.txAt;
  return {
    id: withdrawal.id,
    createdAt: isoWithOffset(withdrawal.createdAt),
    updatedAt: isoWithOffset(hasTx ? withdrawal.txAt : withdrawal.createdAt),
    sum: money(withdrawal.sumMinor, withdrawal.currency, withdrawal.subunit),
    fee: money(withdrawal.feeMinor, withdrawal.currency, withdrawal.subunit),
    address: withdrawal.address,
    txId: hasTx ? withdrawal.txId : null,
    ...(form === 'create' ? { status: WITHDRAWAL_STATUS_CREATED, accountId: withdrawal.accountId } : {}),
  };
};
