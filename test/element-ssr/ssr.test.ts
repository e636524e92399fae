/**
 * Server rendering (Next.js, Nuxt) imports the package in Node: importing it must not touch
 * `window`, `document` or `customElements` (Lit's own guarded probes aside), and must not
 * register anything; only `merchant-checkout/define` registers the tag.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

const BROWSER_GLOBALS = ['window', 'document', 'navigator', 'location', 'matchMedia', 'localStorage', 'ShadowRoot', 'HTMLElement'];

/** Where a global was read from, when the reader is this project's own code. */
const ownReads: string[] = [];
for (const name of BROWSER_GLOBALS) {
  Object.defineProperty(globalThis, name, {
    configurable: true,
    get() {
      const stack = new Error().stack ?? '';
      const own = stack.split('\n').find((frame) => /\/src\/(element|schemas)\//.test(frame));
      if (own) ownReads.push(`${name} at ${own.trim()}`);
      return undefined;
    },
  });
}

const registryCalls: string[] = [];
Object.defineProperty(globalThis, 'customElements', {
  configurable: true,
  writable: true,
  value: new Proxy(
    {},
    {
      get:
        (_target, method) =>
        (...args: unknown[]) => {
          registryCalls.push(`${String(method)}(${String(args[0])})`);
          return undefined;
        },
    },
  ),
});

test('importing merchant-checkout in Node reads no browser global and registers nothing', async () => {
  const element = await import('../../src/element/index.js');
  assert.equal(typeof element.MerchantCheckoutElement, 'function');
  assert.equal(typeof element.defineMerchantCheckout, 'function');
  assert.equal(typeof element.createCheckoutClient, 'function');
  assert.deepEqual(ownReads, []);
  assert.deepEqual(registryCalls, []);
});

test('the pure helpers work on the server too', async () => {
  const { formatMoney, formatRequisites, statusMeaning } = await import('../../src/element/index.js');
  assert.equal(formatMoney({ amount: '1500.00', currency: 'RUB' }, 'ru').replace(/\s/g, ' '), '1 500,00 ₽');
  assert.equal(formatRequisites('+79001234567').text, '+7 (900) 123-45-67');
  assert.equal(statusMeaning('paid'), 'paid');
});

test('merchant-checkout/define is the module that registers the tag, once', async () => {
  await import('../../src/element/define.js');
  assert.deepEqual(registryCalls, ['get(merchant-checkout)', 'define(merchant-checkout)']);
});
