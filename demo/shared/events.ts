/**
 * The element's events as the demo pages log them: one line of text per event, the same on
 * the plain, React and Vue pages.
 */
import {
  CheckoutCanceledEvent,
  CheckoutCopyEvent,
  CheckoutErrorEvent,
  CheckoutExpiredEvent,
  CheckoutReadyEvent,
  CheckoutStatusEvent,
  CheckoutVariantSelectEvent,
} from 'merchant-checkout';

export const CHECKOUT_EVENTS = [
  'checkout-ready',
  'checkout-status',
  'checkout-canceled',
  'checkout-expired',
  'checkout-variant-select',
  'checkout-copy',
  'checkout-error',
] as const;
export type CheckoutEventName = (typeof CHECKOUT_EVENTS)[number];
export type CheckoutEvent = GlobalEventHandlersEventMap[CheckoutEventName];

export interface LoggedEvent {
  /** Increasing number, for keys. */
  id: number;
  /** `HH:MM:SS` of the page's clock. */
  time: string;
  name: CheckoutEventName;
  /** The detail in one line: statuses, codes, values. */
  summary: string;
}

/** One line for the detail of an event of `<merchant-checkout>`. */
export const summarize = (event: CheckoutEvent): string => {
  if (event instanceof CheckoutReadyEvent) return `status ${event.detail.invoice.status}`;
  if (event instanceof CheckoutStatusEvent) return `${event.detail.previous} → ${event.detail.status}`;
  if (event instanceof CheckoutCanceledEvent) return `status ${event.detail.invoice.status}`;
  if (event instanceof CheckoutExpiredEvent) return `expire at ${event.detail.invoice.expireAt}`;
  if (event instanceof CheckoutVariantSelectEvent) return `${event.detail.option} · ${event.detail.method}`;
  if (event instanceof CheckoutCopyEvent) return `${event.detail.field}: ${event.detail.value}`;
  if (event instanceof CheckoutErrorEvent) {
    const { code, message, retryable } = event.detail;
    return `${code}${retryable ? ' (retryable)' : ''}: ${message}`;
  }
  return '';
};

let counter = 0;
const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });

export const logEntry = (event: CheckoutEvent): LoggedEvent => ({
  id: ++counter,
  time: clock.format(new Date()),
  name: event.type,
  summary: summarize(event),
});

/** Calls `listener` for every event of the element; returns what removes the listeners. */
export const listenToCheckout = (element: HTMLElement, listener: (event: CheckoutEvent) => void): (() => void) => {
  const handle = (event: Event) => listener(event as CheckoutEvent);
  for (const name of CHECKOUT_EVENTS) element.addEventListener(name, handle);
  return () => {
    for (const name of CHECKOUT_EVENTS) element.removeEventListener(name, handle);
  };
};
