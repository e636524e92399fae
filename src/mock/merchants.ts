/**
 * The terminals of the options as records: defaults filled in, keys checked. Several API keys
 * may share one secret (terminals of one shop); each key sees only its own invoices.
 * Imports options, records, money.
 */
import { createHash } from 'node:crypto';
import { toMinor } from './money.js';
import { DEFAULTS, subunitOf, type MockMerchant } from './options.js';
import type { MerchantRecord } from './records.js';

/** A stable UUID derived from text (an account id per API key). */
const uuidOf = (text: string): string => {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

export const merchantRecords = (given: readonly MockMerchant[]): Map<string, MerchantRecord> => {
  const merchants = new Map<string, MerchantRecord>();
  for (const m of given) {
    if (!m.apiKey || !m.secretKey) throw new TypeError('createMockService: every merchant needs apiKey and secretKey');
    if (merchants.has(m.apiKey)) throw new TypeError(`createMockService: two merchants share the apiKey ${m.apiKey}`);
    merchants.set(m.apiKey, {
      apiKey: m.apiKey,
      secretKey: m.secretKey,
      storeId: m.storeId,
      storeName: m.storeName,
      accountId: m.accountId ?? uuidOf(`account:${m.apiKey}`),
      successUrl: m.successUrl ?? null,
      cancelUrl: m.cancelUrl ?? null,
      payIn: m.payIn ?? true,
      payOut: m.payOut ?? true,
      twoFactorEnabled: m.twoFactorEnabled ?? true,
      balanceMinor: toMinor(m.balance ?? DEFAULTS.balance, subunitOf(DEFAULTS.settlementCurrency)),
    });
  }
  if (merchants.size === 0) throw new TypeError('createMockService: at least one merchant is needed');
  return merchants;
};
