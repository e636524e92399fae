/**
 * One call on the wire: signed (`X-Identity`, `X-Signature` over exactly the URL and the JSON
 * text sent; a body-less call's signature made once), sent through the node fetch's text entry
 * or a `fetch` within the time limit and the caller's signal, and its answer read within the
 * size limit into a value or a typed error (answer.ts). Holds the keys, which never leave it
 * except as the signature.
 */
import { BodyTooLargeError, abortable, readTextLimited } from '../http/body.js';
import type { ServerPlatform } from '../http/platform.js';
import { UpstreamDeadlineError, textEntryOf, type TextFetch } from '../http/runtime-seam.js';
import { remember } from '../remember.js';
import { SharedAnswers, redactor, refusal, type RawAnswer } from './answer.js';
import { MerchantNetworkError, MerchantResponseError, MerchantTimeoutError } from './errors.js';
import type { Call } from './request.js';
import { stringToSign } from './signing.js';

/** How many bodyless calls' signatures a client keeps (oldest first out). */
const SIGNATURES = 1024;

/** What a {@link Transport} is built with. */
export interface TransportOptions {
  apiKey: string;
  secretKey: string;
  fetch: ((request: Request) => Promise<Response>) | undefined;
  maxResponseBytes: number;
  /** The runtime's HMAC and default `fetch` (http/platform.ts). */
  platform: ServerPlatform;
}

class TimeoutSignal extends Error {}

/** A failed call as the client's error: past its time limit, aborted by the caller, or a network failure. */
const failure = (call: Call, error: unknown, timedOut: boolean, timeoutMs: number, aborted: boolean): Error => {
  if (timedOut) return new MerchantTimeoutError(call.operation, timeoutMs);
  if (aborted) return new MerchantNetworkError(call.operation, 'aborted by the caller', { cause: error, aborted: true });
  return new MerchantNetworkError(call.operation, `request failed: ${error instanceof Error ? error.message : String(error)}`, {
    cause: error,
  });
};

/** The client's way to the service: one per `MerchantClient`. */
export class Transport {
  readonly #apiKey: string;
  readonly #secretKey: string;
  readonly #platform: ServerPlatform;
  readonly #fetch: (href: string, init: RequestInit) => Promise<Response>;
  /** A node fetch's entry that reads a JSON or empty call's answer whole into text, with no `Response` (bench/profile.ts). */
  readonly #fetchText: TextFetch['sendText'] | undefined;
  readonly #maxResponseBytes: number;
  readonly #shared = new SharedAnswers();
  /** Signatures of calls without a body, by method and URL (a deterministic HMAC of those two). */
  readonly #signatures = new Map<string, string>();

  constructor(options: TransportOptions) {
    this.#apiKey = options.apiKey;
    this.#secretKey = options.secretKey;
    this.#platform = options.platform;
    const custom = options.fetch ?? options.platform.defaultFetch();
    // A node fetch takes a JSON or empty call as it is, and answers its text (no `Request` or
    // `Response` built: they cost CPU on every proxied answer); a multipart one goes as a `Request`.
    this.#fetchText = custom && textEntryOf(custom);
    // The global fetch gets the signal in its own init: undici does not reliably abort the
    // socket for a signal that only rides inside a `Request` it is handed.
    this.#fetch = custom ? (href, init) => custom(new Request(href, init)) : (href, init) => fetch(href, init);
    this.#maxResponseBytes = options.maxResponseBytes;
  }

  /** Signs and sends `call`, and reads its answer: the value it resolves to, or a typed error. */
  async send(call: Call, timeoutMs: number): Promise<unknown> {
    const { operation, method, href, body, options } = call;
    const callerSignal = options?.signal;
    if (callerSignal?.aborted) throw new MerchantNetworkError(operation, 'aborted by the caller', { aborted: true });
    const headers: Record<string, string> = { accept: call.answerType };
    let signature = '';
    if (call.signing !== 'public') {
      // Exactly the URL that goes on the wire, and the JSON text exactly as sent. A call without
      // a body signs method + URL only, the same every time: its signature is made once.
      const bodyless = body === undefined;
      const key = `${method} ${href}`;
      signature =
        (bodyless ? this.#signatures.get(key) : undefined) ??
        (await this.#platform.hmac(
          'SHA-1',
          this.#secretKey,
          stringToSign({ method, url: href, body: call.signing === 'json' ? body : undefined }),
        ));
      if (bodyless && !this.#signatures.has(key)) remember(this.#signatures, key, signature, SIGNATURES);
      headers['x-identity'] = this.#apiKey;
      headers['x-signature'] = signature;
    }
    // A FormData body gets its Content-Type (with the boundary) from the runtime.
    if (typeof body === 'string') headers['content-type'] = 'application/json';
    // The caller may have gone while the request was signed.
    if (callerSignal?.aborted)
      throw new MerchantNetworkError(operation, 'aborted by the caller', { cause: callerSignal.reason, aborted: true });
    const answer =
      this.#fetchText && !(body instanceof FormData)
        ? await this.#sendText(call, headers, timeoutMs, callerSignal)
        : await this.#sendFetch(call, headers, timeoutMs, callerSignal);
    const redact = redactor([this.#secretKey, this.#apiKey, signature]);
    const refused = refusal(call, answer, redact);
    if (refused) throw refused;
    return this.#shared.read(call, answer.status, answer.text, redact);
  }

  /** The answer's size over `maxResponseBytes`, as the error of a readable status. */
  #tooLarge(call: Call, status: number): MerchantResponseError {
    return new MerchantResponseError(call.operation, status, [{ field: '', message: `answer exceeds ${this.#maxResponseBytes} bytes` }]);
  }

  /**
   * One call through the node fetch's text entry: no `Request`, `Response`, web stream or
   * `AbortController` (bench/profile.ts): the caller's signal and the time limit go to the
   * request itself, which closes its socket on either.
   */
  async #sendText(call: Call, headers: Record<string, string>, timeoutMs: number, signal: AbortSignal | undefined): Promise<RawAnswer> {
    try {
      const init = { method: call.method, headers, body: call.body as string | undefined, signal, timeoutMs };
      const answer = await this.#fetchText!(call.url ?? call.href, init, this.#maxResponseBytes);
      return { status: answer.status, location: answer.header('location'), text: answer.text };
    } catch (error) {
      if (error instanceof BodyTooLargeError) throw this.#tooLarge(call, (error as BodyTooLargeError & { status?: number }).status ?? 0);
      throw failure(call, error, error instanceof UpstreamDeadlineError, timeoutMs, signal?.aborted === true);
    }
  }

  /** One call through a `fetch`: the answer's status, its `Location` and its text within the size limit and the time limit. */
  async #sendFetch(
    call: Call,
    headers: Record<string, string>,
    timeoutMs: number,
    callerSignal: AbortSignal | undefined,
  ): Promise<RawAnswer> {
    const controller = new AbortController();
    const { signal } = controller;
    const timer = setTimeout(() => controller.abort(new TimeoutSignal()), timeoutMs);
    const onCallerAbort = () => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    const failed = (error: unknown) => failure(call, error, signal.reason instanceof TimeoutSignal, timeoutMs, signal.aborted);
    try {
      let response: Response;
      try {
        // Raced with the signal too: a `fetch` that ignores its signal (an in-process handler)
        // must not outlive the timeout.
        response = await abortable(
          this.#fetch(call.href, {
            method: call.method,
            headers: new Headers(headers),
            body: call.body ?? null,
            signal,
            redirect: 'manual',
          }),
          signal,
        );
      } catch (error) {
        throw failed(error);
      }
      if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
        await response.body?.cancel().catch(() => undefined);
        return { status: response.status, redirect: true, location: response.headers.get('location') ?? undefined, text: '' };
      }
      try {
        return { status: response.status, text: await readTextLimited(response, this.#maxResponseBytes, { signal }) };
      } catch (error) {
        if (error instanceof BodyTooLargeError) throw this.#tooLarge(call, response.status);
        throw failed(error);
      }
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    }
  }
}
