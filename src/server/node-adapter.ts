/**
 * `toNodeHandler`: runs a Fetch-style handler (`(Request) => Promise<Response>`) inside
 * `node:http`, Connect or Express. The request body is streamed to the handler with a size
 * cap; the answer is streamed back with backpressure; a payer who goes away aborts the
 * request's `signal`, so upstream work stops too.
 */
import type * as Http from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** A handler over Web `Request` and `Response`, as every handler of the server kit is. */
export type FetchHandler = (request: Request) => Promise<Response> | Response;

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /**
   * Largest request body accepted, in bytes (default 1 MiB). A declared `Content-Length` over
   * it is answered 413 without calling the handler; a streamed body that grows past it errors
   * the body stream the handler reads.
   */
  maxBodyBytes?: number;
  /**
   * With Connect/Express `next`: only requests whose path starts with this prefix reach the
   * handler, the others go to `next()`. Without it every request is the handler's.
   */
  basePath?: string;
  /**
   * Build the request URL from `X-Forwarded-Proto` and `X-Forwarded-Host` (only behind a
   * proxy you trust). Default false: the socket's protocol and the `Host` header.
   */
  trustProxy?: boolean;
}

type NextFunction = (error?: unknown) => void;
type ExpressRequest = IncomingMessage & { originalUrl?: string };

/** The default body limit of {@link toNodeHandler}: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

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

const jsonError = (res: ServerResponse, status: number, code: string, message: string): void => {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: { code, message } });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
};

const firstHeader = (value: string | string[] | undefined): string | undefined =>
  (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim() || undefined;

/** A host name, IPv4 or bracketed IPv6 address, with an optional port: nothing that could move the path. */
const HOST_PATTERN = /^(?:[A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * A raw path with a dot segment (plain or percent-encoded) or a backslash. URL parsing would
 * quietly resolve them (`/a/../b` is `/b`, `\` is `/`), so the handler could never tell; a
 * browser never sends them, and another layer in front (a proxy, a firewall rule) may read
 * them differently, so they are refused before anyone interprets them.
 */
const hasAmbiguousPath = (target: string): boolean => {
  const path = target.split(/[?#]/, 1)[0] ?? '';
  if (path.includes('\\')) return true;
  return path.split('/').some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment));
};

/**
 * The full URL of the request, or undefined when it has none that makes sense (a `Host`
 * with a slash or `@` in it, an `OPTIONS *`, an unparsable target): such a request is a 400,
 * and never a thrown error inside the listener, which would end the process.
 */
const requestUrl = (req: ExpressRequest, trustProxy: boolean): URL | undefined => {
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const forwardedProto = trustProxy ? firstHeader(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const proto = forwardedProto === 'http' || forwardedProto === 'https' ? forwardedProto : encrypted ? 'https' : 'http';
  const host = (trustProxy && firstHeader(req.headers['x-forwarded-host'])) || req.headers.host || 'localhost';
  if (!HOST_PATTERN.test(host)) return undefined;
  // Express strips the mount prefix from `url` but keeps it in `originalUrl`.
  let target = req.originalUrl ?? req.url ?? '/';
  if (hasAmbiguousPath(target)) return undefined;
  if (!target.startsWith('/')) {
    // The absolute form (`GET http://host/path`, which HTTP/1.1 servers must accept): its path only.
    try {
      const absolute = new URL(target);
      if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:') return undefined;
      target = `${absolute.pathname}${absolute.search}`;
    } catch {
      return undefined;
    }
  }
  try {
    return new URL(`${proto}://${host}${target}`);
  } catch {
    return undefined;
  }
};

const toHeaders = (req: IncomingMessage): Headers => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
};

/** The request body as a web stream that errors once more than `limit` bytes arrive. */
const limitedBody = (req: IncomingMessage, limit: number): ReadableStream<Uint8Array> => {
  // Built by hand rather than with `Readable.toWeb`: a handler that cancels the body (it
  // answered without reading it) made `toWeb`'s controller throw ERR_INVALID_STATE on the next
  // chunk, an uncaught exception, and broke the kept-alive connection.
  let received = 0;
  let detach = (): void => undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const onData = (chunk: Buffer) => {
        received += chunk.byteLength;
        if (received > limit) {
          detach();
          controller.error(new PayloadTooLargeError(limit));
          req.resume();
          return;
        }
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) req.pause();
      };
      const onEnd = () => {
        detach();
        controller.close();
      };
      const onError = (error: Error) => {
        detach();
        controller.error(error);
      };
      const onClose = () => {
        if (req.readableEnded) return;
        detach();
        controller.error(new Error('the request was aborted before its body ended'));
      };
      detach = () => {
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onError);
        req.off('close', onClose);
      };
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', onError);
      req.on('close', onClose);
    },
    pull() {
      req.resume();
    },
    cancel() {
      // Nobody wants the rest: let it flow into nothing so the connection can be reused.
      detach();
      req.resume();
    },
  });
};

/**
 * The body when a parser that ran before (`express.json()`, `express.text()`…) already read
 * the stream, re-serialised from what it left in `req.body`; reading the ended stream again
 * would wait forever. Undefined when the stream is still unread.
 */
const consumedBody = (req: IncomingMessage): string | Uint8Array<ArrayBuffer> | undefined => {
  if (!req.readableEnded) return undefined;
  const body = (req as { body?: unknown }).body;
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return new Uint8Array(body);
  return JSON.stringify(body);
};

const sendResponse = async (response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> => {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  res.writeHead(response.status, response.statusText || undefined, headers);
  // Headers, a body that is already there and the end go out in one write, not three
  // (bench/proxy.ts: socket writes were the largest cost of a proxied request). A body that
  // streams in later is written as it comes.
  res.cork();
  process.nextTick(() => res.uncork());
  if (!response.body || req.method === 'HEAD') {
    res.end();
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const resume = () => {
            res.off('drain', resume);
            res.off('close', resume);
            resolve();
          };
          res.on('drain', resume);
          res.on('close', resume);
        });
      }
    }
  } finally {
    if (res.destroyed) await reader.cancel().catch(() => undefined);
    else res.end();
  }
};

/**
 * Adapts a Fetch handler to `(req, res, next?)`, the signature of `node:http`'s request
 * listener and of Connect and Express middleware.
 *
 * ```ts
 * http.createServer(toNodeHandler(handler)).listen(3000);
 * app.use('/checkout-api', toNodeHandler(handler)); // Express keeps the prefix in originalUrl
 * ```
 *
 * A handler that throws (or rejects) goes to `next(error)` when there is a `next`, and is
 * answered `500 {"error":{"code":"internal_error"}}` otherwise; its message is not sent.
 */
export const toNodeHandler = (handler: FetchHandler, options: NodeHandlerOptions = {}) => {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const basePath = options.basePath?.replace(/\/+$/, '');
  const trustProxy = options.trustProxy ?? false;

  return (req: IncomingMessage, res: ServerResponse, next?: NextFunction): void => {
    const url = requestUrl(req, trustProxy);
    if (!url) {
      jsonError(res, 400, 'bad_request', 'malformed request target or Host, or a path with dot segments or backslashes');
      req.resume();
      return;
    }
    if (next && basePath) {
      const path = url.pathname;
      if (path !== basePath && !path.startsWith(`${basePath}/`)) {
        next();
        return;
      }
    }

    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBodyBytes) {
      // Answer at once and drop the rest of the upload instead of reading it.
      res.setHeader('connection', 'close');
      jsonError(res, 413, 'payload_too_large', `request body exceeds ${maxBodyBytes} bytes`);
      req.resume();
      return;
    }

    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort(new Error('client closed the connection'));
    });

    const method = req.method ?? 'GET';
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const headers = toHeaders(req);
    const consumed = hasBody ? consumedBody(req) : undefined;
    if (consumed !== undefined) {
      headers.delete('content-length');
      headers.delete('transfer-encoding');
      if (Buffer.byteLength(consumed) > maxBodyBytes) {
        jsonError(res, 413, 'payload_too_large', `request body exceeds ${maxBodyBytes} bytes`);
        return;
      }
    }
    let request: Request;
    try {
      const streamed = hasBody && consumed === undefined;
      // `duplex: 'half'` is required by Node's fetch for a streamed request body.
      const init: RequestInit & { duplex?: 'half' } = {
        method,
        headers,
        body: consumed ?? (streamed ? limitedBody(req, maxBodyBytes) : null),
        signal: controller.signal,
        ...(streamed ? { duplex: 'half' as const } : {}),
      };
      request = new Request(url, init);
    } catch {
      jsonError(res, 400, 'bad_request', 'malformed request');
      req.resume();
      return;
    }

    Promise.resolve()
      .then(() => handler(request))
      .then((response) => sendResponse(response, req, res))
      .catch((error: unknown) => {
        if (next) next(error);
        else jsonError(res, 500, 'internal_error', 'internal error');
      });
  };
};

/** Options of {@link createNodeServer}: the handler's, and the server's deadlines. */
export interface NodeServerOptions extends NodeHandlerOptions {
  /** Time to receive a request's headers, in ms (default 10 000); a slower client is answered 408 and dropped. */
  headersTimeoutMs?: number;
  /** Time to receive a whole request, in ms (default 30 000). */
  requestTimeoutMs?: number;
  /** How long an idle kept-alive connection stays open, in ms (default 5 000). */
  keepAliveTimeoutMs?: number;
}

/**
 * A `node:http` server for a Fetch handler (through {@link toNodeHandler}) with deadlines a
 * public server needs: headers within 10 s, the whole request within 30 s, idle connections
 * closed after 5 s, checked every second (Node's default check runs every 30 s, so a
 * slow-headers client could otherwise hold its socket for 40 s). A server you create yourself
 * should set `headersTimeout`, `requestTimeout` and `keepAliveTimeout` alike; the handlers'
 * own body deadline (`bodyTimeoutMs`, 408) covers slow bodies either way.
 *
 * ```ts
 * createNodeServer(checkout).listen(3000);
 * ```
 */
export const createNodeServer = (handler: FetchHandler, options: NodeServerOptions = {}): Server => {
  const http = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:http') as
    | typeof Http
    | undefined;
  if (!http) throw new TypeError('createNodeServer needs Node ≥ 20.16 (process.getBuiltinModule)');
  const server = http.createServer(
    {
      headersTimeout: options.headersTimeoutMs ?? 10_000,
      requestTimeout: options.requestTimeoutMs ?? 30_000,
      connectionsCheckingInterval: 1000,
    },
    toNodeHandler(handler, options),
  );
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5000;
  return server;
};
