/**
 * The session's types: what the element gives a session, and what a session's parts (the
 * payer's forms, the return to the shop) are given of it. Types only.
 */
import type { ReactiveControllerHost } from 'lit';
import type { CheckoutInvoice } from '../../schemas/checkout.js';
import type { CheckoutStatusDetail } from '../events.js';
import type { Translation } from '../i18n/translation.js';
import type { CheckoutClient, Validated } from '../protocol-client.js';
import type { BankOverrides } from './bank-names.js';
import type { SessionEvents } from './session-events.js';

/** What the payer reports: no payment credited, or a different amount sent (with that amount). */
export interface PaymentReport {
  reason: 'no_payment' | 'invalid_sum';
  /** The amount sent, decimal text (with `invalid_sum`). */
  amount?: string | undefined;
  /** The receipt of the transfer. */
  attachment?: Blob | undefined;
}

/** The element a session works for: it renders the session and its events are dispatched on it. */
export type SessionHost = ReactiveControllerHost & EventTarget;

export interface InvoiceSessionOptions {
  client: CheckoutClient;
  /** The id as the page gave it: empty for no invoice yet, anything but a UUID for the error screen. */
  invoiceId: string;
  /** Whether the invoice may be followed by its event stream (the element's `no-stream` off). */
  stream: boolean;
  /** The element's `poll-interval`, asked before each wait. */
  pollInterval: () => number;
  /** The element's current language (`ru`, `en`): bank names follow it. */
  language: () => string;
  /**
   * Says something through the element's live region, in the words of the element's current
   * language (nothing while its strings are still loading).
   */
  announce: (text: (t: Translation) => string) => void;
  /** Seconds from paid to the automatic return to the shop (`auto-return`); 0 is off. */
  autoReturn?: () => number;
  /** The merchant's bank names and colours over the bundled directory (`banks`). */
  banks?: () => BankOverrides | undefined;
}

/** What a part of the session may use of it: its options, requests, state and events. */
export interface SessionCore {
  readonly options: InvoiceSessionOptions;
  readonly events: SessionEvents;
  /** The session's work: aborted when it ends or the element leaves the page. */
  signal(): AbortSignal;
  invoice(): CheckoutInvoice | undefined;
  /** One request with the session's work and clock (see InvoiceSession). */
  read<T>(request: (signal: AbortSignal) => Promise<Validated<T>>, signal: AbortSignal): Promise<T>;
  /** Takes a new state of the invoice. */
  adopt(invoice: CheckoutInvoice, source: CheckoutStatusDetail['source']): void;
  /** Follows the invoice again (by its stream, polling meanwhile), `now` with a read at once. */
  follow(now?: boolean): void;
  /** No reads while a deal or a cancel is on its way: its answer is the next state. */
  pause(): void;
  requestUpdate(): void;
}
