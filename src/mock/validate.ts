/**
 * Request bodies checked as the service does, with its messages: `this value should not be
 * blank. field: "amount"`, amount limits, `Payment option not allowed`, … The shared schemas
 * check the fields they know; the documented fields they may not know yet are checked here.
 * Imports the shared schemas, banks, money, options, http.
 */
import { CreateInvoiceRequestSchema, CreateWithdrawalRequestSchema, UUID_PATTERN, safeParse } from '../schemas/index.js';
import { bankByCode, isPaymentOption } from './banks.js';
import { badRequest } from './http.js';
import { AmountError, fromMinor, toMinor } from './money.js';
import { CURRENCY_PATTERN, DEFAULTS, subunitOf, type AmountLimit } from './options.js';

/** Documented create fields the shared schema may not have; `null` stands for absent. */
const EXTRA_FIELDS = [
  'successUrl',
  'cancelUrl',
  'maxAmount',
  'crossBorderCurrency',
  'crossBorderRequisiteType',
  'strictlySingleTransfer',
  'allowMatching',
  'matchingSettings',
  'lang',
] as const;
const OPTIONAL_FIELDS = ['internalId', 'userId', 'paymentOption', 'paymentMethod', 'paymentRequisites', 'startDeal'];

const field = (name: string, message: string): string => `${message} field: "${name}"`;

/** A shared-schema issue in the service's words. */
const serviceMessage = (issue: { field: string; message: string }): string => {
  const name = issue.field || 'body';
  if (issue.message === 'is required') return field(name, 'this value should not be blank.');
  if (issue.message === 'is not a known field') return field(name, 'This field was not expected.');
  const type = /^must be (boolean|string|number|object|array)/.exec(issue.message)?.[1];
  if (type) return field(name, `This value should be of type ${type}`);
  return field(name, `This value is not valid (${issue.message}).`);
};

const parse = <T>(schema: Parameters<typeof safeParse>[0], value: unknown): T => {
  const parsed = safeParse(schema, value);
  if (!parsed.success) throw badRequest(parsed.issues.map(serviceMessage));
  return parsed.data as T;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export const amountOf = (name: string, amount: string, subunit: number): bigint => {
  try {
    return toMinor(amount, subunit);
  } catch (error) {
    if (error instanceof AmountError) throw badRequest([field(name, `This value is not valid (${error.message}).`)]);
    throw error;
  }
};

export interface CreateInvoiceInput {
  type: 'in' | 'out';
  amountMinor: bigint;
  maxAmountMinor: bigint | null;
  currency: string;
  subunit: number;
  notificationUrl: string;
  notificationToken: string;
  internalId: string | null;
  userId: string | null;
  paymentOption: string | null;
  paymentMethod: string | null;
  paymentRequisites: Record<string, unknown> | null;
  startDeal: boolean;
  successUrl: string | null;
  cancelUrl: string | null;
  crossBorderCurrency: string | null;
  lang: string | null;
}

export const validateCreateInvoice = (body: unknown, limits: Record<string, AmountLimit>): CreateInvoiceInput => {
  if (!isRecord(body)) throw badRequest([field('body', 'This value should be of type object')]);
  const rest: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if ((EXTRA_FIELDS as readonly string[]).includes(name)) extra[name] = value;
    else if (!(value === null && OPTIONAL_FIELDS.includes(name))) rest[name] = value;
  }
  const blank = ['type', 'amount', 'currency', 'notificationUrl', 'notificationToken'].filter(
    (name) => rest[name] === undefined || rest[name] === null || rest[name] === '',
  );
  if (blank.length) throw badRequest(blank.map((name) => field(name, 'this value should not be blank.')));
  const messages: string[] = [];
  const expect = (name: string, ok: (value: unknown) => boolean, type: string) => {
    if (extra[name] !== undefined && extra[name] !== null && !ok(extra[name]))
      messages.push(field(name, `This value should be of type ${type}`));
  };
  for (const name of ['successUrl', 'cancelUrl', 'maxAmount', 'crossBorderCurrency', 'lang'])
    expect(name, (v) => typeof v === 'string', 'string');
  for (const name of ['strictlySingleTransfer', 'allowMatching']) expect(name, (v) => typeof v === 'boolean', 'boolean');
  expect('matchingSettings', isRecord, 'object');
  expect('crossBorderRequisiteType', (v) => v === 'PHONE' || v === 'CARD', 'PHONE|CARD');
  if (messages.length) throw badRequest(messages);
  const request = parse<{
    type: 'in' | 'out';
    amount: string;
    currency: string;
    notificationUrl: string;
    notificationToken: string;
    internalId?: string;
    userId?: string;
    paymentOption?: string | null;
    paymentMethod?: string;
    paymentRequisites?: Record<string, unknown>;
    startDeal?: boolean;
  }>(CreateInvoiceRequestSchema, rest);
  const tooLong = (name: string, value: string | undefined, max: number) =>
    value !== undefined && value.length > max ? [field(name, `This value is too long (at most ${max} characters).`)] : [];
  messages.push(
    ...(CURRENCY_PATTERN.test(request.currency) ? [] : [field('currency', 'This value is not a valid currency.')]),
    ...tooLong('internalId', request.internalId, DEFAULTS.maxIdLength),
    ...tooLong('userId', request.userId, DEFAULTS.maxIdLength),
    ...tooLong('notificationToken', request.notificationToken, DEFAULTS.maxIdLength),
    ...tooLong('notificationUrl', request.notificationUrl, DEFAULTS.maxUrlLength),
  );
  if (messages.length) throw badRequest(messages);
  if (request.paymentOption && !isPaymentOption(request.paymentOption)) throw badRequest(['Payment option not allowed']);
  if (request.paymentMethod && request.paymentMethod !== 'unknown' && !bankByCode(request.paymentMethod))
    throw badRequest(['Payment method not allowed']);
  const subunit = subunitOf(request.currency);
  const amountMinor = amountOf('amount', request.amount, subunit);
  const limit = limits[request.currency] ?? limits['*'] ?? DEFAULTS.amountLimits['*']!;
  const [min, max] = [amountOf('min', limit.min, subunit), amountOf('max', limit.max, subunit)];
  if (amountMinor < min) throw badRequest([`Invoice amount should be not less than ${fromMinor(min, subunit)}`]);
  if (amountMinor > max) throw badRequest([`Invoice amount should be not greater than ${fromMinor(max, subunit)}`]);
  const maxAmountMinor = typeof extra.maxAmount === 'string' ? amountOf('maxAmount', extra.maxAmount, subunit) : null;
  if (maxAmountMinor !== null && maxAmountMinor < amountMinor) throw badRequest(['maxAmount can not be less than amount']);
  const text = (name: string) => (typeof extra[name] === 'string' ? extra[name] : null);
  return {
    type: request.type,
    amountMinor,
    maxAmountMinor,
    currency: request.currency,
    subunit,
    notificationUrl: request.notificationUrl,
    notificationToken: request.notificationToken,
    internalId: request.internalId ?? null,
    userId: request.userId ?? null,
    paymentOption: request.paymentOption ?? null,
    paymentMethod: request.paymentMethod ?? null,
    paymentRequisites: request.paymentRequisites ?? null,
    startDeal: request.startDeal === true,
    successUrl: text('successUrl'),
    cancelUrl: text('cancelUrl'),
    crossBorderCurrency: text('crossBorderCurrency'),
    lang: text('lang'),
  };
};

/**
 * A pay-out's payee (documented RequisitesDTO `{requisites, holder}`): both are needed, the
 * deal goes to them. `unknown` asks the service for the bank of a card number, so it goes only
 * with `TO_CARD` (documented: `SBP` needs the payee's bank code).
 */
export const validatePayee = (
  input: Pick<CreateInvoiceInput, 'paymentRequisites' | 'paymentOption' | 'paymentMethod'>,
): { requisites: string; holder: string } => {
  const given = input.paymentRequisites ?? {};
  const text = (name: 'requisites' | 'holder') => (typeof given[name] === 'string' ? given[name].trim() : '');
  const blank = (['requisites', 'holder'] as const).filter((name) => text(name) === '');
  if (blank.length) throw badRequest(blank.map((name) => field(`paymentRequisites.${name}`, 'this value should not be blank.')));
  if (input.paymentMethod === 'unknown' && input.paymentOption !== 'TO_CARD') throw badRequest(['Payment method not allowed']);
  return { requisites: given.requisites as string, holder: given.holder as string };
};

export interface WithdrawalInput {
  accountId: string;
  amount: string;
  address: string;
  code2FA: string;
  substractFeeFromAmount?: boolean;
}

export const validateWithdrawal = (body: unknown): WithdrawalInput => {
  const request = parse<WithdrawalInput>(CreateWithdrawalRequestSchema, body);
  // WithdrawalDTO documents `accountId` as a UUID.
  if (!UUID_PATTERN.test(request.accountId)) throw badRequest([field('accountId', 'This is not a valid UUID.')]);
  if (request.address.length > DEFAULTS.maxIdLength)
    throw badRequest([field('address', `This value is too long (at most ${DEFAULTS.maxIdLength} characters).`)]);
  return request;
};

/** `{paymentMethod?, paymentOption?}` of start-deal: each a known code, or null for any. */
export const validateStartDeal = (body: unknown): { method: string | null; option: string | null } => {
  if (!isRecord(body)) throw badRequest([field('body', 'This value should be of type object')]);
  const { paymentMethod = null, paymentOption = null } = body;
  if (paymentOption !== null && (typeof paymentOption !== 'string' || !isPaymentOption(paymentOption)))
    throw badRequest(['Payment option not allowed']);
  if (paymentMethod !== null && (typeof paymentMethod !== 'string' || !bankByCode(paymentMethod)))
    throw badRequest(['Payment method not allowed']);
  return { method: paymentMethod, option: paymentOption };
};
