/**
 * The repository documents itself: docs/ARCHITECTURE.md is the reference that code cites, no
 * file cites a document outside the repository, every folder of src/ says what lives there
 * and what it may import, and what the docs point at exists.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');

const SKIP = new Set(['node_modules', 'dist', '.git', '.out', 'fixtures']);
const TEXT = /\.(ts|tsx|js|mjs|cjs|vue|json|md|html|css)$/;
const filesUnder = (dir: string): string[] => {
  const out: string[] = [];
  const walk = (path: string) => {
    for (const name of readdirSync(join(root, path))) {
      const file = join(path, name);
      if (statSync(join(root, file)).isDirectory()) {
        if (!SKIP.has(name)) walk(file);
      } else if (TEXT.test(name)) out.push(file);
    }
  };
  walk(dir);
  return out;
};
const rootFiles = readdirSync(root).filter((name) => TEXT.test(name) && name !== 'package-lock.json' && name !== 'custom-elements.json');
const repositoryText = [...['src', 'test', 'scripts', 'demo', 'bench', 'docs'].flatMap(filesUnder), ...rootFiles];

/** The documents of the first round, which live outside the repository. */
const OUTSIDE = /\b(?:DESIGN|TOOLCHAIN|STYLE)\.md\b|\bmerchant-api\.md\b|\bservice-facts\.md\b|\.\.\/shared\/[A-Za-z-]+\.md/;

test('no file cites a document outside the repository', () => {
  const citing = repositoryText.filter((file) => OUTSIDE.test(read(file)));
  assert.deepEqual(citing, [], 'cite docs/ARCHITECTURE.md (or the repository file that holds the fact) instead');
});

test('every folder of src/ has a README saying what lives there and what it may import', () => {
  for (const folder of readdirSync(join(root, 'src'))) {
    if (!statSync(join(root, 'src', folder)).isDirectory()) continue;
    const readme = join('src', folder, 'README.md');
    assert.ok(existsSync(join(root, readme)), `${readme}`);
    assert.match(read(readme), /may import/i, `${readme} says what the folder may import`);
  }
});

test('each "docs/ARCHITECTURE.md, <section>" citation names a section that exists', () => {
  const headings = new Set([...read('docs/ARCHITECTURE.md').matchAll(/^#{2,3} (.+)$/gm)].map((match) => match[1]!.trim()));
  const cited = repositoryText.flatMap((file) =>
    [...read(file).matchAll(/docs\/ARCHITECTURE\.md,\s+[“"]([^"”]+)[”"]/g)].map((match) => ({
      file,
      section: match[1]!.replace(/\s+/g, ' '),
    })),
  );
  assert.ok(cited.length > 0);
  const missing = cited.filter(({ section }) => ![...headings].some((heading) => heading.startsWith(section)));
  assert.deepEqual(missing, [], `sections of docs/ARCHITECTURE.md: ${[...headings].join(' · ')}`);
});

test('the files docs/ARCHITECTURE.md and the folder READMEs link to exist', () => {
  const docs = ['docs/ARCHITECTURE.md', ...filesUnder('src').filter((file) => file.endsWith('README.md'))];
  for (const doc of docs) {
    for (const [, target] of read(doc).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const path = relative(root, join(root, dirname(doc), target!));
      assert.ok(existsSync(join(root, path)), `${doc} links to ${target}`);
    }
  }
});

// ── README.md and the guides of docs/ ─────────────────────────────────────────────────────

const GUIDES = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/** The anchors of a Markdown file's headings (a repeated heading gets `-1`, `-2`, …). */
const anchorsOf = (text: string): Set<string> => {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of text.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
};

/** The text without its code blocks and code spans, where a link is only an example. */
const withoutFences = (text: string) => text.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');

test('every relative link of README.md and docs/*.md resolves, to a file and to a heading of it', () => {
  const broken: string[] = [];
  for (const doc of GUIDES) {
    const text = withoutFences(read(doc));
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g), ...text.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    for (const target of targets) {
      if (/^[a-z]+:/.test(target)) continue;
      const [pathPart, anchor] = target.split('#') as [string, string | undefined];
      const path = pathPart === '' ? doc : relative(root, join(root, dirname(doc), decodeURIComponent(pathPart)));
      if (!existsSync(join(root, path))) {
        broken.push(`${doc}: ${target} (no such file)`);
        continue;
      }
      if (anchor !== undefined && path.endsWith('.md') && !anchorsOf(read(path)).has(anchor))
        broken.push(`${doc}: ${target} (no such heading)`);
    }
  }
  assert.deepEqual(broken, []);
});

test('the README is short, and its test command is exactly what CI runs', () => {
  const readme = read('README.md');
  assert.ok(readme.split('\n').length <= 200, `README.md has ${readme.split('\n').length} lines: move the detail into a guide of docs/`);
  const command = (comment: RegExp) => {
    const line = readme.split('\n').find((text) => comment.test(text));
    assert.ok(line, `README.md has the command ${comment}`);
    return line.replace(/\s+#.*$/, '').trim();
  };
  const testCommand = command(/# installs what is missing, then runs every test$/);
  const demoCommand = command(/# installs what is missing, then starts the demo/);
  const ci = read('.ci/run')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));
  assert.equal(ci.at(-1), testCommand, ".ci/run's last command is the README's test command");
  assert.ok(ci.includes('set -euo pipefail'));
  assert.match(testCommand, /^\.\/scripts\/setup\.sh && npm test$/);
  assert.match(demoCommand, /^\.\/scripts\/setup\.sh && npm run demo$/);
});

test('the tables of docs/ that state what the code declares are as npm run docs:tables writes them', async () => {
  const { DOCS_TABLE_FILES, REGENERATE_DOCS_TABLES, renderDocsTables } = await import('../../scripts/gen-docs-tables.js');
  for (const file of DOCS_TABLE_FILES) {
    assert.ok(read(file) === renderDocsTables(file, read(file)), `${file} is stale: ${REGENERATE_DOCS_TABLES}`);
  }
});

test("docs/server.md's table of the proxy's routes has one row per route of CHECKOUT_ROUTES", async () => {
  const { CHECKOUT_ROUTES } = await import('../../src/schemas/checkout-routes.js');
  const text = read('docs/server.md');
  const table = text.slice(text.indexOf('| request (under `basePath`) | upstream | answer |'));
  const rows = table
    .split('\n')
    .slice(2)
    .filter((line, index, lines) => line.startsWith('|') && lines.slice(0, index).every((previous) => previous.startsWith('|')))
    .map((line) => /^\| `([A-Z]+ [^`?]+)/.exec(line)?.[1]);
  assert.deepEqual(
    rows.sort(),
    Object.values(CHECKOUT_ROUTES)
      .map((route) => `${route.method} ${route.path}`)
      .sort(),
  );
});

/** The rows (cells) of the first table under `heading` in `doc`. */
const tableUnder = (doc: string, heading: string): string[][] => {
  const text = read(doc);
  const at = text.indexOf(`\n${heading}\n`);
  assert.ok(at >= 0, `${doc} has the section "${heading}"`);
  const lines = text.slice(at).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
};
const codeSpans = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

test("docs/element.md's languages and payment options tables name every language and option the code knows, and no other", async () => {
  const { LANGUAGES } = await import('../../src/element/i18n/lang.js');
  const { KNOWN_PAYMENT_OPTIONS } = await import('../../src/schemas/invoice.js');
  const { REQUISITES_KINDS } = await import('../../src/schemas/requisites-kind.js');
  const languages = tableUnder('docs/element.md', '## Languages').map(([lang]) => codeSpans(lang!)[0]);
  assert.deepEqual(languages, [...LANGUAGES], 'one row per language of LANGUAGES, in its order');
  const options = tableUnder('docs/element.md', '## Payment options');
  assert.deepEqual(
    options.flatMap(([names]) => codeSpans(names!)).sort(),
    [...KNOWN_PAYMENT_OPTIONS].sort(),
    'every option of KNOWN_PAYMENT_OPTIONS once',
  );
  for (const [, kind] of options)
    assert.ok((REQUISITES_KINDS as readonly string[]).includes(codeSpans(kind!)[0]!), `${kind} is a kind of REQUISITES_KINDS`);
});
