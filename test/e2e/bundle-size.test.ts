/**
 * The size limits of the CDN build: what the first render needs, `dist/cdn/merchant-checkout.js`,
 * at most 30 KB (30,000 bytes) gzip -9 (issue 7) and at most 22,960 bytes brotli (quality 11:
 * issue 28's size before the ten languages, which issue 38 keeps, so a phone's first render is no
 * slower). The lazy chunks beside it (`merchant-checkout-<name>.js`, loaded with `import()` when a
 * screen needs them) are printed with their sizes, not limited. Sizes are deterministic, so they
 * may fail `npm test`; every other figure is in BENCHMARKS.md (`npm run bench`).
 */
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { BROTLI_BEFORE_LANGUAGES, GZIP_LIMIT } from './support/cdn-limits.js';

const CDN_DIR = new URL('../../dist/cdn/', import.meta.url);
const CDN_FILE = new URL('merchant-checkout.js', CDN_DIR);

const gzipSize = (code: Buffer) => gzipSync(code, { level: 9 }).byteLength;
/** Brotli as a CDN serves it and bench/lib.ts measures it: quality 11, the size as a hint. */
const brotliSize = (code: Buffer) =>
  brotliCompressSync(code, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: code.byteLength },
  }).byteLength;

test('the first render needs only dist/cdn/merchant-checkout.js: it imports nothing statically', async () => {
  const { metafile } = await build({
    entryPoints: [fileURLToPath(CDN_FILE)],
    bundle: true,
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const main = Object.entries(metafile.inputs).find(([file]) => file.endsWith('dist/cdn/merchant-checkout.js'))?.[1];
  assert.ok(main, 'esbuild read the main file');
  assert.deepEqual(
    main.imports.filter((entry) => entry.kind !== 'dynamic-import').map((entry) => entry.path),
    [],
    'a static import would be part of the first render and escape the limit below',
  );
});

test(`dist/cdn/merchant-checkout.js is at most ${GZIP_LIMIT} bytes gzipped; the lazy chunks are listed`, async () => {
  const gzip = gzipSize(await readFile(CDN_FILE));
  const chunks = (await readdir(CDN_DIR)).filter((name) => /^merchant-checkout-[\w-]+\.js$/.test(name)).sort();
  const rows: [string, number][] = [['merchant-checkout.js (first render)', gzip]];
  for (const name of chunks) rows.push([`${name} (lazy)`, gzipSize(await readFile(new URL(name, CDN_DIR)))]);
  console.log(rows.map(([name, size]) => `dist/cdn/${name}: gzip -9 ${size} B`).join('\n'));
  assert.ok(gzip <= GZIP_LIMIT, `gzip -9 is ${gzip} B, over the ${GZIP_LIMIT} B limit`);
});

test(`dist/cdn/merchant-checkout.js is at most ${BROTLI_BEFORE_LANGUAGES} bytes brotli: its size before the ten languages`, async () => {
  const brotli = brotliSize(await readFile(CDN_FILE));
  console.log(`dist/cdn/merchant-checkout.js: brotli -q11 ${brotli} B (limit ${BROTLI_BEFORE_LANGUAGES} B)`);
  assert.ok(
    brotli <= BROTLI_BEFORE_LANGUAGES,
    `brotli is ${brotli} B, over the ${BROTLI_BEFORE_LANGUAGES} B the file had before the ten languages (issue 28); ` +
      'what the first render does not need belongs in a chunk loaded on demand',
  );
});
