/**
 * The merchant API under `/api/merchant`: one handler per documented operation, keyed by its
 * name in `OPERATIONS` (see routes.ts), each a few lines over the store. Authentication and
 * body reading happen before (pipeline.ts middleware); a handler gets the merchant, the
 * parameters and the parsed body. Imports the shared operations, store, dto, validate, banks,
 * records, money, options, http, errors, quirks, random, routes.
 */
import { MERCHANT_API_PREFIX } from '../schemas/operations.js';
import { PAYMENT_OPTIONS, bankListOf } from './banks.js';
import { MockControlError, notFound, refused } from './errors.js';
import { accountDto, canceledInvoiceDto, invoiceDto, payoutCreatedDto, withdrawalDto, type DtoOptions } from './dto.js';
import { badRequest, textResponse, type FormPart } from './http.js';
import { toMinor } from './money.js';
import { DEFAULTS, subunitOf, type AmountLimit, type MockRefusal } from './options.js';
import type { Quirks } from './quirks.js';
import type { Random } from './random.js';
import { DISPUTE_REASONS, activeDeal, type InvoiceRecord, type MerchantRecord } from './records.js';
import { drawVariants } from './requisites.js';
import { operationRoutes, type Handler, type MerchantOperationName, type Route } from './routes.js';
import type { Store } from './store.js';
import { amountOf, validateCreateInvoice, validatePayee, validateStartDeal, validateWithdrawal } from './validate.js';

export interface ApiEnv {
  store: Store;
  dto: DtoOptions;
  quirks: Quirks;
  random: Random;
  invoicePageUrl: string;
  invoiceTtlMs: number;
  amountLimits: Record<string, AmountLimit>;
  cancelWithoutDeal: 'allow' | MockRefusal;
  /** The hosted page's undocumented public routes exist (`hostedPageRoutes`). */
  hostedPageRoutes: boolean;
  code2FA: string | undefined;
  withdrawalTxDelayMs: number;
  maxUploadBytes: number;
  rates: Record<string, string>;
}

export interface ApiContext {
  env: ApiEnv;
  merchant: MerchantRecord;
  apiKey: string;
  query: URLSearchParams;
  json: () => unknown;
  form: readonly FormPart[];
}

const ok = (env: ApiEnv, value: unknown): Response => textResponse(200, env.quirks.render(value, 'answer'));

/** The invoice if this API key created it: another terminal's invoice is 404 like a missing one. */
export const ownInvoice = (context: { env: ApiEnv; apiKey: string }, id: string): InvoiceRecord => {
  const invoice = context.env.store.invoices.get(id.toLowerCase());
  if (!invoice || invoice.apiKey !== context.apiKey) throw notFound(`invoice ${id} not found`);
  return invoice;
};

export const rateOf = (env: ApiEnv, currency: string): string => env.rates[currency] ?? DEFAULTS.defaultRate;

/** The one file of a multipart operation, checked against the documented 10 MB. */
const attachmentOf = (context: ApiContext, required: boolean): string | null => {
  const part = context.form.find((each) => each.name === 'attachment');
  if (!part?.file) {
    if (required) throw badRequest(['this value should not be blank. field: "attachment"']);
    return null;
  }
  if (part.file.size > context.env.maxUploadBytes) {
    throw badRequest([`The file is too large. Allowed maximum size is ${context.env.maxUploadBytes} bytes. field: "attachment"`]);
  }
  return part.file.name || 'attachment';
};

const formValue = (context: ApiContext, name: string): string | null =>
  context.form.find((part) => part.name === name && part.value !== null)?.value ?? null;

const createInvoice = (context: ApiContext): Response => {
  const { env, merchant } = context;
  const input = validateCreateInvoice(context.json(), env.amountLimits);
  if (input.type === 'in' && !merchant.payIn) throw new MockControlError(404, 'pay_in_disabled', 'Pay in disabled');
  if (input.type === 'out' && !merchant.payOut) throw new MockControlError(404, 'pay_out_disabled', 'Pay out disabled');
  const payee = input.type === 'out' ? validatePayee(input) : null;
  let amountMinor = input.amountMinor;
  if (input.maxAmountMinor !== null && input.maxAmountMinor > amountMinor) {
    // Sums are made unique in whole units where the range allows.
    const unit = 10n ** BigInt(input.subunit);
    const step = input.maxAmountMinor - amountMinor >= unit ? unit : 1n;
    const steps = (input.maxAmountMinor - amountMinor) / step;
    amountMinor += step * BigInt(Math.floor(env.random() * (Number(steps) + 1)));
  }
  const invoice = env.store.create({
    apiKey: context.apiKey,
    merchant,
    internalId: input.internalId,
    userId: input.userId,
    type: input.type,
    paymentMethod: input.paymentMethod,
    paymentOption: input.paymentOption,
    // Documented for a pay-out: the payee's requisites are its deal's; the invoice's own are null.
    paymentRequisites: input.type === 'out' ? null : input.paymentRequisites,
    currency: input.currency,
    subunit: input.subunit,
    amountMinor,
    requestedMinor: input.amountMinor,
    uniqueAmount: input.maxAmountMinor !== null,
    rate: rateOf(env, input.currency),
    notificationUrl: input.notificationUrl,
    notificationToken: input.notificationToken,
    successUrl: input.successUrl ?? merchant.successUrl,
    cancelUrl: input.cancelUrl ?? merchant.cancelUrl,
    crossBorderCurrency: input.crossBorderCurrency,
    lang: input.lang,
    variants:
      input.type === 'out' && input.paymentMethod && input.paymentOption
        ? [{ option: input.paymentOption, method: input.paymentMethod }]
        : drawVariants(env.random, input.crossBorderCurrency ?? input.currency, {
            method: input.paymentMethod,
            option: input.paymentOption,
          }),
    ttlMs: env.invoiceTtlMs,
    invoicePageUrl: env.invoicePageUrl,
    payee,
  });
  if (invoice.type === 'out') return ok(env, payoutCreatedDto(invoice, env.dto));
  // Documented: with no free requisites the invoice is still created, with `deals: []`.
  if (input.startDeal) env.store.startDeal(invoice, { option: input.paymentOption, method: input.paymentMethod });
  return ok(env, invoiceDto(invoice, env.dto, 'create'));
};

const startDeal = (context: ApiContext, id: string): Response => {
  const invoice = ownInvoice(context, id);
  const { method, option } = validateStartDeal(context.json());
  // Documented for start-deal: 400 PAYMENT_METHOD_NOT_AVAILABLE when no requisites are free.
  if (!context.env.store.startDeal(invoice, { method, option }))
    throw badRequest(['PAYMENT_METHOD_NOT_AVAILABLE'], 'payment_method_not_available');
  return ok(context.env, invoiceDto(invoice, context.env.dto));
};

const cancel = (context: ApiContext, id: string): Response => {
  const { env } = context;
  const invoice = ownInvoice(context, id);
  if (invoice.status !== 'new') throw refused(`Invoice can not be canceled in status ${invoice.status}`);
  if (!activeDeal(invoice) && env.cancelWithoutDeal !== 'allow') {
    throw new MockControlError(env.cancelWithoutDeal.status, 'no_active_deal', env.cancelWithoutDeal.message);
  }
  env.store.cancel(invoice);
  return ok(env, canceledInvoiceDto(invoice, env.dto));
};

const dispute = (context: ApiContext, id: string): Response => {
  const invoice = ownInvoice(context, id);
  const reason = formValue(context, 'disputeReason');
  const dealId = formValue(context, 'dealId');
  const amount = formValue(context, 'disputeReasonData[amount]');
  const blank = [...(dealId ? [] : ['dealId']), ...(reason ? [] : ['disputeReason'])].map(
    (name) => `this value should not be blank. field: "${name}"`,
  );
  if (blank.length) throw badRequest(blank);
  if (!(DISPUTE_REASONS as readonly string[]).includes(reason!))
    throw badRequest([`The value you selected is not a valid choice. field: "disputeReason"`]);
  if (reason === 'invalid_sum' && !amount) throw badRequest(['this value should not be blank. field: "disputeReasonData[amount]"']);
  if (amount) amountOf('disputeReasonData[amount]', amount, invoice.subunit);
  context.env.store.openDispute(
    invoice,
    { dealId: dealId!, reason: reason!, amount: reason === 'invalid_sum' ? amount : null, attachment: attachmentOf(context, false) },
    'merchant',
  );
  return ok(context.env, invoiceDto(invoice, context.env.dto));
};

const createWithdrawal = (context: ApiContext): Response => {
  const { env, merchant } = context;
  const request = validateWithdrawal(context.json());
  if (!merchant.twoFactorEnabled) throw badRequest(['2FA should be enabled for this operation'], 'two_factor_disabled');
  if (env.code2FA !== undefined && request.code2FA !== env.code2FA) throw new MockControlError(403, 'invalid_2fa', 'code2FA is not valid');
  const subunit = subunitOf(DEFAULTS.settlementCurrency);
  const amount = amountOf('amount', request.amount, subunit);
  const fee = toMinor(DEFAULTS.withdrawalFee, subunit);
  const sum = request.substractFeeFromAmount === true ? amount - fee : amount;
  if (sum <= 0n)
    throw badRequest([
      `The amount must be greater than the fee (${DEFAULTS.withdrawalFee} ${DEFAULTS.settlementCurrency}). field: "amount"`,
    ]);
  const withdrawal = env.store.withdraw(merchant, context.apiKey, {
    accountId: request.accountId,
    amountMinor: sum,
    feeMinor: fee,
    address: request.address,
    txDelayMs: env.withdrawalTxDelayMs,
    currency: DEFAULTS.settlementCurrency,
    subunit,
  });
  return ok(env, withdrawalDto(withdrawal, env.dto, 'create', env.store.now()));
};

const getWithdrawal = (context: ApiContext, id: string): Response => {
  const withdrawal = context.env.store.withdrawals.get(id.toLowerCase());
  if (!withdrawal || withdrawal.apiKey !== context.apiKey) throw notFound(`withdrawal ${id} not found`);
  return ok(context.env, withdrawalDto(withdrawal, context.env.dto, 'lookup', context.env.store.now()));
};

const byInternalId = (context: ApiContext, internalId: string): Response => {
  const found = context.env.store.byInternalId(context.apiKey, internalId);
  if (!found) throw notFound(`no invoice with internalId ${JSON.stringify(internalId)}`);
  return ok(context.env, invoiceDto(found, context.env.dto));
};

/**
 * The merchant API: one handler per operation of `OPERATIONS` signed with the shop's keys,
 * keyed by its name (the type checker names any operation without one); its method, path and
 * signing are the operation's row.
 */
export const MERCHANT_HANDLERS: Record<MerchantOperationName, Handler<ApiContext>> = {
  createInvoice,
  getInvoice: (c, p) => ok(c.env, invoiceDto(ownInvoice(c, p.id!), c.env.dto)),
  getInvoiceByInternalId: (c, p) => byInternalId(c, p.internalId!),
  listPaymentVariants: (c, p) =>
    ok(
      c.env,
      ownInvoice(c, p.id!).variants.map(({ option, method }) => ({ option, method })),
    ),
  startDeal: (c, p) => startDeal(c, p.id!),
  confirmTransfer: (c, p) => {
    const invoice = ownInvoice(c, p.id!);
    c.env.store.confirmTransfer(invoice, attachmentOf(c, true));
    return ok(c.env, invoiceDto(invoice, c.env.dto));
  },
  openDispute: (c, p) => dispute(c, p.id!),
  cancelInvoice: (c, p) => cancel(c, p.id!),
  listPaymentMethods: (c) => ok(c.env, bankListOf(c.query.get('currency') ?? undefined)),
  // Documented: every option in RUB (the store's currency), CROSS_BORDER included.
  listPaymentOptions: (c) =>
    ok(
      c.env,
      PAYMENT_OPTIONS.map(({ code, name }) => ({ code, name, currency: 'RUB' })),
    ),
  getCurrencyRates: (c) => {
    const rate = rateOf(c.env, 'RUB');
    return ok(c.env, { in: { pair: 'USDT/RUB', rate }, out: { pair: 'USDT/RUB', rate } });
  },
  listAccounts: (c) => ok(c.env, [accountDto(c.merchant, c.env.store.frozen(c.merchant))]),
  createWithdrawal,
  getWithdrawal: (c, p) => getWithdrawal(c, p.id!),
};

/** The merchant API's routes under `/api/merchant`, built from {@link MERCHANT_HANDLERS} and the rows of `OPERATIONS`. */
export const MERCHANT_ROUTES: readonly Route<ApiContext>[] = operationRoutes(MERCHANT_API_PREFIX, MERCHANT_HANDLERS);
