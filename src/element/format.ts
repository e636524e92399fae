/**
 * Formatters for what the payer reads: money, card and phone numbers, time left. Plain
 * functions, no DOM. Amounts stay decimal text from end to end: `Intl.NumberFormat` is fed
 * the string itself, and any answer whose digits differ from the input's is thrown away for
 * an exact fallback.
 */

import { IFSC, type RequisitesKind } from '../schemas/requisites-kind.js';

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

/**
 * One `Intl.NumberFormat` per locale and options, made once: constructing one costs far more
 * than formatting with it (about 1 ms each on a phone's CPU, several per amount, every render).
 * Throws what the constructor throws (an invalid tag, a currency code that is not three letters).
 */
const formats = new Map<string, Intl.NumberFormat>();
export const numberFormat = (locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat => {
  const key = `${locale}\u0000${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    formats.set(key, format);
  }
  return format;
};

/** The ten digits a locale writes, `0` to `9` (`০১২৩৪৫৬৭৮৯` in Bengali). */
const localDigits = (locale: string): string => {
  try {
    return numberFormat(locale, { useGrouping: false })
      .format(1234567890)
      .replace(/(.*)(.)$/u, '$2$1');
  } catch {
    return '0123456789';
  }
};

/** The digits of text a locale wrote, as ASCII digits (`১,৫০০.৫০৳` → `150050`). */
const asciiDigitsOf = (text: string, locale: string): string => {
  const digits = [...localDigits(locale)];
  return [...text]
    .map((char) => (digits.includes(char) ? String(digits.indexOf(char)) : char))
    .join('')
    .replace(/\D/g, '');
};

/** `"0012.50"` → `"12.50"`: Intl drops superfluous leading zeros, so compare without them. */
const trimLeadingZeros = (amount: string): string => amount.replace(/^0+(?=\d)/, '');

const fractionDigits = (amount: string): number => amount.split('.')[1]?.length ?? 0;

/** Group and decimal separators of a locale, learnt from a harmless number (not an amount). */
const separators = (locale: string): { group: string; decimal: string } => {
  let group = ',';
  let decimal = '.';
  try {
    for (const part of numberFormat(locale).formatToParts(11111.5)) {
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
    const format = numberFormat(locale, { ...options, minimumFractionDigits: digits, maximumFractionDigits: digits });
    const text = (format.format as unknown as DecimalFormat)(amount);
    return asciiDigitsOf(text, locale) === digitsOf(trimLeadingZeros(amount)) ? text : undefined;
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
 * `₽1,500.00` (en), in the locale's digits (`৳১,৫০০.০০` in Bengali). Exactly the digits of
 * `amount` are shown (never rounded, never a float); a currency Intl does not accept (`USDT`)
 * or an amount it cannot keep exact is written as the grouped number followed by the code. A
 * bare `$` is a dollar in one country and a peso in the next: a `$` currency takes the locale's
 * own symbol for it instead (`ARS 1,500.00` in English, `1500,00 US$` in Spanish).
 */
export const formatMoney = (money: { amount: string; currency: string }, locale: string): string => {
  const { amount, currency } = money;
  const narrow = viaIntl(amount, locale, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' });
  return (
    (narrow?.includes('$') ? viaIntl(amount, locale, { style: 'currency', currency }) : narrow) ??
    `${formatDecimal(amount, locale)}\u00a0${plainText(currency)}`
  );
};

export type { RequisitesKind };

/** Requisites as the element shows them: what they are, the text to read and the value to copy. */
export interface FormattedRequisites {
  /** What the requisites are (a card, a phone, an account, …). */
  kind: RequisitesKind;
  /** For reading. */
  text: string;
  /** What the copy button copies: the raw value, or its part to type (an IMPS account without its IFSC, a bot's link). */
  value: string;
  /** The IFSC of an Indian account (`imps`), in capitals. */
  ifsc?: string | undefined;
}

/** A Russian account number (20 digits) as it is printed: `40817 810 0 9999 1234567`; other digits in fours. */
const groupAccount = (digits: string): string =>
  digits.length === 20
    ? `${digits.slice(0, 5)} ${digits.slice(5, 8)} ${digits.slice(8, 9)} ${digits.slice(9, 13)} ${digits.slice(13)}`
    : fours(digits);

const fours = (digits: string): string => digits.replace(/(\d{4})(?=\d)/g, '$1 ');

/** A phone number: a Russian (or Kazakh) one as `+7 (996) 777-99-77`, another as written; undefined if it is none. */
const formatPhone = (text: string, compact: string): string | undefined => {
  const russian = /^(\+7|7|8)(\d{3})(\d{3})(\d{2})(\d{2})$/.exec(compact);
  if (russian) {
    const [, prefix, code, first, second, third] = russian;
    return `${prefix === '8' ? '8' : '+7'} (${code}) ${first}-${second}-${third}`;
  }
  return /^\+\d{7,15}$/.test(compact) ? text : undefined;
};

/**
 * What a payee's requisites look like and how to show them (all without bidi controls): a
 * card number (13–19 digits) in groups of four, a Russian phone number as
 * `+7 (996) 777-99-77`, other phones as written, an account of digits in groups (one written
 * with dashes, as Korean banks do, as written), an Argentine CVU in its two blocks
 * (`00000031 00012345678901`), an Indian account in fours with its IFSC apart, a Telegram
 * bot as its `@name`, anything else as written. `kind`, when the proxy sent it, decides the
 * kind; otherwise the text does.
 */
export const formatRequisites = (raw: string, kind?: RequisitesKind): FormattedRequisites => {
  const text = plainText(raw).trim();
  const compact = text.replace(/[\s()-]/g, '');
  const as = (shown: RequisitesKind, reading = text, value = text): FormattedRequisites => ({ kind: shown, text: reading, value });
  switch (kind) {
    case 'imps': {
      const ifsc = IFSC.exec(text)?.[0];
      const account = /\d{6,}/.exec(ifsc ? text.replace(ifsc, '') : text)?.[0] ?? compact;
      return { ...as(kind, fours(account), account), ifsc: ifsc?.toUpperCase() };
    }
    case 'cvu':
      return /^\d{22}$/.test(compact) ? as(kind, `${compact.slice(0, 8)} ${compact.slice(8)}`, compact) : as(kind);
    case 'telegram': {
      const bot = /^https:\/\/(?:t|telegram)\.me\/(\w+)/i.exec(text)?.[1];
      return as(kind, bot ? `@${bot}` : text);
    }
    case 'topup':
      return as(kind, formatPhone(text, compact) ?? text);
    case 'url':
    case 'qr':
    case 'qr-image':
    case 'upi':
    case 'other':
      return as(kind);
  }
  const phone = kind === undefined || kind === 'phone' ? formatPhone(text, compact) : undefined;
  if (phone) return as('phone', phone);
  if (/^\d{13,19}$/.test(compact) && (kind === undefined || kind === 'card')) return as('card', fours(compact));
  if (/^\d+$/.test(compact) && kind !== 'phone' && kind !== 'card') return as('account', /\d-\d/.test(text) ? text : groupAccount(compact));
  return as(kind ?? 'account');
};

/** Time left as a clock in the locale's digits: `29:59`, `1:02:03` (`২৯:৫৯` in Bengali), never negative. */
export const formatDuration = (ms: number, locale = 'en'): string => {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const digits = localDigits(locale);
  const pad = (value: number) => String(value).padStart(2, '0');
  const clock =
    hours > 0 ? `${hours}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}` : `${Math.floor(total / 60)}:${pad(total % 60)}`;
  return clock.replace(/\d/g, (digit) => [...digits][Number(digit)]!);
};
