/**
 * Reading bodies with a size limit and an abort signal: the one way the client (answers), the
 * checkout proxy and the notification receiver (requests) and the mock (requests) read text.
 * Fetch API only, no Node module.
 */

/**
 * How a Fetch handler says what request bodies it accepts, so that an adapter in front of it
 * (`toNodeHandler`, `createNodeServer`) lets those in rather than its own smaller default:
 * the checkout proxy declares its upload cap and deadline.
 */
export const REQUEST_LIMITS: unique symbol = Symbol.for('merchant-checkout.request-limits');

/** What a handler accepts: the largest body (bytes) and how long its slowest body may take to arrive (ms). */
export interface RequestLimits {
  maxBodyBytes: number;
  bodyTimeoutMs: number;
}

/** `handler`, declaring `limits` (see {@link REQUEST_LIMITS}). */
export const declareRequestLimits = <H extends object>(handler: H, limits: RequestLimits): H & { [REQUEST_LIMITS]: RequestLimits } =>
  Object.assign(handler, { [REQUEST_LIMITS]: limits });

/** The limits `handler` declared, if it did. */
export const requestLimitsOf = (handler: unknown): RequestLimits | undefined => {
  const limits = (
    typeof handler === 'function' || (typeof handler === 'object' && handler !== null)
      ? (handler as { [REQUEST_LIMITS]?: unknown })[REQUEST_LIMITS]
      : undefined
  ) as Partial<RequestLimits> | undefined;
  return typeof limits?.maxBodyBytes === 'number' && typeof limits.bodyTimeoutMs === 'number'
    ? { maxBodyBytes: limits.maxBodyBytes, bodyTimeoutMs: limits.bodyTimeoutMs }
    : undefined;
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
 * that this module does not import the Node adapter.
 */
const isAdapterTooLarge = (error: unknown): boolean =>
  error instanceof Error &&
  (error.name === 'PayloadTooLargeError' || (error.cause instanceof Error && error.cause.name === 'PayloadTooLargeError'));

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
 */
export const readChunks = async (
  message: Request | Response,
  limit: number,
  options: ReadTextOptions,
  take: (chunk: Uint8Array) => void,
): Promise<void> => {
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
    throw isAdapterTooLarge(error) ? new BodyTooLargeError(limit) : error;
  } finally {
    clearTimeout(timer);
  }
};

/**
 * A request's or answer's body as UTF-8 text, refusing more than `limit` bytes without
 * buffering them: a declared `Content-Length` over the limit before reading, a streamed body
 * as soon as it grows past it (also when `toNodeHandler`'s cap errors the stream). Throws
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
