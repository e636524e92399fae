/**
 * One entry of an invoice's journal (docs/console.md): what happened, when, and a few plain
 * details. Never a secret: the journal is given only the fields each writer names, a field
 * whose name says it is a secret is dropped whatever its value, requisites are masked to their
 * last four digits before they are written, and an entry longer than its cap is cut and marked.
 */

/** What an entry tells of. */
export type JournalKind =
  /** The invoice was created through the kit's client (amount, who created it). */
  | 'created'
  /** A payer started a deal: the bank (variant), and its requisites masked. */
  | 'deal_started'
  /** A payer was first shown the deal's requisites (masked). */
  | 'requisites_shown'
  /** A payer said "I have paid" (`said_paid`, with the upload's size), asked to cancel, or disputed: and the outcome. */
  | 'payer_action'
  /** A notification of the service arrived: whether its token was accepted, whether the service confirmed it, and why. */
  | 'notification'
  /** A change handed to the shop (`onChange`): its id, kind, where it was found. */
  | 'change'
  /** An attempt to deliver a change's webhook to the shop: status, time taken, next try. */
  | 'webhook'
  /** What the reconciler found when it read the invoice (not "unchanged"). */
  | 'reconciled'
  /** Something done from the console or the shop's API: a read from the service, a redelivery. */
  | 'action';

/** A detail's value: plain text, a number, yes or no, or nothing. */
export type JournalValue = string | number | boolean | null;

/** What a writer gives: plain details by name. */
export type JournalDetails = Readonly<Record<string, JournalValue | undefined>>;

/** An entry as the journal answers it (and as `GET /v1/invoices/{id}/journal` lists it). */
export interface JournalEntry {
  /** Its number in the invoice's journal (1 for the first ever written). */
  seq: number;
  /** When it happened (ISO 8601). */
  at: string;
  /** What it tells of. */
  kind: JournalKind;
  /** Its details (kind-specific, plain values). */
  details: Record<string, JournalValue>;
  /** Present when the entry was longer than its cap: its details were cut. */
  truncated?: true;
}

/** Field names never written, whatever their value (a writer's mistake stays out of the journal): those naming a secret. */
const SECRET_NAME = /(token|secret|signature|authorization|password|api_?key|cookie)$/i;

/**
 * Requisites as the journal keeps them: the last four digits of a card or a phone (`•••• 4242`),
 * `••••` when there are fewer than four digits.
 */
export const maskRequisites = (requisites: string | null | undefined): string | null => {
  if (typeof requisites !== 'string' || requisites === '') return null;
  const digits = requisites.replace(/\D/g, '');
  return digits.length >= 4 ? `•••• ${digits.slice(-4)}` : '••••';
};

/** How long a text detail may be before it is cut, when an entry is over its cap. */
const CUT_TEXT = 64;

/**
 * The stored text of an entry: JSON of `{ at, kind, details }`, at most `maxBytes` long (UTF-8).
 * Over it, long texts are cut (`…`) and then, if still over, the details dropped; either way
 * the entry is marked `truncated`.
 */
export const encodeEntry = (at: number, kind: JournalKind, details: JournalDetails, maxBytes: number): string => {
  const clean: Record<string, JournalValue> = {};
  for (const [name, value] of Object.entries(details)) {
    if (value === undefined || SECRET_NAME.test(name)) continue;
    clean[name] = typeof value === 'number' && !Number.isFinite(value) ? null : value;
  }
  const whole = JSON.stringify({ at, kind, details: clean });
  if (fits(whole, maxBytes)) return whole;
  const cut: Record<string, JournalValue> = {};
  for (const [name, value] of Object.entries(clean)) {
    if (name.length > CUT_TEXT) continue;
    cut[name] = typeof value === 'string' && value.length > CUT_TEXT ? `${value.slice(0, CUT_TEXT)}…` : value;
  }
  const shorter = JSON.stringify({ at, kind, details: cut, truncated: true });
  if (fits(shorter, maxBytes)) return shorter;
  return JSON.stringify({ at, kind, details: {}, truncated: true });
};

const encoder = new TextEncoder();
/** Whether `text` is at most `maxBytes` in UTF-8 (three bytes a UTF-16 unit at most: most entries need no encoding). */
const fits = (text: string, maxBytes: number): boolean => text.length * 3 <= maxBytes || encoder.encode(text).length <= maxBytes;

/** Every kind of entry, in the order of {@link JournalKind} (the OpenAPI file lists them from here). */
export const JOURNAL_KINDS = [
  'created',
  'deal_started',
  'requisites_shown',
  'payer_action',
  'notification',
  'change',
  'webhook',
  'reconciled',
  'action',
] as const satisfies readonly JournalKind[];
const KINDS: ReadonlySet<string> = new Set<string>(JOURNAL_KINDS);

/** A stored entry read back (tolerant: an entry that does not read is shown as such, not thrown). */
export const decodeEntry = (seq: number, text: string): JournalEntry => {
  try {
    const parsed = JSON.parse(text) as { at?: unknown; kind?: unknown; details?: unknown; truncated?: unknown };
    const details: Record<string, JournalValue> = {};
    if (typeof parsed.details === 'object' && parsed.details !== null) {
      for (const [name, value] of Object.entries(parsed.details as Record<string, unknown>)) {
        if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) details[name] = value as JournalValue;
      }
    }
    return {
      seq,
      at: new Date(typeof parsed.at === 'number' ? parsed.at : 0).toISOString(),
      kind: typeof parsed.kind === 'string' && KINDS.has(parsed.kind) ? (parsed.kind as JournalKind) : 'action',
      details,
      ...(parsed.truncated === true ? { truncated: true as const } : {}),
    };
  } catch {
    return { seq, at: new Date(0).toISOString(), kind: 'action', details: { unreadable: true }, truncated: true };
  }
};
