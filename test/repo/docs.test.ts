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
    [...read(file).matchAll(/docs\/ARCHITECTURE\.md,\s+[“"]([^"”]+)[”"]/g)].map((match) => ({ file, section: match[1]!.replace(/\s+/g, ' ') })),
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
