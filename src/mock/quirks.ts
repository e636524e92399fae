/**
 * Quirks: answers that vary, deterministically by seed, over every shape the documentation
 * permits (and the older account shape a client still reads), so a client is tested against
 * all of them. Never varied: ids, statuses, amounts, currencies, subunits, dispute results, and
 * the requisites and holder of the deal a checkout shows (the active one). Imports random.ts only.
 */
import { hash32, pick, seededRandom, type Random } from './random.js';

const TIMESTAMP_KEYS = new Set(['createdAt', 'expireAt', 'updatedAt', 'canceledAt', 'expiredAt', 'date', 'notificationDate']);
/** Optional fields a client must do without. */
const OPTIONAL_KEYS = ['paymentMethodName', 'flow', 'flowData', 'attachments', 'disputeResult', 'rate', 'storeName', 'isSumChanged'];
const EXTRA_FIELDS: readonly [string, unknown][] = [
  ['traderId', 4711],
  ['merchantFeeSum', null],
  ['meta', { source: 'h2h' }],
  ['isTest', false],
];
const OFFSETS = [0, 180, 300, -240, 330, 60];

const pad = (value: number, size = 2): string => String(Math.abs(value)).padStart(size, '0');

/** The same instant as `text` (the mock's own `…T…+HH:MM`), in another form ISO 8601 allows. */
export const reformatTimestamp = (text: string, random: Random): string => {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return text;
  const offset = pick(OFFSETS, random);
  const local = new Date(ms + offset * 60_000);
  const date = local.toISOString().slice(0, 10);
  const hm = local.toISOString().slice(11, 16);
  const seconds = local.getUTCSeconds();
  const millis = local.getUTCMilliseconds();
  // Fewer fraction digits than the milliseconds need would move the instant.
  const needed = millis === 0 ? 1 : String(millis).padStart(3, '0').replace(/0+$/, '').length;
  const fractionDigits = random() < 0.5 ? 0 : needed + (Math.floor(random() * (10 - needed)) % (10 - needed));
  const fraction = fractionDigits ? `.${String(millis).padStart(3, '0').padEnd(9, '0').slice(0, fractionDigits)}` : '';
  const time = seconds === 0 && millis === 0 && random() < 0.5 ? hm : `${hm}:${pad(seconds)}${fraction}`;
  const sign = offset < 0 ? '-' : '+';
  const forms =
    offset === 0
      ? ['Z', '+00:00', '+0000', '+00']
      : [`${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`, `${sign}${pad(Math.trunc(offset / 60))}${pad(offset % 60)}`];
  if (offset % 60 === 0 && offset !== 0) forms.push(`${sign}${pad(offset / 60)}`);
  const zone = pick(forms, random);
  const out = `${date}T${time}${zone}`;
  return random() < 0.2 ? out.replace('T', 't').replace(/Z$/, 'z') : out;
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: Json): value is { [key: string]: Json } => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An account in the older shape `{id, currency, balance}` (its sum), or without the fields a balance check does without. */
const varyAccount = (account: { [key: string]: Json }, random: Random): void => {
  const draw = random();
  if (draw < 0.3) {
    const { sum, frozenSum: _frozen, withdrawalFee: _fee, ...rest } = account;
    for (const name of Object.keys(account)) delete account[name];
    Object.assign(account, { ...rest, balance: sum ?? null });
  } else if (draw < 0.45) delete account.frozenSum;
  else if (draw < 0.6) delete account.withdrawalFee;
};

const vary = (value: Json, random: Random, key: string | undefined): Json => {
  if (typeof value === 'string') return key && TIMESTAMP_KEYS.has(key) ? reformatTimestamp(value, random) : value;
  if (Array.isArray(value)) return value.map((item) => vary(item, random, undefined));
  if (!isObject(value)) return value;
  const out: { [key: string]: Json } = {};
  for (const [name, field] of Object.entries(value)) out[name] = vary(field, random, name);
  for (const name of OPTIONAL_KEYS) if (name in out && random() < 0.3) delete out[name];
  if (Array.isArray(out.disputeReasonData) && out.disputeReasonData.length === 0 && random() < 0.3) out.disputeReasonData = null;
  // A deal that is not shown (inactive) may come without a holder.
  if (out.isActive === false && isObject(out.requisites ?? null) && random() < 0.5)
    out.requisites = { ...(out.requisites as object), holder: null };
  // A pay-out's deal comes without `qrCodeLink` in the documented example: there is nothing to scan.
  if (out.type === 'out' && 'qrCodeLink' in out && random() < 0.5) delete out.qrCodeLink;
  if ('frozenSum' in out && 'withdrawalFee' in out) varyAccount(out, random);
  // A withdrawal (it has `txId`) may come without `status` and `accountId`.
  if ('txId' in out) for (const name of ['status', 'accountId']) if (name in out && random() < 0.4) delete out[name];
  if (('id' in out || 'code' in out) && random() < 0.3) {
    const [name, extra] = pick(EXTRA_FIELDS, random);
    out[name] = extra as Json;
  }
  return out;
};

export interface Quirks {
  /** `value` written as JSON text, varied; `answer` may also switch between an object and a one-element list. */
  render(value: unknown, kind: 'answer' | 'notification'): string;
}

/** The quirks of one mock: each rendering draws from `seed` and its own sequence number. */
export const createQuirks = (seed: number): Quirks => {
  let count = 0;
  return {
    render: (value, kind) => {
      const random = seededRandom(hash32(`${seed}:${count++}`));
      let varied = vary(JSON.parse(JSON.stringify(value)) as Json, random, undefined);
      if (kind === 'answer' && random() < 0.3) {
        if (isObject(varied)) varied = [varied];
        else if (Array.isArray(varied) && varied.length === 1) varied = varied[0] ?? null;
      }
      const text = JSON.stringify(varied);
      // PHP's json_encode escapes slashes by default; it is still plain JSON.
      return random() < 0.4 ? text.replace(/\//g, '\\/') : text;
    },
  };
};

/** Rendering without quirks. */
export const plainRender: Quirks = { render: (value) => JSON.stringify(value) };
