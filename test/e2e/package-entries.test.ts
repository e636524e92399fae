/**
 * The built package, imported by its public names (package self-reference through
 * `exports`), as a merchant's Node server would: proves `npm run build` wrote working entries.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

test('merchant-checkout/server loads in plain Node and signs like the reference', async () => {
  const server = await import('merchant-checkout/server');
  const url = 'https://pay.example.com/api/merchant/invoices';
  const body = '{"amount":"1500.00","comment":"Привет"}';
  const expected = createHmac('sha1', 'k').update(`POST${url}${body}`).digest('base64');
  assert.equal(await server.signRequest({ method: 'POST', url, body }, 'k'), expected);
  assert.equal(typeof server.MerchantClient, 'function');
  assert.throws(() => new server.MerchantClient({ baseUrl: 'nope', apiKey: 'a', secretKey: 'b' }), /baseUrl/);
});

test('every export of package.json points at a file that the build wrote', async () => {
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
    exports: Record<string, string | Record<string, string>>;
  };
  const missing: string[] = [];
  for (const [name, target] of Object.entries(pkg.exports)) {
    for (const file of typeof target === 'string' ? [target] : Object.values(target)) {
      try {
        await readFile(new URL(`../../${file}`, import.meta.url));
      } catch {
        missing.push(`${name} → ${file}`);
      }
    }
  }
  assert.deepEqual(missing, []);
});
