/**
 * The mock's state as plain records: what an invoice, a deal, a merchant and a withdrawal
 * are inside the mock (times in ms, amounts in minor units), and the statuses of each.
 * Imports only the shared schemas' status lists.
 */

import { KNOWN_DEAL_STATUSES, KNOWN_INVOICE_STATUSES, TERMINAL_INVOICE_STATUSES } from '../schemas/invoice.js';

/** Invoice statuses, as documented (the shared schemas' list). */
export const INVOICE_STATUSES = KNOWN_INVOICE_STATUSES;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
/** Statuses nothing leaves. */
export const FINAL_INVOICE_STATUSES = TERMINAL_INVOICE_STATUSES;

/** Deal statuses, as documented (the shared schemas' list). */
export const DEAL_STATUSES = KNOWN_DEAL_STATUSES;
export type DealStatus = (typeof DEAL_STATUSES)[number];
export const FINAL_DEAL_STATUSES: readonly string[] = ['canceled', 'completed', 'expired'];

export const DISPUTE_REASONS = ['no_payment', 'invalid_sum'] as const;

export interface MerchantRecord {
  apiKey: string;
  secretKey: string;
  storeId: number;
  storeName: string;
  accountId: string;
  successUrl: string | null;
  cancelUrl: string | null;
  payIn: boolean;
  payOut: boolean;
  twoFactorEnabled: boolean;
  /**
   * The account's `sum`: what it may spend now. A running pay-out or a withdrawal not yet sent
   * has left it already and is counted in `frozenSum` (computed from them) until it is done.
   */
  balanceMinor: bigint;
}

export interface DealRecord {
  id: string;
  type: 'in' | 'out';
  status: DealStatus;
  paymentMethod: string;
  paymentOption: string;
  requisites: { requisites: string; holder: string };
  /** The deal's deadline (documented meaning of `canceledAt`), not the time of a cancel. */
  canceledAt: number;
  rate: string;
  isActive: boolean;
  qrCodeLink: string | null;
  disputeReason: string | null;
  /** `{amount}` with `invalid_sum`, else null (written as `[]`, as documented). */
  disputeAmount: string | null;
  /** Names of the files received (confirm-transfer, dispute). */
  attachments: string[];
  disputeResult: string | null;
  /** Set once paid: the sums of `payment`. */
  paidAt: number | null;
}

/** The four Money fields that are null while an invoice is new. */
export interface Settlement {
  takerMinor: bigint;
  makerMinor: bigint;
  feeMinor: bigint;
  payoutMinor: bigint;
}

export interface InvoiceRecord {
  id: string;
  /** The API key that created it: only that key sees it. */
  apiKey: string;
  merchant: MerchantRecord;
  internalId: string | null;
  userId: string | null;
  type: 'in' | 'out';
  status: InvoiceStatus;
  paymentMethod: string | null;
  paymentOption: string | null;
  paymentRequisites: Record<string, unknown> | null;
  currency: string;
  subunit: number;
  amountMinor: bigint;
  /** The amount asked for: `sum`. `amountMinor` is what the payer must send (`maxAmount` may raise it; `isSumChanged`). */
  requestedMinor: bigint;
  /** Unique amounts were asked for (`maxAmount`): the service picked `amountMinor`. */
  uniqueAmount: boolean;
  /** The sums of the money received (or, for a pay-out, sent); null until then. */
  settlement: Settlement | null;
  /**
   * The sums the service expects while nothing was received yet, written in the four sum fields
   * of an open invoice whose amount the service fixed (unique amounts, cross-border), as the
   * documented cross-border example shows; null otherwise.
   */
  expected: Settlement | null;
  /** A running pay-out's hold on its account (USDT minor units): frozen until it is sent or ends. */
  holdMinor: bigint | null;
  rate: string;
  createdAt: number;
  expireAt: number;
  updatedAt: number;
  invoiceUrl: string;
  notificationUrl: string;
  notificationToken: string;
  successUrl: string | null;
  cancelUrl: string | null;
  crossBorderCurrency: string | null;
  lang: string | null;
  variants: { option: string; method: string }[];
  deals: DealRecord[];
  /** Deals a cancel took off the invoice (the documented cancel answer lists none); a dispute opened later brings its deal back. */
  removedDeals: DealRecord[];
}

export interface WithdrawalRecord {
  id: string;
  apiKey: string;
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

export const activeDeal = (invoice: InvoiceRecord): DealRecord | undefined => invoice.deals.find((deal) => deal.isActive);
