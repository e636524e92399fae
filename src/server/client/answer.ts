/**
 * Answers as the client reads them: a redirect or a refusal as a typed error (with the keys and
 * the signature cut out of whatever the service echoed), a 2xx answer parsed and read
 * tolerantly through its row's schema, and the proxy's shared reads (`sharedAnswer`) of a
 * text read before.
 */
import { safeParse, unwrapSingleton, type FieldIssue } from '../../schemas/index.js';
import { MerchantApiError, MerchantResponseError } from './errors.js';
import { deepFreeze } from '../immutable.js';
import { remember } from '../remember.js';
import type { Call } from './request.js';
import { readServiceError } from './service-errors.js';

/** How many URLs' last answers a client keeps for `sharedAnswer` reads (oldest first out). */
const SHARED_ANSWERS = 1024;
const EXCERPT_CHARS = 500;

/** An upstream answer as the client reads it, whichever way it was fetched. */
export interface RawAnswer {
  status: number;
  /** A redirect (an opaque one has status 0), never followed. */
  redirect?: boolean;
  location?: string | undefined;
  text: string;
}

/** Cuts each of `secrets` (the keys, a call's signature) out of a text the service sent. */
export type Redact = (text: string) => string;

export const redactor =
  (secrets: readonly string[]): Redact =>
  (text) => {
    let out = text;
    for (const secret of secrets) if (secret) out = out.split(secret).join('[redacted]');
    return out;
  };

/** The start of an answer for an error message, with the keys and the signature cut out (an echoing service). */
const excerpt = (text: string, redact: Redact, length = EXCERPT_CHARS): string => {
  const cut = redact(text);
  return (cut.length > length ? `${cut.slice(0, length)}…` : cut).replace(/\s+/g, ' ').trim();
};

/** The `id` a 2xx answer carries (top level, or in a one-element array), so that a lost result can be found. */
const idOf = (json: unknown): string | undefined => {
  const value = unwrapSingleton(json);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const id = (value as Record<string, unknown>).id;
  return typeof id === 'string' && id !== '' ? id : typeof id === 'number' ? String(id) : undefined;
};

/** A redirect (never followed) or a status outside 2xx, as the error the call rejects with. */
export const refusal = (call: Call, answer: RawAnswer, redact: Redact): Error | undefined => {
  const { status, text } = answer;
  if (answer.redirect || (status >= 300 && status < 400)) {
    const location = (answer.location ?? '').slice(0, 200);
    return new MerchantResponseError(call.operation, status, [
      { field: '', message: `a redirect${location ? ` to ${location}` : ''} is not followed: the signature is for this URL only` },
    ]);
  }
  if (status >= 200 && status < 300) return undefined;
  const said = readServiceError(status, text);
  said.messages = said.messages.map(redact);
  return new MerchantApiError(call.operation, status, excerpt(text, redact), said);
};

/** A 2xx answer, parsed and checked; what cannot be read is thrown with the answer as it came. */
export const readAnswer = (call: Call, status: number, text: string, redact: Redact): unknown => {
  const { operation, answer } = call;
  const invalid = (issues: readonly FieldIssue[], body: unknown) =>
    new MerchantResponseError(operation, status, issues, { body, id: idOf(body) });
  let value: unknown = text;
  if (call.answerType === 'application/json') {
    value = null;
    if (text.trim() !== '') {
      try {
        value = JSON.parse(text);
      } catch {
        if (!answer) return text;
        throw invalid([{ field: '', message: `answer is not JSON: ${excerpt(text, redact, 80)}` }], text);
      }
    }
  }
  if (!answer) return value;
  const parsed = safeParse(answer, value);
  if (!parsed.success) throw invalid(parsed.issues, value);
  return parsed.data;
};

/** The last answer of each URL read with `sharedAnswer`: its text and the frozen value it was read into. */
export class SharedAnswers {
  readonly #last = new Map<string, { text: string; value: unknown }>();

  /** {@link readAnswer}, or for a `sharedAnswer` read of the same text as last time, the value it gave then. */
  read(call: Call, status: number, text: string, redact: Redact): unknown {
    if (!call.options?.sharedAnswer) return readAnswer(call, status, text, redact);
    const last = this.#last.get(call.href);
    if (last?.text === text) return last.value;
    const value = deepFreeze(readAnswer(call, status, text, redact));
    remember(this.#last, call.href, { text, value }, SHARED_ANSWERS);
    return value;
  }
}
