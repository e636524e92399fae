/**
 * A factory's `client` option, read once for every factory that takes one (the kit, the proxy,
 * the receiver): one `MerchantClient` or a non-empty array of them (the terminals), as a list.
 */
import type { MerchantClient } from './merchant-client.js';

/** What a value must answer to be taken for a client: the methods the proxy and the receiver call. */
const CLIENT_METHODS = ['getInvoice', 'listPaymentVariants', 'cancelInvoice', 'startDeal'] as const;

/** Whether `value` is a `MerchantClient` (or acts as one: a subclass, a test's stand-in). */
export const isClient = (value: unknown): value is MerchantClient =>
  typeof value === 'object' &&
  value !== null &&
  CLIENT_METHODS.every((name) => typeof (value as Record<string, unknown>)[name] === 'function');

/**
 * The terminals `client` names, in order: a `TypeError` naming `who` for anything but a client or
 * a non-empty array of them. `undefined` is no terminal where the factory can do without (`optional`).
 */
export const clientsOf = (client: unknown, who: string, optional = false): readonly MerchantClient[] => {
  if (client === undefined && optional) return [];
  const clients: readonly unknown[] = Array.isArray(client) ? client : [client];
  if (clients.length === 0 || !clients.every(isClient)) {
    throw new TypeError(`${who}: client must be a MerchantClient or a non-empty array of them`);
  }
  return clients;
};
