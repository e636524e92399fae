/**
 * Formatters for what the payer reads: money, card and phone numbers, time left. Plain
 * functions, no DOM. Amounts stay decimal text from end to end: `Intl.NumberFormat` is fed
 * the string itself, and any answer whose digits differ from the input's is thrown away for
 * an exact fallback.
 */

import type { RequisitesKind } from '../schemas/requisites-kind.js';

/** `Intl.NumberFormat#format` accepts decimal strings (ES2023); the ES2022 typings do not say so. */
type DecimalFormat = (value: string) => string;

/**
 * Text from the service as the payer may read it: without bidirectional controls (marks,
 * embeddings, overrides, isolates), which could show digits in another order than they are
 * typed (`\u202e8765` reads as `5678`). Applied to every string from the service on screen,
 * and to what is copied.
 */
export const plainText = (text: string): string => text.replace(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');

const digitsOf = (text: string): string => text.replace(/\D/g, '');

/** `"0012.50"` → `"12.50"`: Intl drops superfluous leading zeros, so compare without them. */
const trimLeadingZeros = (amount: string): string => amount.replace(/^0+(?=\d)/, '');

const fractionDigits = (amount: string): number => amount.split('.')[1]?.length ?? 0;

/** Group and decimal separators of a locale, learnt from a harmless number (not an amount). */
const separators = (locale: string): { group: string; decimal: string } => {
  let group = ',';
  let decimal = '.';
  try {
    for (const part of new Intl.NumberFormat(locale).formatToParts(11111.5)) {
      if (part.type === 'group') group = part.value;
      if (part.type === 'decimal') decimal = part.value;
    }
  } catch {
    // an invalid locale tag: keep the plain separators
  }
  return { group, decimal };
};

/** Exact grouping by hand, for what Intl refuses (too many digits) or would round. */
const groupByHand = (amount: string, locale: string): string => {
  const { group, decimal } = separators(locale);
  const [whole = '0', fraction] = trimLeadingZeros(amount).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, group);
  return fraction === undefined ? grouped : `${grouped}${decimal}${fraction}`;
};

/** Formats with Intl when Intl keeps every digit, otherwise `undefined`. */
const viaIntl = (amount: string, locale: string, options: Intl.NumberFormatOptions): string | undefined => {
  try {
    const digits = fractionDigits(amount);
    const format = new Intl.NumberFormat(locale, {
      ...options,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    const text = (format.format as unknown as DecimalFormat)(amount);
    return digitsOf(text) === digitsOf(trimLeadingZeros(amount)) ? text : undefined;
  } catch {
    // RangeError: a currency code that is not three letters (USDT), too many fraction digits
    return undefined;
  }
};

/** A decimal amount with the locale's separators, every digit kept: `"1500.00"` → `1 500,00`. */
export const formatDecimal = (amount: string, locale: string): string =>
  viaIntl(amount, locale, { useGrouping: true }) ?? groupByHand(amount, locale);

/**
 * Money for reading: `{ amount: "1500.00", currency: "RUB" }` → `1 500,00 ₽` (ru) or
 * `₽1,500.00` (en). Exactly the digits of `amount` are shown (never rounded, never a float);
 * a currency Intl does not accept (`USDT`) or an amount it cannot keep exact is written as the
 * grouped number followed by the code.
 */
export const formatMoney = (money: { amount: string; currency: string }, locale: string): string =>
  viaIntl(money.amount, locale, { style: 'currency', currency: money.currency, currencyDisplay: 'narrowSymbol' }) ??
  `${formatDecimal(money.amount, locale)}\u00a0${plainText(money.currency)}`;

export type { RequisitesKind };

export interface FormattedRequisites {
  kind: RequisitesKind;
  /** For reading; copying always uses the raw value. */
  text: string;
}

/** A Russian account number (20 digits) as it is printed: `40817 810 0 9999 1234567`; other digits in fours. */
const groupAccount = (digits: string): string =>
  digits.length === 20
    ? `${digits.slice(0, 5)} ${digits.slice(5, 8)} ${digits.slice(8, 9)} ${digits.slice(9, 13)} ${digits.slice(13)}`
    : digits.replace(/(\d{4})(?=\d)/g, '$1 ');

/**
 * What a payee's requisites look like and how to show them (all without bidi controls): a
 * card number (13–19 digits) in groups of four, a Russian phone number as
 * `+7 (996) 777-99-77`, other phones as written, an account of digits in groups, anything
 * else as written. `kind`, when the proxy sent it, decides the kind; otherwise the text does.
 */
export const formatRequisites = (raw: string, kind?: RequisitesKind): FormattedRequisites => {
  const text = plainText(raw);
  const compact = text.trim().replace(/[\s()-]/g, '');
  if (kind === 'url' || kind === 'qr' || kind === 'other') return { kind, text: text.trim() };
  const russianPhone = /^(\+7|7|8)(\d{3})(\d{3})(\d{2})(\d{2})$/.exec(compact);
  if (russianPhone && (kind === undefined || kind === 'phone')) {
    const [, prefix, code, first, second, third] = russianPhone;
    const country = prefix === '8' ? '8' : '+7';
    return { kind: 'phone', text: `${country} (${code}) ${first}-${second}-${third}` };
  }
  if (/^\+\d{7,15}$/.test(compact) && (kind === undefined || kind === 'phone')) return { kind: 'phone', text: text.trim() };
  if (/^\d{13,19}$/.test(compact) && (kind === undefined || kind === 'card')) {
    return { kind: 'card', text: compact.replace(/(\d{4})(?=\d)/g, '$1 ') };
  }
  if (/^\d+$/.test(compact) && kind !== 'phone' && kind !== 'card') return { kind: 'account', text: groupAccount(compact) };
  return { kind: kind ?? 'account', text };
};

/** Time left as a clock: `29:59`, `1:02:03`, never negative. */
export const formatDuration = (ms: number): string => {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const pad = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
};
