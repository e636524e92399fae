/**
 * The payment service's errors in its own words: the messages of an error answer, and a
 * stable code for each documented text, so that the proxy and the element can react to "no
 * free requisites" or "amount too small" without matching English sentences themselves.
 *
 * The documented body is a JSON array of `{ "message": "…" }`; plain text, `null`,
 * `{ "message" }`, `{ "error": { "code", "message" } }` (our older mock) and Symfony-style
 * `{ "detail" | "title", "violations": [{ "message" }] }` are read too.
 */

/** Every code a {@link MerchantApiError} may carry. New documented texts get new codes; none is ever renamed. */
export const SERVICE_ERROR_CODES = [
  /** "Invoice amount should be not less than 1000.00". */
  'amount_too_small',
  /** "Invoice amount should be not greater than 100000.00". */
  'amount_too_large',
  /** "maxAmount can not be less than amount". */
  'max_amount_too_small',
  /** "PAYMENT_METHOD_NOT_AVAILABLE": no free requisites for the chosen variant. */
  'no_requisites',
  /** "Payment option not allowed". */
  'option_not_allowed',
  /** "Payment method not allowed". */
  'method_not_allowed',
  /** "2FA should be enabled for this operation" (withdrawals). */
  'two_factor_required',
  /** "Insufficient funds" (withdrawals). */
  'insufficient_funds',
  /** "Pay in disabled" (404): the terminal takes no pay-ins. */
  'pay_in_disabled',
  /** "Pay out disabled" (404): the terminal makes no pay-outs. */
  'pay_out_disabled',
  /** 401 "Unauthorized": signature, API key or routing wrong. */
  'unauthorized',
  /** "this value should not be blank. field: "amount"": the field is named in `field`. */
  'blank_field',
  /** "This value should be of type boolean field: "startDeal"": the field is named in `field`. */
  'invalid_field_type',
  /** "Invoice data not available": the pay-out invoice was not created or is being canceled. */
  'invoice_data_not_available',
  /** Any other 404, e.g. the documented `null` body (unknown invoice, canceled invoice on dispute). */
  'not_found',
  /** Any other 4xx. */
  'upstream_rejected',
  /** Any 5xx. */
  'upstream_failed',
] as const;
/** A stable code for a refusal of the service (one of {@link SERVICE_ERROR_CODES}). */
export type ServiceErrorCode = (typeof SERVICE_ERROR_CODES)[number];

/** A refusal of the service, read from its error body by {@link readServiceError}. */
export interface ServiceError {
  /** The stable code: a documented message's, or the status class's. */
  code: ServiceErrorCode;
  /** The service's messages, in its words (each trimmed and at most 300 characters, `MAX_MESSAGE_CHARS`). */
  messages: string[];
  /** The field a message names (`this value should not be blank. field: "amount"` → `amount`). */
  field?: string;
}

export const MAX_MESSAGE_CHARS = 300;
const MAX_MESSAGES = 20;

/**
 * Lower case, every run of punctuation, underscores and spaces one space: the documented texts
 * are matched whatever their case and punctuation (`PAYMENT_METHOD_NOT_AVAILABLE`,
 * `Payment method not available.`).
 */
const normalize = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Documented texts, matched against the normalized message; the first match wins. */
const RULES: readonly (readonly [ServiceErrorCode, RegExp])[] = [
  ['max_amount_too_small', /\bmax ?amount (can ?not|cannot|should not|must not) be less than (the )?amount\b/],
  ['amount_too_small', /\bamount (should|must) (be not|not be) (less|lower|smaller) than\b/],
  ['amount_too_large', /\bamount (should|must) (be not|not be) (greater|more|larger|higher) than\b/],
  ['no_requisites', /\bpayment method not available\b/],
  ['option_not_allowed', /\bpayment option (is )?not allowed\b/],
  ['method_not_allowed', /\bpayment method (is )?not allowed\b/],
  ['two_factor_required', /\b(2 ?fa|two factor( authentication)?) (should|must) be enabled\b/],
  ['insufficient_funds', /\binsufficient (funds|balance)\b/],
  ['pay_in_disabled', /\bpay ?in (is )?disabled\b/],
  ['pay_out_disabled', /\bpay ?out (is )?disabled\b/],
  ['blank_field', /\bshould not be blank\b/],
  ['invalid_field_type', /\bshould be of type\b/],
  ['invoice_data_not_available', /\binvoice data (is )?not available\b/],
  ['unauthorized', /^unauthori[sz]ed$/],
];

/** `field: "amount"` (any quotes, or none) in a validation message. */
const FIELD_PATTERN = /\bfield\s*:?\s*["'«“]?([\p{L}\p{N}_.[\]-]+)/iu;

const textOf = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
};

const messagesOfJson = (json: unknown): string[] => {
  if (json === null || json === undefined) return [];
  const own = textOf(json);
  if (own !== undefined) return [own];
  if (Array.isArray(json)) return json.flatMap(messagesOfJson);
  if (typeof json !== 'object') return [];
  const record = json as Record<string, unknown>;
  const message = textOf(record.message);
  if (message !== undefined) return [message];
  if (record.error !== undefined && record.error !== null) {
    const error = textOf(record.error);
    return error !== undefined ? [error] : messagesOfJson(record.error);
  }
  const found: string[] = [];
  for (const key of ['detail', 'title'] as const) {
    const text = textOf(record[key]);
    if (text !== undefined) {
      found.push(text);
      break;
    }
  }
  for (const key of ['violations', 'errors', 'messages'] as const) {
    if (Array.isArray(record[key])) found.push(...messagesOfJson(record[key]));
  }
  return found;
};

const clip = (text: string): string => {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_MESSAGE_CHARS ? `${oneLine.slice(0, MAX_MESSAGE_CHARS)}…` : oneLine;
};

/** The messages of an error answer's body text: the documented JSON array, the other known shapes, or the text itself. */
export const serviceErrorMessages = (body: string): string[] => {
  const text = body.trim();
  if (text === '') return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [clip(text)];
  }
  return messagesOfJson(json)
    .map(clip)
    .filter((message) => message !== '')
    .slice(0, MAX_MESSAGES);
};

/** The stable code of an error answer with these messages, and the field a message names (`field: "amount"`), if any. */
export const classifyServiceError = (status: number, messages: readonly string[]): Omit<ServiceError, 'messages'> => {
  const fieldOf = (message: string | undefined) => (message === undefined ? undefined : FIELD_PATTERN.exec(message)?.[1]);
  const named = (code: ServiceErrorCode, message?: string): Omit<ServiceError, 'messages'> => {
    const field = fieldOf(message) ?? messages.map(fieldOf).find((each) => each !== undefined);
    return field ? { code, field } : { code };
  };
  if (status === 401) return { code: 'unauthorized' };
  for (const message of messages) {
    const normalized = normalize(message);
    for (const [code, pattern] of RULES) if (pattern.test(normalized)) return named(code, message);
  }
  if (status === 404) return { code: 'not_found' };
  return named(status >= 500 ? 'upstream_failed' : 'upstream_rejected');
};

/** Reads an error answer: its messages and their stable code. */
export const readServiceError = (status: number, body: string): ServiceError => {
  const messages = serviceErrorMessages(body);
  return { ...classifyServiceError(status, messages), messages };
};

/** Whether a value is one of {@link SERVICE_ERROR_CODES}. */
export const isServiceErrorCode = (value: unknown): value is ServiceErrorCode =>
  typeof value === 'string' && (SERVICE_ERROR_CODES as readonly string[]).includes(value);
