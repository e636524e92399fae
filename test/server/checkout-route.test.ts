import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { basePathSegments, matchCheckoutRoute } from '../../src/server/proxy/route-match.js';

const ID = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const base = ['checkout-api'];
const match = (pathname: string) => matchCheckoutRoute(pathname, base);

describe('matchCheckoutRoute', () => {
  test('names the routes, with the id lower-cased', () => {
    assert.deepEqual(match(`/checkout-api/invoices/${ID}`), { kind: 'route', route: 'invoice', id: ID });
    assert.deepEqual(match(`/checkout-api/invoices/${ID.toUpperCase()}/available-payment-variants`), {
      kind: 'route',
      route: 'variants',
      id: ID,
    });
    assert.deepEqual(match(`/checkout-api/invoices/${ID}/cancel`), { kind: 'route', route: 'cancel', id: ID });
    assert.deepEqual(match(`/checkout-api/invoices/${ID}/deal`), { kind: 'route', route: 'deal', id: ID });
    assert.deepEqual(match(`/checkout-api/invoices/${ID}/receipt`), { kind: 'route', route: 'receipt', id: ID });
    assert.deepEqual(match(`/checkout-api/invoices/${ID}/dispute`), { kind: 'route', route: 'dispute', id: ID });
    assert.deepEqual(match('/checkout-api/banks'), { kind: 'route', route: 'banks', id: '' });
    assert.deepEqual(match('/checkout-api/%62anks'), { kind: 'route', route: 'banks', id: '' });
  });

  test('decodes each segment once: an encoded letter is the letter, a double-encoded one is not', () => {
    assert.equal(match(`/checkout-api/invoices/${ID}/%63ancel`).kind, 'route');
    assert.equal(match(`/checkout-api/invoices/${ID}/%2563ancel`).kind, 'unknown');
    assert.deepEqual(match(`/checkout-api/invoices/%252F..%252Fwithdrawals`), {
      kind: 'bad_id',
      route: 'invoice',
      id: '%2F..%2Fwithdrawals',
    });
  });

  test('refuses encoded slashes, backslashes, dot segments, control characters and bad encoding', () => {
    for (const path of [
      `/checkout-api/invoices/${ID}%2Fcancel`,
      `/checkout-api/invoices%2f${ID}`,
      `/checkout-api/invoices/${ID}%5Ccancel`,
      `/checkout-api/invoices/${ID}/%2e%2e`,
      `/checkout-api/invoices/.`,
      `/checkout-api/invoices/${ID}%00`,
      `/checkout-api/invoices/${ID}/cancel%0a`,
      `/checkout-api/invoices/%E0%A4%A`,
      `/checkout-api/invoices/%C0%AE%C0%AE`,
    ]) {
      assert.equal(match(path).kind, 'malformed', path);
    }
  });

  test('anything else names nothing', () => {
    for (const path of [
      '/checkout-api',
      '/checkout-api/',
      '/checkout-api/invoices',
      '/checkout-api/invoices/',
      `/checkout-api/invoices/${ID}/`,
      `/checkout-api/invoices/${ID}//cancel`,
      `/checkout-api//invoices/${ID}`,
      `//checkout-api/invoices/${ID}`,
      `/checkout-api/invoices/${ID}/disputes`,
      `/checkout-api/invoices/${ID}/receipt/extra`,
      '/checkout-api/banks/',
      '/checkout-api/banks/RUB',
      '/checkout-api/BANKS',
      '/banks',
      `/checkout-api/invoices/${ID}/banks`,
      `/checkout-api/invoices/${ID}/cancel/extra`,
      `/checkout-api/invoices/internal-id/order-42`,
      `/checkout-api/withdrawals/${ID}`,
      `/checkout-api/accounts`,
      `/checkout-api/Invoices/${ID}`,
      `/checkout-api/invoices/${ID}/CANCEL`,
      `/checkout-api/invoices/${ID}/constructor`,
      `/checkout-api/invoices/${ID}/__proto__`,
      `/other/invoices/${ID}`,
      `/invoices/${ID}`,
      `/checkout-api/api/merchant/invoices/${ID}`,
      `/checkout-api/invoices/${ID}/cancel${'/x'.repeat(600)}`,
      'checkout-api/invoices',
    ]) {
      assert.equal(match(path).kind, 'unknown', path);
    }
  });

  test('an id that is not a UUID is told apart from an unknown path', () => {
    for (const id of ['42', `${ID}0`, ID.slice(1), ID.replace(/-/g, ''), `{${ID}}`, ID.replace('a', 'g'), `${ID} `]) {
      assert.equal(match(`/checkout-api/invoices/${encodeURIComponent(id)}`).kind, 'bad_id', id);
    }
  });

  test('mount prefixes', () => {
    assert.deepEqual(basePathSegments(undefined), []);
    assert.deepEqual(basePathSegments('/'), []);
    assert.deepEqual(basePathSegments('/a/b/'), ['a', 'b']);
    assert.equal(matchCheckoutRoute(`/invoices/${ID}`, []).kind, 'route');
    assert.equal(matchCheckoutRoute(`/a/b/invoices/${ID}/deal`, ['a', 'b']).kind, 'route');
    for (const bad of ['checkout-api', '/a/../b', '/a%2Fb', '/a\\b']) {
      assert.throws(() => basePathSegments(bad), TypeError, bad);
    }
  });
});
