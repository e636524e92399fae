/**
 * One source for the element's public surface: the class JSDoc and Lit decorators of
 * src/element/merchant-checkout.ts, read by `@custom-elements-manifest/analyzer` into the
 * manifest (analysed here from the sources, as `npm run build` does). Everything else is
 * generated from it (scripts/gen-element-api.ts) or held to it here, so that a new `@event`,
 * attribute, part or custom property cannot be forgotten in one place:
 *
 * | place | how |
 * |---|---|
 * | src/react/events.generated.ts (React `onCheckout…` props) | generated, stale → fails |
 * | src/types/events.generated.ts (`MerchantCheckoutEventMap`, mapped by JSX and Vue) | generated, stale → fails |
 * | docs/element.md tables of parts and custom properties | generated, stale → fails |
 * | `GlobalEventHandlersEventMap`, event classes exported by `merchant-checkout` | checked (types) |
 * | src/types/attributes.ts, jsx.ts, vue.ts; the React component's props | checked (types) |
 * | docs/element.md tables of attributes, events and React event props | checked (rows) |
 *
 * The types are read with TypeScript's checker from a probe module, so what is checked is what
 * a user's editor sees, however the typings are built.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { before, describe, test } from 'node:test';
import ts from 'typescript';
import {
  analyze,
  detailKeys,
  elementOf,
  eventsOf,
  propertyOnlyFieldsOf,
  read,
  REGENERATE,
  renderAll,
  type ElementEvent,
  type Manifest,
  type ManifestElement,
} from '../../scripts/gen-element-api.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const sorted = (values: Iterable<string>) => [...new Set(values)].sort();
const missing = (expected: Iterable<string>, actual: Iterable<string>) => {
  const have = new Set(actual);
  return sorted([...expected].filter((name) => !have.has(name)));
};

let manifest: Manifest;
let element: ManifestElement;
let events: ElementEvent[];
before(async () => {
  manifest = await analyze();
  element = elementOf(manifest);
  events = eventsOf(element);
});

test('the manifest declares the element, its events (each with an event class), attributes, parts and custom properties', () => {
  assert.equal(element.tagName, 'merchant-checkout');
  assert.ok(events.length > 0, 'the JSDoc declares events (`@event {CheckoutReadyEvent} checkout-ready - …`)');
  for (const event of events) {
    assert.match(event.name, /^checkout-[a-z-]+$/, `event name ${event.name}`);
    assert.ok(event.description, `@event ${event.name} has a description`);
    assert.ok(detailKeys(event.description), `@event ${event.name}: say its detail in the description: \`detail: { … }\``);
  }
  for (const item of [
    ...(element.attributes ?? []),
    ...(element.cssParts ?? []),
    ...(element.cssProperties ?? []),
    ...propertyOnlyFieldsOf(element),
  ]) {
    assert.ok(item.description, `${item.name} has a description in the element's JSDoc`);
  }
});

test('the generated files are what scripts/gen-element-api.ts writes from the manifest now', async () => {
  for (const [file, text] of Object.entries(await renderAll())) {
    assert.ok(read(file) === text, `${file} is stale (an event, part or custom property changed): ${REGENERATE}`);
  }
});

// ── types ────────────────────────────────────────────────────────────────────────────────

const PROBE = `${root}test/repo/__public-surface-probe__.ts`;
const PROBE_SOURCE = `
import type { MerchantCheckoutAttributes } from '../../src/types/attributes.js';
import type { MerchantCheckoutJsxProps } from '../../src/types/jsx.js';
import type { MerchantCheckoutVueEmits, MerchantCheckoutVueProps } from '../../src/types/vue.js';
import type { MerchantCheckoutProps } from '../../src/react/index.js';
import type * as ElementModule from '../../src/element/index.js';
export declare const attributes: Required<MerchantCheckoutAttributes>;
export declare const jsx: Required<MerchantCheckoutJsxProps>;
export declare const vue: Required<MerchantCheckoutVueProps>;
export declare const vueEmits: MerchantCheckoutVueEmits;
export declare const react: Required<MerchantCheckoutProps>;
export declare const globalEvents: GlobalEventHandlersEventMap;
export declare const elementModule: typeof ElementModule;
`;

interface Surface {
  /** Property names of each probe, with a way to print a property's type and its listener's event type. */
  names(probe: string): string[];
  typeOf(probe: string, name: string): string | undefined;
  listenerEvent(probe: string, name: string): string | undefined;
  unionOf(probe: string, name: string): string[];
}

const loadSurface = (): Surface => {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${root}tsconfig.json`,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  assert.ok(config, 'tsconfig.json parses');
  const base = ts.createCompilerHost(config.options);
  const host: ts.CompilerHost = {
    ...base,
    fileExists: (file) => file === PROBE || base.fileExists(file),
    readFile: (file) => (file === PROBE ? PROBE_SOURCE : base.readFile(file)),
    getSourceFile: (file, language, ...rest) =>
      file === PROBE ? ts.createSourceFile(file, PROBE_SOURCE, language, true) : base.getSourceFile(file, language, ...rest),
  };
  const program = ts.createProgram({ rootNames: [PROBE], options: config.options, host });
  const probe = program.getSourceFile(PROBE)!;
  const problems = ts
    .getPreEmitDiagnostics(program, probe)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  assert.deepEqual(problems, [], 'the typings compile');
  const checker = program.getTypeChecker();
  const declared = new Map<string, ts.Type>();
  for (const statement of probe.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations)
      declared.set(declaration.name.getText(probe), checker.getTypeAtLocation(declaration.name));
  }
  const typeOfProbe = (name: string) => {
    const type = declared.get(name);
    assert.ok(type, `probe ${name}`);
    return type;
  };
  const property = (probeName: string, name: string) => {
    const symbol = checker.getPropertyOfType(typeOfProbe(probeName), name);
    return symbol ? checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(symbol, probe)) : undefined;
  };
  return {
    names: (probeName) => checker.getPropertiesOfType(typeOfProbe(probeName)).map((symbol) => symbol.getName()),
    typeOf: (probeName, name) => {
      const type = property(probeName, name);
      return type && checker.typeToString(type);
    },
    listenerEvent: (probeName, name) => {
      const type = property(probeName, name);
      const parameter = type?.getCallSignatures()[0]?.getParameters()[0];
      return parameter && checker.typeToString(checker.getTypeOfSymbolAtLocation(parameter, probe));
    },
    unionOf: (probeName, name) => {
      const type = property(probeName, name);
      if (!type) return [];
      const parts = (type.isUnion() ? type.types : [type]).map((part) => checker.typeToString(part));
      return parts.includes('true') && parts.includes('false') ? [...parts, 'boolean'] : parts;
    },
  };
};

/** `checkout-variant-select` → `checkoutVariantSelect`, as Vue names an emit. */
const camel = (name: string) => name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
/** A manifest type (`'light' | 'dark' | undefined`) as the checker prints its parts (`"light"`, `"dark"`). */
const manifestUnion = (text: string) =>
  text
    .split('|')
    .map((part) => part.trim().replace(/^'(.*)'$/, '"$1"'))
    .filter((part) => part && part !== 'undefined');

describe('the typings follow the manifest', () => {
  let surface: Surface;
  before(() => {
    surface = loadSurface();
  });

  test('each event: its class exported by `merchant-checkout`, and in GlobalEventHandlersEventMap', () => {
    const exported = surface.names('elementModule');
    for (const event of events) {
      assert.ok(
        exported.includes(event.className),
        `src/element/events.ts: export class ${event.className} (the type of @event ${event.name})`,
      );
      assert.equal(
        surface.typeOf('globalEvents', event.name),
        event.className,
        `src/element/events.ts: add \`'${event.name}': ${event.className};\` to GlobalEventHandlersEventMap`,
      );
    }
  });

  test('each event: a React prop `onCheckout…`, a JSX `oncheckout-…` listener, a Vue emit, each given its event class', () => {
    for (const event of events) {
      const fix = `(${REGENERATE}, or src/types for the JSX and Vue typings)`;
      assert.equal(
        surface.listenerEvent('react', event.reactProp),
        event.className,
        `React: prop ${event.reactProp} takes a ${event.className} ${fix}`,
      );
      assert.equal(
        surface.listenerEvent('jsx', `on${event.name}`),
        event.className,
        `JSX: prop on${event.name} takes a ${event.className} ${fix}`,
      );
      assert.equal(
        surface.listenerEvent('vueEmits', camel(event.name)),
        event.className,
        `Vue: emit ${camel(event.name)} takes a ${event.className} ${fix}`,
      );
    }
    const names = events.map((event) => event.name);
    assert.deepEqual(
      missing(
        surface.names('react').filter((name) => /^onCheckout/.test(name)),
        events.map((event) => event.reactProp),
      ),
      [],
      'React props for events the element does not have',
    );
    assert.deepEqual(
      missing(
        surface.names('jsx').filter((name) => name.startsWith('oncheckout-')),
        names.map((name) => `on${name}`),
      ),
      [],
      'JSX listeners for events the element does not have',
    );
    assert.deepEqual(missing(surface.names('vueEmits'), names.map(camel)), [], 'Vue emits for events the element does not have');
  });

  test('each attribute: in MerchantCheckoutAttributes (JSX) by its name with its type, in the Vue props by its property', () => {
    const attributes = element.attributes ?? [];
    assert.deepEqual(
      sorted(surface.names('attributes')),
      sorted(attributes.map((attribute) => attribute.name)),
      'src/types/attributes.ts: MerchantCheckoutAttributes has exactly the attributes of the manifest',
    );
    for (const attribute of attributes) {
      const expected = manifestUnion(attribute.type?.text ?? 'string');
      const actual = surface.unionOf('attributes', attribute.name);
      assert.deepEqual(
        missing(expected, actual),
        [],
        `src/types/attributes.ts: '${attribute.name}' accepts ${expected.join(' | ')} (has ${actual.join(' | ')})`,
      );
      assert.ok(surface.names('jsx').includes(attribute.name), `JSX: attribute ${attribute.name}`);
      assert.ok(
        surface.names('vue').includes(attribute.fieldName ?? attribute.name),
        `src/types/vue.ts: add ${attribute.fieldName} to MerchantCheckoutVueProps`,
      );
      assert.ok(surface.names('react').includes(attribute.fieldName ?? attribute.name), `React: prop ${attribute.fieldName}`);
    }
  });

  test('each property without an attribute (`client`, `strings`): in the React, JSX and Vue props', () => {
    const fields = propertyOnlyFieldsOf(element);
    assert.ok(fields.length > 0);
    for (const field of fields) {
      assert.ok(surface.names('react').includes(field.name), `React: prop ${field.name}`);
      assert.ok(surface.names('jsx').includes(field.name), `src/types/jsx.ts: add ${field.name} to MerchantCheckoutReact19Props`);
      assert.ok(surface.names('vue').includes(field.name), `src/types/vue.ts: add ${field.name} to MerchantCheckoutVueProps`);
    }
  });
});

// ── docs/element.md ───────────────────────────────────────────────────────────────────────────────

const GUIDE = 'docs/element.md';

/** The first table under a `## heading` of docs/element.md, as rows of cells (header and rule dropped). */
const readmeTable = (heading: string): string[][] => {
  const lines = read(GUIDE).split('\n');
  const start = lines.findIndex((line) => line === heading);
  assert.ok(start >= 0, `${GUIDE} has a "${heading}" section`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,3} /.test(line)) break;
    if (line.startsWith('|'))
      rows.push(
        line
          .slice(1, -1)
          .split(/(?<!\\)\|/)
          .map((cell) => cell.trim().replace(/\\\|/g, '|')),
      );
    else if (rows.length) break;
  }
  assert.ok(rows.length > 2, `${GUIDE}, "${heading}": a table`);
  return rows.slice(2);
};

const sameRows = (heading: string, actual: string[], expected: string[], row: (name: string) => string) => {
  const add = missing(expected, actual);
  const drop = missing(actual, expected);
  assert.deepEqual(
    { add, drop },
    { add: [], drop: [] },
    `${GUIDE}, "${heading}": ${[...add.map((name) => `add the row \`${row(name)}\``), ...drop.map((name) => `drop the row of ${name}`)].join('; ')}`,
  );
};

describe('docs/element.md follows the manifest', () => {
  test('"Attributes and properties": one row per attribute and per property without one', () => {
    const heading = '## Attributes and properties';
    const expected = [
      ...(element.attributes ?? []).map((attribute) =>
        attribute.fieldName && attribute.fieldName !== attribute.name
          ? `\`${attribute.name}\` / \`${attribute.fieldName}\``
          : `\`${attribute.name}\``,
      ),
      ...propertyOnlyFieldsOf(element).map((field) => `\`${field.name}\` (property)`),
    ];
    sameRows(
      heading,
      readmeTable(heading).map(([first]) => first!),
      expected,
      (name) => `| ${name} | type | meaning |`,
    );
  });

  test('"Events": one row per event, with the keys of its detail', () => {
    const heading = '## Events';
    const rows = readmeTable(heading);
    sameRows(
      heading,
      rows.map(([first]) => first!),
      events.map((event) => `\`${event.name}\``),
      (name) => `| ${name} | \`{ … }\` | when |`,
    );
    for (const event of events) {
      const row = rows.find(([first]) => first === `\`${event.name}\``)!;
      assert.deepEqual(detailKeys(row[1] ?? ''), detailKeys(event.description), `${GUIDE}, "${heading}": the detail of ${event.name}`);
    }
  });

  test('"React": one row per event prop, with its event class and the keys of its detail', () => {
    const heading = '### React';
    const rows = readmeTable(heading);
    sameRows(
      heading,
      rows.map(([first]) => first!),
      events.map((event) => `\`${event.reactProp}\``),
      (name) => `| ${name} | \`…Event\` | \`{ … }\` |`,
    );
    for (const event of events) {
      const row = rows.find(([first]) => first === `\`${event.reactProp}\``)!;
      assert.equal(row[1], `\`${event.className}\``, `${GUIDE}, "${heading}": the event class of ${event.reactProp}`);
      assert.deepEqual(detailKeys(row[2] ?? ''), detailKeys(event.description), `${GUIDE}, "${heading}": the detail of ${event.reactProp}`);
    }
  });
});
