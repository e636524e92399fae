/**
 * What kind of requisites a deal carries, so the element knows how to show them (a card in
 * groups of four, a phone number, an account, a payment page to open, QR data, a UPI ID, an
 * Indian account with its IFSC, an Argentine CVU, a phone to top up, a Telegram bot, the
 * service's picture of a QR code). Pure and import-free: the proxy computes it for the checkout
 * protocol, the element falls back to it when an older proxy leaves it out (or a newer one
 * sends a kind this element does not know).
 */
export const REQUISITES_KINDS = [
  'card',
  'phone',
  'account',
  'url',
  'qr',
  'other',
  'upi',
  'imps',
  'cvu',
  'topup',
  'telegram',
  'qr-image',
] as const;
/** What the payer pays to: one of {@link REQUISITES_KINDS}. */
export type RequisitesKind = (typeof REQUISITES_KINDS)[number];

/** A kind this version knows (the protocol carries any text, for kinds added later). */
export const isRequisitesKind = (kind: unknown): kind is RequisitesKind => (REQUISITES_KINDS as readonly unknown[]).includes(kind);

const QR_OPTIONS = new Set(['SBP_QR', 'MANUAL_SBP_QR', 'CLICK_UZ_QR', 'VIET_QR']);
const CARD_OPTIONS = new Set(['TO_CARD', 'CARD_ACQUIRING', 'P2C']);
const PHONE_OPTIONS = new Set(['SBP', 'TO_PHONE_NUMBER', 'MOBILE_TOP_UP']);
const ACCOUNT_OPTIONS = new Set(['TO_ACCOUNT', 'TO_BANK_DETAILS', 'IMPS', 'CVU']);

/** An Indian bank branch's code (RBI): four letters of the bank, a zero, six of the branch. */
export const IFSC = /\b[A-Z]{4}0[A-Z0-9]{6}\b/i;
/** A UPI ID (VPA): a handle, `@`, the provider's name, which has no dot (an e-mail address has). */
const UPI_ID = /^[\w.-]{2,256}@[a-z][a-z0-9]{1,63}$/i;
/** A link to a picture: the service's image of a QR code (its path ends in a picture's extension or `/qr-code`). */
export const IMAGE_LINK = /^https?:\/\/[^\s?#]+(\.(png|jpe?g|gif|svg|webp)|\/qr-code)([?#]\S*)?$/i;
/** A Telegram bot: a `t.me` link, or its `@name`. */
const TELEGRAM_LINK = /^https:\/\/(t|telegram)\.me\/\w/i;

const digitsOf = (text: string) => text.replace(/[\s()+-]/g, '');

/**
 * The kind of `requisites` under `paymentOption`. A picture's link is a QR image and QR data of
 * a QR option is scanned, whatever else they look like; otherwise the text decides first where
 * it is unambiguous (a Telegram or other link, a UPI ID, an account with an IFSC, a number
 * shaped like a card or a phone), the option next.
 */
export const requisitesKind = (requisites: string | null | undefined, paymentOption: string | null | undefined): RequisitesKind => {
  const text = (requisites ?? '').trim();
  const option = paymentOption ?? '';
  if (IMAGE_LINK.test(text)) return 'qr-image';
  // A QR option's data is scanned, even when it is a link (an SBP QR is `https://qr.nspk.ru/…`).
  if (QR_OPTIONS.has(option)) return 'qr';
  if (TELEGRAM_LINK.test(text) || (option === 'TG_BOT' && /^@\w{4,}$/.test(text))) return 'telegram';
  if (/^https?:\/\//i.test(text)) return 'url';
  if (UPI_ID.test(text)) return 'upi';
  if (IFSC.test(text) && /\d{6,}/.test(text)) return 'imps';
  const digits = digitsOf(text);
  const numeric = /^\d+$/.test(digits);
  const phoneLength = numeric && digits.length >= 10 && digits.length <= 15;
  if (option === 'MOBILE_TOP_UP' && phoneLength) return 'topup';
  if (numeric && digits.length === 22 && (option === 'CVU' || !ACCOUNT_OPTIONS.has(option))) return 'cvu';
  if (phoneLength && /^\+/.test(text)) return 'phone';
  if (CARD_OPTIONS.has(option) && numeric && digits.length >= 13 && digits.length <= 19) return 'card';
  if (PHONE_OPTIONS.has(option) && phoneLength) return 'phone';
  if (ACCOUNT_OPTIONS.has(option) && numeric) return 'account';
  if (numeric && digits.length === 20) return 'account';
  if (numeric && digits.length >= 16 && digits.length <= 19) return 'card';
  return 'other';
};
