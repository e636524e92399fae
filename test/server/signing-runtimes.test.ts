/**
 * The platform is chosen by the entry (src/server/http/platform.ts): the Node entry
 * (`merchant-checkout/server` on Node, src/server/node.ts) signs with `node:crypto`'s HMAC, the
 * runtime-neutral one (src/server/index.ts, edge runtimes) with Web Crypto's. Both must give
 * the same signatures and checkout tokens, byte for byte, and each verify the other's.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import * as neutral from '../../src/server/index.js';
import * as node from '../../src/server/node.js';

test('the two entries sign with different platforms: Node through node:crypto (synchronous), the neutral one through Web Crypto', () => {
  assert.equal(node.nodePlatform().name, 'node');
  assert.equal(neutral.webPlatform().name, 'web');
  assert.equal(typeof node.nodePlatform().hmac('SHA-1', 'key', 'text'), 'string');
  assert.ok(neutral.webPlatform().hmac('SHA-1', 'key', 'text') instanceof Promise);
  assert.notEqual(node.signRequest, neutral.signRequest);
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
        const fast = await node.signRequest(request, secret);
        const portable = await neutral.signRequest(request, secret);
        assert.equal(fast, portable);
        assert.equal(await node.verifySignature(request, portable, secret), true);
        assert.equal(await neutral.verifySignature(request, fast, secret), true);
        const wrong = `${fast.startsWith('A') ? 'B' : 'A'}${fast.slice(1)}`;
        assert.equal(await node.verifySignature(request, wrong, secret), false);
        assert.equal(await neutral.verifySignature(request, wrong, secret), false);
      },
    ),
    { numRuns: 200 },
  );
});

test('a signature of another length is refused on both platforms', async () => {
  const request = { method: 'GET', url: 'https://pay.example/api/merchant/accounts' };
  const short = Buffer.from('short digest').toString('base64');
  assert.equal(await node.verifySignature(request, short, 'secret'), false);
  assert.equal(await neutral.verifySignature(request, short, 'secret'), false);
});

test('checkout tokens made on one platform are accepted on the other, and a changed one on neither', async () => {
  const secret = 'a checkout token secret';
  const id = '4f1c2b9e-6a47-4c1e-9d2a-0b5e8f7c3a61';
  const expiresAt = Date.UTC(2030, 0, 1);
  const fromNode = await node.signCheckoutToken(secret, id, expiresAt);
  assert.equal(await neutral.signCheckoutToken(secret, id, expiresAt), fromNode);
  const now = Date.UTC(2029, 0, 1);
  assert.equal(await neutral.verifyCheckoutToken(secret, fromNode, id, now), true);
  assert.equal(await node.verifyCheckoutToken([`${secret}!`, secret], fromNode, id, now), true);
  // The signature's first character changed (its last one carries bits that are not read).
  const at = fromNode.lastIndexOf('.') + 1;
  const forged = `${fromNode.slice(0, at)}${fromNode[at] === 'A' ? 'B' : 'A'}${fromNode.slice(at + 1)}`;
  assert.equal(await neutral.verifyCheckoutToken(secret, forged, id, now), 'bad_signature');
  assert.equal(await node.verifyCheckoutToken(secret, forged, id, now), 'bad_signature');
});
