/**
 * Building blocks shared by every schema. Written with `zod/mini` so that the browser bundle
 * pays for the small core only (full zod is ~21 KB brotli, mini ~5.7 KB, measured with esbuild);
 * the server and the mock import the very same schemas.
 */
import * as z from 'zod/mini';
import {
  DECIMAL_PATTERN,
  RFC3339_PATTERN,
  UUID_PATTERN,
  normalizeTimestamp,
  describeIssues,
  issuePath,
  unwrapSingleton,
  type FieldIssue,
  type SafeParseResult,
} from './patterns.js';

export * from './patterns.js';

const describeReceived = (value: unknown): string =>
  typeof value === 'string' ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value) : typeof value;

/** A decimal amount as text; anything else is refused with a message naming what was received. */
export const decimalString = () =>
  z
    .string({
      error: (issue) => `must be a decimal number as text like "1500.00", got ${describeReceived(issue.input)}`,
    })
    .check(
      // A regex check, not a refine: it carries over to the JSON Schema the browser validates with.
      z.regex(DECIMAL_PATTERN, {
        error: (issue) =>
          `must be a decimal number as text like "1500.00" (digits and one point, no sign, exponent or comma), got ${describeReceived(issue.input)}`,
        abort: true,
      }),
    );

/** A decimal amount that must be greater than zero (request amounts: an invoice of 0 is meaningless). */
export const positiveDecimalString = () =>
  decimalString().check(z.refine((value) => /[1-9]/.test(value), { error: 'must be greater than zero' }));

/** A string that is a UUID (any case), with a message naming what came instead. */
export const uuidString = () =>
  z
    .string({ error: (issue) => `must be a UUID, got ${describeReceived(issue.input)}` })
    .check(z.regex(UUID_PATTERN, { error: (issue) => `must be a UUID, got ${describeReceived(issue.input)}` }));

let warnedNoOffset = false;
/** Told (once per process) that a timestamp without an offset was read as UTC; replaceable for tests and loggers. */
export const timestampWarnings = {
  /** A timestamp had no UTC offset and was read as UTC. */
  noOffset: (text: string): void => {
    if (warnedNoOffset) return;
    warnedNoOffset = true;
    console.warn(
      `merchant-checkout: the payment service sent a timestamp without a UTC offset (${JSON.stringify(text)}); it is read as UTC. (Logged once.)`,
    );
  },
};

/**
 * An ISO 8601 timestamp in any form the service may write (`+03:00`, `+0300`, `+03`, `Z`,
 * without seconds, 1–9 fractional digits, lower-case `t`/`z`), normalized to RFC 3339 with
 * `±HH:MM`. A timestamp without any offset is read as UTC, and that is logged once.
 */
export const isoDateTime = () =>
  z.pipe(
    z.string({ error: (issue) => `must be an ISO 8601 timestamp, got ${describeReceived(issue.input)}` }),
    z.transform((text: string, ctx) => {
      const normalized = normalizeTimestamp(text);
      if (!normalized) {
        ctx.issues.push({ code: 'custom', message: `must be an ISO 8601 timestamp, got ${describeReceived(text)}`, input: text });
        return z.NEVER;
      }
      if (normalized.assumedUtc) timestampWarnings.noOffset(text);
      return normalized.value;
    }),
  );

/** A timestamp as the checkout protocol carries it: RFC 3339 with `±HH:MM` (what {@link isoDateTime} yields). */
export const rfc3339DateTime = () =>
  z.string({ error: (issue) => `must be an RFC 3339 timestamp, got ${describeReceived(issue.input)}` }).check(
    z.regex(RFC3339_PATTERN, {
      error: (issue) => `must be an RFC 3339 timestamp like "2026-11-22T10:30:00+03:00", got ${describeReceived(issue.input)}`,
    }),
  );

/**
 * A field the checkout never shows: whatever the service sends there (missing, null, another
 * type, an unknown value) never rejects the whole answer; what does not fit reads as undefined.
 */
export const lenient = <Schema extends z.ZodMiniType>(schema: Schema) =>
  z.catch(z.optional(schema), undefined) as unknown as z.ZodMiniOptional<Schema>;

/** A string of at least one character. */
export const nonEmptyString = () =>
  z.string({ error: (issue) => `must be a string, got ${describeReceived(issue.input)}` }).check(z.minLength(1, 'must not be empty'));

/** An absolute http(s) URL. */
export const httpUrl = () =>
  z.string({ error: (issue) => `must be a URL string, got ${describeReceived(issue.input)}` }).check(
    z.refine(
      (value) => {
        try {
          const url = new URL(value);
          return url.protocol === 'https:' || url.protocol === 'http:';
        } catch {
          return false;
        }
      },
      { error: (issue) => `must be an absolute http(s) URL, got ${describeReceived(issue.input)}` },
    ),
  );

/**
 * The string type of an open enumeration: the known values autocomplete in editors, any
 * other string is still accepted (`string & {}` keeps the literals from collapsing).
 */
export type OpenEnum<Known extends string> = Known | (string & {});

/**
 * An enumeration whose complete set the service does not show (payment options, statuses,
 * bank codes): known values are named, unknown non-empty strings pass, so a new value from the
 * service does not break a payer's checkout.
 */
export const openEnum = <const Known extends readonly string[]>(known: Known) => {
  const hint = known.length ? ` (known values: ${known.join(', ')})` : '';
  return z
    .string({ error: (issue) => `must be a string${hint}, got ${describeReceived(issue.input)}` })
    .check(z.minLength(1, `must not be empty${hint}`)) as unknown as z.ZodMiniType<OpenEnum<Known[number]>>;
};

/**
 * The reference describes every response as an array of the named object while each example
 * is a single object: accept both, yield the object. (Unwrapping first, rather than a union,
 * keeps the messages of the inner schema with their field paths.)
 */
export const oneOrSingleton = <Schema extends z.ZodMiniType>(schema: Schema) => z.pipe(z.transform(unwrapSingleton), schema);

/**
 * Messages for the generic issue kinds, which `zod/mini` leaves as "Invalid input" unless a
 * whole locale is loaded; this is the few hundred bytes of it that a developer needs.
 */
const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
/**
 * The message of a zod issue in this package's words (`is required`, `must be a string, got number`), or `undefined` to keep zod's.
 */
export const issueMessage = (issue: z.core.$ZodRawIssue): string | undefined => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${issue.expected}, got ${kindOf(issue.input)}`;
    case 'unrecognized_keys':
      return 'is not a known field';
    case 'invalid_union':
      return 'does not match any accepted shape';
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    default:
      return undefined;
  }
};

/** Parses with field-naming messages; the one way every part of the product validates. */
export const safeParse = <Schema extends z.ZodMiniType>(
  schema: Schema,
  value: unknown,
  prefix?: string,
): SafeParseResult<z.output<Schema>> => {
  const result = schema.safeParse(value, { error: issueMessage });
  if (result.success) return { success: true, data: result.data };
  const issues = fieldIssues(result.error, prefix);
  return { success: false, issues, message: describeIssues(issues) };
};

/** The issues of a zod error as `{ field, message }` pairs, so every message names its field. */
export const fieldIssues = (error: z.core.$ZodError, prefix?: string): FieldIssue[] =>
  error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ field: issuePath([...issue.path, key], prefix), message: issue.message }))
      : [{ field: issuePath(issue.path, prefix), message: issue.message }],
  );
