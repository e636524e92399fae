/**
 * `toNodeHandler`: runs a Fetch-style handler (`(Request) => Promise<Response>`) inside
 * `node:http`, Connect or Express. The request body is streamed to the handler held to the cap
 * and deadline of the route that reads it (body-gate.ts); the answer is streamed back with
 * backpressure; a payer who goes away aborts the request's `signal`, so upstream work stops too.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { BODY_LIMITS } from '../http/body.js';
import { markAdapterRequest } from '../http/runtime-seam.js';
import { BodyGate, PayloadTooLargeError } from './body-gate.js';
import { NodeRequest, NodeTextResponse, headersInit, nodeTextAnswer, standInsWork, toHeaders } from './request.js';
import type { FetchHandler } from '../handler.js';
import { checkOptions, type OptionShapeOf } from '../options-check.js';

export type { FetchHandler };

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /**
   * Largest request body accepted, in bytes, whatever the route reading it takes: a declared
   * `Content-Length` over it is answered 413 without calling the handler, and a streamed body
   * that grows past it errors the body stream the handler reads. Without it each body is held
   * to the cap of the route that reads it (the kit's routes say theirs: a 10 MiB receipt, 16 KiB
   * of JSON), whatever function of yours sits in front, and to 1 MiB when read without a cap
   * (`await request.text()`). A 413 says the limit that refused the body (`maxBytes`).
   */
  maxBodyBytes?: number;
  /**
   * How long a request body may take to arrive when the code reading it sets no deadline of its
   * own, or nobody reads it, in ms (default 30 000): past it the adapter answers 408 (or closes
   * the connection once an answer went out). A route that sets its own deadline (every route of
   * the kit: an upload's `uploadTimeoutMs`, 120 s) is held to that one instead.
   */
  bodyTimeoutMs?: number;
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

/** The keys `toNodeHandler` takes (options-check.ts). */
const NODE_HANDLER_OPTIONS = {
  maxBodyBytes: true,
  bodyTimeoutMs: true,
  basePath: true,
  trustProxy: true,
} as const satisfies OptionShapeOf<NodeHandlerOptions>;

type NextFunction = (error?: unknown) => void;
type ExpressRequest = IncomingMessage & { originalUrl?: string };

/** The body limit of {@link toNodeHandler} for a body read without a cap of its own: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** How long {@link toNodeHandler} waits for a body whose reader has no deadline of its own: 30 s. */
export const DEFAULT_NODE_BODY_TIMEOUT_MS = 30_000;

export { PayloadTooLargeError };

/**
 * An error answer of the adapter's own. `close`: the rest of the request is not read (the
 * connection is closed once the answer is out). A 413 carries the limit that refused the body
 * (`maxBytes`), which the element shows the payer.
 */
const jsonError = (res: ServerResponse, status: number, code: string, message: string, close = false, maxBytes?: number): void => {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: { code, message, ...(maxBytes === undefined ? {} : { maxBytes }) } });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(body);
};

/** A body declared larger than this is refused at once; a smaller one is drained first (below). */
const DRAIN_MAX_BYTES = 32 * 1024 * 1024;
/** How long a refused body may take to drain before the refusal goes out anyway. */
const DRAIN_MS = 10_000;

/**
 * The 413 of a body refused for its size. Firefox and WebKit drop an answer that comes before
 * their upload was sent whole and report a lost connection (the payer read "check your
 * connection" instead of the limit), so the rest of the body is read and discarded first, for at
 * most `DRAIN_MS` and only when it is not declared past `DRAIN_MAX_BYTES`; then the refusal goes
 * out with the connection closed.
 */
const tooLarge = (req: IncomingMessage, res: ServerResponse, limit: number): void => {
  const send = () => jsonError(res, 413, 'payload_too_large', `request body exceeds ${limit} bytes`, true, limit);
  const declared = Number(req.headers['content-length']);
  if (req.complete || (Number.isFinite(declared) && declared > DRAIN_MAX_BYTES)) {
    send();
    req.resume();
    return;
  }
  let sent = false;
  const once = () => {
    if (sent) return;
    sent = true;
    clearTimeout(timer);
    send();
  };
  const timer = setTimeout(once, DRAIN_MS);
  timer.unref();
  req.once('end', once);
  req.once('close', once);
  req.resume();
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
const hasAmbiguousPath = (target: string): boolean => AMBIGUOUS_PATH.test(target);
/** In the path (before `?` or `#`): a backslash, or a segment of one or two dots, plain or `%2e`. */
const AMBIGUOUS_PATH = /^[^?#]*?(?:\\|(?:^|\/)(?:\.|%2e){1,2}(?:[/?#]|$))/i;

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

/**
 * Undici's internal state of a `Response`, whose `body.source` is the string or bytes the
 * response was made from (`new Response(text)`, `Response.json(…)`); found by its symbol's
 * description, as `@hono/node-server` did. Only read; every answer it does not describe
 * exactly goes through the body stream.
 */
let responseState: symbol | undefined | null = null;
/** Looked up at the first answer, not at import: workerd refuses a `Response` made in a module's global scope. */
const stateSymbol = (): symbol | undefined =>
  responseState === null
    ? (responseState = Object.getOwnPropertySymbols(new Response('')).find((symbol) => symbol.description === 'state'))
    : responseState;

/** The text or bytes a response was made from and their length in bytes, while its stream is untouched; otherwise undefined. */
const bodySource = (response: Response): { source: string | Uint8Array; length: number } | undefined => {
  const responseState = stateSymbol();
  if (!responseState || response.bodyUsed || !response.body || response.body.locked) return undefined;
  const body = (response as unknown as Record<symbol, { body?: { source?: unknown; length?: unknown } | null } | undefined>)[responseState]
    ?.body;
  const source = body?.source;
  if (typeof source !== 'string' && !(source instanceof Uint8Array)) return undefined;
  const length = typeof source === 'string' ? Buffer.byteLength(source) : source.byteLength;
  return length === body?.length ? { source, length } : undefined;
};

/**
 * Writes a streamed body to `res` as it comes, waiting for `drain` when the socket is full;
 * cancels the body once `res` is gone. Holds only the reader and `res`: an open event stream
 * keeps nothing else of its request or answer alive.
 */
const pipeBody = (reader: ReadableStreamDefaultReader<Uint8Array>, res: ServerResponse): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    const read = (): void => void reader.read().then(write, fail);
    const write = ({ done, value }: { done: boolean; value?: Uint8Array | undefined }): void => {
      if (done) {
        if (!res.destroyed) res.end();
        resolve();
      } else if (res.destroyed) {
        reader.cancel().catch(() => undefined);
        resolve();
      } else if (res.write(value)) {
        read();
      } else {
        const resume = () => {
          res.off('drain', resume);
          res.off('close', resume);
          read();
        };
        res.on('drain', resume);
        res.on('close', resume);
      }
    };
    const fail = (error: unknown): void => {
      if (res.destroyed) reader.cancel().catch(() => undefined);
      else res.end();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    read();
  });

const sendResponse = (response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> | undefined => {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  const text = response instanceof NodeTextResponse ? response.untouched() : undefined;
  if (text !== undefined && req.method !== 'HEAD') {
    headers['content-length'] ??= String(Buffer.byteLength(text));
    res.writeHead(response.status, headers);
    res.end(text);
    return undefined;
  }
  if (!response.body || req.method === 'HEAD') {
    res.writeHead(response.status, response.statusText || undefined, headers);
    res.end();
    return response.body?.cancel().catch(() => undefined);
  }
  // A body made from a string or bytes (every JSON answer) is written as it is, with its
  // length, in one write with the headers: no reader, no chunked framing (bench/proxy.ts).
  const whole = bodySource(response);
  if (whole) {
    if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined)
      headers['content-length'] = String(whole.length);
    res.writeHead(response.status, response.statusText || undefined, headers);
    res.end(whole.source);
    return undefined;
  }
  res.writeHead(response.status, response.statusText || undefined, headers);
  // Headers, a first chunk that is already there and the end go out in one write, not three
  // (bench/proxy.ts: socket writes were the largest cost of a proxied request). A body that
  // streams in later is written as it comes.
  res.cork();
  process.nextTick(() => res.uncork());
  return pipeBody(response.body.getReader(), res);
};

/**
 * Calls the handler, answers with what it answers; a failure goes to `next` or is a 500. Apart
 * from the listener, so that no closure alive while an answer streams holds the request.
 */
const callHandler = (handler: FetchHandler, request: Request): Promise<Response> => Promise.resolve().then(() => handler(request));

const answer = (
  response: Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
  next: NextFunction | undefined,
  gate: BodyGate | undefined,
): void => {
  response
    .then((each) => {
      // Answered already: the body's deadline passed (408).
      if (res.writableEnded) return each.body?.cancel().catch(() => undefined);
      return sendResponse(each, req, res);
    })
    .catch((error: unknown) => {
      if (res.writableEnded) return;
      // The handler failed on the adapter's own refusal of the body: the adapter's 413, with its limit.
      if (gate?.tooLargeAt !== undefined) tooLarge(req, res, gate.tooLargeAt);
      else if (next) next(error);
      else jsonError(res, 500, 'internal_error', 'internal error');
    });
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
  checkOptions('toNodeHandler', options, NODE_HANDLER_OPTIONS);
  const hard = options.maxBodyBytes !== undefined;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_NODE_BODY_TIMEOUT_MS;
  if (!(bodyTimeoutMs > 0 && Number.isFinite(bodyTimeoutMs)))
    throw new TypeError('toNodeHandler: bodyTimeoutMs must be a positive number of milliseconds');
  const basePath = options.basePath?.replace(/\/+$/, '');
  const trustProxy = options.trustProxy ?? false;

  return (req: IncomingMessage, res: ServerResponse, next?: NextFunction): void => {
    const url = requestUrl(req, trustProxy);
    if (!url) {
      jsonError(res, 400, 'bad_request', 'malformed request target or Host, or a path with dot segments or backslashes', true);
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
    if (hard && Number.isFinite(declared) && declared > maxBodyBytes) {
      // Refused before the handler: the rest of the upload is drained, never handed on.
      tooLarge(req, res, maxBodyBytes);
      return;
    }

    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort(new Error('client closed the connection'));
    });

    const method = req.method ?? 'GET';
    let request: Request;
    let gate: BodyGate | undefined;
    if (method === 'GET' || method === 'HEAD') {
      if (standInsWork()) request = new NodeRequest(url, method, req, controller.signal) as unknown as Request;
      else {
        const real = new Request(url.href, { method, headers: headersInit(req), signal: controller.signal });
        // Held until the answer ends: its `signal` (undici's own, following `controller`) dies with it.
        res.once('close', () => void real.signal);
        // Its text answers are written whole all the same, and its path is not parsed again.
        markAdapterRequest(real, { pathname: url.pathname, textAnswer: nodeTextAnswer });
        request = real;
      }
      // Its body is nobody's: not waited for after the answer, however slowly it comes.
      if (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0) res.setHeader('connection', 'close');
    } else {
      const headers = toHeaders(req);
      const consumed = consumedBody(req);
      if (consumed !== undefined) {
        headers.delete('content-length');
        headers.delete('transfer-encoding');
        // Already in memory: only the cap given by hand refuses it here; a route checks its own.
        if (hard && Buffer.byteLength(consumed) > maxBodyBytes) {
          tooLarge(req, res, maxBodyBytes);
          return;
        }
      } else {
        gate = new BodyGate(req, { maxBodyBytes, hard, bodyTimeoutMs }, (message) => {
          if (!res.headersSent) jsonError(res, 408, 'request_timeout', message, true);
          else req.socket.destroy();
        });
      }
      try {
        // `duplex: 'half'` is required by Node's fetch for a streamed request body.
        const init: RequestInit & { duplex?: 'half' } = {
          method,
          headers,
          body: consumed ?? gate!.stream,
          signal: controller.signal,
          ...(gate ? { duplex: 'half' as const } : {}),
        };
        request = new Request(url, init);
        if (gate) Object.defineProperty(request, BODY_LIMITS, { value: gate.announce });
      } catch {
        jsonError(res, 400, 'bad_request', 'malformed request', true);
        req.resume();
        return;
      }
    }

    answer(callHandler(handler, request), req, res, next, gate);
  };
};

/** Options of {@link createNodeServer}: the handler's, and the server's deadlines. */
export interface NodeServerOptions extends NodeHandlerOptions {
  /** Time to receive a request's headers, in ms (default 10 000); a slower client is answered 408 and dropped. */
  headersTimeoutMs?: number;
  /**
   * Time to receive a whole request, in ms, whatever the route reading it waits: `node:http`'s
   * `requestTimeout`. Default: none of the server's own, since each body is held to the
   * deadline of the route that reads it (the kit's uploads: `uploadTimeoutMs`, 120 s, so that
   * its own 408 answers a slow upload, not a cut connection the browser would send again), and
   * to `bodyTimeoutMs` (30 s) when read without one or not read at all.
   */
  requestTimeoutMs?: number;
  /** How long an idle kept-alive connection stays open, in ms (default 5 000). */
  keepAliveTimeoutMs?: number;
}

/** The keys `createNodeServer` takes (options-check.ts). */
const NODE_SERVER_OPTIONS = {
  ...NODE_HANDLER_OPTIONS,
  headersTimeoutMs: true,
  requestTimeoutMs: true,
  keepAliveTimeoutMs: true,
} as const satisfies OptionShapeOf<NodeServerOptions>;

/**
 * A `node:http` server for a Fetch handler (through {@link toNodeHandler}) with deadlines a
 * public server needs: headers within 10 s, each body within the deadline of the route that
 * reads it (30 s when it has none, see `requestTimeoutMs`), idle connections
 * closed after 5 s, checked every second (Node's default check runs every 30 s, so a
 * slow-headers client could otherwise hold its socket for 40 s). A server you create yourself
 * should set `headersTimeout` and `keepAliveTimeout` alike, and a `requestTimeout` no shorter
 * than your slowest upload's deadline (or 0: `toNodeHandler` holds each body to one).
 *
 * ```ts
 * createNodeServer(checkout).listen(3000);
 * ```
 */
export const createNodeServer = (handler: FetchHandler, options: NodeServerOptions = {}): Server => {
  checkOptions('createNodeServer', options, NODE_SERVER_OPTIONS);
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, ...handlerOptions } = options;
  const server = createServer(
    {
      headersTimeout: headersTimeoutMs ?? 10_000,
      // The bodies' deadlines are the routes' (toNodeHandler): one of the server's own would cut a route's longer one.
      requestTimeout: requestTimeoutMs ?? 0,
      connectionsCheckingInterval: 1000,
    },
    toNodeHandler(handler, handlerOptions),
  );
  server.keepAliveTimeout = keepAliveTimeoutMs ?? 5000;
  return server;
};
