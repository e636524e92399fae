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

export interface FieldIssue {
  /** Dotted path of the offending field (`sum.amount`, `deals[0].requisites`), `''` for the root. */
  field: string;
  message: string;
}

export type SafeParseResult<T> =
  | { success: true; data: T }
  | { success: false; issues: FieldIssue[]; message: string };

export const issuePath = (path: readonly PropertyKey[], prefix?: string): string => {
  let out = prefix ?? '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
};

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
