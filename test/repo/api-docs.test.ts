/**
 * docs/api is the reference of every entry of the package (package.json `exports`: the element,
 * define, React, JSX, Vue, CDN, server, Redis, mock and schemas entries), written by
 * `npm run docs:api` from the sources' TSDoc. This file regenerates it into a temporary
 * directory (TypeDoc fails on any export or option without a comment) and fails when the
 * committed one differs; it holds every entry to a page that names each of its exports; and it holds the mock's flag list, which the CLI parses and the
 * reference is written from, to the CLI's `--help` and to src/mock/README.md.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { API_DOCS_DIR, API_ENTRIES, generateApiDocs, REGENERATE_API_DOCS } from '../../scripts/gen-api-docs.js';
import { CLI_FLAGS, flagUsage, parseArgsOptions } from '../../src/mock/cli-flags.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'merchant-checkout-api-docs-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const listFiles = (dir: string): string[] => {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
      .sort();
  } catch {
    return [];
  }
};

test(`${API_DOCS_DIR} is what npm run docs:api writes now`, () => {
  const fresh = join(scratch, 'api');
  generateApiDocs(fresh);
  const committed = join(root, API_DOCS_DIR);
  assert.deepEqual(listFiles(committed), listFiles(fresh), `the files of ${API_DOCS_DIR}: ${REGENERATE_API_DOCS}`);
  for (const file of listFiles(fresh)) {
    const expected = readFileSync(join(fresh, file), 'utf8');
    const actual = readFileSync(join(committed, file), 'utf8');
    assert.ok(actual === expected, `${API_DOCS_DIR}/${file} is stale: ${REGENERATE_API_DOCS}`);
  }
});

test('the reference has a page for every entry of package.json, naming every export of it (values and types)', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | { types?: string }> };
  const entries = Object.entries(pkg.exports).flatMap(([subpath, target]) => {
    const types = typeof target === 'object' ? target.types : undefined;
    return types ? [{ subpath, types }] : [];
  });
  assert.deepEqual(
    entries.map(({ subpath }) => API_ENTRIES[subpath]?.page),
    entries.map(({ subpath }) => `${subpath === '.' ? 'merchant-checkout' : subpath.slice(2)}.md`),
    `every entry with types has its page: add it to API_ENTRIES (scripts/gen-api-docs.ts) and typedoc.json`,
  );
  for (const { subpath, types } of entries) {
    const source = types.replace(/^\.\/dist\/types\//, 'src/').replace(/\.d\.ts$/, '.ts');
    assert.equal(API_ENTRIES[subpath]!.source, source, `${subpath}: its declarations are built from ${source}`);
  }
  const program = ts.createProgram(
    entries.map(({ subpath }) => join(root, API_ENTRIES[subpath]!.source)),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      jsx: ts.JsxEmit.ReactJSX,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      types: ['node'],
      noEmit: true,
      skipLibCheck: true,
      experimentalDecorators: true,
    },
  );
  const checker = program.getTypeChecker();
  for (const { subpath } of entries) {
    const { page, source } = API_ENTRIES[subpath]!;
    const file = program.getSourceFile(join(root, source));
    const module = file && checker.getSymbolAtLocation(file);
    assert.ok(module, `${source} is a module`);
    const names = checker.getExportsOfModule(module).map((symbol) => symbol.name);
    assert.ok(names.length > 0, `${source} exports something`);
    const text = readFileSync(join(root, API_DOCS_DIR, page), 'utf8');
    const headings = new Set(
      [...text.matchAll(/^#{3,4} (?:~~)?([\w$\\]+?)(?:~~)?(?:\(\))?$/gm)].map((match) => match[1]!.replace(/\\/g, '')),
    );
    const missing = names.filter((name) => !headings.has(name));
    assert.deepEqual(missing, [], `${API_DOCS_DIR}/${page} (${subpath}) has a section for every export: ${REGENERATE_API_DOCS}`);
  }
});

test('the CLI parses exactly the flags of cli-flags.ts, and --help lists each', () => {
  assert.deepEqual(
    Object.keys(parseArgsOptions()),
    CLI_FLAGS.map((flag) => flag.name),
  );
  assert.equal(new Set(CLI_FLAGS.map((flag) => flag.name)).size, CLI_FLAGS.length, 'no flag twice');
  const help = spawnSync(process.execPath, ['--import', 'tsx', 'src/mock/cli.ts', '--help'], { cwd: root, encoding: 'utf8' });
  assert.equal(help.status, 0, help.stderr);
  for (const flag of CLI_FLAGS) assert.ok(help.stdout.includes(flagUsage(flag)), `--help lists ${flagUsage(flag)}`);
  // A flag the CLI does not know is refused, so the list above is all it takes.
  const unknown = spawnSync(process.execPath, ['--import', 'tsx', 'src/mock/cli.ts', '--no-such-flag'], { cwd: root, encoding: 'utf8' });
  assert.notEqual(unknown.status, 0);
});

test('src/mock/README.md names every flag of the CLI, and no other', () => {
  const readme = readFileSync(join(root, 'src/mock/README.md'), 'utf8');
  const named = new Set([...readme.matchAll(/`--([a-z0-9][a-z0-9-]*)/g)].map((match) => match[1]!));
  const flags: string[] = CLI_FLAGS.map((flag) => flag.name).filter((name) => name !== 'help');
  assert.deepEqual(
    flags.filter((name) => !named.has(name)),
    [],
    'every flag has its row in the options table',
  );
  assert.deepEqual(
    [...named].filter((name) => !flags.includes(name)),
    [],
    'every flag the README names exists',
  );
});
