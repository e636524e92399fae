/**
 * The attributes and events of `<merchant-checkout>` as framework templates see them, shared by
 * the JSX (`merchant-checkout/jsx`) and Vue (`merchant-checkout/vue`) typings. Types only.
 * The events come from the element's JSDoc (`events.generated.ts`, `npm run element-api`); the
 * attributes are written here and test/repo/public-surface.test.ts holds them to the manifest.
 */

/** A number, or its text as an attribute carries it (`poll-interval="3000"`). */
export type NumberAttribute = number | `${number}`;

/** The attributes of `<merchant-checkout>`, by their names in markup. */
export interface MerchantCheckoutAttributes {
  /** The invoice UUID minted by the merchant's server. */
  'invoice-id'?: string;
  /** Base URL of the merchant's checkout proxy, relative or absolute. */
  endpoint?: string;
  /** `ru` or `en` (`ru-RU` falls back to `ru`, other languages to `en`); defaults to the nearest `lang` around. */
  lang?: string;
  /** Milliseconds between status reads while waiting (default 5000, at least 1000). */
  'poll-interval'?: NumberAttribute;
  /** The checkout token minted by the shop's server for this invoice, sent as `X-Checkout-Token` (the gateway's way in). */
  'checkout-token'?: string;
  /** Present: the status is polled only, never taken from the proxy's event stream. */
  'no-stream'?: boolean;
  /** Present: no cancel button. */
  'hide-cancel'?: boolean;
  /** `light` or `dark`; absent to follow `prefers-color-scheme`. */
  theme?: 'light' | 'dark';
  /** Where "Return to the shop" leads after paying, when the invoice has no `successUrl`. */
  'return-url'?: string;
  /** Where "Return to the shop" leads after a cancel or expiry, when the invoice has no `cancelUrl` (default: `return-url`). */
  'cancel-url'?: string;
  /** Seconds from paid to the automatic return to the shop (0, the default, is off). */
  'auto-return'?: NumberAttribute;
  /** A logo URL template with `{code}` (e.g. `https://cdn.shop.example/banks/{code}.svg`); lettermarks without it. */
  'bank-logos'?: string;
  /** The SBP bank picker's list: a URL of a JSON list (NSPK member list format or our entries). */
  'sbp-banks'?: string | object;
}

/** Each event of `<merchant-checkout>` by its name (`type`), generated from the element's JSDoc. */
export type { MerchantCheckoutEventMap } from './events.generated.js';
