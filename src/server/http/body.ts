/**
 * Reading bodies with a size limit and an abort signal: the one way the client (answers), the
 * checkout proxy and the notification receiver (requests) and the mock (requests) read text.
 * Fetch API only, no Node module.
 */

/**
 * How a reader tells the runtime adapter that made a request (`toNodeHandler`) the cap and
 * deadline it reads the body with: a function the adapter puts on the `Request` it makes, which
 * {@link readChunks} calls before it reads (every route of the kit, the receiver and the mock
 * read through it). So a route keeps its own limits whatever function of the shop's sits in
 * front of it, and the adapter's own (1 MiB, 30 s) hold only for a body read without any. A
 * `new Request(…)` made from the adapter's does not carry it: reading that copy falls back to
 * the adapter's limits, and a 413 says which.
 */
export const BODY_LIMITS: unique symbol = Symbol.for('merchant-checkout.body-limits');

/** What a reader announces through {@link BODY_LIMITS}: its cap in bytes, and how long it waits for the body (ms), if it has a deadline. */
export interface BodyLimits {
  maxBodyBytes: number;
  bodyTimeoutMs: number | undefined;
}

/** The adapter's side of {@link BODY_LIMITS}: takes the reader's limits and answers the cap that holds (the adapter's own `maxBodyBytes` option may be lower). */
export type AnnounceBodyLimits = (limits: BodyLimits) => number;

/** Tells the adapter that made `message` (if one did) the limits it is read with; answers the cap that holds. */
const announce = (message: Request | Response, limit: number, timeoutMs: number | undefined): number => {
  const adapter = (message as { [BODY_LIMITS]?: unknown })[BODY_LIMITS];
  return typeof adapter === 'function'
    ? Math.min(limit, (adapter as AnnounceBodyLimits)({ maxBodyBytes: limit, bodyTimeoutMs: timeoutMs }))
    : limit;
};

/** A body that declared or grew past its limit; nothing more than the limit was kept. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  readonly limit: number;
  constructor(limit: number) {
    super(`body exceeds ${limit} bytes`);
    this.limit = limit;
  }
}

/** The declared `Content-Length`, 0 when absent, `Infinity` when it is not a plain number. */
export const declaredLength = (message: Request | Response): number => {
  const header = message.headers.get('content-length');
  if (header === null) return 0;
  return /^\d{1,15}$/.test(header.trim()) ? Number(header) : Number.POSITIVE_INFINITY;
};

/**
 * The size error of `toNodeHandler`'s own body cap, told by its name (also as a `cause`), so
 * that this module does not import the Node adapter: its limit, or undefined for any other error.
 */
const adapterLimit = (error: unknown): number | undefined => {
  const refusal = error instanceof Error && error.name !== 'PayloadTooLargeError' ? error.cause : error;
  if (!(refusal instanceof Error) || refusal.name !== 'PayloadTooLargeError') return undefined;
  const limit = (refusal as { limit?: unknown }).limit;
  return typeof limit === 'number' ? limit : undefined;
};

/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts. */
export const abortable = <T>(promise: Promise<T>, signal: AbortSignal): Promise<T> => {
  if (signal.aborted) {
    // Nobody waits for `promise` any more; its own rejection (fetch rejects with the same
    // abort reason) must not go unhandled, which would end the whole process.
    promise.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
};

export interface ReadTextOptions {
  /** Stops reading (rejecting with its reason) when it aborts, even if the stream hangs. */
  signal?: AbortSignal;
  /** Refuse bytes that are not UTF-8 (a `TypeError`) instead of replacing them. */
  fatal?: boolean;
  /**
   * Stops reading when the whole body has not arrived this many milliseconds after reading
   * began, rejecting with a `TimeoutError` `DOMException`: a body trickled in slowly cannot
   * hold the reader for ever. Without it there is no deadline.
   */
  timeoutMs?: number;
}

/**
 * Reads `message`'s body chunk by chunk into `take`, refusing more than `limit` bytes and
 * stopping at `options.signal` or `options.timeoutMs` (see {@link readTextLimited}). The reader
 * is canceled on any failure (`take` throwing included), so a body nobody wants is not read on.
 * The limit and deadline are announced first to the adapter that made a request
 * ({@link BODY_LIMITS}); a lower cap of the adapter's is the one a {@link BodyTooLargeError} names.
 */
export const readChunks = async (
  message: Request | Response,
  requested: number,
  options: ReadTextOptions,
  take: (chunk: Uint8Array) => void,
): Promise<void> => {
  const limit = announce(message, requested, options.timeoutMs);
  if (declaredLength(message) > limit) {
    await message.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(limit);
  }
  if (!message.body) return;
  const reader = message.body.getReader();
  let size = 0;
  let signal = options.signal;
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (options.timeoutMs !== undefined) {
    const deadline = new AbortController();
    const ms = options.timeoutMs;
    timer = setTimeout(() => deadline.abort(new DOMException(`body not received within ${ms} ms`, 'TimeoutError')), ms);
    signal = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
  }
  try {
    for (;;) {
      const chunk = await (signal ? abortable(reader.read(), signal) : reader.read());
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > limit) throw new BodyTooLargeError(limit);
      take(chunk.value);
    }
  } catch (error) {
    void reader.cancel().catch(() => undefined);
    const refusedAt = adapterLimit(error);
    throw refusedAt === undefined ? error : new BodyTooLargeError(refusedAt);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * A request's or answer's body as UTF-8 text, refusing more than `limit` bytes without
 * buffering them: a declared `Content-Length` over the limit before reading, a streamed body
 * as soon as it grows past it (also when `toNodeHandler`'s cap errors the stream: its limit is
 * the one named). Throws
 * {@link BodyTooLargeError} for the size, a `TimeoutError` past `timeoutMs`; anything else the
 * stream or decoder throws as is. A body left unread is canceled.
 */
export const readTextLimited = async (message: Request | Response, limit: number, options: ReadTextOptions = {}): Promise<string> => {
  const decoder = new TextDecoder('utf-8', { fatal: options.fatal ?? false });
  let text = '';
  await readChunks(message, limit, options, (chunk) => {
    text += decoder.decode(chunk, { stream: true });
  });
  return text + decoder.decode();
};

/**
 * A body's bytes (a multipart upload), with the same limit, deadline and failures as
 * {@link readTextLimited}: at most `limit` bytes are ever held, and reading stops (the stream
 * canceled) at the first byte too many, at the deadline or when `signal` aborts.
 */
export const readBytesLimited = async (
  message: Request | Response,
  limit: number,
  options: Omit<ReadTextOptions, 'fatal'> = {},
): Promise<Uint8Array> => {
  const chunks: Uint8Array[] = [];
  let size = 0;
  await readChunks(message, limit, options, (chunk) => {
    chunks.push(chunk);
    size += chunk.byteLength;
  });
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
};
