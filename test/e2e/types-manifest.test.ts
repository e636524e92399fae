/**
 * `custom-elements.json`, as `npm run build` generated it from the element's JSDoc and Lit
 * decorators: it is the package's `customElements` and it ships; it is exactly what the
 * analyzer reads from the sources now (so test/repo/public-surface.test.ts, which holds the
 * React, JSX and Vue typings and docs/element.md to that analysis, checked what ships); it keeps
 * every attribute, property, event, part and custom property the package has documented
 * (docs/ARCHITECTURE.md, "The element"; removing one is a breaking change); and its paths
 * are those of the shipped files. That the parts and custom properties are the ones the
 * templates and styles use is test/element-ssr/contract.test.ts.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { access, readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { analyze } from '../../scripts/gen-element-api.js';

const root = new URL('../../', import.meta.url);
const readJson = async <T>(path: string): Promise<T> => JSON.parse(await readFile(new URL(path, root), 'utf8')) as T;

/** What the package has promised since its first release; a new entry needs no change here. */
const PROMISED_ATTRIBUTES = {
  'invoice-id': 'invoiceId',
  endpoint: 'endpoint',
  lang: 'lang',
  'poll-interval': 'pollInterval',
  'hide-cancel': 'hideCancel',
  theme: 'theme',
};
const PROMISED_PROPERTY_ONLY = ['client'];
const PROMISED_EVENTS = {
  'checkout-ready': 'CheckoutReadyEvent',
  'checkout-status': 'CheckoutStatusEvent',
  'checkout-canceled': 'CheckoutCanceledEvent',
  'checkout-expired': 'CheckoutExpiredEvent',
  'checkout-variant-select': 'CheckoutVariantSelectEvent',
  'checkout-copy': 'CheckoutCopyEvent',
  'checkout-error': 'CheckoutErrorEvent',
};
const PROMISED_PARTS = [
  'amount',
  'bank',
  'requisites',
  'holder',
  'qr',
  'timer',
  'status',
  'variants',
  'variant',
  'copy-button',
  'cancel-button',
  'confirm-button',
  'retry-button',
  'error',
];
/** "colours, font, radius, spacing": at least one token of each. */
const PROMISED_TOKEN_KINDS = [/^--merchant-checkout-(accent|text|background|border)$/, /-font$/, /-radius$/, /-spacing$/];

interface Named {
  name: string;
  description?: string;
  type?: { text: string };
}
interface Declaration extends Named {
  kind: string;
  customElement?: boolean;
  tagName?: string;
  summary?: string;
  attributes?: (Named & { fieldName?: string })[];
  members?: (Named & { kind: string; attribute?: string; privacy?: string; static?: boolean })[];
  events?: Named[];
  cssParts?: Named[];
  cssProperties?: Named[];
}
interface Manifest {
  schemaVersion: string;
  modules: {
    path: string;
    declarations: Declaration[];
    exports: { kind: string; name: string; declaration: { name: string; module?: string } }[];
  }[];
}

const manifest = await readJson<Manifest>('custom-elements.json');
const elements = manifest.modules.flatMap((module) => module.declarations.filter((declaration) => declaration.customElement));
const element = elements[0]!;
const names = (list: Named[] | undefined) => (list ?? []).map((item) => item.name);

test('package.json names the manifest and the package ships it', async () => {
  const pkg = await readJson<{ customElements: string; exports: Record<string, unknown> }>('package.json');
  assert.equal(pkg.customElements, 'custom-elements.json');
  assert.equal(pkg.exports['./custom-elements.json'], './custom-elements.json');
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root });
  const [packed] = JSON.parse(stdout) as [{ files: { path: string }[] }];
  const files = packed.files.map((file) => file.path);
  for (const shipped of [
    'custom-elements.json',
    'dist/cdn/merchant-checkout.js',
    'dist/esm/react.js',
    'dist/types/react/index.d.ts',
    'dist/types/types/jsx.d.ts',
    'dist/types/types/vue.d.ts',
  ]) {
    assert.ok(files.includes(shipped), `${shipped} is in the package`);
  }
});

test('one custom element, <merchant-checkout>, with its summary', () => {
  assert.equal(manifest.schemaVersion, '1.0.0');
  assert.equal(elements.length, 1, `custom elements: ${names(elements).join(', ')}`);
  assert.equal(element.name, 'MerchantCheckoutElement');
  assert.equal(element.tagName, 'merchant-checkout');
  assert.match(element.summary ?? '', /checkout/i);
});

test('every attribute the package has promised, with its property and type', () => {
  for (const [attribute, property] of Object.entries(PROMISED_ATTRIBUTES)) {
    const entry = element.attributes?.find((candidate) => candidate.name === attribute);
    assert.ok(entry, `attribute ${attribute}`);
    assert.equal(entry.fieldName, property);
    assert.ok(entry.type?.text, `type of ${attribute}`);
    assert.ok(entry.description, `description of ${attribute}`);
    const member = element.members?.find((candidate) => candidate.name === property);
    assert.equal(member?.attribute, attribute, `property ${property} reads attribute ${attribute}`);
  }
  assert.equal(element.attributes?.find((candidate) => candidate.name === 'poll-interval')?.type?.text, 'number');
  assert.equal(element.attributes?.find((candidate) => candidate.name === 'hide-cancel')?.type?.text, 'boolean');
  assert.match(element.attributes?.find((candidate) => candidate.name === 'theme')?.type?.text ?? '', /'light' \| 'dark'/);
});

test('the property-only `client`, and no private member', () => {
  for (const property of PROMISED_PROPERTY_ONLY) {
    const member = element.members?.find((candidate) => candidate.name === property);
    assert.ok(member, `property ${property}`);
    assert.equal(member.attribute, undefined, `${property} has no attribute`);
    assert.match(member.type?.text ?? '', /CheckoutClient/);
  }
  const hidden = (element.members ?? []).filter((member) => member.privacy === 'private' || member.name.startsWith('#'));
  assert.deepEqual(names(hidden), []);
});

test('every event the package has promised, each with its event class and a description', () => {
  for (const [name, className] of Object.entries(PROMISED_EVENTS)) {
    const event = element.events?.find((candidate) => candidate.name === name);
    assert.ok(event, `event ${name}`);
    assert.equal(event.type?.text, className);
  }
  for (const event of element.events ?? []) assert.ok(event.description, `description of ${event.name}`);
});

test('every part the package has promised, and a token of each kind: colours, font, radius, spacing', () => {
  const parts = names(element.cssParts);
  for (const part of PROMISED_PARTS) assert.ok(parts.includes(part), `part ${part}`);
  for (const part of element.cssParts ?? []) assert.ok(part.description, `description of part ${part.name}`);
  const properties = names(element.cssProperties);
  for (const kind of PROMISED_TOKEN_KINDS)
    assert.ok(
      properties.some((name) => kind.test(name)),
      `a token for ${kind}`,
    );
  for (const property of element.cssProperties ?? []) assert.ok(property.description, `description of ${property.name}`);
});

test('the built manifest is what the analyzer reads from the sources now', async () => {
  assert.deepEqual(manifest, await analyze(), 'custom-elements.json is stale: run `npm run build`');
});

test('the manifest points at shipped files, and says where the tag is registered', async () => {
  const paths = new Set<string>();
  for (const module of manifest.modules) {
    paths.add(module.path);
    for (const entry of module.exports) if (entry.declaration.module) paths.add(entry.declaration.module);
  }
  for (const path of paths) {
    assert.match(path, /^dist\/esm\/.+\.js$/);
    await access(new URL(path, root));
  }
  const definitions = manifest.modules.flatMap((module) =>
    module.exports.filter((entry) => entry.kind === 'custom-element-definition').map((entry) => ({ module: module.path, ...entry })),
  );
  assert.deepEqual(definitions, [
    {
      module: 'dist/esm/define.js',
      kind: 'custom-element-definition',
      name: 'merchant-checkout',
      declaration: { name: 'MerchantCheckoutElement', module: 'dist/esm/element/merchant-checkout.js' },
    },
  ]);
});
