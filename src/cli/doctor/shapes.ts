/**
 * What the doctor compares a brand's answers with: the documented field sets (the same the
 * mock's dto.ts writes), the documented error body and timestamp form; and how it describes
 * a difference in a line that pastes into a ticket. Pure functions over parsed JSON.
 */

export const INVOICE_FIELDS = [
  'id',
  'internalId',
  'userId',
  'type',
  'status',
  'paymentMethod',
  'paymentOption',
  'paymentRequisites',
  'sum',
  'storeId',
  'storeName',
  'receivedSumFromTaker',
  'receivedSumFromMaker',
  'serviceFeeSum',
  'payoutSum',
  'createdAt',
  'expireAt',
  'updatedAt',
  'invoiceUrl',
  'deals',
];
export const CANCELED_FIELDS = [
  'id',
  'internalId',
  'type',
  'paymentMethod',
  'paymentOption',
  'paymentRequisites',
  'expiredAt',
  'sum',
  'status',
  'deals',
  'successUrl',
  'cancelUrl',
  'isSumChanged',
  'flow',
  'flowData',
];
/** A deal's fields; `paymentMethodName` only in the create answer's example, `disputeResult` and `attachments` in the lookups'. */
export const DEAL_FIELDS = [
  'id',
  'type',
  'status',
  'paymentMethod',
  'paymentOption',
  'requisites',
  'canceledAt',
  'disputeAttachment',
  'disputeReason',
  'disputeReasonData',
  'payment',
  'rate',
  'isActive',
  'qrCodeLink',
];
export const DEAL_OPTIONAL_FIELDS = ['paymentMethodName', 'disputeResult', 'attachments'];
export const ACCOUNT_FIELDS = ['id', 'currency', 'sum', 'frozenSum', 'withdrawalFee'];
export const CODE_NAME_CURRENCY_FIELDS = ['code', 'name', 'currency'];
export const CODE_NAME_FIELDS = ['code', 'name'];
export const VARIANT_FIELDS = ['option', 'method'];
export const RATES_FIELDS = ['in', 'out'];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What differs in one answer from its documented fields. */
export interface ShapeDiff {
  /** A one-element list where the example has one object. */
  wrapped: boolean;
  extra: string[];
  missing: string[];
}

/** A one-element list read as its element (the reference calls answers arrays, the examples objects). */
export const unwrap = (value: unknown): unknown => (Array.isArray(value) && value.length === 1 && isRecord(value[0]) ? value[0] : value);

/** Fields of `value` (an object, or the first item of a list when `list`) against `documented`. */
export const shapeOf = (
  value: unknown,
  documented: readonly string[],
  options: { list?: boolean; optional?: readonly string[] } = {},
): ShapeDiff => {
  const wrapped = !options.list && Array.isArray(value) && value.length === 1;
  const item: unknown = options.list ? (Array.isArray(value) ? (value as unknown[])[0] : undefined) : unwrap(value);
  if (!isRecord(item)) return { wrapped, extra: [], missing: [] };
  const keys = Object.keys(item);
  const optional = options.optional ?? [];
  return {
    wrapped,
    extra: keys.filter((key) => !documented.includes(key) && !optional.includes(key)),
    missing: documented.filter((key) => !keys.includes(key)),
  };
};

/** The deals of an invoice answer, merged into one diff. */
export const dealsShape = (invoice: unknown): ShapeDiff | undefined => {
  const deals = (unwrap(invoice) as { deals?: unknown } | undefined)?.deals;
  if (!Array.isArray(deals) || deals.length === 0) return undefined;
  const diffs = deals.map((deal) => shapeOf(deal, DEAL_FIELDS, { optional: DEAL_OPTIONAL_FIELDS }));
  return {
    wrapped: false,
    extra: [...new Set(diffs.flatMap((diff) => diff.extra))],
    missing: [...new Set(diffs.flatMap((diff) => diff.missing))],
  };
};

/** `as documented`, or what differs: `a list of one; extra: traderId; missing: storeName`. */
export const describeShape = (diff: ShapeDiff, text = ''): string => {
  const parts = [
    ...(diff.wrapped ? ['a list of one object'] : []),
    ...(diff.extra.length ? [`extra: ${diff.extra.join(', ')}`] : []),
    ...(diff.missing.length ? [`missing: ${diff.missing.join(', ')}`] : []),
    ...(text.includes('\\/') ? ['escaped slashes'] : []),
  ];
  return parts.length ? parts.join('; ') : 'as documented';
};

/** The shape of an error body: the documented `[{message}]` (or `null` for 404), the older `{error:{code,message}}`, or another. */
export type ErrorShape = 'documented' | 'legacy' | 'other';

export const errorShapeOf = (text: string): ErrorShape => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'other';
  }
  if (json === null) return 'documented';
  if (Array.isArray(json) && json.every((item) => isRecord(item) && typeof item.message === 'string')) return 'documented';
  if (isRecord(json) && isRecord(json.error) && typeof json.error.message === 'string') return 'legacy';
  return 'other';
};

export const describeErrorBody = (text: string): string => {
  const shape = errorShapeOf(text);
  if (shape === 'documented') return text.trim() === 'null' ? '`null`' : 'an array of {message}';
  if (shape === 'legacy') return '{error: {code, message}}';
  return text.trim() === '' ? 'an empty body' : `another shape: ${text.replace(/\s+/g, ' ').slice(0, 60)}`;
};

const TIMESTAMP_KEYS = new Set(['createdAt', 'expireAt', 'updatedAt', 'canceledAt', 'expiredAt', 'date', 'notificationDate']);

/** Every timestamp of an answer (by its documented key names), anywhere in it. */
export const timestampsOf = (value: unknown, into: string[] = []): string[] => {
  if (Array.isArray(value)) for (const item of value) timestampsOf(item, into);
  else if (isRecord(value)) {
    for (const [key, field] of Object.entries(value)) {
      if (typeof field === 'string' && TIMESTAMP_KEYS.has(key)) into.push(field);
      else timestampsOf(field, into);
    }
  }
  return into;
};

/** The documented form: `2024-11-23T20:43:07+00:00`. */
const DOCUMENTED_FORM = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/;
const OFFSET = /(?:([zZ])|([+-])(\d\d):?(\d\d)?)$/;

/** Minutes east of UTC a timestamp is written in; undefined without an offset. */
export const offsetOf = (text: string): number | undefined => {
  const match = OFFSET.exec(text);
  if (!match || !/[tT ]\d\d:\d\d/.test(text)) return undefined;
  if (match[1]) return 0;
  const minutes = Number(match[3]) * 60 + Number(match[4] ?? '0');
  return match[2] === '-' ? -minutes : minutes;
};

/** `+03:00` for 180. */
export const offsetText = (minutes: number): string => {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
};

/** What the timestamps of the answers say: their offsets and whether each has the documented form. */
export const timestampReport = (stamps: readonly string[]): { offsets: number[]; otherForms: string[]; withoutOffset: string[] } => {
  const offsets = [...new Set(stamps.map(offsetOf).filter((offset): offset is number => offset !== undefined))].sort((a, b) => a - b);
  return {
    offsets,
    otherForms: [...new Set(stamps.filter((stamp) => !DOCUMENTED_FORM.test(stamp)))],
    withoutOffset: stamps.filter((stamp) => offsetOf(stamp) === undefined),
  };
};
