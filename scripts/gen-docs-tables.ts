/**
 * `npm run docs:tables`: the tables of docs/ that state what the code declares, each between
 * `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`, written from the code itself:
 *
 *   docs/server.md  kit-options            `CheckoutServerOptions` (its own members), from their JSDoc
 *                   cron-options           `KitCronOptions`, from their JSDoc
 *                   proxy-options          `CheckoutHandlerOptions`, from their JSDoc
 *                   cli-commands           `COMMANDS` of src/cli/main.ts
 *   docs/mock.md    mock-options           `MockServiceOptions` from their JSDoc, each default
 *                                          read from `DEFAULTS` (src/mock/options.ts)
 *   docs/demo.md    demo-scenarios         `SCENARIOS`, `SCENARIO_SCREEN` (demo/shared/scenarios.ts)
 *                                          and the demo page's words for each (demo/i18n.ts)
 *                   demo-option-scenarios  `OPTION_SCENARIOS`
 *
 * The interfaces are found through the package entries (src/server/node.ts,
 * src/mock/index.ts) with TypeScript's checker, wherever their files live.
 *
 *   npm run docs:tables            rewrite them
 *   test/repo/docs.test.ts         fails when one is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { COMMANDS } from '../src/cli/main.js';
import { DEFAULTS } from '../src/mock/options.js';
import { TEXT } from '../demo/i18n.js';
import { OPTION_SCENARIOS, SCENARIO_SCREEN, SCENARIOS } from '../demo/shared/scenarios.js';

const root = fileURLToPath(new URL('..', import.meta.url));

export const REGENERATE_DOCS_TABLES = 'run `npm run docs:tables` (scripts/gen-docs-tables.ts)';

/** One cell of a Markdown table: one line, `|` escaped. */
const cell = (text: string) => text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');

interface Member {
  name: string;
  optional: boolean;
  type: string;
  doc: string;
}

let program: ts.Program | undefined;
/** The members an interface exported by `entry` declares itself (not those it extends), with their JSDoc. */
const membersOf = (entry: string, name: string): Member[] => {
  program ??= ts.createProgram([join(root, 'src/server/node.ts'), join(root, 'src/mock/index.ts')], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts'],
    types: ['node'],
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(join(root, entry));
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`${entry}: not found`);
  let symbol = checker.getExportsOfModule(module).find((exported) => exported.name === name);
  if (!symbol) throw new Error(`${entry} exports no ${name}`);
  if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol.declarations?.find(ts.isInterfaceDeclaration);
  if (!declaration) throw new Error(`${name} is not an interface`);
  return declaration.members.filter(ts.isPropertySignature).map((member) => {
    const docs = ts.getJSDocCommentsAndTags(member).filter(ts.isJSDoc);
    const doc = docs.map((jsDoc) => ts.getTextOfJSDocComment(jsDoc.comment) ?? '').join(' ');
    return {
      name: member.name.getText(),
      optional: member.questionToken !== undefined,
      type: member.type?.getText() ?? '',
      doc: doc.replace(/\{@link\s+([^}\s|]+)(?:\s*\|\s*[^}]*)?\}/g, '`$1`'),
    };
  });
};

const optionRows = (members: Member[]) => [
  '| option | type | what it is |',
  '|---|---|---|',
  ...members.map(
    (member) => `| \`${member.name}\`${member.optional ? '' : ' (required)'} | \`${cell(member.type)}\` | ${cell(member.doc)} |`,
  ),
];

/** A default of `DEFAULTS` as a reader writes it: `60 min`, `64 KiB`, `400 "…"`. */
const formatDefault = (key: string, value: unknown): string => {
  if (typeof value === 'number') {
    if (/Ms$/.test(key)) {
      if (value >= 60_000 && value % 60_000 === 0) return `${value / 60_000} min`;
      if (value >= 1000 && value % 1000 === 0) return `${value / 1000} s`;
      return `${value} ms`;
    }
    if (/Bytes$/.test(key)) {
      if (value % (1024 * 1024) === 0) return `${value / 1024 / 1024} MiB`;
      if (value % 1024 === 0) return `${value / 1024} KiB`;
    }
    return String(value);
  }
  if (typeof value === 'string') return `\`${value}\``;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.every(([, item]) => item && typeof item === 'object' && 'min' in item && 'max' in item)) {
      return entries.map(([name, item]) => `${name} ${(item as { min: string }).min}–${(item as { max: string }).max}`).join('; ');
    }
    if (key === 'dealTtlMs')
      return `${formatDefault(key, (value as { min: number }).min)}–${formatDefault(key, (value as { max: number }).max)}`;
    return entries.map(([name, item]) => `\`${name}\` ${formatDefault(name, item)}`).join(', ');
  }
  return `\`${String(value)}\``;
};

const TABLES: Record<string, Record<string, () => string[]>> = {
  'docs/server.md': {
    'kit-options': () => optionRows(membersOf('src/server/index.ts', 'CheckoutServerOptions')),
    'proxy-options': () => optionRows(membersOf('src/server/index.ts', 'CheckoutHandlerOptions')),
    'cron-options': () => optionRows(membersOf('src/server/index.ts', 'KitCronOptions')),
    'cli-commands': () => [
      '| command | what it does |',
      '|---|---|',
      ...Object.entries(COMMANDS).map(([name, command]) => `| \`merchant-checkout ${name}\` | ${cell(command.summary)} |`),
    ],
  },
  'docs/mock.md': {
    'mock-options': () => {
      const defaults: Record<string, unknown> = DEFAULTS;
      return [
        '| option | default (`MOCK_DEFAULTS`) | what it is |',
        '|---|---|---|',
        ...membersOf('src/mock/index.ts', 'MockServiceOptions').map(
          (member) =>
            `| \`${member.name}\`${member.optional ? '' : ' (required)'} | ${member.name in defaults ? cell(formatDefault(member.name, defaults[member.name])) : '—'} | ${cell(member.doc)} |`,
        ),
      ];
    },
  },
  'docs/demo.md': {
    'demo-scenarios': () => [
      '| link | first screen (`data-screen`) | what the checkout shows |',
      '|---|---|---|',
      ...SCENARIOS.map(
        (scenario) => `| \`/?scenario=${scenario}\` | \`${SCENARIO_SCREEN[scenario]}\` | ${cell(TEXT.en.scenarios[scenario])} |`,
      ),
    ],
    'demo-option-scenarios': () => [
      '| link | payment option | bank | amount | language |',
      '|---|---|---|---|---|',
      ...Object.entries(OPTION_SCENARIOS).map(
        ([name, scenario]) =>
          `| \`/?scenario=${name}\` | \`${scenario.option}\` | \`${scenario.method}\` | ${scenario.amount} ${scenario.currency}${'crossBorderCurrency' in scenario ? ` (a card in ${scenario.crossBorderCurrency})` : ''} | \`${scenario.lang}\` |`,
      ),
    ],
  },
};

/** `text` (the file `file`) with each of its generated tables as the code says now. */
export const renderDocsTables = (file: string, text: string): string => {
  let out = text;
  for (const [name, render] of Object.entries(TABLES[file] ?? {})) {
    const open = `<!-- generated:${name} -->`;
    const close = `<!-- /generated:${name} -->`;
    const start = out.indexOf(open);
    const end = out.indexOf(close);
    if (start < 0 || end < start) throw new Error(`${file} has no \`${open}\` … \`${close}\` block for the generated table`);
    out = `${out.slice(0, start + open.length)}\n${render().join('\n')}\n${out.slice(end)}`;
  }
  return out;
};

/** Every file with generated tables. */
export const DOCS_TABLE_FILES = Object.keys(TABLES);

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const file of DOCS_TABLE_FILES) {
    const old = readFileSync(join(root, file), 'utf8');
    const text = renderDocsTables(file, old);
    if (text === old) continue;
    writeFileSync(join(root, file), text);
    console.log(`wrote ${file}`);
  }
}
