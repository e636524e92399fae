/**
 * What the payer sees, as data: `screen(session, now)` turns a snapshot of one invoice's
 * session and the device's clock into a screen model. Pure (no DOM, no Lit, no strings of a
 * language), so every state is unit-tested alone; the element renders the model with the
 * views in views.ts and the strings of its language, and this module comes with them (the
 * `views` chunk of the CDN build). Which screen it is, and what the session needs to know of an
 * invoice before any screen is drawn, is screen-state.ts, in the first-render file.
 */
import type { CheckoutDeal, CheckoutInvoice } from '../schemas/checkout.js';
import type { Money, PaymentVariant } from '../schemas/invoice.js';
import { IMAGE_LINK, isRequisitesKind, requisitesKind, type RequisitesKind } from '../schemas/requisites-kind.js';
import { humanizeBankCode } from './banks/humanize.js';
import { formatRequisites, plainText } from './format.js';
import { safeQrLink } from './qr.js';
import type {
  CopyField,
  CopyModel,
  DealModel,
  InvoiceScreenName,
  PickerModel,
  ReceiptPolicy,
  ReturnModel,
  ScreenEnvironment,
  ScreenModel,
  SessionSnapshot,
  VariantGroup,
} from './screen-model.js';
import { amountToSend, dealKey, normalizeDealStatus, sameMoney, screenState, statusLine } from './screen-state.js';

// The model's types are screen-model.ts (which the translations import too); importers of the screen find them here.
export type {
  CancelState,
  Change,
  CopyField,
  CopyModel,
  DealModel,
  DealNotice,
  FormState,
  InvoiceScreenModel,
  InvoiceScreenName,
  PickerModel,
  ReceiptPolicy,
  ReportState,
  ReturnModel,
  Screen,
  ScreenEnvironment,
  ScreenModel,
  SessionSnapshot,
  StatusLine,
  VariantGroup,
} from './screen-model.js';
// What the first-render file knows of the screens, for importers of the screen.
export { activeDeal, amountToSend, changesOf, dealKey, screenName, statusLine, statusText } from './screen-state.js';

/** An SBP payment link, which bank apps open (the bank picker's links are built from it). */
const SBP_LINK = /^https:\/\/(qr|sub)\.nspk\.ru\//;

/** The country of the payer's card by the cross-border currency (ISO 3166 codes; `Intl.DisplayNames` names them). */
const CARD_COUNTRY = {
  TJS: 'TJ',
  UZS: 'UZ',
  KZT: 'KZ',
  KGS: 'KG',
  AZN: 'AZ',
  AMD: 'AM',
  GEL: 'GE',
  BYN: 'BY',
  MDL: 'MD',
  TRY: 'TR',
} as const;

/**
 * A link to a picture of a QR code (the service's, an image-QR option's) as it may be shown
 * in an `<img>`: an `https:` one, or one on the page's own origin (a proxy or a local service
 * may serve it over `http:`); anything else `undefined`. Never loaded as anything but an image.
 */
// Here, not in qr.ts: the QR encoder's chunk imports qr.ts, and Rolldown then splits what qr.ts imports out of the first-render file.
export const safePictureLink = (link: unknown, base: string | undefined): string | undefined => {
  if (typeof link !== 'string' || link.length > 2048 || !IMAGE_LINK.test(link.trim())) return undefined;
  try {
    const url = new URL(link.trim());
    return url.protocol === 'https:' || (url.protocol === 'http:' && base !== undefined && url.origin === new URL(base).origin)
      ? url.href
      : undefined;
  } catch {
    return undefined;
  }
};

/** An `http(s)` URL (absolute, or relative to `base`) to send the payer back to the shop, else undefined. */
export const safeReturnUrl = (url: string | null | undefined, base?: string): string | undefined => {
  if (!url) return undefined;
  try {
    const parsed = new URL(url, base);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
};

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

/**
 * A bank's name for the payer: as one of the invoice's deals gives it (`paymentMethodName`),
 * else the proxy's list, the bundled directory or the merchant's `banks` (the session's
 * `bankName`), else the code made readable. Never the raw code.
 */
const bankNames =
  (invoice: CheckoutInvoice, session: SessionSnapshot) =>
  (method: string): string =>
    plainText(
      invoice.deals.find((deal) => deal.paymentMethod === method && deal.paymentMethodName)?.paymentMethodName ??
        session.bankName(method) ??
        humanizeBankCode(method),
    );

/** The amount a screen shows, and the order's when that differs: to send while open, settled once paid. */
const shownAmount = (invoice: CheckoutInvoice, name: InvoiceScreenName): { sum: Money; asked: Money | undefined } => {
  const shown =
    name === 'paid'
      ? (invoice.amountPaid ?? invoice.sum)
      : name === 'waiting' || name === 'picker' || name === 'checking'
        ? amountToSend(invoice)
        : invoice.sum;
  return { sum: shown, asked: sameMoney(shown, invoice.sum) ? undefined : invoice.sum };
};

const copyModel = (session: SessionSnapshot, field: CopyField, value: string, kind: RequisitesKind): CopyModel => ({
  field,
  value,
  kind,
  copied: session.copied === field,
  byHand: session.copyByHand === field,
});

const dealModel = (session: SessionSnapshot, invoice: CheckoutInvoice, deal: CheckoutDeal, env: ScreenEnvironment): DealModel => {
  const raw = plainText(deal.requisites?.requisites ?? '');
  // A kind from a newer proxy that this element does not know: it works the kind out itself.
  const kind = isRequisitesKind(deal.requisitesKind) ? deal.requisitesKind : requisitesKind(raw, deal.paymentOption);
  const formatted = formatRequisites(raw, kind);
  const href = kind === 'url' || kind === 'telegram' ? safeQrLink(raw) : undefined;
  // The service's picture of the QR code: the requisites themselves, or the deal's link to one.
  const picture = safePictureLink(kind === 'qr-image' ? raw : deal.qrCodeLink, env.baseUrl);
  const link = safeQrLink(deal.qrCodeLink);
  const currency = plainText(invoice.crossBorderCurrency ?? '').toUpperCase() || undefined;
  const crossBorder = deal.paymentOption === 'CROSS_BORDER' || currency !== undefined;
  return {
    amount: copyModel(session, 'amount', amountToSend(invoice).amount, kind),
    bank: deal.paymentMethod ? bankNames(invoice, session)(deal.paymentMethod) : plainText(deal.paymentMethodName ?? ''),
    bankCode: deal.paymentMethod ?? '',
    requisites: {
      text: formatted.text,
      kind: formatted.kind,
      // A payment page is opened, a QR code is scanned: none of them is text to copy.
      copy:
        kind === 'url' || kind === 'qr' || kind === 'qr-image'
          ? undefined
          : copyModel(session, 'requisites', formatted.value, formatted.kind),
      href,
      ifsc: formatted.ifsc === undefined ? undefined : copyModel(session, 'ifsc', formatted.ifsc, formatted.kind),
    },
    holder: plainText(deal.requisites?.holder ?? ''),
    link,
    // QR data is drawn here; the service's own picture only where the option gives nothing else.
    qr:
      kind === 'qr' && raw
        ? { text: raw, image: false }
        : picture
          ? { text: picture, image: true }
          : link
            ? { text: link, image: false }
            : undefined,
    sbpLink: env.touch
      ? [link, kind === 'qr' ? safeQrLink(raw) : undefined].find((candidate) => candidate && SBP_LINK.test(candidate))
      : undefined,
    bankLink: env.touch ? link : undefined,
    pickerOpen: session.bankPicker,
    crossBorder: crossBorder ? { currency, country: currency && CARD_COUNTRY[currency as keyof typeof CARD_COUNTRY] } : undefined,
  };
};

const pickerModel = (session: SessionSnapshot, invoice: CheckoutInvoice): PickerModel => {
  const { variants } = session;
  if (variants === 'loading') return { state: 'loading' };
  if (variants === 'failed' || variants.length === 0) return { state: 'failed' };
  return {
    state: 'ready',
    groups: groupVariants(variants, bankNames(invoice, session)),
    pending: session.pendingVariant,
    notice: session.dealNotice,
  };
};

/** The deal the payer said was paid, if it ended without being confirmed (expired or canceled, not completed). */
const unconfirmedDeal = (session: SessionSnapshot, invoice: CheckoutInvoice): CheckoutDeal | undefined => {
  const key = session.payerConfirmed;
  const deal = key === undefined ? undefined : invoice.deals.find((candidate) => dealKey(candidate) === key);
  return deal && !deal.isActive && normalizeDealStatus(deal) !== 'completed' ? deal : undefined;
};

/** Where "back to the shop" leads on a final screen: the invoice's own URL first, then the page's attributes. */
const returnModel = (session: SessionSnapshot, invoice: CheckoutInvoice, name: InvoiceScreenName, env: ScreenEnvironment, now: number) => {
  if (name !== 'paid' && name !== 'canceled' && name !== 'expired') return undefined;
  const kind = name === 'paid' ? 'success' : 'cancel';
  const url =
    kind === 'success'
      ? (safeReturnUrl(invoice.successUrl, env.baseUrl) ?? safeReturnUrl(env.returnUrl, env.baseUrl))
      : (safeReturnUrl(invoice.cancelUrl, env.baseUrl) ?? safeReturnUrl(env.cancelUrl ?? env.returnUrl, env.baseUrl));
  if (!url) return undefined;
  const at = session.autoReturn;
  const autoIn = kind === 'success' && typeof at === 'number' ? Math.max(0, Math.ceil((at - now) / 1000)) : undefined;
  return { url, kind, autoIn } satisfies ReturnModel;
};

/** Minutes left, rounded up, or undefined. */
const minutesOf = (ms: number | undefined) => (ms === undefined ? undefined : Math.max(1, Math.ceil(ms / 60_000)));

/** What the payer sees of `session` at `now` (device time, epoch ms) on a page described by `env`. */
export const screen = (session: SessionSnapshot, now: number, env: ScreenEnvironment = {}): ScreenModel => {
  const state = screenState(session, now);
  if ('model' in state) return state.model;
  const { name, invoice, active, confirmed, left, untilExpiry } = state;
  // The deal's own deadline counts when it comes first.
  const untilDeal = active ? left(active.canceledAt) : undefined;
  const remaining = untilDeal === undefined || (untilExpiry !== undefined && untilExpiry < untilDeal) ? untilExpiry : untilDeal;
  const deal = name === 'waiting' || name === 'checking' ? active : undefined;
  const { variants } = session;
  const unconfirmed = unconfirmedDeal(session, invoice);
  const reportable =
    session.report.state === 'done' && session.report.outcome === 'forwarded'
      ? undefined
      : unconfirmed && (name === 'picker' || name === 'expired' || name === 'canceled')
        ? 'confirmed'
        : name === 'expired'
          ? 'maybe'
          : undefined;
  // An unknown policy from a newer proxy reads as optional.
  const policy = invoice.receipts;
  const receipts: ReceiptPolicy = policy === 'off' ? 'off' : policy === 'required' ? 'required' : 'optional';
  return {
    screen: name,
    payee: plainText(invoice.storeName ?? '') || undefined,
    // "I have paid" is the payer's word, not the service's: the status line says the check too.
    status: name === 'checking' ? { ...statusLine(invoice), screen: 'checking', asWritten: false } : statusLine(invoice),
    ...shownAmount(invoice, name),
    amountLabel: name === 'paid' ? 'paid' : name === 'waiting' || name === 'picker' ? 'send' : 'sum',
    explanation: name === 'other' ? 'below' : name === 'waiting' || name === 'picker' ? undefined : 'above',
    deal: deal && dealModel(session, invoice, deal, env),
    variants:
      deal && name === 'waiting' && typeof variants !== 'string' && variants.length > 0
        ? {
            groups: groupVariants(variants, bankNames(invoice, session)),
            current: { option: deal.paymentOption, method: deal.paymentMethod },
          }
        : undefined,
    picker: name === 'picker' ? pickerModel(session, invoice) : undefined,
    connectionLost: session.connectionLost && !session.offline && name !== 'paid' && name !== 'canceled',
    offline: session.offline && name !== 'paid' && name !== 'canceled',
    remaining: name === 'waiting' || name === 'picker' ? remaining : undefined,
    cancel: name === 'waiting' && !confirmed ? session.cancel : undefined,
    changes: session.changes,
    confirmOffered: name === 'waiting' && invoice.type !== 'out',
    checking:
      name === 'checking'
        ? {
            minutes: minutesOf(remaining),
            transferConfirmed: active !== undefined && normalizeDealStatus(active) === 'transfer_confirmed',
            receipts,
            receipt: session.receipt,
          }
        : undefined,
    report: reportable && { ...session.report, prompt: reportable },
    reference:
      name === 'expired' || name === 'dispute' || reportable
        ? copyModel(session, 'reference', plainText(invoice.internalId ?? '') || invoice.id, 'other')
        : undefined,
    returnTo: returnModel(session, invoice, name, env, now),
  };
};
