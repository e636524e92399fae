/**
 * A validator for the small subset of JSON Schema that zod's `toJSONSchema` writes for the
 * shared schemas (`scripts/gen-browser-schemas.ts`). The browser validates answers with it
 * instead of shipping zod: the same definitions, a fraction of the bytes (zod/mini and the
 * schemas cost 9.2 KB gzip of the CDN file; this and the generated schemas about 2 KB).
 * A property test (`test/schemas/browser-schemas.test.ts`) holds it to zod's verdicts.
 *
 * No imports with runtime code: browser code may use this module freely.
 */
import { describeIssues, issuePath, type FieldIssue, type SafeParseResult } from './patterns.js';

type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

/** The keywords the generator emits and this validator understands. */
export interface JsonSchema {
  type?: JsonType | JsonType[];
  enum?: readonly unknown[];
  properties?: Readonly<Record<string, JsonSchema>>;
  required?: readonly string[];
  /** `false` refuses unknown properties; a schema (usually `{}`) checks them. */
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: readonly JsonSchema[];
  pattern?: string;
  /** What to say when `pattern` does not match (added by the generator for the known patterns). */
  errorMessage?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

const typeOf = (value: unknown): JsonType => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
};

const patterns = new Map<string, RegExp>();
const compiled = (pattern: string): RegExp => {
  let regex = patterns.get(pattern);
  if (!regex) patterns.set(pattern, (regex = new RegExp(pattern)));
  return regex;
};

const check = (schema: JsonSchema, value: unknown, path: PropertyKey[], issues: FieldIssue[]): void => {
  const fail = (message: string) => issues.push({ field: issuePath(path), message });

  if (schema.anyOf) {
    const fits = schema.anyOf.some((option) => {
      const trial: FieldIssue[] = [];
      check(option, value, path, trial);
      return trial.length === 0;
    });
    if (!fits) fail('does not match any accepted shape');
    return;
  }
  const actual = typeOf(value);
  if (schema.type) {
    const allowed = Array.isArray(schema.type) ? schema.type : [schema.type];
    const fits = allowed.includes(actual) || (actual === 'integer' && allowed.includes('number'));
    if (!fits) {
      fail(value === undefined ? 'is required' : `must be ${allowed.join(' or ')}, got ${actual}`);
      return;
    }
  }
  if (schema.enum && !schema.enum.includes(value)) {
    fail(`must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}`);
    return;
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) fail(`must be at least ${schema.minLength} characters`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength) fail(`must be at most ${schema.maxLength} characters`);
    if (schema.pattern !== undefined && !compiled(schema.pattern).test(value)) fail(schema.errorMessage ?? 'has the wrong format');
  } else if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) fail(`must be at least ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) fail(`must be at most ${schema.maximum}`);
  } else if (Array.isArray(value)) {
    if (schema.items) value.forEach((item, index) => check(schema.items as JsonSchema, item, [...path, index], issues));
  } else if (actual === 'object') {
    // In the schema's order, as zod reports; a property that is `undefined` (a custom client's
    // object, never JSON) counts as absent, as it does for zod.
    const record = value as Record<string, unknown>;
    const properties = schema.properties ?? {};
    for (const [key, property] of Object.entries(properties)) {
      if (record[key] !== undefined) check(property, record[key], [...path, key], issues);
      else if (schema.required?.includes(key)) issues.push({ field: issuePath([...path, key]), message: 'is required' });
    }
    for (const [key, item] of Object.entries(record)) {
      if (key in properties || item === undefined) continue;
      if (schema.additionalProperties === false) issues.push({ field: issuePath([...path, key]), message: 'is not a known field' });
      else if (typeof schema.additionalProperties === 'object') check(schema.additionalProperties, item, [...path, key], issues);
    }
  }
};

/**
 * Validates JSON data against a generated schema. The result has the shape of `safeParse`'s,
 * typed with the zod-inferred type the caller names; the data is returned as given.
 */
export const validateJson = <T>(schema: JsonSchema, value: unknown): SafeParseResult<T> => {
  const issues: FieldIssue[] = [];
  check(schema, value, [], issues);
  return issues.length ? { success: false, issues, message: describeIssues(issues) } : { success: true, data: value as T };
};
