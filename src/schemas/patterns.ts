/**
 * Patterns and result types shared by the zod schemas and the browser's validator. This module
 * imports nothing, so browser code can use it without pulling zod in.
 */

/**
 * Decimal number as text: digits, optionally a point and more digits. No sign, no exponent,
 * no comma, no spaces: `"1500.00"`, `"0.5"`, `"12"`. Money never travels as a JS number.
 */
export const DECIMAL_PATTERN = /^\d{1,30}(?:\.\d{1,30})?$/;

/**
 * Any 8-4-4-4-12 hexadecimal identifier, either case. Deliberately not RFC-version strict: the
 * service's ids are opaque. (No `i` flag: JSON Schema patterns, which the browser validates
 * with, cannot carry flags.)
 */
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * Media types a payer's receipt may have: photos (JPEG, PNG, WebP, HEIC/HEIF as phones save
 * them) and PDF. The proxy also checks each file's leading bytes against its declared type.
 */
export const RECEIPT_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif', 'application/pdf'] as const;
/** One of {@link RECEIPT_MEDIA_TYPES}. */
export type ReceiptMediaType = (typeof RECEIPT_MEDIA_TYPES)[number];

/** The largest receipt, in bytes: the service's "не более 10 Мб" read as MiB (the larger reading). */
export const MAX_RECEIPT_BYTES = 10 * 1024 * 1024;

/** One reason a value was refused: which field, and why. */
export interface FieldIssue {
  /** Dotted path of the offending field (`sum.amount`, `deals[0].requisites`), `''` for the root. */
  field: string;
  /** What is wrong with it, e.g. `must be a decimal string, got 12.5`. */
  message: string;
}

/** The result of `safeParse`: the parsed value, or the issues and one message joining them. */
export type SafeParseResult<T> =
  | {
      /** The value was accepted. */
      success: true;
      /** The parsed value (normalized: defaults filled in, timestamps rewritten). */
      data: T;
    }
  | {
      /** The value was refused. */
      success: false;
      /** Every offending field with its message. */
      issues: FieldIssue[];
      /** The issues as one message ({@link describeIssues}). */
      message: string;
    };

/** A zod issue's path as a dotted field name (`deals[0].requisites`), after an optional prefix. */
export const issuePath = (path: readonly PropertyKey[], prefix?: string): string => {
  let out = prefix ?? '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
};

/** The issues as one message: `sum.amount: must be …; status: is required`. */
export const describeIssues = (issues: readonly FieldIssue[]): string =>
  issues.map((issue) => `${issue.field || '(root)'}: ${issue.message}`).join('; ');

/**
 * The reference describes every response as an array of the named object while each example
 * is a single object: a one-element array stands for its element.
 */
export const unwrapSingleton = (value: unknown): unknown => (Array.isArray(value) && value.length === 1 ? (value[0] as unknown) : value);

/** The variants answer is already an array; one wrapped in one more array is unwrapped too. */
export const unwrapVariantList = (value: unknown): unknown =>
  Array.isArray(value) && value.length === 1 && Array.isArray(value[0]) ? (value[0] as unknown) : value;

/**
 * Every ISO 8601 date-time form the service may write: a `T` or `t` (or a space) between date
 * and time, minutes with or without seconds, 1–9 fractional digits, and an offset as `Z`/`z`,
 * `±HH:MM`, `±HHMM` or `±HH` (or none at all).
 */
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/**
 * RFC 3339 as the checkout protocol carries timestamps: seconds, an optional fraction, and an
 * offset. The proxy always writes `±HH:MM`; `Z` is read too (an older proxy, a merchant's own).
 */
export const RFC3339_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/** A timestamp of the service rewritten as RFC 3339 with an offset. */
export interface NormalizedTimestamp {
  /** The same instant as RFC 3339 with a `±HH:MM` offset (`Z` becomes `+00:00`); the fraction is kept as written. */
  value: string;
  /** True when the text carried no offset and was read as UTC. */
  assumedUtc: boolean;
}

const inRange = (value: string | undefined, max: number) => value === undefined || Number(value) <= max;

/**
 * `2024-11-23t20:43z`, `2024-11-23T20:43:07.5+0300`, `2024-11-23T20:43:07+03` … →
 * `2024-11-23T20:43:00+00:00`, `2024-11-23T20:43:07.5+03:00`, `2024-11-23T20:43:07+03:00`.
 * Undefined for anything that is not a valid ISO 8601 date-time.
 */
export const normalizeTimestamp = (text: string): NormalizedTimestamp | undefined => {
  const match = ISO_DATE_TIME.exec(text.trim());
  if (!match) return undefined;
  const [, date, hours, minutes, seconds = '00', fraction, zulu, sign, offsetHours, offsetMinutes = '00'] = match;
  if (!inRange(hours, 23) || !inRange(minutes, 59) || !inRange(seconds, 60) || !inRange(offsetHours, 23) || !inRange(offsetMinutes, 59)) {
    return undefined;
  }
  const [year, month, day] = date!.split('-').map(Number) as [number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return undefined;
  const offset = zulu || !sign ? '+00:00' : `${sign}${offsetHours}:${offsetMinutes}`;
  const value = `${date}T${hours}:${minutes}:${seconds}${fraction ? `.${fraction}` : ''}${offset}`;
  return { value, assumedUtc: !zulu && !sign };
};

/** Compares two decimal texts (`DECIMAL_PATTERN`) exactly, without floating point: -1, 0 or 1. */
export const compareDecimals = (a: string, b: string): number => {
  const [aInt = '', aFrac = ''] = a.split('.');
  const [bInt = '', bFrac = ''] = b.split('.');
  const width = Math.max(aFrac.length, bFrac.length);
  const left = BigInt(aInt + aFrac.padEnd(width, '0'));
  const right = BigInt(bInt + bFrac.padEnd(width, '0'));
  return left === right ? 0 : left < right ? -1 : 1;
};
