/**
 * `merchant-checkout/jsx` (types only): `<merchant-checkout>` as an intrinsic JSX element, for
 * using the tag itself in React 17–19 TSX (`import type {} from 'merchant-checkout/jsx'` once).
 * React 19 keeps `IntrinsicElements` in `React.JSX`; React 17 and 18 read the global `JSX` too:
 * both are extended. With the `merchant-checkout/react` component you need none of this.
 */
import type * as React from 'react';
import type { MerchantCheckoutElement } from '../element/merchant-checkout.js';
import type { CheckoutClient } from '../element/protocol-client.js';
import type { Translation } from '../element/i18n/translation.js';
import type { BankOverrides } from '../element/banks/directory.js';
import type { MerchantCheckoutAttributes, MerchantCheckoutEventMap } from './attributes.js';

/**
 * What React 19 does with the props of a custom element: a name the element has as a property
 * is set as that property, and `on` + an event's name adds a listener for that event. React 17
 * and 18 set every prop as an attribute, so these work there only through
 * `merchant-checkout/react`.
 */
export type MerchantCheckoutReact19Props = {
  /** The object that speaks the checkout protocol (a property: React 19 sets it as one). */
  client?: CheckoutClient;
  /** Replacements for any built-in string of the current language. */
  strings?: Partial<Translation>;
  /** Bank names and colours by code over the bundled directory (a property). */
  banks?: BankOverrides;
} & {
  [Name in keyof MerchantCheckoutEventMap as `on${Name}`]?: (event: MerchantCheckoutEventMap[Name]) => void;
};

/** The props of `<merchant-checkout>` in JSX: React's common HTML props, its attributes and React 19 extras. */
export type MerchantCheckoutJsxProps = Omit<
  React.DetailedHTMLProps<React.HTMLAttributes<MerchantCheckoutElement>, MerchantCheckoutElement>,
  keyof MerchantCheckoutAttributes
> &
  MerchantCheckoutAttributes &
  MerchantCheckoutReact19Props;

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React's types keep IntrinsicElements in this namespace
  namespace JSX {
    interface IntrinsicElements {
      'merchant-checkout': MerchantCheckoutJsxProps;
    }
  }
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React 17 and 18 read the global JSX namespace
  namespace JSX {
    interface IntrinsicElements {
      'merchant-checkout': MerchantCheckoutJsxProps;
    }
  }
}
