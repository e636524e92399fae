/**
 * `merchant-checkout/react`: `<MerchantCheckout>`, the element as a React component (made with
 * `@lit/react`), with the element's events as `onCheckout…` props. The event props are
 * generated from the element's JSDoc into `events.generated.ts` (`npm run element-api`).
 *
 * Importing it in a browser registers `<merchant-checkout>`. Under server rendering (Lit's
 * `isServer`, i.e. Node) it registers nothing and reads no DOM global: the markup renders as a
 * plain `<merchant-checkout>` tag, and the browser upgrades it once this module runs there.
 */
import { createComponent } from '@lit/react';
import { isServer } from 'lit';
import * as React from 'react';
import { MerchantCheckoutElement } from '../element/merchant-checkout.js';
import { defineMerchantCheckout } from '../element/register.js';
import { events } from './events.generated.js';

if (!isServer) defineMerchantCheckout();

/**
 * `<merchant-checkout>` for React 17–19. Properties (`invoiceId`, `endpoint`, `lang`,
 * `pollInterval`, `noStream`, `hideCancel`, `theme`, `returnUrl`, `cancelUrl`, `autoReturn`, `bankLogos`,
 * `sbpBanks`, `banks`, `client`, `strings`) are set on the element; each
 * `onCheckout…` prop listens to the event of the same name and gets the typed event.
 *
 * Keep `client` stable (create it once, e.g. with `useMemo`): a new object restarts the checkout.
 */
export const MerchantCheckout = createComponent({
  react: React,
  tagName: 'merchant-checkout',
  elementClass: MerchantCheckoutElement,
  // One prop per `@event` of the element's JSDoc (scripts/gen-element-api.ts).
  events,
  displayName: 'MerchantCheckout',
});

/** The props of `<MerchantCheckout>`, including `ref` (to the element). */
export type MerchantCheckoutProps = React.ComponentProps<typeof MerchantCheckout>;

/** The element class, for `useRef<MerchantCheckoutElement>(null)`. */
export type { MerchantCheckoutElement };
export type {
  CheckoutAmountChangedDetail,
  CheckoutAmountChangedEvent,
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
