/**
 * Reads of invoices by id, shared by everything the kit makes (the proxy's routes and event
 * streams, the notification receiver's verification, the reconciler): one upstream call per
 * terminal and invoice at a time (single flight), through the terminal that owns the invoice
 * (an invoice is visible only to the API key that created it: the first read asks each
 * terminal in turn and the one that answered is remembered).
 */
import type { Context } from '@opentelemetry/api';
import type { Invoice } from '../../schemas/index.js';
import type { MerchantClient } from './merchant-client.js';
import type { SharedReadOptions } from './options.js';
import { MerchantApiError } from './errors.js';
import { remember } from '../remember.js';
import { createSingleFlight } from '../single-flight.js';

/** An invoice and the client (terminal) it was read through. */
export interface ReadInvoice {
  /** The invoice as the service answered it (frozen, shared with other callers). */
  invoice: Invoice;
  /** The terminal that answered it. */
  client: MerchantClient;
}

/** Options of one {@link InvoiceReader.read}. */
export interface InvoiceReadOptions {
  /** Aborts this caller's wait; the shared call goes on while another caller waits. */
  signal?: AbortSignal | undefined;
  /** Ask this terminal only (e.g. the proxy's `clientFor`). */
  client?: MerchantClient | undefined;
  /** Ask the terminal with this tag first (`MerchantClient.terminal`), e.g. the one the reconciler met the invoice through. */
  terminal?: string | undefined;
  /** The span the upstream read is a child of (`RequestOptions.traceContext`): a shared read, the first caller's. */
  traceContext?: Context | undefined;
}

/** Reads invoices by id for every part of the kit. */
export interface InvoiceReader {
  /** The terminals, in the order they are asked. */
  readonly clients: readonly MerchantClient[];
  /**
   * The invoice `id` from the terminal that owns it; undefined when none knows it (404 from
   * each). Other failures are thrown. The answer is frozen and shared with other callers.
   */
  read(id: string, options?: InvoiceReadOptions): Promise<ReadInvoice | undefined>;
  /** The terminal an invoice was last read or created through, if known. */
  terminalOf(id: string): MerchantClient | undefined;
  /** Remembers that `client` owns invoice `id` (e.g. it created it). */
  own(id: string, client: MerchantClient): void;
}

/** How many invoice → terminal answers a reader remembers (several terminals only). */
const MAX_REMEMBERED_TERMINALS = 10_000;

/**
 * A reader over the shop's terminals (see {@link InvoiceReader}); with none, every read answers
 * undefined. `recorded`: every caller of this reader records what it reads itself (the kit's
 * reader: its proxy, receiver and reconciler), so the clients' observers are told `recorded`.
 */
export const createInvoiceReader = (clients: readonly MerchantClient[], recorded = false): InvoiceReader => {
  const flight = createSingleFlight();
  const owners = new Map<string, MerchantClient>();

  const readFrom = async (client: MerchantClient, id: string, options: InvoiceReadOptions): Promise<Invoice | undefined> => {
    try {
      // Shared: the same answer as last time is the same frozen invoice (client/answer.ts, `sharedAnswer`).
      return await flight(client, id, options.signal, (shared) => {
        const read: SharedReadOptions = {
          signal: shared,
          sharedAnswer: true,
          traceContext: options.traceContext,
          ...(recorded ? { recorded: true } : {}),
        };
        return client.getInvoice(id, read);
      });
    } catch (error) {
      if (error instanceof MerchantApiError && error.status === 404) return undefined;
      throw error;
    }
  };

  const order = (id: string, options: InvoiceReadOptions): readonly MerchantClient[] => {
    if (options.client) return [options.client];
    // A known owner (or the terminal the invoice was met through) is asked alone: another key sees a 404 anyway.
    const owner = owners.get(id) ?? (options.terminal ? clients.find((client) => client.terminal === options.terminal) : undefined);
    return owner ? [owner] : clients;
  };

  return {
    clients,
    read: async (id, options = {}) => {
      const key = id.toLowerCase();
      for (const client of order(key, options)) {
        const invoice = await readFrom(client, key, options);
        if (!invoice) continue;
        if (clients.length > 1) remember(owners, key, client, MAX_REMEMBERED_TERMINALS);
        return { invoice, client };
      }
      return undefined;
    },
    terminalOf: (id) => owners.get(id.toLowerCase()),
    own: (id, client) => {
      if (clients.length > 1) remember(owners, id.toLowerCase(), client, MAX_REMEMBERED_TERMINALS);
    },
  };
};
