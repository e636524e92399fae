/**
 * The element's events as the demo pages log them: one line of text per event, the same on
 * the plain, React and Vue pages.
 */
import {
  CheckoutAmountChangedEvent,
  CheckoutCanceledEvent,
  CheckoutCopyEvent,
  CheckoutErrorEvent,
  CheckoutExpiredEvent,
  CheckoutPayerConfirmedEvent,
  CheckoutTimingEvent,
  CheckoutReadyEvent,
  CheckoutReceiptEvent,
  CheckoutReportEvent,
  CheckoutReturnEvent,
  CheckoutStatusEvent,
  CheckoutVariantSelectEvent,
} from 'merchant-checkout';

/** Every event of the element, from its `GlobalEventHandlersEventMap` entries. */
export type CheckoutEventName = Extract<keyof GlobalEventHandlersEventMap, `checkout-${string}`>;
/** The names to listen to: TypeScript fails here when the element gains an event the list lacks. */
const LISTED = {
  'checkout-ready': true,
  'checkout-status': true,
  'checkout-canceled': true,
  'checkout-expired': true,
  'checkout-variant-select': true,
  'checkout-copy': true,
  'checkout-error': true,
  'checkout-amount-changed': true,
  'checkout-payer-confirmed': true,
  'checkout-receipt': true,
  'checkout-report': true,
  'checkout-return': true,
  'checkout-timing': true,
} satisfies Record<CheckoutEventName, true>;
export const CHECKOUT_EVENTS = Object.keys(LISTED) as CheckoutEventName[];
export type CheckoutEvent = GlobalEventHandlersEventMap[CheckoutEventName];

export interface LoggedEvent {
  /** Increasing number, for keys. */
  id: number;
  /** `HH:MM:SS` of the page's clock. */
  time: string;
  name: CheckoutEventName;
  /** The detail in one line: statuses, codes, values. */
  summary: string;
  /** For `checkout-status`: how the status arrived (`push` by the event stream, `poll`, …). */
  source?: CheckoutStatusEvent['detail']['source'];
}

/** An amount changed is Money (`previous` undefined when the service flagged it); requisites and holder are text. */
const shown = (value: CheckoutAmountChangedEvent['detail']['current'] | undefined): string =>
  value === undefined ? '—' : typeof value === 'string' ? value : `${value.amount} ${value.currency}`;

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
  if (event instanceof CheckoutPayerConfirmedEvent) return `deal ${event.detail.deal.id ?? '—'} (${event.detail.deal.status})`;
  if (event instanceof CheckoutReceiptEvent) return `deal ${event.detail.invoice.deals.find((deal) => deal.isActive)?.status ?? '—'}`;
  if (event instanceof CheckoutReportEvent) return `${event.detail.outcome}, status ${event.detail.invoice.status}`;
  if (event instanceof CheckoutTimingEvent)
    return `${event.detail.name}${event.detail.code ? ` (${event.detail.code})` : ''}: ${event.detail.ms} ms`;
  if (event instanceof CheckoutReturnEvent) return `${event.detail.automatic ? 'automatic' : 'link'} → ${event.detail.url}`;
  if (event instanceof CheckoutAmountChangedEvent) {
    const { field, previous, current } = event.detail;
    return `${field}: ${shown(previous)} → ${shown(current)}`;
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
  ...(event instanceof CheckoutStatusEvent ? { source: event.detail.source } : {}),
});

/** Calls `listener` for every event of the element; returns what removes the listeners. */
export const listenToCheckout = (element: HTMLElement, listener: (event: CheckoutEvent) => void): (() => void) => {
  const handle = (event: Event) => listener(event as CheckoutEvent);
  for (const name of CHECKOUT_EVENTS) element.addEventListener(name, handle);
  return () => {
    for (const name of CHECKOUT_EVENTS) element.removeEventListener(name, handle);
  };
};
