/**
 * What kind of requisites a deal carries, so the element knows how to show them (a card in
 * groups of four, a phone number, an account, a payment page to open, QR data). Pure and
 * import-free: the proxy computes it for the checkout protocol, the element falls back to it
 * when an older proxy leaves it out.
 */
export const REQUISITES_KINDS = ['card', 'phone', 'account', 'url', 'qr', 'other'] as const;
/** What the payer pays to: a card, a phone, an account, a URL, a QR code, or something else. */
export type RequisitesKind = (typeof REQUISITES_KINDS)[number];

const QR_OPTIONS = new Set(['SBP_QR', 'MANUAL_SBP_QR', 'CLICK_UZ_QR', 'VIET_QR']);
const CARD_OPTIONS = new Set(['TO_CARD', 'CARD_ACQUIRING', 'P2C']);
const PHONE_OPTIONS = new Set(['SBP', 'TO_PHONE_NUMBER', 'MOBILE_TOP_UP']);
const ACCOUNT_OPTIONS = new Set(['TO_ACCOUNT', 'TO_BANK_DETAILS']);

const digitsOf = (text: string) => text.replace(/[\s()+-]/g, '');

/**
 * The kind of `requisites` under `paymentOption`: QR data for a QR option; otherwise the text
 * decides first where it is unambiguous (a URL, a number shaped like a card or a phone), the
 * option next.
 */
export const requisitesKind = (requisites: string | null | undefined, paymentOption: string | null | undefined): RequisitesKind => {
  const text = (requisites ?? '').trim();
  const option = paymentOption ?? '';
  // A QR option's data is scanned, even when it is a link (an SBP QR is `https://qr.nspk.ru/…`).
  if (QR_OPTIONS.has(option)) return 'qr';
  if (/^https?:\/\//i.test(text)) return 'url';
  const digits = digitsOf(text);
  const numeric = /^\d+$/.test(digits);
  if (numeric && /^\+/.test(text) && digits.length >= 10 && digits.length <= 15) return 'phone';
  if (CARD_OPTIONS.has(option) && numeric && digits.length >= 13 && digits.length <= 19) return 'card';
  if (PHONE_OPTIONS.has(option) && numeric && digits.length >= 10 && digits.length <= 15) return 'phone';
  if (ACCOUNT_OPTIONS.has(option) && numeric) return 'account';
  if (numeric && digits.length === 20) return 'account';
  if (numeric && digits.length >= 16 && digits.length <= 19) return 'card';
  return 'other';
};
