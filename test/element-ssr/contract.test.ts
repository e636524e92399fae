/**
 * The element's public contract is its class JSDoc (the Custom Elements Manifest is generated
 * from it): every documented CSS custom property, part and event must exist in the code, and
 * everything in the code must be documented.
 */
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { test } from 'node:test';

const source = (path: string) => readFile(new URL(`../../src/element/${path}`, import.meta.url), 'utf8');
const sorted = (values: Iterable<string>) => [...new Set(values)].sort();
const all = (text: string, pattern: RegExp) => sorted([...text.matchAll(pattern)].map((match) => match[1]!));

const elementSource = await source('merchant-checkout.ts');
const jsdoc = elementSource.slice(0, elementSource.indexOf('export class MerchantCheckoutElement'));

/** Every `.ts` of the element, for the parts its templates use. */
const templates = async () => {
  const files = (await readdir(new URL('../../src/element/', import.meta.url), { recursive: true })).filter((file) => file.endsWith('.ts'));
  return (await Promise.all(files.map(source))).join('\n');
};

test('every CSS custom property is documented, and every documented one is used', async () => {
  const used = all(
    (await Promise.all(['merchant-checkout.styles.ts', 'screen.styles.ts'].map(source))).join('\n'),
    /var\((--merchant-checkout-[a-z-]+)/g,
  );
  const documented = all(jsdoc, /@cssproperty (--merchant-checkout-[a-z-]+)/g);
  assert.deepEqual(used, documented);
  for (const token of ['accent', 'text', 'muted', 'background', 'surface', 'border', 'danger', 'radius', 'font', 'spacing']) {
    assert.ok(documented.includes(`--merchant-checkout-${token}`), token);
  }
});

test('every part in the templates is documented, and every documented one exists', async () => {
  const code = await templates();
  const used = sorted([...all(code, /part="([a-z-]+)"/g), ...all(code, /part: '([a-z-]+)'/g)]);
  const documented = all(jsdoc, /@csspart ([a-z-]+)/g);
  assert.deepEqual(used, documented);
  const required = ['amount', 'bank', 'requisites', 'holder', 'qr', 'timer', 'status', 'variants', 'variant'];
  required.push('copy-button', 'cancel-button', 'confirm-button', 'retry-button', 'error');
  for (const name of required) assert.ok(documented.includes(name), name);
});

test('every event is documented, dispatched as its class and typed in GlobalEventHandlersEventMap', async () => {
  const events = await source('events.ts');
  const documented = all(jsdoc, /@event \{\w+\} ([a-z-]+)/g);
  assert.deepEqual(all(events, /super\('([a-z-]+)'/g), documented);
  assert.deepEqual(all(events, /^ {4}'([a-z-]+)': \w+Event;$/gm), documented);
  assert.deepEqual(documented, [
    'checkout-amount-changed',
    'checkout-canceled',
    'checkout-copy',
    'checkout-error',
    'checkout-expired',
    'checkout-payer-confirmed',
    'checkout-ready',
    'checkout-receipt',
    'checkout-report',
    'checkout-return',
    'checkout-status',
    'checkout-timing',
    'checkout-variant-select',
  ]);
});

test('the version the element reports is the package version', async () => {
  const { VERSION } = await import('../../src/element/version.js');
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  assert.equal(VERSION, pkg.version);
});
