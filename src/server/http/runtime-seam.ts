/**
 * The one seam between the runtime-neutral kit (proxy, receiver, client) and a runtime's
 * adapter (docs/ARCHITECTURE.md, "The server kit", Adapters): the neutral code speaks Web
 * `Request`/`Response` and asks only what is declared here; `src/server/node/` implements it
 * for `node:http` and only Node entry points import that folder. A runtime without an adapter
 * gets the plain Web behaviour of each function.
 *
 * - A request an adapter made (its own stand-in, or a real `Request` where a stand-in cannot
 *   pass for one: Node 24 and later) carries what the adapter knows of it under one symbol
 *   ({@link markAdapterRequest}): the path it parsed already ({@link requestPath}) and a text
 *   answer it writes without a body stream ({@link textAnswer}).
 * - The client's upstream `fetch` may be a {@link TextFetch}: a direct entry that sends a JSON or
 *   empty call and reads the answer whole into text, with no `Request` or `Response`
 *   ({@link textEntryOf}). Which `fetch` a client uses when given none is the platform's
 *   (platform.ts), chosen by the entry.
 */

/** What an adapter knows of a request it made, which the kit would otherwise work out again (bench/profile.ts). */
export interface AdapterKnows {
  /** The path of the request's URL, as the adapter parsed it. */
  readonly pathname: string;
  /** An answer of `text` that behaves as `new Response(text, { status, headers })` and that the adapter writes as it is. */
  textAnswer(text: string, status: number, headers: Headers): Response;
}

/** Where a request an adapter made carries what the adapter knows of it. */
const ADAPTER_KNOWS = Symbol('merchant-checkout.adapter-knows');

type Marked = { readonly [ADAPTER_KNOWS]?: AdapterKnows };

/**
 * Marks `request`, which an adapter made (a real `Request`, or a stand-in marking itself in its
 * constructor), with what the adapter knows of it: an own property, which lives and dies with the
 * request.
 */
export const markAdapterRequest = (request: object, knows: AdapterKnows): void => {
  (request as { [ADAPTER_KNOWS]?: AdapterKnows })[ADAPTER_KNOWS] = knows;
};

/** The path of `request`'s URL; for a request an adapter made, without parsing its URL again. */
export const requestPath = (request: Request): string => (request as Marked)[ADAPTER_KNOWS]?.pathname ?? new URL(request.url).pathname;

/**
 * `new Response(text, { status, headers })`, or for a request an adapter made, its own answer
 * that behaves as one and that it writes without a body stream.
 */
export const textAnswer = (request: Request | undefined, text: string, status: number, headers: Headers): Response => {
  const knows = (request as Marked | undefined)?.[ADAPTER_KNOWS];
  return knows ? knows.textAnswer(text, status, headers) : new Response(text, { status, headers });
};

/** A `fetch` as `MerchantClient` takes one. */
export type UpstreamFetch = (request: Request) => Promise<Response>;

/** One JSON or empty call as a {@link TextFetch} sends it directly, without a `Request`. */
export interface TextCall {
  method: string;
  headers: Headers | Record<string, string>;
  body?: string | Uint8Array | undefined;
  signal?: AbortSignal | undefined;
  /** Milliseconds the call may take, its answer read to the end included. */
  timeoutMs?: number | undefined;
}

/** An answer read whole by {@link TextFetch.sendText}: its status, its headers by lower-case name, its body as text. */
export interface TextAnswer {
  status: number;
  header: (name: string) => string | undefined;
  text: string;
}

/** The rejection of a {@link TextFetch.sendText} call past its `timeoutMs` (its connection is closed). */
export class UpstreamDeadlineError extends Error {
  override name = 'UpstreamDeadlineError';
  constructor(ms: number) {
    super(`no complete answer within ${ms} ms`);
  }
}

/**
 * A `fetch` with a direct entry for a caller that has no `Request` to build and wants the
 * answer's text: `MerchantClient`'s JSON and empty calls (bench/profile.ts: the `Request`, the
 * `Response` and the body stream of each upstream call were a tenth of the proxy's CPU).
 * `createNodeFetch()` is one.
 */
export interface TextFetch extends UpstreamFetch {
  /**
   * Sends `call` to `url` and reads the answer whole into text, at most `maxBytes` bytes (more
   * rejects with a `BodyTooLargeError` carrying the status). Past `call.timeoutMs` it rejects
   * with an {@link UpstreamDeadlineError}; when `call.signal` aborts, with its reason.
   */
  readonly sendText: (url: string | URL, call: TextCall, maxBytes: number) => Promise<TextAnswer>;
}

/** The direct text entry of `fetch`, when it is a {@link TextFetch}. */
export const textEntryOf = (fetch: UpstreamFetch): TextFetch['sendText'] | undefined => (isTextFetch(fetch) ? fetch.sendText : undefined);

const isTextFetch = (fetch: UpstreamFetch): fetch is TextFetch => 'sendText' in fetch && typeof fetch.sendText === 'function';
