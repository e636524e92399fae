/**
 * The lowest Safari the element supports (docs/element.md, "Browsers"): every browser file of the
 * build parses in Safari 15.4 as it is. esbuild, asked to compile each file for Safari 15.4,
 * must find nothing to lower (a class static block, Safari 16.4, would be; so would newer
 * syntax). Unicode property escapes in regular expressions (Safari 11.1) are marked supported:
 * esbuild rewrites every one of them for any Safari target.
 */
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { test } from 'node:test';
import { transform } from 'esbuild';

const DIST = new URL('../../dist/', import.meta.url);
const FLOOR = 'safari15.4';

const browserFiles = async (): Promise<string[]> => {
  const cdn = (await readdir(new URL('cdn/', DIST))).filter((name) => name.endsWith('.js')).map((name) => `cdn/${name}`);
  const esm = (await readdir(new URL('esm/', DIST), { recursive: true }))
    .filter((name) => name.endsWith('.js'))
    .map((name) => `esm/${name}`);
  return [...cdn, ...esm];
};

test(`every browser file of the build is ${FLOOR} syntax as it is`, async () => {
  const files = await browserFiles();
  assert.ok(files.length > 20, `the build's browser files (${files.length}); run npm run build first`);
  const lowered: string[] = [];
  for (const file of files) {
    const code = await readFile(new URL(file, DIST), 'utf8');
    const as = async (target: string) =>
      (await transform(code, { target, format: 'esm', supported: { 'regexp-unicode-property-escapes': true } })).code;
    if ((await as(FLOOR)) !== (await as('esnext'))) lowered.push(file);
  }
  assert.deepEqual(lowered, [], `esbuild would rewrite these for ${FLOOR}`);
});

test('the check sees newer syntax: a class static block is lowered for Safari 15.4', async () => {
  const code = 'export class A { static { this.b = 1; } }';
  const as = async (target: string) => (await transform(code, { target, format: 'esm' })).code;
  assert.notEqual(await as(FLOOR), await as('esnext'));
});
