/**
 * What the first-render file knows of the screens: which screen a session calls for (`idle`,
 * `loading`, `error` or an invoice's own), an invoice's active deal and the key "I have paid"
 * is remembered by, its status line, and what a new read changed. The screen's whole model,
 * `screen(session, now)`, is screen.ts: it comes with the views (the `views` chunk of the CDN
 * build), since no invoice screen is drawn before they are here.
 */
import type { CheckoutDeal, CheckoutInvoice } from '../schemas/checkout.js';
import type { Money } from '../schemas/invoice.js';
import { unreadDeadline } from './deadline.js';
import { plainText } from './format.js';
import type { Translation } from './i18n/translation.js';
import type { Change, InvoiceScreenName, Screen, ScreenModel, SessionSnapshot, StatusLine } from './screen-model.js';
import { statusMeaning } from './status.js';

export const activeDeal = (invoice: CheckoutInvoice): CheckoutDeal | undefined => invoice.deals.find((deal) => deal.isActive);

/**
 * The screen an invoice calls for: a final status first (a late payment beats the local
 * countdown), then expiry, a pay-out (its deal's requisites are the receiver's own: nothing to
 * send, nothing to pick), a deal waiting for the transfer, the picker, or an unknown status.
 */
const screenFor = (invoice: CheckoutInvoice, expiredLocally: boolean, checking = false): InvoiceScreenName => {
  const meaning = statusMeaning(invoice.status);
  if (meaning === 'paid' || meaning === 'canceled' || meaning === 'expired') return meaning;
  // A disputed invoice's payer has sent the money already: its deal, even if the service still
  // shows it active, is not a place to pay again.
  if (meaning === 'dispute') return 'dispute';
  if (expiredLocally) return 'expired';
  if (invoice.type === 'out' && meaning === 'open') return 'payout';
  const deal = activeDeal(invoice);
  if (deal) return checking || normalizeDealStatus(deal) === 'transfer_confirmed' ? 'checking' : 'waiting';
  return meaning === 'open' ? 'picker' : 'other';
};

export const normalizeDealStatus = (deal: CheckoutDeal): string => plainText(deal.status).trim().toLowerCase();

/** What identifies a deal for "I have paid": its id, else what the payer was shown. */
export const dealKey = (deal: CheckoutDeal): string =>
  deal.id ?? [deal.paymentMethod, deal.paymentOption, deal.requisites?.requisites, deal.canceledAt].join('|');

export const statusLine = (invoice: CheckoutInvoice): StatusLine => ({
  screen: screenFor(invoice, false),
  raw: plainText(invoice.status),
  asWritten: statusMeaning(invoice.status) === 'other',
});

export const statusText = (line: StatusLine, t: Translation): string => (line.asWritten ? line.raw : t.status(line.screen, line.raw));

export const sameMoney = (a: Money, b: Money): boolean => a.amount === b.amount && a.currency === b.currency;

/** The amount the payer must send: the service's `amountDue` (a unique or changed amount), else `sum`. */
export const amountToSend = (invoice: CheckoutInvoice): Money => invoice.amountDue ?? invoice.sum;

/**
 * What `next` changed of what the payer was shown of `previous` (nothing of the same invoice
 * read for the first time, unless the service flags its amount as changed): the amount or its
 * currency; the active deal's requisites or holder, when a deal was shown before and one is now.
 */
export const changesOf = (previous: CheckoutInvoice | undefined, next: CheckoutInvoice): Change[] => {
  if (!previous) return next.isSumChanged ? [{ field: 'amount', previous: undefined, current: amountToSend(next) }] : [];
  const changes: Change[] = [];
  const [was, is] = [amountToSend(previous), amountToSend(next)];
  if (!sameMoney(was, is)) changes.push({ field: 'amount', previous: was, current: is });
  const before = activeDeal(previous)?.requisites;
  const after = activeDeal(next)?.requisites;
  if (before && after) {
    for (const field of ['requisites', 'holder'] as const) {
      const [was, is] = [plainText(before[field] ?? ''), plainText(after[field] ?? '')];
      if (was !== is) changes.push({ field, previous: was, current: is });
    }
  }
  return changes;
};

/** An invoice's screen as `screenState` finds it: its name, and what the whole model (screen.ts) goes on from. */
export interface InvoiceScreenState {
  readonly name: InvoiceScreenName;
  readonly invoice: CheckoutInvoice;
  readonly active: CheckoutDeal | undefined;
  /** The payer said "I have paid" of the active deal. */
  readonly confirmed: boolean;
  /** Milliseconds left until `time` (service time), if it is one. */
  readonly left: (time: string | null | undefined) => number | undefined;
  readonly untilExpiry: number | undefined;
}

/**
 * Which screen `session` calls for at `now` (device time, epoch ms): the whole model of a screen
 * without an invoice (`idle`, `loading`, `error`), or an invoice's screen.
 */
export const screenState = (session: SessionSnapshot, now: number): { model: ScreenModel } | InvoiceScreenState => {
  const { load, invoice } = session;
  if (load.state === 'failed') return { model: { screen: 'error', code: load.code } };
  if (load.state === 'idle') return { model: { screen: 'idle' } };
  if (load.state === 'loading' || !invoice) return { model: { screen: 'loading' } };
  const serverNow = now + session.clockOffset;
  const left = (time: string | null | undefined) => {
    const deadline = time ? Date.parse(time) : Number.NaN;
    return Number.isFinite(deadline) ? Math.max(0, deadline - serverNow) : undefined;
  };
  const untilExpiry = left(invoice.expireAt);
  const active = activeDeal(invoice);
  // The time ran out since the last read: the invoice may have been paid meanwhile. Nothing is
  // shown as expired (nor its requisites as a place to pay) until a read says what it is.
  if (unreadDeadline(invoice, active, serverNow, session.readAt)) {
    return { model: session.offline || session.connectionLost ? { screen: 'error', code: 'network_error' } : { screen: 'loading' } };
  }
  const confirmed = active !== undefined && session.payerConfirmed === dealKey(active);
  const name = screenFor(invoice, untilExpiry === 0, confirmed && !session.showDetails);
  return { name, invoice, active, confirmed, left, untilExpiry };
};

/** The name of the screen `session` calls for at `now`: `screen(session, now).screen` without the model. */
export const screenName = (session: SessionSnapshot, now: number): Screen => {
  const state = screenState(session, now);
  return 'model' in state ? state.model.screen : state.name;
};
