/**
 * `signRequest` and `verifySignature` take Node's HMAC where the runtime offers `node:crypto`
 * (through `process.getBuiltinModule`) and Web Crypto elsewhere (edge runtimes). Both paths
 * must give the same signatures, byte for byte.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { signRequest, verifySignature } from '../../src/server/index.js';

/** Runs `work` as if in a runtime without `node:crypto` (no `process.getBuiltinModule`). */
const withoutNodeCrypto = async <T>(work: () => Promise<T>): Promise<T> => {
  const runtime = process as { getBuiltinModule?: unknown };
  const original = runtime.getBuiltinModule;
  runtime.getBuiltinModule = undefined;
  try {
    return await work();
  } finally {
    runtime.getBuiltinModule = original;
  }
};

test('this Node offers node:crypto, so the fast path is the one the other tests cover', () => {
  assert.equal(typeof (process as { getBuiltinModule?: unknown }).getBuiltinModule, 'function');
});

test('Web Crypto and node:crypto sign every request alike, and each verifies the other', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('GET', 'POST', 'delete'),
      fc.webUrl({ withQueryParameters: true }),
      fc.option(fc.string({ unit: 'grapheme', maxLength: 200 }), { nil: undefined }),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
      async (method, url, body, secret) => {
        const request = { method, url, body };
        const fast = await signRequest(request, secret);
        const portable = await withoutNodeCrypto(() => signRequest(request, secret));
        assert.equal(fast, portable);
        assert.equal(await verifySignature(request, portable, secret), true);
        assert.equal(await withoutNodeCrypto(() => verifySignature(request, fast, secret)), true);
        const wrong = `${fast.startsWith('A') ? 'B' : 'A'}${fast.slice(1)}`;
        assert.equal(await verifySignature(request, wrong, secret), false);
        assert.equal(await withoutNodeCrypto(() => verifySignature(request, wrong, secret)), false);
      },
    ),
    { numRuns: 200 },
  );
});

test('a signature of another length is refused on both paths', async () => {
  const request = { method: 'GET', url: 'https://pay.example/api/merchant/accounts' };
  const short = Buffer.from('short digest').toString('base64');
  assert.equal(await verifySignature(request, short, 'secret'), false);
  assert.equal(await withoutNodeCrypto(() => verifySignature(request, short, 'secret')), false);
});
