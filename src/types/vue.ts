/**
 * `merchant-checkout/vue` (types only): `<merchant-checkout>` in Vue templates, checked by
 * `vue-tsc` and Volar. Reference it once (`/// <reference types="merchant-checkout/vue" />` in
 * `env.d.ts`, or `import type {} from 'merchant-checkout/vue'`); at run time the element is a
 * plain custom element (`compilerOptions.isCustomElement`), not a Vue component.
 */
import type { ComponentOptionsMixin, ComputedOptions, DefineComponent, HTMLAttributes, MethodOptions } from 'vue';
import type { CheckoutClient } from '../element/protocol-client.js';
import type { Translation } from '../element/i18n/translation.js';
import type { BankOverrides } from '../element/banks/directory.js';
import type { MerchantCheckoutEventMap, NumberAttribute } from './attributes.js';

/**
 * Attributes and properties as a Vue template binds them. `invoice-id`, `poll-interval` and
 * `hide-cancel` may be written in either case; Vue sets a camel-case name that the element has
 * (`:hideCancel="false"`, `:client="client"`) as a property, anything else as an attribute.
 */
export interface MerchantCheckoutVueProps {
  /** The invoice UUID minted by the merchant's server. */
  invoiceId?: string;
  /** Base URL of the merchant's checkout proxy, relative or absolute. */
  endpoint?: string;
  /** The checkout token minted by the shop's server for this invoice, sent as `X-Checkout-Token` (the gateway's way in). */
  checkoutToken?: string;
  /** `ru` or `en`; defaults to the nearest `lang` around. */
  lang?: string;
  /** Milliseconds between status reads while waiting (default 5000, at least 1000). */
  pollInterval?: NumberAttribute;
  /** The status by polling only, never by the proxy's event stream (bind a boolean: `:noStream="flag"`). */
  noStream?: boolean | '';
  /**
   * No cancel button. As an attribute any value means "hide" (`hide-cancel="false"` hides it
   * too): bind a boolean as a property, `:hideCancel="flag"`.
   */
  hideCancel?: boolean | '';
  /** `light` or `dark`; absent to follow `prefers-color-scheme`. */
  theme?: 'light' | 'dark';
  /** Where "Return to the shop" leads after paying, when the invoice has no `successUrl`. */
  returnUrl?: string;
  /** Where "Return to the shop" leads after a cancel or expiry, when the invoice has no `cancelUrl`. */
  cancelUrl?: string;
  /** Seconds from paid to the automatic return to the shop (0 is off). */
  autoReturn?: NumberAttribute;
  /** A logo URL template with `{code}`; lettermarks without it. */
  bankLogos?: string;
  /** The SBP bank picker's list: a URL, or the list itself (bind it: `:sbpBanks="list"`). */
  sbpBanks?: string | object;
  /** The object that speaks the checkout protocol (bind it: `:client="client"`). */
  client?: CheckoutClient;
  /** Replacements for any built-in string of the current language. */
  strings?: Partial<Translation>;
  /** Bank names and colours by code over the bundled directory (bind it: `:banks="banks"`). */
  banks?: BankOverrides;
}

/** `checkout-variant-select` → `checkoutVariantSelect`, as Vue names a listener (`onCheckoutVariantSelect`). */
type Camelize<Name extends string> = Name extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camelize<Tail>>}` : Name;

/**
 * The events, as Vue's `emits` (in camel case, as Vue matches `@checkout-ready` to
 * `onCheckoutReady`): `@checkout-ready="(event) => …"` gets a `CheckoutReadyEvent`.
 */
export type MerchantCheckoutVueEmits = {
  [Name in keyof MerchantCheckoutEventMap as Camelize<Name>]: (event: MerchantCheckoutEventMap[Name]) => void;
};

/** The type Vue's template checker sees for `<merchant-checkout>`. */
export type MerchantCheckoutVueComponent = DefineComponent<
  MerchantCheckoutVueProps & Omit<HTMLAttributes, keyof MerchantCheckoutVueProps>,
  object,
  object,
  ComputedOptions,
  MethodOptions,
  ComponentOptionsMixin,
  ComponentOptionsMixin,
  MerchantCheckoutVueEmits
>;

declare module 'vue' {
  interface GlobalComponents {
    'merchant-checkout': MerchantCheckoutVueComponent;
  }
}
