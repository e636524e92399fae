/**
 * The store in memory: one process, what the demo and the tests use, and the default of both
 * handlers. To let the proxy's event streams hear the notifications, give the SAME store to
 * `createCheckoutHandler` and `createNotificationHandler`.
 */
import {
  fingerprint,
  isStale,
  markOf,
  nextMark,
  withoutSecrets,
  type CheckoutStore,
  type DisputeClaim,
  type InvoiceMark,
  type InvoiceUpdate,
  type NotificationClaim,
  type StoreListener,
} from './types.js';
import { remember } from '../remember.js';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /**
   * How many handled notifications are remembered (a repeat of one of them is acknowledged
   * without running `onNotification` again), and at least as many invoices' last states.
   * Default 1000; the oldest are forgotten first.
   */
  maxEntries?: number;
}

/** How many invoices and notifications the memory store remembers by default (the oldest go first). */
export const DEFAULT_MEMORY_STORE_ENTRIES = 1000;


interface Held {
  done: Promise<'handled' | 'failed'>;
  settle: (outcome: 'handled' | 'failed') => void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * The store of one process (the default): notification claims, the last state of each
 * invoice and its subscribers, in memory. Pass the same one to `createCheckoutHandler` and
 * `createNotificationHandler` so a notification reaches the payers streaming that invoice.
 */
export const createMemoryStore = (options: MemoryStoreOptions = {}): CheckoutStore => {
  const limit = options.maxEntries ?? DEFAULT_MEMORY_STORE_ENTRIES;
  if (!(Number.isInteger(limit) && limit > 0)) throw new TypeError('createMemoryStore: maxEntries must be a positive integer');
  const handled = new Map<string, true>();
  const held = new Map<string, Held>();
  const latest = new Map<string, InvoiceMark & { print: string }>();
  const latestLimit = Math.max(limit, DEFAULT_MEMORY_STORE_ENTRIES);
  const refreshes = new Map<string, number>();
  /** Disputes by invoice: made (`kept`), or claimed until a time (ms) with the claim's token. */
  const disputes = new Map<string, { state: 'kept' } | { state: 'held'; until: number; token: symbol }>();
  const listeners = new Set<StoreListener>();

  const claimDispute = (id: string, holdMs: number): Promise<DisputeClaim | undefined> => {
    const current = disputes.get(id);
    if (current && (current.state === 'kept' || current.until > Date.now())) return Promise.resolve(undefined);
    const token = Symbol(id);
    remember(disputes, id, { state: 'held', until: Date.now() + holdMs, token }, latestLimit);
    return Promise.resolve({
      settle: (outcome) => {
        const now = disputes.get(id);
        if (outcome === 'kept') remember(disputes, id, { state: 'kept' }, latestLimit);
        else if (now?.state === 'held' && now.token === token) disputes.delete(id);
        return Promise.resolve();
      },
    });
  };

  const claimNotification = (key: string, holdMs: number): Promise<NotificationClaim> => {
    if (handled.has(key)) return Promise.resolve({ state: 'handled' });
    const current = held.get(key);
    if (current) {
      return Promise.resolve({
        state: 'busy',
        outcome: (timeoutMs: number) =>
          new Promise<'handled' | 'failed'>((resolve) => {
            const timer = setTimeout(() => resolve('failed'), timeoutMs);
            void current.done.then((outcome) => {
              clearTimeout(timer);
              resolve(outcome);
            });
          }),
      });
    }
    let settle: (outcome: 'handled' | 'failed') => void = () => undefined;
    const done = new Promise<'handled' | 'failed'>((resolve) => (settle = resolve));
    // A claim nobody settles (a handler that never returns) lapses, as a Redis key expires.
    const timer = setTimeout(() => release('failed'), holdMs);
    (timer as { unref?: () => void }).unref?.();
    const entry: Held = { done, settle, timer };
    held.set(key, entry);
    const release = (outcome: 'handled' | 'failed') => {
      clearTimeout(timer);
      if (held.get(key) === entry) held.delete(key);
      entry.settle(outcome);
    };
    return Promise.resolve({
      state: 'claimed',
      settle: (outcome) => {
        // A late success (after the claim lapsed) is still worth remembering.
        if (outcome === 'handled') remember(handled, key, true, limit);
        release(outcome);
        return Promise.resolve();
      },
    });
  };

  const record = (update: InvoiceUpdate): Promise<boolean> => {
    const invoice = withoutSecrets(update.invoice);
    const mark = markOf(invoice);
    const last = latest.get(invoice.id);
    if (isStale(mark, last)) return Promise.resolve(false);
    const print = fingerprint(JSON.stringify(invoice));
    if (last && last.print === print) return Promise.resolve(false);
    remember(latest, invoice.id, { ...nextMark(mark, last), print }, latestLimit);
    const delivered: InvoiceUpdate = { invoice, source: update.source };
    for (const listener of listeners) {
      try {
        listener.update(delivered);
      } catch {
        // One listener's failure is its own.
      }
    }
    return Promise.resolve(true);
  };

  return {
    claimNotification,
    lastSeen: (id) => {
      const last = latest.get(id);
      return Promise.resolve(last ? { status: last.status, updatedAt: last.updatedAt } : undefined);
    },
    record,
    subscribe: (listener) => {
      listeners.add(listener);
      return Promise.resolve({
        close: () => {
          listeners.delete(listener);
          return Promise.resolve();
        },
      });
    },
    claimRefresh: (id, intervalMs) => {
      const now = Date.now();
      if ((refreshes.get(id) ?? 0) > now) return Promise.resolve(false);
      remember(refreshes, id, now + intervalMs, latestLimit);
      return Promise.resolve(true);
    },
    claimDispute,
    close: () => {
      for (const entry of held.values()) clearTimeout(entry.timer);
      listeners.clear();
      return Promise.resolve();
    },
  };
};
