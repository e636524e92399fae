/**
 * Server-Sent Events read from a `fetch` body rather than through `EventSource`, which hides
 * comments from script: the proxy's `: heartbeat` comments are how a page tells a live stream
 * from one a mobile network dropped without a word
 * (docs/ARCHITECTURE.md, "The checkout protocol"). Parsing follows the HTML standard's event-stream rules: lines end in CR, LF or
 * CRLF (also across chunks), a blank line dispatches, `:` starts a comment, unknown fields
 * are ignored. Pure: no DOM, no network.
 */

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
