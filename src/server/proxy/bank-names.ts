/**
 * Bank names for the payer: the service's own payment-methods list, read at most once per
 * terminal, currency and hour (`GET /api/merchant/payment-methods?currency=`). It serves two
 * things from one cache: a deal whose answer carries no `paymentMethodName` (the documented
 * DealDTO has none) still shows "Т-Банк" rather than `tinkoff`, and the proxy's public
 * `GET /banks?currency=` answers the list. One read in flight serves every caller; it runs with
 * the client's own timeout, not a caller's signal (a payer who leaves must not fail the others'
 * read). A failed read is forgotten at once; the names never fail an answer.
 */
import type { Invoice } from '../../schemas/index.js';
import { abortable } from '../http/body.js';
import { deepFreeze } from '../immutable.js';
import type { MerchantClient } from '../client/merchant-client.js';
import type { RequestOptions } from '../client/options.js';

/** How long the list of one terminal and currency is kept: an hour. */
export const DEFAULT_BANK_NAMES_TTL_MS = 60 * 60 * 1000;

/** A bank of the list: its code and the service's name for it (the code when the service gave none). */
export interface BankName {
  /** The bank's code (`sberbank`). */
  code: string;
  /** Its name as the service writes it (`Сбербанк`). */
  name: string;
}

/** The documented list starts with a placeholder entry that is no bank. */
const NOT_A_BANK = 'unknown';

export const createBankNames = (ttlMs = DEFAULT_BANK_NAMES_TTL_MS) => {
  /** One terminal's list of one currency: until when it is kept, its read, and the list once read. */
  type Entry = { until: number; banks: Promise<readonly BankName[]>; read?: readonly BankName[] };
  const lists = new WeakMap<MerchantClient, Map<string, Entry>>();

  /** The list of `currency` at `client`'s terminal when it is read and fresh: a deal's names need not wait for a promise. */
  const freshList = (client: MerchantClient, currency: string): readonly BankName[] | undefined => {
    const cached = lists.get(client)?.get(currency);
    return cached && cached.until > Date.now() ? cached.read : undefined;
  };

  /**
   * The banks of `currency` at `client`'s terminal, cached for `ttlMs`: one per code, in the
   * service's order, without the placeholder `unknown`, and only those of `currency` when the
   * service says whose they are.
   */
  const banks = (client: MerchantClient, currency: string): Promise<readonly BankName[]> => {
    let byCurrency = lists.get(client);
    if (!byCurrency) {
      byCurrency = new Map();
      lists.set(client, byCurrency);
    }
    const cached = byCurrency.get(currency);
    if (cached && cached.until > Date.now()) return cached.banks;
    const read = client.listPaymentMethods(currency).then((list): readonly BankName[] => {
      const seen = new Map<string, BankName>();
      for (const bank of list) {
        if (bank.code === NOT_A_BANK || seen.has(bank.code) || (bank.currency && bank.currency !== currency)) continue;
        seen.set(bank.code, { code: bank.code, name: bank.name || bank.code });
      }
      return [...seen.values()];
    });
    const entry: Entry = { until: Date.now() + ttlMs, banks: read };
    byCurrency.set(currency, entry);
    read.then(
      (list) => {
        entry.read = list;
      },
      () => {
        if (byCurrency.get(currency) === entry) byCurrency.delete(currency);
      },
    );
    return read;
  };

  /** A frozen invoice filled from a list, by the list it was filled from: the same invoice and list fill once. */
  const filled = new WeakMap<Invoice, { list: readonly BankName[]; invoice: Invoice }>();

  /**
   * Fills in `paymentMethodName` where the service left it out; the invoice as it is when
   * names cannot be had. A frozen invoice (the same answer read again) gives a frozen filled
   * copy, the same one as long as the list is the same.
   */
  const fill = async (invoice: Invoice, client: MerchantClient, options: RequestOptions): Promise<Invoice> => {
    if (invoice.deals.every((deal) => deal.paymentMethodName || !deal.paymentMethod)) return invoice;
    let list: readonly BankName[];
    try {
      // A cross-border deal's bank is one of the transfer currency's (a Tajik bank for TJS).
      const currency = invoice.crossBorderCurrency ?? invoice.sum.currency;
      const read = freshList(client, currency);
      if (read) list = read;
      else {
        const reading = banks(client, currency);
        list = await (options.signal ? abortable(reading, options.signal) : reading);
      }
    } catch {
      return invoice;
    }
    const frozen = Object.isFrozen(invoice);
    const known = frozen ? filled.get(invoice) : undefined;
    if (known?.list === list) return known.invoice;
    const names = new Map(list.map((bank) => [bank.code, bank.name] as const));
    const copy: Invoice = {
      ...invoice,
      deals: invoice.deals.map((deal) =>
        deal.paymentMethodName || !deal.paymentMethod || !names.has(deal.paymentMethod)
          ? deal
          : { ...deal, paymentMethodName: names.get(deal.paymentMethod) },
      ),
    };
    if (!frozen) return copy;
    filled.set(invoice, { list, invoice: deepFreeze(copy) });
    return copy;
  };

  return { banks, fill };
};
