/**
 * The hard size limit of the CDN file (issue 7): gzip -9 of `dist/cdn/merchant-checkout.js`
 * at most 30 KB (30,000 bytes). Deterministic, so it may fail `npm test`; the brotli goal and
 * every other figure are in BENCHMARKS.md (`npm run bench`).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';

const CDN_FILE = new URL('../../dist/cdn/merchant-checkout.js', import.meta.url);
const GZIP_LIMIT = 30_000;

test(`dist/cdn/merchant-checkout.js is at most ${GZIP_LIMIT} bytes gzipped`, async () => {
  const gzip = gzipSync(await readFile(CDN_FILE), { level: 9 }).byteLength;
  assert.ok(gzip <= GZIP_LIMIT, `gzip -9 is ${gzip} B, over the ${GZIP_LIMIT} B limit`);
});
