/**
 * `createNodeFetch`: a `fetch` for `MerchantClient` built on `node:http`/`node:https` with
 * keep-alive agents. The global `fetch` (undici) works everywhere and stays the default; on
 * Node this one costs less CPU per upstream call (bench/proxy.ts: the proxy's CPU per answer
 * 600 → 491 µs), and upstream calls are most of what the checkout proxy does.
 *
 *   new MerchantClient({ baseUrl, apiKey, secretKey, fetch: createNodeFetch() })
 *
 * The Node modules are looked up when it is called (`process.getBuiltinModule`, Node ≥ 20.16),
 * not imported, so `merchant-checkout/server` still loads in edge runtimes.
 */
import type * as Http from 'node:http';
import type * as Https from 'node:https';
import { nodeStream } from './node-stream.js';

type IncomingMessage = Http.IncomingMessage;

const builtin = <T>(id: string): T => {
  const module = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(id);
  if (!module) throw new TypeError(`createNodeFetch needs Node ≥ 20.16 (process.getBuiltinModule('${id}'))`);
  return module as T;
};

/** Options of {@link createNodeFetch}. */
export interface NodeFetchOptions {
  /** Most open connections per upstream host (default 64); idle ones are kept alive and reused. */
  maxSockets?: number;
  /** How long an idle connection is kept, in ms (default 4000: below common servers' 5 s idle timeout). */
  keepAliveMsecs?: number;
}

/** The answer's body as a web stream; a reader that cancels ends the answer's connection. */
const bodyStream = (answer: IncomingMessage): ReadableStream<Uint8Array> =>
  nodeStream(answer, {
    cut: () => Object.assign(new Error('the answer was cut before its end'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }),
    onCancel: 'destroy',
  });

/** The answer's headers as `[name, value]` pairs for `new Response`: one copy, into undici's own list. */
const headerPairs = (answer: IncomingMessage): [string, string][] => {
  const pairs: [string, string][] = [];
  for (const name in answer.headers) {
    const value = answer.headers[name];
    if (value === undefined) continue;
    if (typeof value === 'string') pairs.push([name, value]);
    else for (const item of value) pairs.push([name, item]);
  }
  return pairs;
};

/** The request's headers as a plain object, the form `http.request` takes. */
const headerObject = (headers: Headers): Record<string, string> => {
  const object: Record<string, string> = {};
  headers.forEach((value, name) => {
    object[name] = value;
  });
  return object;
};

/**
 * A `fetch` for the `MerchantClient` on Node, over `node:http` and `node:https` with keep-alive
 * agents: a request that is aborted or times out closes its socket at once, which the global
 * `fetch` does not promise. `MerchantClient` uses one by default on Node.
 */
export const createNodeFetch = (options: NodeFetchOptions = {}): NodeFetch => {
  const http = builtin<typeof Http>('node:http');
  const https = builtin<typeof Https>('node:https');
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets ?? 64,
    timeout: options.keepAliveMsecs ?? 4000,
    scheduling: 'lifo' as const,
  };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent(agentOptions);

  /** One request over the agents: the whole of what a `Request` would carry, without building one. */
  const send = (target: string, init: RawInit): Promise<Response> => {
    const url = new URL(target);
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') return Promise.reject(new TypeError(`createNodeFetch: unsupported protocol ${url.protocol}`));
    const { signal, body } = init;
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<Response>((resolve, reject) => {
      const headers = headerObject(init.headers);
      // `Headers` has no header named twice (`set-cookie` aside, which a request does not send).
      if (body !== undefined) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
      const outgoing = (secure ? https.request : http.request)(
        url,
        { method: init.method, headers, agent: secure ? httpsAgent : httpAgent, ...(signal ? { signal } : {}) },
        (answer) => {
          const status = answer.statusCode ?? 502;
          const empty = status === 204 || status === 304 || init.method === 'HEAD';
          if (empty) answer.resume();
          resolve(new Response(empty ? null : bodyStream(answer), { status, statusText: answer.statusMessage ?? '', headers: headerPairs(answer) }));
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  };

  const nodeFetch = async (request: Request): Promise<Response> =>
    send(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body ? new Uint8Array(await request.arrayBuffer()) : undefined,
      signal: request.signal,
    });
  return Object.assign(nodeFetch, { [SEND]: send });
};

/** What {@link MerchantClient} hands the node fetch directly: a JSON or empty body (multipart goes through a `Request`). */
export interface RawInit {
  method: string;
  headers: Headers;
  body?: string | Uint8Array | undefined;
  signal?: AbortSignal | undefined;
}

/** The direct entry of a `createNodeFetch()` function, for a caller that has no `Request` to build. */
export const SEND: unique symbol = Symbol('merchant-checkout.nodeFetch.send');
export type NodeFetch = ((request: Request) => Promise<Response>) & { [SEND]: (url: string, init: RawInit) => Promise<Response> };
