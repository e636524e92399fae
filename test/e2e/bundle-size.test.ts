/**
 * The hard size limit of the CDN build (issue 7): what the first render needs,
 * `dist/cdn/merchant-checkout.js`, at most 30 KB (30,000 bytes) gzip -9. The lazy chunks beside
 * it (`merchant-checkout-<name>.js`, loaded with `import()` when a screen needs them) are
 * printed with their sizes, not limited. Deterministic, so it may fail `npm test`; the brotli
 * goal and every other figure are in BENCHMARKS.md (`npm run bench`).
 */
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const CDN_DIR = new URL('../../dist/cdn/', import.meta.url);
const CDN_FILE = new URL('merchant-checkout.js', CDN_DIR);
const GZIP_LIMIT = 30_000;

const gzipSize = (code: Buffer) => gzipSync(code, { level: 9 }).byteLength;

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
