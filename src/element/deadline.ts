/**
 * An invoice's deadlines as the payer's screen must treat them: the earlier of its expiry and
 * its active deal's deadline (`canceledAt`) is counted down, and neither is a verdict until the
 * invoice was read after it. Pure: no DOM.
 */
import type { CheckoutDeal, CheckoutInvoice } from '../schemas/checkout.js';
import { statusMeaning } from './status.js';

/** The earliest of the invoice's expiry and its active deal's deadline (epoch ms, server time). */
export const deadlineOf = (invoice: CheckoutInvoice): number => {
  const deal = invoice.deals.find((each) => each.isActive)?.canceledAt;
  const expiry = Date.parse(invoice.expireAt);
  const dealDeadline = deal ? Date.parse(deal) : Number.NaN;
  return Number.isFinite(dealDeadline) && dealDeadline < expiry ? dealDeadline : expiry;
};

/**
 * Whether a deadline of `invoice` (its expiry, or its active deal's) has passed at `serverNow`
 * while the last read (`readAt`, server time) was older than it: the invoice may have been
 * paid meanwhile, so nothing may say "expired" yet. Never for a status no deadline changes.
 */
export const unreadDeadline = (
  invoice: CheckoutInvoice,
  active: CheckoutDeal | undefined,
  serverNow: number,
  readAt: number | undefined,
): boolean => {
  const meaning = statusMeaning(invoice.status);
  if (meaning === 'paid' || meaning === 'canceled' || meaning === 'expired' || meaning === 'dispute') return false;
  const read = readAt ?? Number.NEGATIVE_INFINITY;
  return [invoice.expireAt, active?.canceledAt].some((time) => {
    const deadline = time ? Date.parse(time) : Number.NaN;
    return Number.isFinite(deadline) && serverNow >= deadline && read < deadline;
  });
};
