import { MerchantCheckoutElement } from './merchant-checkout.js';
import { VERSION } from './version.js';

const isOurs = (constructor: CustomElementConstructor): boolean =>
  constructor === MerchantCheckoutElement || constructor.prototype instanceof MerchantCheckoutElement;

/**
 * Registers `<merchant-checkout>` (or `tagName`) unless it is already registered. Another
 * class under that name (a second copy of this package, another version) is left in place with
 * a console warning instead of the `NotSupportedError` that `customElements.define` throws.
 */
export const defineMerchantCheckout = (tagName = 'merchant-checkout'): void => {
  const existing = customElements.get(tagName);
  if (existing) {
    if (!isOurs(existing)) {
      const version = (existing as { version?: unknown }).version;
      const theirs = typeof version === 'string' ? version : 'unknown';
      console.warn(
        `<${tagName}> is already registered by another copy of merchant-checkout (version ${theirs}); version ${VERSION} is not registered again.`,
      );
    }
    return;
  }
  try {
    customElements.define(tagName, MerchantCheckoutElement);
  } catch {
    // The class is already registered under another name: a subclass can take this one.
    customElements.define(tagName, class extends MerchantCheckoutElement {});
  }
};
