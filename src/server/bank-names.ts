/**
 * Bank names for the payer: the service's own payment-methods list, read at most once per
 * terminal, currency and hour (`GET /api/merchant/payment-methods?currency=`), so a deal whose
 * answer carries no `paymentMethodName` (the documented DealDTO has none) still shows
 * "Т-Банк" rather than `tinkoff`. A failed read is forgotten at once and never fails an answer.
 */
import type { Invoice } from '../schemas/index.js';
import type { MerchantClient, RequestOptions } from './client.js';

export const DEFAULT_BANK_NAMES_TTL_MS = 60 * 60 * 1000;

export const createBankNames = (ttlMs = DEFAULT_BANK_NAMES_TTL_MS) => {
  const lists = new WeakMap<MerchantClient, Map<string, { until: number; names: Promise<ReadonlyMap<string, string>> }>>();

  /** The names by bank code for `currency` at `client`'s terminal; one read in flight serves every caller. */
  const namesFor = (client: MerchantClient, currency: string, options: RequestOptions): Promise<ReadonlyMap<string, string>> => {
    let byCurrency = lists.get(client);
    if (!byCurrency) {
      byCurrency = new Map<string, { until: number; names: Promise<ReadonlyMap<string, string>> }>();
      lists.set(client, byCurrency);
    }
    const cached = byCurrency.get(currency);
    if (cached && cached.until > Date.now()) return cached.names;
    const names = client
      .listPaymentMethods(currency, options)
      .then((list): ReadonlyMap<string, string> => new Map(list.flatMap((bank) => (bank.name ? [[bank.code, bank.name] as const] : []))));
    const entry = { until: Date.now() + ttlMs, names };
    byCurrency.set(currency, entry);
    names.catch(() => {
      if (byCurrency.get(currency) === entry) byCurrency.delete(currency);
    });
    return names;
  };

  /** Fills in `paymentMethodName` where the service left it out; the invoice as it is when names cannot be had. */
  return async (invoice: Invoice, client: MerchantClient, options: RequestOptions): Promise<Invoice> => {
    if (invoice.deals.every((deal) => deal.paymentMethodName || !deal.paymentMethod)) return invoice;
    let names: ReadonlyMap<string, string>;
    try {
      names = await namesFor(client, invoice.sum.currency, options);
    } catch {
      return invoice;
    }
    return {
      ...invoice,
      deals: invoice.deals.map((deal) =>
        deal.paymentMethodName || !deal.paymentMethod || !names.has(deal.paymentMethod) ? deal : { ...deal, paymentMethodName: names.get(deal.paymentMethod) },
      ),
    };
  };
};
