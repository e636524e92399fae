import { assert } from '@open-wc/testing';
import { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import { defineMerchantCheckout } from '../../src/element/register.js';
import { VERSION } from '../../src/element/version.js';
import '../../src/element/define.js';

/** Runs `action` with `console.warn` recorded. */
const warningsOf = (action: () => void): string[] => {
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => warnings.push(args.map(String).join(' '));
  try {
    action();
  } finally {
    console.warn = warn;
  }
  return warnings;
};

describe('registration', () => {
  it('registers <merchant-checkout> once; registering again is a quiet no-op', () => {
    assert.equal(customElements.get('merchant-checkout'), MerchantCheckoutElement);
    assert.deepEqual(
      warningsOf(() => defineMerchantCheckout()),
      [],
    );
    assert.instanceOf(document.createElement('merchant-checkout'), MerchantCheckoutElement);
  });

  it('warns instead of throwing when another version holds the name', () => {
    class OtherCopy extends HTMLElement {
      static version = '0.0.9';
    }
    customElements.define('other-checkout', OtherCopy);
    const warnings = warningsOf(() => defineMerchantCheckout('other-checkout'));
    assert.equal(customElements.get('other-checkout'), OtherCopy);
    assert.lengthOf(warnings, 1);
    assert.include(warnings[0], '0.0.9');
    assert.include(warnings[0], VERSION);
  });

  it('can register under a second name', () => {
    defineMerchantCheckout('shop-checkout');
    assert.instanceOf(document.createElement('shop-checkout'), MerchantCheckoutElement);
  });
});
