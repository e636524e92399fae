/**
 * What the payer sees, as data: `screen(session, now)` turns a snapshot of one invoice's
 * session and the device's clock into a screen model. Pure (no DOM, no Lit, no strings of a
 * language), so every state is unit-tested alone; the element renders the model with the
 * views in views.ts and the strings of its language.
 */
import type { CheckoutDeal, CheckoutInvoice } from '../schemas/checkout.js';
import type { Money, PaymentVariant } from '../schemas/invoice.js';
import { formatRequisites, plainText, type RequisitesKind } from './format.js';
import type { CopyField, Screen, Translation } from './i18n/translation.js';
import { safeQrLink } from './qr.js';
import { normalizeStatus, statusMeaning } from './status.js';

/** Why the picker's last deal did not start, in the payer's terms. */
export type DealNotice = 'unsupported' | 'failed' | 'no_requisites' | 'not_allowed';

/**
 * The cancel block: asking for confirmation, the POST on its way, the invoice being read again
 * after a failed cancel (no cancel is offered until it is), and why the last cancel did not
 * happen (`refused`: the service said no or answered another status; `failed`: no answer).
 */
export interface CancelState {
  readonly confirming: boolean;
  readonly pending: boolean;
  readonly checking: boolean;
  readonly notice: 'failed' | 'refused' | undefined;
}

/**
 * What changed under the payer's eyes: the amount (or its currency), or the active deal's
 * requisites or holder (without bidi controls). `previous` is undefined when the service says
 * the amount was changed (`isSumChanged`) before the payer first saw it.
 */
export type Change =
  | { readonly field: 'amount'; readonly previous: Money | undefined; readonly current: Money }
  | { readonly field: 'requisites' | 'holder'; readonly previous: string; readonly current: string };

/** Everything one invoice's session knows at a moment: the input of {@link screen}. */
export interface SessionSnapshot {
  /** The first read of the invoice: not asked (no id), on its way, failed with a `checkout-error` code, or done. */
  readonly load: { readonly state: 'idle' | 'loading' | 'done' } | { readonly state: 'failed'; readonly code: string };
  /** The latest valid invoice: from the first read, polling, a new deal or a cancel. */
  readonly invoice: CheckoutInvoice | undefined;
  readonly variants: 'loading' | 'failed' | readonly PaymentVariant[];
  /** The variant whose deal is being started. */
  readonly pendingVariant: PaymentVariant | undefined;
  readonly dealNotice: DealNotice | undefined;
  /** The field whose copy button says "Copied" for now. */
  readonly copied: CopyField | undefined;
  /** The field the clipboard refused: its text is selected for copying by hand. */
  readonly copyByHand: CopyField | undefined;
  readonly cancel: CancelState;
  /** Changes the payer has not dismissed yet. */
  readonly changes: readonly Change[];
  /** The last status read failed (the element keeps trying). */
  readonly connectionLost: boolean;
  /** Server clock − device clock, in ms. */
  readonly clockOffset: number;
}

/** The status line: the screen in words, or the service's own word for a status unknown here. */
export interface StatusLine {
  readonly screen: Screen;
  readonly raw: string;
  readonly asWritten: boolean;
}

/** A value with a copy button. */
export interface CopyModel {
  readonly field: CopyField;
  /** The raw value copied (the exact amount, the ungrouped number). */
  readonly value: string;
  readonly kind: RequisitesKind;
  readonly copied: boolean;
  readonly byHand: boolean;
}

export interface DealModel {
  readonly amount: CopyModel;
  readonly bank: string;
  readonly requisites: { readonly text: string; readonly kind: RequisitesKind; readonly copy: CopyModel };
  readonly holder: string;
  /** The deal's `https:` link (QR code, bank app), if it has a safe one. */
  readonly link: string | undefined;
}

export interface VariantGroup {
  method: string;
  bankName: string;
  variants: PaymentVariant[];
}

export type PickerModel =
  | { readonly state: 'loading' }
  | { readonly state: 'failed' }
  | {
      readonly state: 'ready';
      readonly groups: readonly VariantGroup[];
      /** While a deal is being started every variant is inert. */
      readonly pending: PaymentVariant | undefined;
      readonly notice: DealNotice | undefined;
    };

export type InvoiceScreenName = Exclude<Screen, 'idle' | 'loading' | 'error'>;

export interface InvoiceScreenModel {
  readonly screen: InvoiceScreenName;
  readonly payee: string | undefined;
  readonly status: StatusLine;
  readonly sum: Money;
  /** Where the explanation paragraph goes: above the amount on the final and pay-out screens, below it on `other`. */
  readonly explanation: 'above' | 'below' | undefined;
  /** Where to send the money (`waiting` only). */
  readonly deal: DealModel | undefined;
  /** The variants beside the deal, the deal's own marked (`waiting`, once they are loaded). */
  readonly variants: { readonly groups: readonly VariantGroup[]; readonly current: { option: string | null; method: string | null } } | undefined;
  readonly picker: PickerModel | undefined;
  readonly connectionLost: boolean;
  /** Milliseconds left to pay, where the countdown shows. */
  readonly remaining: number | undefined;
  /** The cancel block (`waiting` only; the element may hide it). */
  readonly cancel: CancelState | undefined;
  readonly changes: readonly Change[];
}

export type ScreenModel =
  | { readonly screen: 'idle' }
  | { readonly screen: 'loading' }
  | { readonly screen: 'error'; readonly code: string }
  | InvoiceScreenModel;

export const activeDeal = (invoice: CheckoutInvoice): CheckoutDeal | undefined => invoice.deals.find((deal) => deal.isActive);

/**
 * The screen an invoice calls for: a final status first (a late payment beats the local
 * countdown), then expiry, a pay-out (its deal's requisites are the receiver's own: nothing to
 * send, nothing to pick), a deal waiting for the transfer, the picker, or an unknown status.
 */
const screenFor = (invoice: CheckoutInvoice, expiredLocally: boolean): InvoiceScreenName => {
  const meaning = statusMeaning(invoice.status);
  if (meaning === 'paid' || meaning === 'canceled' || meaning === 'expired') return meaning;
  if (expiredLocally) return 'expired';
  if (invoice.type === 'out' && meaning === 'open') return 'payout';
  // A disputed invoice's payer has sent the money already: its deal, even if the service still
  // shows it active, is not a place to pay again. (A status unknown here keeps its requisites.)
  if (activeDeal(invoice) && normalizeStatus(invoice.status) !== 'dispute') return 'waiting';
  return meaning === 'open' ? 'picker' : 'other';
};

export const statusLine = (invoice: CheckoutInvoice): StatusLine => ({
  screen: screenFor(invoice, false),
  raw: plainText(invoice.status),
  asWritten: statusMeaning(invoice.status) === 'other',
});

export const statusText = (line: StatusLine, t: Translation): string => (line.asWritten ? line.raw : t.status(line.screen, line.raw));

/** Variants grouped by bank (`method`), in the order the service listed them. */
export const groupVariants = (variants: readonly PaymentVariant[], bankName: (method: string) => string): VariantGroup[] => {
  const groups = new Map<string, VariantGroup>();
  for (const variant of variants) {
    let group = groups.get(variant.method);
    if (!group) {
      group = { method: variant.method, bankName: bankName(variant.method), variants: [] };
      groups.set(variant.method, group);
    }
    group.variants.push(variant);
  }
  return [...groups.values()];
};

/** A bank's name as one of the invoice's deals gives it, else its code. */
const bankNames =
  (invoice: CheckoutInvoice) =>
  (method: string): string =>
    plainText(invoice.deals.find((deal) => deal.paymentMethod === method && deal.paymentMethodName)?.paymentMethodName ?? method);

const dealModel = (session: SessionSnapshot, invoice: CheckoutInvoice, deal: CheckoutDeal): DealModel => {
  const raw = plainText(deal.requisites?.requisites ?? '');
  const requisites = formatRequisites(raw);
  const copy = (field: CopyField, value: string): CopyModel => ({
    field,
    value,
    kind: requisites.kind,
    copied: session.copied === field,
    byHand: session.copyByHand === field,
  });
  return {
    amount: copy('amount', invoice.sum.amount),
    bank: plainText(deal.paymentMethodName ?? deal.paymentMethod ?? ''),
    requisites: { text: requisites.text, kind: requisites.kind, copy: copy('requisites', raw) },
    holder: plainText(deal.requisites?.holder ?? ''),
    link: safeQrLink(deal.qrCodeLink),
  };
};

/**
 * What `next` changed of what the payer was shown of `previous` (nothing of the same invoice
 * read for the first time, unless the service flags its amount as changed): the amount or its
 * currency; the active deal's requisites or holder, when a deal was shown before and one is now.
 */
export const changesOf = (previous: CheckoutInvoice | undefined, next: CheckoutInvoice): Change[] => {
  if (!previous) return next.isSumChanged ? [{ field: 'amount', previous: undefined, current: next.sum }] : [];
  const changes: Change[] = [];
  const { sum } = previous;
  if (sum.amount !== next.sum.amount || sum.currency !== next.sum.currency) {
    changes.push({ field: 'amount', previous: sum, current: next.sum });
  }
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

const pickerModel = (session: SessionSnapshot, invoice: CheckoutInvoice): PickerModel => {
  const { variants } = session;
  if (variants === 'loading') return { state: 'loading' };
  if (variants === 'failed' || variants.length === 0) return { state: 'failed' };
  return { state: 'ready', groups: groupVariants(variants, bankNames(invoice)), pending: session.pendingVariant, notice: session.dealNotice };
};

/** What the payer sees of `session` at `now` (device time, epoch ms). */
export const screen = (session: SessionSnapshot, now: number): ScreenModel => {
  const { load, invoice } = session;
  if (load.state === 'failed') return { screen: 'error', code: load.code };
  if (load.state === 'idle') return { screen: 'idle' };
  if (load.state === 'loading' || !invoice) return { screen: 'loading' };
  const deadline = Date.parse(invoice.expireAt);
  const left = Number.isFinite(deadline) ? Math.max(0, deadline - (now + session.clockOffset)) : undefined;
  const name = screenFor(invoice, left === 0);
  const deal = name === 'waiting' ? activeDeal(invoice) : undefined;
  const { variants } = session;
  return {
    screen: name,
    payee: plainText(invoice.storeName ?? '') || undefined,
    status: statusLine(invoice),
    sum: invoice.sum,
    explanation: name === 'other' ? 'below' : name === 'waiting' || name === 'picker' ? undefined : 'above',
    deal: deal && dealModel(session, invoice, deal),
    variants:
      deal && typeof variants !== 'string' && variants.length > 0
        ? { groups: groupVariants(variants, bankNames(invoice)), current: { option: deal.paymentOption, method: deal.paymentMethod } }
        : undefined,
    picker: name === 'picker' ? pickerModel(session, invoice) : undefined,
    connectionLost: session.connectionLost && name !== 'paid' && name !== 'canceled',
    remaining: name === 'waiting' || name === 'picker' ? left : undefined,
    cancel: name === 'waiting' ? session.cancel : undefined,
    changes: session.changes,
  };
};
