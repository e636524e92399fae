/**
 * The browser validates answers with JSON Schemas generated from the zod schemas
 * (src/schemas/browser.generated.ts, src/schemas/json-schema.ts). These tests keep the two in
 * step: the generated file must be what the generator writes now, and on thousands of valid and
 * broken answers the browser's verdict must be zod's.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { BROWSER_SCHEMAS_FILE, renderBrowserSchemas } from '../../scripts/gen-browser-schemas.js';
import {
  canceledInvoiceJsonSchema,
  checkoutErrorJsonSchema,
  invoiceJsonSchema,
  paymentVariantsJsonSchema,
} from '../../src/schemas/browser.generated.js';
import { validateJson, type JsonSchema } from '../../src/schemas/json-schema.js';
import {
  CheckoutCanceledInvoiceSchema as CanceledInvoiceSchema,
  CheckoutErrorBodySchema,
  CheckoutInvoiceSchema as InvoiceLookupSchema,
  PaymentVariantListSchema,
  safeParse,
} from '../../src/schemas/index.js';
import { exampleCanceledInvoice, exampleLookupInvoice, exampleVariants } from '../fixtures/dto.js';

test('the generated browser schemas are up to date with the zod schemas', () => {
  assert.equal(
    readFileSync(BROWSER_SCHEMAS_FILE, 'utf8'),
    renderBrowserSchemas(),
    'run `npx tsx scripts/gen-browser-schemas.ts` and commit the result',
  );
});

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path to a value inside `value` (objects and arrays included). */
const pathsOf = (value: Json, prefix: (string | number)[] = []): (string | number)[][] => {
  const own = prefix.length ? [prefix] : [];
  if (Array.isArray(value)) return [...own, ...value.flatMap((item, index) => pathsOf(item, [...prefix, index]))];
  if (value && typeof value === 'object')
    return [...own, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...prefix, key]))];
  return own;
};

const clone = (value: Json): Json => JSON.parse(JSON.stringify(value)) as Json;

/** Values that sit on the edges of the rules: decimals, ids, timestamps, types. */
const tricky = fc.constantFrom<Json>(
  '',
  ' ',
  '1500.00',
  '0.5',
  '-5',
  '1e3',
  '1,5',
  '+1',
  '1.',
  '.5',
  '00012.30',
  '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
  '6F1C2A3B-4D5E-4F60-8A7B-9C0D1E2F3A4B',
  '6f1c2a3b4d5e4f608a7b9c0d1e2f3a4b',
  'not-a-uuid',
  '2026-11-22T10:30:00+03:00',
  '2026-11-22T10:30:00Z',
  '2026-11-22T10:30:00.123+03:00',
  '2026-11-22T10:30:00',
  '2026-02-30T10:00:00Z',
  '2026-11-22 10:30',
  'in',
  'out',
  'sideways',
  'new',
  'paid',
  'SBP',
  'TO_CARD',
  0,
  2,
  -1,
  1.5,
  31,
  Number.MAX_SAFE_INTEGER + 2,
  true,
  false,
  null,
  [],
  {},
  [1],
  { amount: '1.00' },
);

const mutate = (base: Json) =>
  fc
    .record({
      seed: fc.nat(),
      kind: fc.constantFrom('replace', 'delete', 'add', 'wrap'),
      value: fc.oneof(tricky, fc.jsonValue() as fc.Arbitrary<Json>),
    })
    .map(({ seed, kind, value }) => {
      const copy = clone(base);
      const paths = pathsOf(copy);
      if (kind === 'wrap') return [copy] as Json;
      const path = paths[seed % paths.length]!;
      const parent = path.slice(0, -1).reduce<Json>((node, key) => (node as Record<string | number, Json>)[key]!, copy);
      const key = path.at(-1)!;
      if (kind === 'replace') (parent as Record<string | number, Json>)[key] = value;
      else if (kind === 'delete' && !Array.isArray(parent)) delete (parent as Record<string, Json>)[key];
      else if (kind === 'add' && parent && typeof parent === 'object' && !Array.isArray(parent)) parent[`extra${seed % 3}`] = value;
      return copy;
    });

const cases: [string, JsonSchema, Parameters<typeof safeParse>[0], Json][] = [
  ['invoice', invoiceJsonSchema, InvoiceLookupSchema, exampleLookupInvoice()],
  ['invoice without deals', invoiceJsonSchema, InvoiceLookupSchema, exampleLookupInvoice({ deals: [] })],
  ['canceled invoice', canceledInvoiceJsonSchema, CanceledInvoiceSchema, exampleCanceledInvoice()],
  ['payment variants', paymentVariantsJsonSchema, PaymentVariantListSchema, exampleVariants()],
  ['checkout error', checkoutErrorJsonSchema, CheckoutErrorBodySchema, { error: { code: 'not_found', message: 'no such invoice' } }],
];

describe("the browser's validator gives zod's verdict", () => {
  for (const [name, jsonSchema, zodSchema, base] of cases) {
    test(`${name}: the example is valid for both`, () => {
      assert.equal(validateJson(jsonSchema, base).success, true);
      assert.equal(safeParse(zodSchema, base).success, true);
    });
    test(`${name}: 3,000 mutated answers get the same verdict`, () => {
      let refused = 0;
      fc.assert(
        fc.property(mutate(base), (value) => {
          const browser = validateJson(jsonSchema, value);
          const zod = safeParse(zodSchema, value);
          if (!zod.success) refused++;
          assert.equal(
            browser.success,
            zod.success,
            `zod: ${zod.success ? 'valid' : zod.message}; browser: ${browser.success ? 'valid' : browser.message}`,
          );
          if (!browser.success && !zod.success) {
            // Both name a field; the browser's first one is among zod's.
            assert.ok(
              zod.issues.some((issue) => issue.field === browser.issues[0]!.field),
              `${browser.message} vs ${zod.message}`,
            );
          }
        }),
        { numRuns: 3000, seed: 20261122 },
      );
      // The mutations really exercise refusals, not only harmless changes.
      assert.ok(refused > 300, `only ${refused} of 3000 mutations were invalid`);
    });
  }
});

describe('validateJson messages name the field', () => {
  test('a number amount', () => {
    const result = validateJson(invoiceJsonSchema, exampleLookupInvoice({ sum: { amount: 1500, currency: 'RUB', subunit: 2 } }));
    assert.equal(result.success, false);
    if (!result.success) assert.equal(result.message, 'sum.amount: must be string, got integer');
  });
  test('a missing requisites of a deal', () => {
    const invoice = exampleLookupInvoice();
    delete (invoice.deals[0] as Record<string, unknown>).requisites;
    const result = validateJson(invoiceJsonSchema, invoice);
    if (result.success) return assert.fail('accepted');
    assert.equal(result.message, 'deals[0].requisites: is required');
  });
  test('a malformed id and timestamp', () => {
    const result = validateJson(invoiceJsonSchema, exampleLookupInvoice({ id: 'nope', expireAt: '2026-11-22 10:30' }));
    if (result.success) return assert.fail('accepted');
    assert.equal(result.message, 'id: must be a UUID; expireAt: must be an RFC 3339 timestamp like "2026-11-22T10:30:00+03:00"');
  });
  test('a malformed decimal', () => {
    const result = validateJson(invoiceJsonSchema, exampleLookupInvoice({ sum: { amount: '1e3', currency: 'RUB', subunit: 2 } }));
    if (result.success) return assert.fail('accepted');
    assert.equal(result.message, 'sum.amount: must be a decimal number as text like "1500.00"');
  });
});
