/**
 * The attributes and events of `<merchant-checkout>` as framework templates see them, shared by
 * the JSX (`merchant-checkout/jsx`) and Vue (`merchant-checkout/vue`) typings. Types only.
 */
import type {
  CheckoutCanceledEvent,
  CheckoutCopyEvent,
  CheckoutErrorEvent,
  CheckoutExpiredEvent,
  CheckoutReadyEvent,
  CheckoutStatusEvent,
  CheckoutVariantSelectEvent,
} from '../element/events.js';

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
  /** Present: no cancel button. */
  'hide-cancel'?: boolean;
  /** `light` or `dark`; absent to follow `prefers-color-scheme`. */
  theme?: 'light' | 'dark';
}

type CheckoutEvent =
  | CheckoutReadyEvent
  | CheckoutStatusEvent
  | CheckoutCanceledEvent
  | CheckoutExpiredEvent
  | CheckoutVariantSelectEvent
  | CheckoutCopyEvent
  | CheckoutErrorEvent;

/** Each event of `<merchant-checkout>` by its name (`type`), with its event class. */
export type MerchantCheckoutEventMap = { [Event in CheckoutEvent as Event['type']]: Event };
