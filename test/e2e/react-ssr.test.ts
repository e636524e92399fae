/**
 * `merchant-checkout/react` under server rendering: the built entry, imported by its package
 * name in plain Node (no DOM), loads without creating or needing `window` or `document`,
 * registers nothing, and `react-dom/server` renders the plain tag without a warning. (Its
 * browser half, where importing it registers the tag, is in test/react.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as ReactEntry from '../../src/react/index.js';

test('importing merchant-checkout/react in Node touches no DOM and registers nothing', async () => {
  assert.equal(typeof window, 'undefined');
  assert.equal(typeof document, 'undefined');
  const errors: unknown[][] = [];
  const originalError = console.error;
  const originalWarn = console.warn;
  console.error = (...args: unknown[]) => void errors.push(args);
  console.warn = (...args: unknown[]) => void errors.push(args);
  try {
    // The built entry by its package name; typed from the source, so this file type-checks before a build.
    const entry = 'merchant-checkout/react';
    const { MerchantCheckout } = (await import(entry)) as typeof ReactEntry;
    const { createElement } = await import('react');
    const { renderToString } = await import('react-dom/server');

    assert.equal(typeof window, 'undefined', 'no window was created');
    assert.equal(typeof document, 'undefined', 'no document was created');
    // Lit's Node build brings a stand-in registry; the entry must not have defined the tag in it.
    assert.equal(globalThis.customElements?.get('merchant-checkout'), undefined);

    // As TSX writes `<MerchantCheckout invoiceId={id} invoice-id={id} … />`.
    const props = {
      invoiceId: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
      'invoice-id': '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
      endpoint: '/checkout-api',
      className: 'checkout',
      onCheckoutReady: () => undefined,
    };
    const html = renderToString(createElement(MerchantCheckout, props));
    // Properties are set in the browser after hydration; what is given as an attribute is rendered.
    assert.equal(html, '<merchant-checkout invoice-id="6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b" class="checkout"></merchant-checkout>');
  } finally {
    console.error = originalError;
    console.warn = originalWarn;
  }
  assert.deepEqual(errors, [], 'no warning or error while importing and rendering');
});
