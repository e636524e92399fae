/**
 * `merchant-checkout/react`: `<MerchantCheckout>`, the element as a React component (made with
 * `@lit/react`), with the element's events as `onCheckout…` props.
 *
 * Importing it in a browser registers `<merchant-checkout>`. Under server rendering (Lit's
 * `isServer`, i.e. Node) it registers nothing and reads no DOM global: the markup renders as a
 * plain `<merchant-checkout>` tag, and the browser upgrades it once this module runs there.
 */
import { createComponent, type EventName } from '@lit/react';
import { isServer } from 'lit';
import * as React from 'react';
import type {
  CheckoutCanceledEvent,
  CheckoutCopyEvent,
  CheckoutErrorEvent,
  CheckoutExpiredEvent,
  CheckoutReadyEvent,
  CheckoutStatusEvent,
  CheckoutVariantSelectEvent,
} from '../element/events.js';
import { MerchantCheckout as MerchantCheckoutElement } from '../element/merchant-checkout.js';
import { defineMerchantCheckout } from '../element/register.js';

if (!isServer) defineMerchantCheckout();

/**
 * `<merchant-checkout>` for React 17–19. Properties (`invoiceId`, `endpoint`, `lang`,
 * `pollInterval`, `hideCancel`, `theme`, `client`, `strings`) are set on the element; each
 * `onCheckout…` prop listens to the event of the same name and gets the typed event.
 *
 * Keep `client` stable (create it once, e.g. with `useMemo`): a new object restarts the checkout.
 */
export const MerchantCheckout = createComponent({
  react: React,
  tagName: 'merchant-checkout',
  elementClass: MerchantCheckoutElement,
  events: {
    onCheckoutReady: 'checkout-ready' as EventName<CheckoutReadyEvent>,
    onCheckoutStatus: 'checkout-status' as EventName<CheckoutStatusEvent>,
    onCheckoutCanceled: 'checkout-canceled' as EventName<CheckoutCanceledEvent>,
    onCheckoutExpired: 'checkout-expired' as EventName<CheckoutExpiredEvent>,
    onCheckoutVariantSelect: 'checkout-variant-select' as EventName<CheckoutVariantSelectEvent>,
    onCheckoutCopy: 'checkout-copy' as EventName<CheckoutCopyEvent>,
    onCheckoutError: 'checkout-error' as EventName<CheckoutErrorEvent>,
  },
  displayName: 'MerchantCheckout',
});

/** The props of `<MerchantCheckout>`, including `ref` (to the element). */
export type MerchantCheckoutProps = React.ComponentProps<typeof MerchantCheckout>;

/** The element class, for `useRef<MerchantCheckoutElement>(null)`. */
export type { MerchantCheckoutElement };
export type {
  CheckoutCanceledDetail,
  CheckoutCanceledEvent,
  CheckoutCopyDetail,
  CheckoutCopyEvent,
  CheckoutErrorDetail,
  CheckoutErrorEvent,
  CheckoutExpiredDetail,
  CheckoutExpiredEvent,
  CheckoutReadyDetail,
  CheckoutReadyEvent,
  CheckoutStatusDetail,
  CheckoutStatusEvent,
  CheckoutVariantSelectDetail,
  CheckoutVariantSelectEvent,
} from '../element/events.js';
export type { CheckoutClient } from '../element/protocol-client.js';
export type { Translation } from '../element/i18n/translation.js';
export type { MerchantCheckoutJsxProps } from '../types/jsx.js';
