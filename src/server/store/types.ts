/**
 * The store shared by the checkout proxy and the notification receiver (docs/ARCHITECTURE.md,
 * "The store"): notification claims, the last state seen of each invoice (so nothing moves
 * backwards), the fan-out of new states to every instance, and the turn of one refresh per
 * invoice per interval. Two implementations: `createMemoryStore()` (one process) and
 * `createRedisStore()` (several processes behind one Redis).
 */
import { TERMINAL_INVOICE_STATUSES, type Invoice } from '../../schemas/index.js';

/** What an invoice's state is compared by: its status and `updatedAt` (epoch ms, when known). */
export interface InvoiceMark {
  /** The invoice's status. */
  status: string;
  /** Its `updatedAt` in ms since the epoch, when the service gave one. */
  updatedAt: number | undefined;
}

/** A new state of an invoice, as every instance receives it. */
export interface InvoiceUpdate {
  /** The normalized invoice (the service's `notificationToken` removed). */
  invoice: Invoice;
  /**
   * `notification`: a notification's invoice (one deal, fewer fields: merged into what a
   * reader knows); `read`: a whole invoice read from the service.
   */
  source: 'notification' | 'read';
}

/** The answer to a claim of a notification. */
export type NotificationClaim =
  /** This caller runs `onNotification`, then settles the claim. */
  | {
      /** `claimed`: this caller holds the claim. */
      state: 'claimed';
      /** Ends the claim: `handled` keeps it (repeats are acknowledged), `failed` lets the next delivery try. */
      settle(outcome: 'handled' | 'failed'): Promise<void>;
    }
  /** It was handled already: acknowledge it. */
  | {
      /** `handled`: nothing more to do. */
      state: 'handled';
    }
  /** Another caller (maybe another instance) is handling it right now: wait for its outcome. */
  | {
      /** `busy`: someone else holds the claim. */
      state: 'busy';
      /** Resolves with the holder's outcome, or `failed` after `timeoutMs`. */
      outcome(timeoutMs: number): Promise<'handled' | 'failed'>;
    };

/**
 * The claim of an invoice's one dispute ({@link CheckoutStore.claimDispute}), held while the
 * merchant's hook and the service decide.
 */
export interface DisputeClaim {
  /**
   * Ends the claim: `kept` when a dispute was made (forwarded to the service, or reported to
   * the merchant), so the invoice gets no other; `released` when nothing was made (the hook or
   * the service refused), so the payer may try again. A claim never settled (the outcome is not
   * known: the service did not answer) lapses after its `holdMs`.
   */
  settle(outcome: 'kept' | 'released'): Promise<void>;
}

/** A subscription to the store's updates. */
export interface StoreSubscription {
  /** Stops the listener. */
  close(): Promise<void>;
}

/** What a subscriber is told: every recorded update, and when the store is back after a failure. */
export interface StoreListener {
  /** A new state recorded by any instance (this one included). */
  update(update: InvoiceUpdate): void;
  /** The store came back after a failure: updates may have been missed, so refresh what you show. */
  resumed?(): void;
}

/**
 * Everything the two handlers need to agree on across instances. Every method may reject when
 * the backing service is down: the proxy then keeps serving reads (and polls by itself), and
 * the notification receiver answers 5xx so that the service delivers again.
 */
export interface CheckoutStore {
  /**
   * Claims the handling of one notification (`key`: what makes two notifications the same).
   * A claim that is not settled within `holdMs` lapses (an instance that died while handling).
   */
  claimNotification(key: string, holdMs: number): Promise<NotificationClaim>;
  /** The last state recorded for the invoice, if any. */
  lastSeen(id: string): Promise<InvoiceMark | undefined>;
  /**
   * Records `update` as the invoice's latest state unless it is older news than the last one
   * recorded (`isStale`: older news, or a terminal status moving to another) or the same state again; when recorded, every subscriber of
   * every instance receives it. Answers whether it was recorded.
   */
  record(update: InvoiceUpdate): Promise<boolean>;
  /** Receives every recorded update, from every instance. */
  subscribe(listener: StoreListener): Promise<StoreSubscription>;
  /**
   * Whether this caller should read the invoice from the service now: true for one caller per
   * invoice per `intervalMs` across all instances.
   */
  claimRefresh(id: string, intervalMs: number): Promise<boolean>;
  /**
   * Claims the one dispute of invoice `id` across all instances: a claim, or undefined when
   * the invoice's dispute is already made or being made. An unsettled claim lapses after
   * `holdMs`; a kept one is remembered (memory: up to the store's size; Redis: `disputeTtlMs`).
   */
  claimDispute(id: string, holdMs: number): Promise<DisputeClaim | undefined>;
  /** Releases connections and timers the store made itself. */
  close(): Promise<void>;
}

/** `timestamp` in epoch ms, undefined when absent or unreadable. */
export const instant = (timestamp: string | null | undefined): number | undefined => {
  const ms = typeof timestamp === 'string' ? Date.parse(timestamp) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms;
};

export const isTerminal = (status: string): boolean => TERMINAL_INVOICE_STATUSES.includes(status);

export const markOf = (invoice: Invoice): InvoiceMark => ({ status: invoice.status, updatedAt: instant(invoice.updatedAt) });

/**
 * Whether `next` is older news than `last`: a terminal status never moves to another one, and
 * a state whose `updatedAt` is before the last one is not a newer state.
 */
export const isStale = (next: InvoiceMark, last: InvoiceMark | undefined): boolean => {
  if (!last) return false;
  if (isTerminal(last.status) && next.status !== last.status) return true;
  return next.updatedAt !== undefined && last.updatedAt !== undefined && next.updatedAt < last.updatedAt;
};

/** The mark kept after `next` was recorded over `last` (a state without `updatedAt` keeps the last one's). */
export const nextMark = (next: InvoiceMark, last: InvoiceMark | undefined): InvoiceMark => ({
  status: next.status,
  updatedAt: next.updatedAt ?? last?.updatedAt,
});

/** Fields of the service's invoice that never leave the merchant's server, not even into the store. */
const SECRET_FIELDS = ['notificationToken'] as const;

/** The invoice without its secrets: what the store keeps and sends to other instances. */
export const withoutSecrets = (invoice: Invoice): Invoice => {
  if (!SECRET_FIELDS.some((field) => Object.hasOwn(invoice, field))) return invoice;
  const copy: Record<string, unknown> = { ...invoice };
  for (const field of SECRET_FIELDS) delete copy[field];
  return copy as Invoice;
};

/**
 * A short fingerprint of a text (two 32-bit FNV-1a hashes, 16 hex digits): tells two states
 * apart in event ids and in the store without a digest library.
 */
export const fingerprint = (text: string): string => {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
};
