/**
 * Server-Sent Events read from a `fetch` body rather than through `EventSource`, which hides
 * comments from script: the proxy's `: heartbeat` comments are how a page tells a live stream
 * from one a mobile network dropped without a word
 * (docs/ARCHITECTURE.md, "The checkout protocol"). Parsing follows the HTML standard's
 * event-stream rules: lines end in CR, LF or CRLF (also across chunks), a blank line
 * dispatches, `:` starts a comment, unknown fields are ignored. Loaded on demand with the
 * first stream (the CDN chunk `merchant-checkout-sse.js`); `fetch` is the one the protocol
 * client hands it.
 */
import { slotsFor } from './stream-slots.js';

/**
 * Where a stream reports to: the protocol client's `watch` handlers, declared here so that
 * this chunk imports nothing back from the client that loads it.
 */
export interface EventStreamHandlers {
  data: (data: unknown) => void;
  error: (error: unknown) => void;
  /** Bytes arrived; `heartbeatMs` is the proxy's heartbeat period when the stream states it. */
  alive: (heartbeatMs?: number) => void;
}

/** One dispatched event: its `event:` type (`message` when none) and its joined `data:` lines. */
export interface SseMessage {
  type: string;
  data: string;
}

export interface SseSink {
  event: (message: SseMessage) => void;
  /** A comment line, without its leading `:` and one space. */
  comment: (text: string) => void;
}

/**
 * No line of the protocol comes near this (an invoice event is a few KB): a stream that sends
 * more without a line break is garbage, and keeping it would grow without bound.
 */
export const MAX_SSE_LINE = 256 * 1024;

/** Parses an event stream fed in text chunks; throws on a line longer than {@link MAX_SSE_LINE}. */
export class SseParser {
  readonly #sink: SseSink;
  #buffer = '';
  #type = '';
  #data: string[] = [];
  /** The last chunk ended in CR: an LF opening the next one belongs to the same line break. */
  #afterCr = false;

  constructor(sink: SseSink) {
    this.#sink = sink;
  }

  push(chunk: string): void {
    let text = chunk;
    if (this.#afterCr && text.startsWith('\n')) text = text.slice(1);
    this.#afterCr = false;
    this.#buffer += text;
    const lines = this.#buffer.split(/\r\n|\r|\n/);
    this.#buffer = lines.pop() ?? '';
    this.#afterCr = text.endsWith('\r');
    if (this.#buffer.length > MAX_SSE_LINE) throw new Error(`an event stream line is longer than ${MAX_SSE_LINE} characters`);
    for (const line of lines) this.#line(line);
  }

  #line(line: string): void {
    if (line === '') {
      if (this.#data.length) this.#sink.event({ type: this.#type || 'message', data: this.#data.join('\n') });
      this.#type = '';
      this.#data = [];
      return;
    }
    if (line.startsWith(':')) {
      this.#sink.comment(line.slice(line.startsWith(': ') ? 2 : 1));
      return;
    }
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'event') this.#type = value;
    else if (name === 'data') this.#data.push(value);
    // `id` and `retry` are EventSource's own reconnection, which the element does itself.
  }
}

/** The heartbeat period a `heartbeat 15000` comment states, `undefined` for a bare `heartbeat` or another comment. */
export const heartbeatPeriod = (comment: string): number | undefined => {
  const match = /^heartbeat(?: (\d{1,9}))?$/.exec(comment);
  return match?.[1] === undefined ? undefined : Number(match[1]);
};

/** What {@link readEventStream} needs of the protocol client. */
export interface EventStreamRequest {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  url: string;
  init: RequestInit;
  /** Milliseconds to wait for the answer's headers. */
  timeoutMs: number;
  parseJson: (text: string) => unknown;
}

/**
 * Reads one event stream: `handlers.alive` on the headers and every chunk (a heartbeat's
 * period with it), `handlers.data` for each `invoice` event, and `handlers.error` once, made
 * by `failure`, when it is refused, is not an event stream (an HTML page, a 204), sends
 * garbage, or ends. Never reconnects by itself: the element decides when to try again.
 */
export const readEventStream = async (
  request: EventStreamRequest,
  handlers: EventStreamHandlers,
  signal: AbortSignal,
  failure: (message: string, status?: number) => Error,
): Promise<void> => {
  if (signal.aborted) return;
  const connect = new AbortController();
  // Other tabs of this site in view may hold the host's streams (stream-slots.ts).
  let yielded = false;
  const slot = await slotsFor(request.url).claim(() => {
    yielded = true;
    connect.abort();
  });
  const fail = (message: string, status?: number) => {
    slot?.release();
    if (!signal.aborted) handlers.error(failure(yielded ? "the event stream gave its place to another tab's" : message, status));
  };
  if (!slot) return fail('other tabs of this site hold its event streams');
  if (signal.aborted) return slot.release();
  const timer = setTimeout(() => connect.abort(), request.timeoutMs);
  const abort = () => connect.abort();
  signal.addEventListener('abort', abort, { once: true });
  let response: Response;
  try {
    response = await request.fetch(request.url, { ...request.init, signal: connect.signal });
  } catch {
    signal.removeEventListener('abort', abort);
    return fail(connect.signal.aborted ? `the event stream did not answer within ${request.timeoutMs} ms` : 'the event stream failed');
  } finally {
    clearTimeout(timer);
  }
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!response.ok || response.status === 204 || type !== 'text/event-stream' || !response.body) {
    signal.removeEventListener('abort', abort);
    void response.body?.cancel().catch(() => undefined);
    return fail(
      response.ok ? `not an event stream (HTTP ${response.status}, ${type || 'no type'})` : `HTTP ${response.status}`,
      response.status,
    );
  }
  handlers.alive();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let failed = false;
  const parser = new SseParser({
    event: ({ type: name, data }) => {
      if (name !== 'invoice' || failed) return;
      const parsed = request.parseJson(data);
      if (parsed === undefined) {
        failed = true;
        fail('an event is not JSON');
      } else handlers.data(parsed);
    },
    comment: (text) => handlers.alive(heartbeatPeriod(text)),
  });
  try {
    while (!failed && !signal.aborted) {
      const { done, value } = await reader.read();
      if (done) return fail('the event stream ended');
      handlers.alive();
      try {
        parser.push(decoder.decode(value, { stream: true }));
      } catch (error) {
        return fail(error instanceof Error ? error.message : 'the event stream is garbled');
      }
    }
  } catch {
    if (!failed) fail('the event stream failed');
  } finally {
    slot.release();
    signal.removeEventListener('abort', abort);
    void reader.cancel().catch(() => undefined);
  }
};
