/**
 * The element's public surface is declared once, in the class JSDoc and the Lit decorators of
 * `src/element/merchant-checkout.ts`; `@custom-elements-manifest/analyzer` reads it into the
 * Custom Elements Manifest. This script analyses the sources the same way `npm run build`
 * does (same config, nothing written to `custom-elements.json`) and writes what is derived
 * from the manifest:
 *
 *   src/react/events.generated.ts   the `onCheckout…` event props of the React component
 *   src/types/events.generated.ts   `MerchantCheckoutEventMap`, which the JSX and Vue typings map
 *   docs/element.md                 the tables of CSS parts and custom properties
 *
 *   npm run element-api                        rewrite them
 *   test/repo/public-surface.test.ts           fails when one is stale, and holds what is
 *                                              written by hand (docs/element.md's attribute and event
 *                                              tables, the JSX and Vue typings) to the manifest
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cli } from '@custom-elements-manifest/analyzer/cli.js';

const root = fileURLToPath(new URL('..', import.meta.url));

export const REACT_EVENTS_FILE = 'src/react/events.generated.ts';
export const EVENT_MAP_FILE = 'src/types/events.generated.ts';
export const ELEMENT_DOCS_FILE = 'docs/element.md';
export const REGENERATE = 'run `npm run element-api` (scripts/gen-element-api.ts)';

export interface ManifestItem {
  name: string;
  description?: string;
  type?: { text: string };
}
export interface ManifestAttribute extends ManifestItem {
  fieldName?: string;
}
export interface ManifestMember extends ManifestItem {
  kind: string;
  attribute?: string;
  privacy?: string;
  static?: boolean;
  readonly?: boolean;
}
export interface ManifestElement extends ManifestItem {
  kind: string;
  customElement?: boolean;
  tagName?: string;
  summary?: string;
  attributes?: ManifestAttribute[];
  members?: ManifestMember[];
  events?: ManifestItem[];
  cssParts?: ManifestItem[];
  cssProperties?: ManifestItem[];
}
export interface Manifest {
  schemaVersion: string;
  modules: {
    path: string;
    declarations?: ManifestElement[];
    exports?: { kind: string; name: string; declaration: { name: string; module?: string } }[];
  }[];
}

/** The manifest of the sources as they are now: what `npm run build` would write. */
export const analyze = async (): Promise<Manifest> => (await cli({ argv: ['analyze', '--quiet'], cwd: root, noWrite: true })) as Manifest;

/** The one custom element of a manifest. */
export const elementOf = (manifest: Manifest): ManifestElement => {
  const elements = manifest.modules.flatMap((module) => (module.declarations ?? []).filter((declaration) => declaration.customElement));
  const [element] = elements;
  if (!element || elements.length !== 1) throw new Error(`expected one custom element in the manifest, found ${elements.length}`);
  return element;
};

export interface ElementEvent {
  /** `checkout-variant-select` */
  name: string;
  /** `CheckoutVariantSelectEvent`: the `{Type}` of its `@event` tag. */
  className: string;
  /** `onCheckoutVariantSelect`: its prop on the React component. */
  reactProp: string;
  description: string;
}

const pascal = (name: string) => name.replace(/(^|-)([a-z])/g, (_, _dash: string, letter: string) => letter.toUpperCase());

export const eventsOf = (element: ManifestElement): ElementEvent[] =>
  (element.events ?? []).map((event) => {
    if (!event.type?.text || !/^[A-Z]\w*$/.test(event.type.text)) {
      throw new Error(`@event ${event.name} names no event class: write \`@event {CheckoutSomethingEvent} ${event.name} - …\``);
    }
    return { name: event.name, className: event.type.text, reactProp: `on${pascal(event.name)}`, description: event.description ?? '' };
  });

/**
 * The properties a page may set that have no attribute (`client`, `strings`): public,
 * writable, not static.
 */
export const propertyOnlyFieldsOf = (element: ManifestElement): ManifestMember[] =>
  (element.members ?? []).filter(
    (member) =>
      member.kind === 'field' &&
      !member.static &&
      !member.readonly &&
      member.privacy !== 'private' &&
      member.privacy !== 'protected' &&
      !member.attribute,
  );

/**
 * The top-level keys of an event's detail, from a description (`` `detail: { field: 'amount' |
 * 'requisites', value }` ``) or a docs/element.md cell (`` `{ field, value }` ``): `['field', 'value']`.
 */
export const detailKeys = (text: string): string[] | undefined => {
  const tagged = text.search(/detail:\s*\{/);
  const plain = text.replace(/^[\s`]+/, '').startsWith('{');
  const start = tagged >= 0 ? text.indexOf('{', tagged) : plain ? text.indexOf('{') : -1;
  if (start < 0) return undefined;
  let depth = 0;
  let quote = '';
  let current = '';
  const keys: string[] = [];
  for (const char of text.slice(start + 1)) {
    if (quote) {
      if (char === quote) quote = '';
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '{' || char === '[' || char === '(') depth++;
    else if (depth > 0 && (char === '}' || char === ']' || char === ')')) depth--;
    else if (depth === 0 && (char === ',' || char === '}')) {
      const key = /^\s*([A-Za-z_$][\w$]*)\??\s*(:|$)/.exec(current)?.[1];
      if (key) keys.push(key);
      current = '';
      if (char === '}') return keys;
      continue;
    }
    if (depth === 0) current += char;
  }
  return undefined;
};

const HEADER = [
  "// Generated by scripts/gen-element-api.ts from the element's JSDoc (its Custom Elements Manifest).",
  '// Do not edit: run `npm run element-api`; test/repo/public-surface.test.ts fails when it is stale.',
];

const importEvents = (events: ElementEvent[]) => {
  const names = [...new Set(events.map((event) => event.className))].sort();
  return ['import type {', ...names.map((name) => `  ${name},`), "} from '../element/events.js';"];
};

const comment = (text: string, indent = '') => {
  const clean = text.replace(/\*\//g, '*\\/').replace(/\s+/g, ' ').trim();
  return clean ? [`${indent}/** ${clean} */`] : [];
};

export const renderReactEvents = (manifest: Manifest): string => {
  const events = eventsOf(elementOf(manifest));
  return [
    ...HEADER,
    "import type { EventName } from '@lit/react';",
    ...importEvents(events),
    '',
    "/** The `onCheckout…` props of `<MerchantCheckout>`: each listens to the element's event of the same name. */",
    'export const events = {',
    ...events.flatMap((event) => [
      ...comment(event.description, '  '),
      `  ${event.reactProp}: '${event.name}' as EventName<${event.className}>,`,
    ]),
    '};',
    '',
  ].join('\n');
};

export const renderEventMap = (manifest: Manifest): string => {
  const events = eventsOf(elementOf(manifest));
  return [
    ...HEADER,
    ...importEvents(events),
    '',
    '/** Each event of `<merchant-checkout>` by its name (`type`), with its event class. */',
    'export interface MerchantCheckoutEventMap {',
    ...events.flatMap((event) => [...comment(event.description, '  '), `  '${event.name}': ${event.className};`]),
    '}',
    '',
  ].join('\n');
};

const cell = (text: string) => text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');

/** The docs/element.md tables this script owns, each between `<!-- element-api:NAME -->` and `<!-- /element-api:NAME -->`. */
const DOC_TABLES: Record<string, (element: ManifestElement) => string[]> = {
  'css-properties': (element) => [
    '| custom property | what it styles |',
    '|---|---|',
    ...(element.cssProperties ?? []).map((property) => `| \`${property.name}\` | ${cell(property.description ?? '')} |`),
  ],
  'css-parts': (element) => [
    '| part | what it is |',
    '|---|---|',
    ...(element.cssParts ?? []).map((part) => `| \`${part.name}\` | ${cell(part.description ?? '')} |`),
  ],
};

export const renderElementDocs = (text: string, manifest: Manifest): string => {
  const element = elementOf(manifest);
  let out = text;
  for (const [name, render] of Object.entries(DOC_TABLES)) {
    const open = `<!-- element-api:${name} -->`;
    const close = `<!-- /element-api:${name} -->`;
    const start = out.indexOf(open);
    const end = out.indexOf(close);
    if (start < 0 || end < start) throw new Error(`${ELEMENT_DOCS_FILE} has no \`${open}\` … \`${close}\` block for the generated table`);
    out = `${out.slice(0, start + open.length)}\n${render(element).join('\n')}\n${out.slice(end)}`;
  }
  return out;
};

export const read = (file: string) => readFileSync(`${root}${file}`, 'utf8');

/** Every generated file with what it should hold now. */
export const renderAll = async (): Promise<Record<string, string>> => {
  const manifest = await analyze();
  return {
    [REACT_EVENTS_FILE]: renderReactEvents(manifest),
    [EVENT_MAP_FILE]: renderEventMap(manifest),
    [ELEMENT_DOCS_FILE]: renderElementDocs(read(ELEMENT_DOCS_FILE), manifest),
  };
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [file, text] of Object.entries(await renderAll())) {
    let old = '';
    try {
      old = read(file);
    } catch {
      // a file written for the first time
    }
    if (old === text) continue;
    writeFileSync(`${root}${file}`, text);
    console.log(`wrote ${file}`);
  }
}
