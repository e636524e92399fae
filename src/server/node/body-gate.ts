/**
 * One request's body as `toNodeHandler` hands it to the handler: a web stream of the Node
 * request held to a cap and a deadline. Whoever reads it with limits of its own (`readChunks`:
 * every route of the kit, the receiver, the mock) announces them through `BODY_LIMITS` on the
 * request (body.ts), and they replace the adapter's, whatever function of the shop's sits in
 * front: a body limit belongs to the route. Reading that announces none is held to the
 * adapter's own (1 MiB, 30 s); the adapter's `maxBodyBytes` option, when given, also caps what a
 * route announces. Past the deadline the adapter answers 408 itself (or drops the connection
 * once an answer went out), as `node:http`'s `requestTimeout` would: every body has one.
 */
import type { IncomingMessage } from 'node:http';
import type { BodyLimits } from '../http/body.js';
import { nodeStream } from './stream.js';

/** Error of a request body stream that grew past the size limit. */
export class PayloadTooLargeError extends Error {
  /** The class's name, for logs. */
  override name = 'PayloadTooLargeError';
  /** The limit that was exceeded, in bytes. */
  readonly limit: number;
  constructor(limit: number) {
    super(`request body exceeds ${limit} bytes`);
    this.limit = limit;
  }
}

/** How much longer than a route's own deadline the adapter waits, so that the route's own 408 answers first. */
const GRACE_MS = 5000;

/** The limits a body starts with: the adapter's cap (`hard`: its option, which a route cannot raise) and deadline. */
export interface GateLimits {
  maxBodyBytes: number;
  hard: boolean;
  bodyTimeoutMs: number;
}

export class BodyGate {
  /** The body as the handler reads it. */
  readonly stream: ReadableStream<Uint8Array>;
  /** The cap the adapter refused the body at, if it did. */
  tooLargeAt: number | undefined;
  #cap: number;
  readonly #hard: number | undefined;
  #received = 0;
  #deadline = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #abort = new AbortController();
  readonly #req: IncomingMessage;
  readonly #onTimeout: (message: string) => void;

  /** `onTimeout` is told when the deadline passed with the body not yet arrived (the stream is ended with a `TimeoutError` already). */
  constructor(req: IncomingMessage, limits: GateLimits, onTimeout: (message: string) => void) {
    this.#req = req;
    this.#onTimeout = onTimeout;
    this.#cap = limits.maxBodyBytes;
    this.#hard = limits.hard ? limits.maxBodyBytes : undefined;
    this.stream = nodeStream(req, {
      cut: () => new Error('the request was aborted before its body ended'),
      check: (bytes) => {
        this.#received += bytes;
        if (this.#received <= this.#cap) return undefined;
        this.tooLargeAt = this.#cap;
        return new PayloadTooLargeError(this.#cap);
      },
      onCancel: 'drain',
      signal: this.#abort.signal,
    });
    this.#arm(limits.bodyTimeoutMs);
    // The body arrived (read, or drained after the answer) or the connection is gone: no deadline left.
    const done = () => this.#disarm();
    req.once('end', done);
    req.once('close', done);
  }

  /** A reader's own limits (`BODY_LIMITS`): they replace the adapter's; answers the cap that holds. */
  readonly announce = (limits: BodyLimits): number => {
    this.#cap = this.#hard === undefined ? limits.maxBodyBytes : Math.min(this.#hard, limits.maxBodyBytes);
    if (limits.bodyTimeoutMs !== undefined && this.#timer !== undefined) {
      const wanted = limits.bodyTimeoutMs + GRACE_MS;
      if (Date.now() + wanted > this.#deadline) this.#arm(wanted);
    }
    return this.#cap;
  };

  #arm(ms: number): void {
    clearTimeout(this.#timer);
    this.#deadline = Date.now() + ms;
    this.#timer = setTimeout(() => this.#expire(ms), ms);
    this.#timer.unref();
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #expire(ms: number): void {
    this.#timer = undefined;
    if (this.#req.complete) return;
    const message = `the request body did not arrive within ${ms} ms`;
    this.#abort.abort(new DOMException(message, 'TimeoutError'));
    this.#onTimeout(message);
  }
}
