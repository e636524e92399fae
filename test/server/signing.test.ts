import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import { signRequest, stringToSign, verifySignature } from '../../src/server/node.js';

/**
 * Expected values were computed independently with OpenSSL:
 *   printf '%s' "$METHOD$URL$BODY" | openssl dgst -sha1 -hmac "$SECRET" -binary | base64
 */
const BASE = 'https://pay.example.com/api/merchant';
const CYRILLIC_BODY =
  '{"type":"in","amount":"1500.00","currency":"RUB","notificationUrl":"https://shop.example/hook","notificationToken":"tok","internalId":"заказ-№7","userId":"Иван Петров"}';

const vectors = [
  {
    name: 'GET signs method + URL',
    request: { method: 'GET', url: `${BASE}/invoices/internal-id/order-42` },
    secret: 'secret-key-1',
    expected: 'yf7yWz6wPLzr7KBaYM4OB2t4W7g=',
  },
  {
    name: 'JSON POST with Cyrillic text signs method + URL + UTF-8 body',
    request: { method: 'POST', url: `${BASE}/invoices`, body: CYRILLIC_BODY },
    secret: 'secret-key-1',
    expected: 'MTqqWG9qjRd9f5lCJgFydbZ10LU=',
  },
  {
    name: 'non-ASCII secret key and body',
    request: { method: 'POST', url: `${BASE}/invoices`, body: '{"comment":"Оплата заказа №7 — спасибо!"}' },
    secret: 'секрет-ключ-🔑',
    expected: 'fvXpBdI3VK9p/2+4O7fes3dBLBs=',
  },
  {
    name: 'multipart (FormData) body signs method + URL only',
    request: {
      method: 'POST',
      url: `${BASE}/invoices/6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b/dispute`,
      body: (() => {
        const form = new FormData();
        form.set('reason', 'not received');
        return form;
      })(),
    },
    secret: 'secret-key-1',
    expected: 'IoQcFDbcbXpgAot4m8UekxJ34DE=',
  },
  {
    name: 'the port is part of the URL',
    request: { method: 'GET', url: 'https://pay.example.com:8443/api/merchant/accounts' },
    secret: 'secret-key-1',
    expected: 'VssgwDvxyiRcSIolP5goFQoiYWk=',
  },
];

describe('signRequest', () => {
  for (const { name, request, secret, expected } of vectors) {
    test(`${name} (matches openssl)`, async () => {
      assert.equal(await signRequest(request, secret), expected);
    });
  }

  test('agrees with node:crypto over random bodies and keys', async () => {
    for (let i = 0; i < 50; i++) {
      const secret = `k${i}-${'я'.repeat(i % 7)}-${Math.random()}`;
      const body = JSON.stringify({ i, text: 'Привет, мир! 💸'.repeat(i % 5), amount: `${i}.00` });
      const url = `${BASE}/invoices?i=${i}`;
      const expected = createHmac('sha1', secret).update(`POST${url}${body}`, 'utf8').digest('base64');
      assert.equal(await signRequest({ method: 'POST', url, body }, secret), expected);
    }
  });

  test('no body and a null body sign the same as GET-style method + URL', async () => {
    const url = `${BASE}/invoices/x/cancel`;
    const expected = createHmac('sha1', 's').update(`POST${url}`).digest('base64');
    assert.equal(await signRequest({ method: 'POST', url }, 's'), expected);
    assert.equal(await signRequest({ method: 'POST', url, body: null }, 's'), expected);
  });

  test('the method is upper-cased and a URL object signs as its text', () => {
    const url = new URL(`${BASE}/accounts`);
    assert.equal(stringToSign({ method: 'get', url }), `GET${BASE}/accounts`);
  });

  test('an empty secret is refused', async () => {
    await assert.rejects(signRequest({ method: 'GET', url: BASE }, ''), /secretKey must be a non-empty string/);
  });

  test('many secrets do not break the key cache', async () => {
    for (let i = 0; i < 80; i++) {
      const expected = createHmac('sha1', `rot-${i}`).update(`GET${BASE}`).digest('base64');
      assert.equal(await signRequest({ method: 'GET', url: BASE }, `rot-${i}`), expected);
    }
  });
});

describe('verifySignature', () => {
  const request = { method: 'POST', url: `${BASE}/invoices`, body: CYRILLIC_BODY };
  test('accepts the right signature', async () => {
    assert.equal(await verifySignature(request, 'MTqqWG9qjRd9f5lCJgFydbZ10LU=', 'secret-key-1'), true);
  });
  test('refuses a wrong, truncated, malformed or missing signature', async () => {
    for (const signature of ['MTqqWG9qjRd9f5lCJgFydbZ10LV=', 'MTqqWG9q', '%%%not base64', '', null, undefined]) {
      assert.equal(await verifySignature(request, signature, 'secret-key-1'), false, String(signature));
    }
  });
  test('refuses a signature over another body', async () => {
    assert.equal(await verifySignature({ ...request, body: `${CYRILLIC_BODY} ` }, 'MTqqWG9qjRd9f5lCJgFydbZ10LU=', 'secret-key-1'), false);
  });
});
