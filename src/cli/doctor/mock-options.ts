/**
 * What the doctor concluded, as the mock options that reproduce the brand: an object for
 * `createMockService`, the same as flags of `merchant-checkout-mock`, and the options it did
 * not check, each with why.
 */
import { OBSERVABLE_MERCHANT_FIELDS, OBSERVABLE_OPTIONS, type DoctorState, type ObservedMerchant, type ObservedOptions } from './checks.js';

/** An option the doctor does not report, and why. */
export interface NotChecked {
  option: string;
  why: string;
}

const MONEY = 'moves money or needs a pay-out or a withdrawal, which the doctor never makes';

/** The options that cannot be observed safely, whatever the run. */
export const NEVER_CHECKED: readonly NotChecked[] = [
  {
    option: 'notificationFormat',
    why: 'needs a notification, which the service sends to a URL it reaches; the test invoice notifies nowhere (rehearse a receiver with `merchant-checkout simulate`)',
  },
  { option: 'notificationRetry', why: 'needs a receiver the service reaches that fails on purpose' },
  { option: 'quirks, seed, random', why: 'the mock\'s own variation; the table\'s "this brand" column names the variations seen' },
  { option: 'amountLimits (max)', why: "a create over the maximum would be a second invoice; the mock's default maximum is written" },
  {
    option: 'duplicate internalId',
    why: 'a second create with the same internalId would be a second invoice (the mock has no option for it)',
  },
  { option: 'dealTtlMs', why: "drawn per deal: one deal's deadline is one sample of a range" },
  { option: 'noRequisites', why: 'which banks have no free requisites changes by the minute' },
  { option: 'payOut, twoFactorEnabled, code2FA, balance, withdrawalTxDelayMs', why: MONEY },
  { option: 'serviceFeePercent', why: 'needs a paid invoice' },
  {
    option: 'maxBodyBytes, maxUploadBytes, bodyTimeoutMs',
    why: 'needs oversized or slow requests, or uploads (confirm-transfer and dispute are never sent)',
  },
  { option: 'clock', why: "the mock's own time" },
];

/** The observable options that this run did not observe, with why, then {@link NEVER_CHECKED}. */
export const notCheckedOf = (state: DoctorState): NotChecked[] => [
  ...OBSERVABLE_OPTIONS.filter((option) => state.options[option] === undefined).map((option) => ({
    option,
    why: state.why[option] ?? state.why.invoice ?? 'not observed in this run',
  })),
  ...OBSERVABLE_MERCHANT_FIELDS.filter((field) => state.merchant[field] === undefined).map((field) => ({
    option: `merchants[].${field}`,
    why: state.why[field] ?? state.why.invoice ?? 'no test invoice was created',
  })),
  ...NEVER_CHECKED,
];

/** The observed options in the order the doctor reports them. */
export const orderedOptions = (options: ObservedOptions): ObservedOptions =>
  Object.fromEntries(OBSERVABLE_OPTIONS.filter((option) => options[option] !== undefined).map((option) => [option, options[option]]));

/** The mock CLI's defaults for what the doctor did not see of the terminal, and placeholders for its keys. */
const MOCK_TERMINAL = { apiKey: 'mock-api-key', secretKey: 'mock-secret-key', storeId: 1, storeName: 'Mock Shop' };

/** An object for `createMockService` (publicBaseUrl and the keys are the mock CLI's defaults: change them). */
export const mockServiceOptions = (options: ObservedOptions, merchant: ObservedMerchant): Record<string, unknown> => ({
  publicBaseUrl: 'http://127.0.0.1:4010',
  merchants: [{ ...MOCK_TERMINAL, ...merchant }],
  ...orderedOptions(options),
});

/** The same as `merchant-checkout-mock` flags, each `--name=value` (a value may start with a dash). */
export const mockCliFlags = (options: ObservedOptions, merchant: ObservedMerchant): string[] => {
  const flags: string[] = [];
  if (options.errorFormat) flags.push(`--error-format=${options.errorFormat}`);
  for (const [currency, rate] of Object.entries(options.rates ?? {})) flags.push(`--rate=${currency}=${rate}`);
  for (const [currency, limit] of Object.entries(options.amountLimits ?? {}))
    flags.push(`--amount-limit=${currency}:${limit.min}-${limit.max}`);
  if (options.utcOffsetMinutes !== undefined) flags.push(`--utc-offset=${options.utcOffsetMinutes}`);
  if (options.invoiceTtlMs !== undefined) flags.push(`--invoice-ttl=${Math.round(options.invoiceTtlMs / 1000)}`);
  if (options.invoicePageUrl) flags.push(`--invoice-page=${options.invoicePageUrl}`);
  if (options.hostedPageRoutes === false) flags.push('--no-hosted-page-routes');
  const cancel = options.cancelWithoutDeal;
  if (cancel) flags.push(`--cancel-without-deal=${cancel === 'allow' ? 'allow' : `${cancel.status}:${cancel.message}`}`);
  if (options.dealIdIsInvoiceId) flags.push('--deal-id-is-invoice-id');
  if (options.paymentMethodName) flags.push(`--payment-method-name=${options.paymentMethodName}`);
  if (merchant.payIn === false) flags.push('--pay-in-disabled');
  if (merchant.storeId !== undefined) flags.push(`--store-id=${merchant.storeId}`);
  if (merchant.storeName !== undefined) flags.push(`--store-name=${merchant.storeName}`);
  return flags;
};

/** A flag quoted for a POSIX shell when it needs to be. */
export const shellQuoted = (flag: string): string => (/^[\w@%+=:,./-]+$/.test(flag) ? flag : `'${flag.replace(/'/g, `'\\''`)}'`);
