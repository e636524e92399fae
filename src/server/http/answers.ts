/**
 * Pieces shared by the checkout proxy and the notification receiver: JSON answers with the
 * headers every answer carries, the typed error a merchant's hook may throw, a size-capped
 * body reader, a deadline, and a constant-time secret comparison. Web APIs only.
 */
import type { Context } from '@opentelemetry/api';
import { CHECKOUT_ERROR_STATUS, type CheckoutProxyErrorCode } from '../../schemas/index.js';
import { BodyTooLargeError, abortable, declaredLength, readTextLimited } from './body.js';
import { jsonText } from '../immutable.js';
import { textAnswer } from './runtime-seam.js';

/**
 * Thrown by a merchant's hook (`resolveInternalId`, `startDeal`, `onNotification`) to answer
 * with a specific checkout error instead of a generic one. Its `message` IS sent to the
 * browser, so it must not hold anything secret.
 *
 * ```ts
 * throw new CheckoutHttpError('bad_request', 'This payment variant is not offered for the order');
 * ```
 */
export class CheckoutHttpError extends Error {
  /** The class's name, for logs. */
  override name = 'CheckoutHttpError';
  /** The protocol's error code, sent in the answer's body. */
  readonly code: CheckoutProxyErrorCode;
  /** The HTTP status of the answer (from `CHECKOUT_ERROR_STATUS`). */
  readonly status: number;
  /** For `payload_too_large`: the limit that refused the body (or the receipt in it), in bytes, sent as `maxBytes`. */
  readonly maxBytes: number | undefined;

  constructor(code: CheckoutProxyErrorCode, message: string, options?: { cause?: unknown; maxBytes?: number }) {
    super(message, options);
    this.code = code;
    this.status = CHECKOUT_ERROR_STATUS[code];
    this.maxBytes = options?.maxBytes;
  }
}

/**
 * Headers on every answer: `Date` (the element corrects the payer's clock skew with it, and
 * a Fetch runtime does not always add it), `no-store` (invoices and requisites are personal
 * and change), and `nosniff` (the answers are JSON, never to be run as anything else).
 */
export const baseHeaderPairs = (): [string, string][] => [
  ['date', httpDate()],
  ['cache-control', 'no-store'],
  ['x-content-type-options', 'nosniff'],
];

/** The {@link baseHeaderPairs} as `Headers`. */
export const baseHeaders = (): Headers => new Headers(baseHeaderPairs());

let dateSecond = 0;
let dateText = '';
/** Now as an HTTP date, made once per second (as `node:http` makes its own `Date`). */
const httpDate = (): string => {
  const second = Math.floor(Date.now() / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(second * 1000).toUTCString();
  }
  return dateText;
};

/**
 * A JSON answer with the {@link baseHeaders}; `body: null` for an answer without one. Given
 * the `request` it answers, an answer to a request a runtime adapter made is written without a
 * body stream (runtime-seam.ts, `textAnswer`).
 */
export const jsonAnswer = (status: number, body: unknown, headers: Headers = baseHeaders(), request?: Request): Response => {
  if (body === null) return new Response(null, { status, headers });
  headers.set('content-type', 'application/json; charset=utf-8');
  return textAnswer(request, jsonText(body), status, headers);
};

/**
 * `{ "error": { "code", "message" } }` with the status of its code; a 413 also says the limit
 * that refused the body, `maxBytes`, which the element shows the payer.
 */
export const errorAnswer = (code: CheckoutProxyErrorCode, message: string, headers?: Headers, maxBytes?: number): Response =>
  jsonAnswer(CHECKOUT_ERROR_STATUS[code], { error: maxBytes === undefined ? { code, message } : { code, message, maxBytes } }, headers);

/** The answer of a {@link CheckoutHttpError}. */
export const errorAnswerOf = (error: CheckoutHttpError, headers?: Headers): Response =>
  errorAnswer(error.code, error.message, headers, error.maxBytes);

/** How long a request body may take to arrive, by default (a body trickled in slowly is cut). */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

/**
 * The request body as UTF-8 text, at most `limit` bytes and within `timeoutMs` (see
 * `readTextLimited`), with its failures as {@link CheckoutHttpError}s: 413 for the size, 408
 * for a body that did not arrive in time, 400 for anything unreadable.
 */
export const readBodyLimited = async (request: Request, limit: number, timeoutMs = DEFAULT_BODY_TIMEOUT_MS): Promise<string> => {
  try {
    return await readTextLimited(request, limit, { fatal: true, timeoutMs });
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      throw new CheckoutHttpError('payload_too_large', `request body exceeds ${error.limit} bytes`, { maxBytes: error.limit });
    }
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      throw new CheckoutHttpError('request_timeout', `the request body did not arrive within ${timeoutMs} ms`);
    }
    throw new CheckoutHttpError('bad_request', 'the request body could not be read as UTF-8 text', { cause: error });
  }
};

/** Whether a request announces a body (a length over zero, or a chunked transfer). */
export const announcesBody = (request: Request): boolean => declaredLength(request) > 0 || request.headers.has('transfer-encoding');

/** The reason a {@link Deadline} aborts its signal with. */
export class DeadlineExceeded extends Error {
  override name = 'DeadlineExceeded';
}

/**
 * One time budget for all the work of one request (the merchant's hooks and every upstream
 * call): its `signal` aborts when the time is up or when `parent` (the payer's request)
 * aborts, and {@link Deadline.race} cuts work that ignores the signal.
 */
export class Deadline {
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();
  readonly #end: number;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #parent: AbortSignal | undefined;
  readonly #onParentAbort = () => this.#controller.abort(this.#parent?.reason);
  /** The span of the request's route, the parent of the upstream calls made within this budget. */
  readonly traceContext: Context | undefined;

  constructor(timeoutMs: number, parent?: AbortSignal, traceContext?: Context) {
    this.signal = this.#controller.signal;
    this.traceContext = traceContext;
    this.#end = Date.now() + timeoutMs;
    this.#timer = setTimeout(() => this.#controller.abort(new DeadlineExceeded(`no answer within ${timeoutMs} ms`)), timeoutMs);
    this.#parent = parent;
    if (parent?.aborted) this.#onParentAbort();
    else parent?.addEventListener('abort', this.#onParentAbort, { once: true });
  }

  /** True once the time budget ran out (not when the payer went away). */
  get exceeded(): boolean {
    return this.signal.reason instanceof DeadlineExceeded;
  }

  /** Milliseconds left, at least 1 (a client's `timeoutMs` must be positive). */
  remaining(): number {
    return Math.max(1, this.#end - Date.now());
  }

  /** An upstream call's options within this budget: its signal, the time left, the route's span as the call's parent. */
  upstream(): { signal: AbortSignal; timeoutMs: number; traceContext: Context | undefined } {
    return { signal: this.signal, timeoutMs: this.remaining(), traceContext: this.traceContext };
  }

  /** Settles with `work`, or rejects with the abort reason as soon as the signal aborts. */
  race<T>(work: T | Promise<T>): Promise<T> {
    // A hook that answered at once (a plain `true`) has nothing to race; any thenable is raced.
    if (typeof (work as { then?: unknown } | null | undefined)?.then !== 'function') {
      return this.signal.aborted ? Promise.reject(this.signal.reason as Error) : Promise.resolve(work);
    }
    return abortable(Promise.resolve(work), this.signal);
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#parent?.removeEventListener('abort', this.#onParentAbort);
  }
}

const encoder = new TextEncoder();

/**
 * A comparison of presented secrets against one expected secret that takes the same time
 * whatever the input: both sides are reduced to an HMAC under a random per-process key and
 * Web Crypto's `verify` compares the digests, so neither length nor prefix leaks.
 */
export const secretMatcher = (expected: string): ((presented: string | null | undefined) => Promise<boolean>) => {
  const prepared = (async () => {
    const key = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(expected));
    return { key, mac };
  })();
  return async (presented) => {
    const { key, mac } = await prepared;
    const valid = await crypto.subtle.verify('HMAC', key, mac, encoder.encode(presented ?? ''));
    return valid && typeof presented === 'string' && presented.length > 0;
  };
};

/** Constant-time equality of two secrets (for an expected value that changes per call). */
export const secretsEqual = (expected: string, presented: string | null | undefined): Promise<boolean> =>
  secretMatcher(expected)(presented);
