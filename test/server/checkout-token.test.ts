/**
 * Checkout tokens (src/server/proxy/checkout-token.ts) and the kit's `authorize` hook made of them:
 * a remembered token still answers for its own invoice only, and only until it expires.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkoutTokenAuthorizer, signCheckoutToken } from '../../src/server/node.js';

const SECRET = 'checkout-token-test-secret-01';
const A = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const B = '7a2d3b4c-5e6f-4a70-9b8c-0d1e2f3a4b5c';
const asking = (token: string | undefined) =>
  new Request('http://shop.example/checkout-api/invoices/x', { headers: token ? { 'x-checkout-token': token } : {} });

test('a verified token is remembered, yet answers only for its invoice and only until it expires', async () => {
  let now = Date.UTC(2026, 10, 27, 12);
  const refused: string[] = [];
  const authorize = checkoutTokenAuthorizer([SECRET], { now: () => now, onRefused: (reason) => refused.push(reason) });
  const token = await signCheckoutToken(SECRET, A, now + 60_000);
  assert.equal(await authorize(A, asking(token)), true);
  assert.equal(await authorize(A.toUpperCase(), asking(token)), true, 'the id in any case');
  assert.equal(await authorize(B, asking(token)), false, 'another invoice');
  const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
  assert.equal(await authorize(A, asking(tampered)), false, 'a changed signature');
  assert.equal(await authorize(A, asking(undefined)), false);
  now += 61_000;
  assert.equal(await authorize(A, asking(token)), false, 'expired while remembered');
  assert.deepEqual(refused, ['wrong_invoice', 'bad_signature', 'missing', 'expired']);
});

test('a secret too short is refused when the authorizer is made, not at the first payer', () => {
  assert.throws(() => checkoutTokenAuthorizer('short'), /at least 16 characters/);
  assert.throws(() => checkoutTokenAuthorizer([SECRET, 'short']), /at least 16 characters/);
});
