/**
 * docs/api is the reference of `merchant-checkout/server` and `merchant-checkout/mock`, written
 * by `npm run docs:api` from the sources' TSDoc. This file regenerates it into a temporary
 * directory (TypeDoc fails on any export or option without a comment) and fails when the
 * committed one differs; and it holds the mock's flag list, which the CLI parses and the
 * reference is written from, to the CLI's `--help` and to src/mock/README.md.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { API_DOCS_DIR, generateApiDocs, REGENERATE_API_DOCS } from '../../scripts/gen-api-docs.js';
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

test('the reference names every export of merchant-checkout/server, merchant-checkout/redis and merchant-checkout/mock', async () => {
  const server = await import('../../src/server/index.js');
  const redis = await import('../../src/server/redis.js');
  const mock = await import('../../src/mock/index.js');
  for (const [file, module] of [
    ['server.md', server],
    ['redis.md', redis],
    ['mock.md', mock],
  ] as const) {
    const text = readFileSync(join(root, API_DOCS_DIR, file), 'utf8');
    const headings = new Set([...text.matchAll(/^### (?:~~)?([\w$\\]+?)(?:~~)?(?:\(\))?$/gm)].map((match) => match[1]!.replace(/\\/g, '')));
    const missing = Object.keys(module).filter((name) => !headings.has(name));
    assert.deepEqual(missing, [], `${API_DOCS_DIR}/${file} has a section for every value export: ${REGENERATE_API_DOCS}`);
  }
});

test('the CLI parses exactly the flags of cli-flags.ts, and --help lists each', () => {
  assert.deepEqual(Object.keys(parseArgsOptions()), CLI_FLAGS.map((flag) => flag.name));
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
