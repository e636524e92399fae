/**
 * The allow-list: what of the service's invoice reaches the payer's browser. The proxy builds
 * every answer with these functions and never forwards an upstream object, so a token, a
 * payout or fee sum, a store id or a field the service adds tomorrow cannot leak.
 */
import {
  TERMINAL_INVOICE_STATUSES,
  requisitesKind,
  type CanceledInvoice,
  type CheckoutCanceledInvoice,
  type CheckoutDeal,
  type CheckoutInvoice,
  type CheckoutReceiptsPolicy,
  type Deal,
  type Invoice,
  type Money,
  type PaymentVariant,
} from '../../schemas/index.js';
import { deepFreeze } from '../immutable.js';

/** Copies the keys whose value is defined: `undefined` never becomes a key of an answer. */
const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;

/** A deal as the element may see it: only the allow-listed fields (see {@link projectInvoice}). */
export const projectDeal = (deal: Deal): CheckoutDeal =>
  defined({
    id: deal.id,
    status: deal.status,
    paymentMethod: deal.paymentMethod ?? null,
    paymentOption: deal.paymentOption ?? null,
    paymentMethodName: deal.paymentMethodName,
    requisites: { requisites: deal.requisites?.requisites ?? null, holder: deal.requisites?.holder ?? null },
    requisitesKind: deal.requisites?.requisites ? requisitesKind(deal.requisites.requisites, deal.paymentOption) : undefined,
    canceledAt: deal.canceledAt,
    isActive: deal.isActive,
    qrCodeLink: deal.qrCodeLink,
    disputeReason: deal.disputeReason,
  });

const moneyOf = (money: Money | null | undefined): Money | undefined =>
  money ? { amount: money.amount, currency: money.currency, subunit: money.subunit } : undefined;

/** The paid deal's amount: the completed one, else the last with a payment. */
const paidDealSum = (invoice: Invoice | CanceledInvoice): Money | null | undefined =>
  (
    invoice.deals.find((deal) => deal.status === 'completed' && deal.payment?.takerSum) ??
    [...invoice.deals].reverse().find((deal) => deal.payment?.takerSum)
  )?.payment?.takerSum;

/**
 * The amounts besides `sum` the payer is shown: the one to send while the invoice is open (the
 * service's `receivedSumFromTaker`), the one settled once it is paid.
 */
const amountsOf = (invoice: Invoice | CanceledInvoice) => {
  if (invoice.status === 'paid') return { amountPaid: moneyOf(invoice.receivedSumFromTaker ?? paidDealSum(invoice)) };
  if (TERMINAL_INVOICE_STATUSES.includes(invoice.status)) return {};
  return { amountDue: moneyOf(invoice.receivedSumFromTaker) };
};

const commonFields = (invoice: Invoice | CanceledInvoice) => ({
  id: invoice.id,
  internalId: invoice.internalId,
  storeName: invoice.storeName,
  type: invoice.type,
  status: invoice.status,
  sum: { amount: invoice.sum.amount, currency: invoice.sum.currency, subunit: invoice.sum.subunit },
  paymentMethod: invoice.paymentMethod,
  paymentOption: invoice.paymentOption,
  updatedAt: invoice.updatedAt,
  successUrl: invoice.successUrl,
  cancelUrl: invoice.cancelUrl,
  isSumChanged: invoice.isSumChanged,
  crossBorderCurrency: invoice.crossBorderCurrency,
  ...amountsOf(invoice),
  deals: invoice.deals.map(projectDeal),
});

/** What the proxy adds to an invoice's projection besides the service's fields. */
export interface InvoiceProjectionExtras {
  /** The merchant's receipt policy for this invoice (`receipts` of the answer). */
  receipts?: CheckoutReceiptsPolicy | undefined;
  /** The largest receipt the proxy takes, in bytes (`receiptMaxBytes` of the answer). */
  receiptMaxBytes?: number | undefined;
}

/** Receipt policies given to invoices on their way to a projection made elsewhere (the event stream's). */
const receiptsOf = new WeakMap<Invoice, CheckoutReceiptsPolicy>();
/** The same for the receipt's size limit. */
const receiptLimitOf = new WeakMap<Invoice, number>();

/**
 * A copy of `invoice` that {@link projectInvoice} projects with `receipts` (for the event
 * stream, which projects the invoices it is handed).
 * @internal
 */
export const withReceiptsPolicy = (invoice: Invoice, receipts: CheckoutReceiptsPolicy | undefined, receiptMaxBytes?: number): Invoice => {
  if (receipts === undefined && receiptMaxBytes === undefined) return invoice;
  const copy = { ...invoice };
  if (receipts !== undefined) receiptsOf.set(copy, receipts);
  if (receiptMaxBytes !== undefined) receiptLimitOf.set(copy, receiptMaxBytes);
  return Object.isFrozen(invoice) ? Object.freeze(copy) : copy;
};

/** The projections of frozen invoices (the same answer read again), by receipt policy and limit: made once, frozen. */
const projections = new WeakMap<Invoice, Map<string, CheckoutInvoice>>();

/**
 * `GET /invoices/{id}`, `POST /invoices/{id}/deal`, `…/receipt`, and the invoice of `…/dispute`.
 * For a frozen invoice the projection is frozen and made once per receipt policy: the proxy
 * answers every payer polling an unchanged invoice with the same projection and its JSON text.
 */
export const projectInvoice = (invoice: Invoice, extras: InvoiceProjectionExtras = {}): CheckoutInvoice => {
  const receipts = extras.receipts ?? receiptsOf.get(invoice);
  const receiptMaxBytes = extras.receiptMaxBytes ?? receiptLimitOf.get(invoice);
  const project = () => defined({ ...commonFields(invoice), expireAt: invoice.expireAt, receipts, receiptMaxBytes });
  if (!Object.isFrozen(invoice)) return project();
  let byPolicy = projections.get(invoice);
  if (!byPolicy) projections.set(invoice, (byPolicy = new Map<string, CheckoutInvoice>()));
  const key = `${receipts ?? ''}|${receiptMaxBytes ?? ''}`;
  let projection = byPolicy.get(key);
  if (!projection) byPolicy.set(key, (projection = deepFreeze(project())));
  return projection;
};

/** `POST /invoices/{id}/cancel`. */
export const projectCanceledInvoice = (invoice: CanceledInvoice): CheckoutCanceledInvoice =>
  defined({ ...commonFields(invoice), expiredAt: invoice.expiredAt ?? invoice.expireAt });

/** `GET /invoices/{id}/available-payment-variants`. */
export const projectVariants = (variants: readonly PaymentVariant[]): PaymentVariant[] =>
  variants.map((variant) => ({ option: variant.option, method: variant.method }));
