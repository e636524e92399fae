/**
 * The doctor's checks that need no invoice: signing (a GET, a URL with a query string, a wrong
 * signature), the reads and lists, and the error body of an id that does not exist; plus the
 * state every check writes into (rows of the table, the mock options observed, why an option
 * was not) and the helpers they share. The invoice's checks are invoice.ts.
 */
import { MerchantApiError, MerchantResponseError, type MerchantClient } from '../../server/node.js';
import type { AmountLimit, MockRefusal, MockServiceOptions } from '../../mock/index.js';
import type { DoctorClient, Exchange, Tap } from './calls.js';
import {
  ACCOUNT_FIELDS,
  CODE_NAME_CURRENCY_FIELDS,
  CODE_NAME_FIELDS,
  RATES_FIELDS,
  describeErrorBody,
  describeShape,
  errorShapeOf,
  shapeOf,
  unwrap,
  type ShapeDiff,
} from './shapes.js';

/** One line of the report. */
export interface DoctorRow {
  behaviour: string;
  documented: string;
  /** What this brand did. */
  brand: string;
  /** What the kit does about it (or that it cannot). */
  kit: string;
  /** False: the kit cannot handle it, or a request failed. */
  ok: boolean;
}

/** The mock options the doctor can observe, each set only when it was observed. */
export type ObservedOptions = Pick<
  MockServiceOptions,
  | 'errorFormat'
  | 'utcOffsetMinutes'
  | 'invoiceTtlMs'
  | 'invoicePageUrl'
  | 'cancelWithoutDeal'
  | 'dealIdIsInvoiceId'
  | 'paymentMethodName'
  | 'hostedPageRoutes'
  | 'rates'
> & { amountLimits?: Record<string, AmountLimit> };

/** The terminal's fields of the mock's `merchants[]` the doctor can observe. */
export interface ObservedMerchant {
  payIn?: boolean;
  storeId?: number;
  storeName?: string;
}

/** The options the doctor can observe, in the order it reports them. */
export const OBSERVABLE_OPTIONS = [
  'errorFormat',
  'rates',
  'amountLimits',
  'utcOffsetMinutes',
  'invoiceTtlMs',
  'invoicePageUrl',
  'hostedPageRoutes',
  'cancelWithoutDeal',
  'dealIdIsInvoiceId',
  'paymentMethodName',
] as const;
export const OBSERVABLE_MERCHANT_FIELDS = ['payIn', 'storeId', 'storeName'] as const;

export interface DoctorSettings {
  currency: string;
  /** The test invoice's amount; without it the minimum is found from a refused create. */
  amount?: string | undefined;
  /** The operator agreed to the one test invoice. */
  consent: boolean;
  /** Why there is no consent, for the report. */
  noConsentReason?: string;
}

/** The doctor's run: its client, what it saw and what it concluded. */
export interface DoctorState {
  client: DoctorClient;
  /** The same terminal with a wrong secret (a random one): only for the wrong-signature check. */
  wrongSignature: Pick<MerchantClient, 'listAccounts'>;
  tap: Tap;
  settings: DoctorSettings;
  rows: DoctorRow[];
  options: ObservedOptions;
  merchant: ObservedMerchant;
  /** Why an observable option was not observed in this run. */
  why: Record<string, string>;
  /** Every timestamp the invoice's answers carried. */
  stamps: string[];
  invoice: { id: string; internalId: string; amount: string; canceled: boolean; expireAt?: string } | null;
}

export const row = (state: DoctorState, behaviour: string, documented: string, brand: string, kit: string, ok = true): void => {
  state.rows.push({ behaviour, documented, brand, kit, ok });
};

export type Outcome<T> =
  { ok: true; value: T; exchange: Exchange | undefined } | { ok: false; error: unknown; exchange: Exchange | undefined };

/** Runs one call; its value or its error, with the exchange it made. */
export const attempt = async <T>(state: DoctorState, run: () => Promise<T>): Promise<Outcome<T>> => {
  const before = state.tap.exchanges.length;
  const exchange = () => (state.tap.exchanges.length > before ? state.tap.exchanges.at(-1) : undefined);
  try {
    const value = await run();
    return { ok: true, value, exchange: exchange() };
  } catch (error) {
    return { ok: false, error, exchange: exchange() };
  }
};

export const jsonOf = (exchange: Exchange | undefined): unknown => {
  try {
    return exchange ? (JSON.parse(exchange.text) as unknown) : undefined;
  } catch {
    return undefined;
  }
};

/** What a failed call says, for the "this brand" column (never a header or a signature). */
export const saidBy = (error: unknown): string => {
  if (error instanceof MerchantApiError) return `${error.status}${error.messages.length ? ` ${error.messages.join('; ')}` : ''}`;
  if (error instanceof MerchantResponseError) return `${error.status}, an answer the kit cannot read`;
  return error instanceof Error ? error.message : String(error);
};

/** What the kit does with a failed call, for the last column. */
export const kitOnFailure = (error: unknown): string =>
  error instanceof MerchantResponseError
    ? `CANNOT read it: ${error.issues.map((issue) => `${issue.field || 'answer'} ${issue.message}`).join('; ')}`
    : error instanceof MerchantApiError
      ? `the call failed (MerchantApiError ${error.code})`
      : 'the call failed';

const TOLERANT = 'read tolerantly (extra fields ignored, a list of one unwrapped)';

/** A read or a list: a row with what came back and how it compares with the documented fields. */
export const readRow = async (
  state: DoctorState,
  behaviour: string,
  documented: string,
  run: () => Promise<unknown>,
  shape: (json: unknown) => ShapeDiff,
  count?: (json: unknown) => string,
  kit = TOLERANT,
): Promise<unknown> => {
  const outcome = await attempt(state, run);
  if (!outcome.ok) {
    row(state, behaviour, documented, saidBy(outcome.error), kitOnFailure(outcome.error), false);
    return undefined;
  }
  const json = jsonOf(outcome.exchange);
  const what = describeShape(shape(json), outcome.exchange?.text);
  row(state, behaviour, documented, `${outcome.exchange?.status ?? 200}${count ? `, ${count(json)}` : ''}; ${what}`, kit);
  return outcome.value;
};

const items = (json: unknown) => `${Array.isArray(json) ? json.length : 1} item${Array.isArray(json) && json.length === 1 ? '' : 's'}`;

/** Signing (a plain GET, a URL with a query string, a wrong signature) and the reads that need no invoice. */
/** Answers whether the service accepted a signed read (else no invoice is tried). */
export const checkSigningAndReads = async (state: DoctorState): Promise<boolean> => {
  const { client, settings } = state;
  const accounts = await attempt(state, () => client.listAccounts());
  const signed = accounts.ok || (accounts.error instanceof MerchantApiError && accounts.error.status !== 401);
  row(
    state,
    'signing: GET, method + URL',
    'X-Signature = Base64(HMAC-SHA1(METHOD + URL))',
    signed ? 'accepted' : saidBy(accounts.ok ? undefined : accounts.error),
    'signs every call; the secret is never sent',
    signed,
  );
  const query = await attempt(state, () => client.listPaymentMethods(settings.currency));
  const queryAccepted = query.ok || (query.error instanceof MerchantApiError && query.error.status !== 401);
  row(
    state,
    'signing: a URL with a query string',
    'the query is part of the signed URL',
    queryAccepted ? `accepted (GET /payment-methods?currency=${settings.currency})` : saidBy(query.ok ? undefined : query.error),
    'signs the URL exactly as sent, query included',
    queryAccepted,
  );
  const wrong = await attempt(state, () => state.wrongSignature.listAccounts());
  const refused = !wrong.ok && wrong.error instanceof MerchantApiError && wrong.error.status === 401;
  row(
    state,
    'signing: a wrong signature',
    '401 Unauthorized',
    refused
      ? `401, ${describeErrorBody(wrong.exchange?.text ?? '')}`
      : wrong.ok
        ? 'ACCEPTED: this brand does not check signatures'
        : saidBy(wrong.error),
    refused ? 'MerchantApiError code unauthorized' : 'nothing a client can do: tell the brand',
    refused,
  );

  if (accounts.ok)
    row(
      state,
      'read: GET /accounts',
      'a list of {id, currency, sum, frozenSum, withdrawalFee}',
      `${accounts.exchange?.status}, ${items(jsonOf(accounts.exchange))}; ${describeShape(shapeOf(jsonOf(accounts.exchange), ACCOUNT_FIELDS, { list: true }), accounts.exchange?.text)}`,
      TOLERANT,
    );
  else if (signed) row(state, 'read: GET /accounts', 'a list of accounts', saidBy(accounts.error), kitOnFailure(accounts.error), false);
  if (query.ok)
    row(
      state,
      `list: GET /payment-methods?currency=${settings.currency}`,
      'a list of {code, name, currency}',
      `${query.exchange?.status}, ${items(jsonOf(query.exchange))}; ${describeShape(shapeOf(jsonOf(query.exchange), CODE_NAME_CURRENCY_FIELDS, { list: true }), query.exchange?.text)}`,
      TOLERANT,
    );
  else if (queryAccepted)
    row(
      state,
      `list: GET /payment-methods?currency=${settings.currency}`,
      'a list of banks',
      saidBy(query.error),
      kitOnFailure(query.error),
      false,
    );
  await readRow(
    state,
    'list: GET /payment-methods',
    'a list of {code, name, currency}',
    () => client.listPaymentMethods(),
    (json) => shapeOf(json, CODE_NAME_CURRENCY_FIELDS, { list: true }),
    items,
  );
  await readRow(
    state,
    'list: GET /payment-options',
    'a list of {code, name, currency}',
    () => client.listPaymentOptions(),
    (json) => shapeOf(json, CODE_NAME_CURRENCY_FIELDS, { list: true }),
    items,
  );
  await readRow(
    state,
    `public: GET /api/public/payment-methods/${settings.currency}`,
    'a list of {code, name}, unsigned',
    () => client.listPublicPaymentMethods(settings.currency),
    (json) => shapeOf(json, CODE_NAME_FIELDS, { list: true }),
    items,
  );
  await checkRates(state);
  return signed;
};

/** `GET /currency-rates/current`: the shape, and the rate the mock's `rates` reproduces. */
const checkRates = async (state: DoctorState): Promise<void> => {
  const before = state.tap.exchanges.length;
  const value = await readRow(
    state,
    'read: GET /currency-rates/current',
    '{in: {pair, rate}, out: {pair, rate}}',
    () => state.client.getCurrencyRates(),
    (json) => shapeOf(json, RATES_FIELDS),
  );
  if (value === undefined) {
    state.why.rates = 'GET /currency-rates/current failed';
    return;
  }
  const json = unwrap(jsonOf(state.tap.exchanges[before])) as
    { in?: { pair?: unknown; rate?: unknown }; out?: { pair?: unknown; rate?: unknown } } | undefined;
  const pair = typeof json?.in?.pair === 'string' ? /^[A-Z0-9]+\/([A-Z0-9]+)$/.exec(json.in.pair) : null;
  const rate = json?.in?.rate;
  const same = json?.out?.pair === json?.in?.pair && String(json?.out?.rate) === String(rate);
  if (pair && (typeof rate === 'string' || typeof rate === 'number') && same) state.options.rates = { [pair[1]!]: String(rate) };
  else state.why.rates = 'the pay-in and pay-out rates differ or name no USDT/<currency> pair: the mock has one rate per currency';
};

/** The error bodies of a missing invoice (by id and by internal id). */
export const checkErrorShapes = async (state: DoctorState): Promise<void> => {
  const missing = crypto.randomUUID();
  for (const [behaviour, run] of [
    ['error: GET /invoices/{an id that does not exist}', () => state.client.getInvoice(missing)],
    ['error: GET /invoices/internal-id/{one that does not exist}', () => state.client.getInvoiceByInternalId(`doctor-missing-${missing}`)],
  ] as const) {
    const outcome = await attempt(state, run);
    if (outcome.ok)
      row(
        state,
        behaviour,
        '404 `null`',
        `${outcome.exchange?.status}: an invoice came back`,
        'nothing to handle, but the brand answers an unknown id',
        false,
      );
    else if (outcome.error instanceof MerchantApiError && outcome.error.status === 404)
      row(
        state,
        behaviour,
        '404 `null`',
        `404, ${describeErrorBody(outcome.exchange?.text ?? '')}`,
        'MerchantApiError not_found (any error body)',
      );
    else row(state, behaviour, '404 `null`', saidBy(outcome.error), kitOnFailure(outcome.error), false);
  }
};

/** The error bodies seen in the whole run: one shape is the mock's `errorFormat`. */
export const concludeErrorFormat = (state: DoctorState): void => {
  const errors = state.tap.exchanges.filter((exchange) => exchange.status >= 400);
  const shapes = [...new Set(errors.map((exchange) => errorShapeOf(exchange.text)))];
  const documented = 'a JSON array of {message} (400), `null` (404)';
  if (shapes.length === 1 && shapes[0] !== 'other') {
    state.options.errorFormat = shapes[0];
    row(
      state,
      'error bodies',
      documented,
      `${shapes[0] === 'documented' ? 'as documented' : 'the older {error: {code, message}}'} (${errors.length} errors seen)`,
      'reads both shapes into MerchantApiError (status, code, messages)',
    );
  } else {
    state.why.errorFormat = errors.length === 0 ? 'no error answer was seen' : `error bodies of several shapes: ${shapes.join(', ')}`;
    row(
      state,
      'error bodies',
      documented,
      errors.length === 0
        ? 'no error seen'
        : `several shapes: ${[...new Set(errors.map((exchange) => describeErrorBody(exchange.text)))].join(' | ')}`,
      'reads any of them (the messages, else the text) into MerchantApiError',
    );
  }
};

export type { MockRefusal };
