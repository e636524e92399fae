/**
 * `createNodeFetch`: a `fetch` for `MerchantClient` built on `node:http`/`node:https` with
 * keep-alive agents. The global `fetch` (undici) works everywhere and stays the default; on
 * Node this one costs less CPU per upstream call (bench/proxy.ts: the proxy's CPU per answer
 * 600 → 491 µs), and upstream calls are most of what the checkout proxy does.
 *
 *   new MerchantClient({ baseUrl, apiKey, secretKey, fetch: createNodeFetch() })
 *
 * Node-only: exported by the Node entry (`src/server/node.ts`) alone, so the runtime-neutral
 * entry that edge runtimes load never names `node:http`.
 */
import * as Http from 'node:http';
import * as Https from 'node:https';
import process from 'node:process';
import { BodyTooLargeError } from '../http/body.js';
import { checkOptions, type OptionShapeOf } from '../options-check.js';
import { UpstreamDeadlineError, type TextAnswer, type TextCall, type TextFetch } from '../http/runtime-seam.js';
import { nodeStream } from './stream.js';

type IncomingMessage = Http.IncomingMessage;

/** Options of {@link createNodeFetch}. */
export interface NodeFetchOptions {
  /** Most open connections per upstream host (default 64); idle ones are kept alive and reused. */
  maxSockets?: number;
  /** How long an idle connection is kept, in ms (default 4000: below common servers' 5 s idle timeout). */
  keepAliveMsecs?: number;
}

/** The keys `createNodeFetch` takes (options-check.ts). */
const NODE_FETCH_OPTIONS = { maxSockets: true, keepAliveMsecs: true } as const satisfies OptionShapeOf<NodeFetchOptions>;

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
export const createNodeFetch = (options: NodeFetchOptions = {}): TextFetch => {
  checkOptions('createNodeFetch', options, NODE_FETCH_OPTIONS);
  const http = Http;
  const https = Https;
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets ?? 64,
    timeout: options.keepAliveMsecs ?? 4000,
    scheduling: 'lifo' as const,
  };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent(agentOptions);

  /**
   * Starts one request over the agents, the whole of what a `Request` would carry without
   * building one; `onAnswer` gets the answer's head, `reject` every failure before it.
   */
  const start = (
    target: string | URL,
    init: RawInit,
    reject: (error: Error) => void,
    onAnswer: (answer: IncomingMessage, empty: boolean) => void,
    /** Leave `init.signal` to the caller, which destroys the request itself when it aborts. */
    ownSignal = false,
  ): Http.ClientRequest | undefined => {
    const url = typeof target === 'string' ? new URL(target) : target;
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') return void reject(new TypeError(`createNodeFetch: unsupported protocol ${url.protocol}`));
    const { body } = init;
    const signal = ownSignal ? undefined : init.signal;
    if (init.signal?.aborted) return void reject(init.signal.reason as Error);
    const headers = init.headers instanceof Headers ? headerObject(init.headers) : { ...init.headers };
    // `Headers` has no header named twice (`set-cookie` aside, which a request does not send).
    if (body !== undefined) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    const outgoing = (secure ? https.request : http.request)(
      url,
      { method: init.method, headers, agent: secure ? httpsAgent : httpAgent, ...(signal ? { signal } : {}) },
      (answer) => {
        const status = answer.statusCode ?? 502;
        const empty = status === 204 || status === 304 || init.method === 'HEAD';
        if (empty) answer.resume();
        onAnswer(answer, empty);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
    return outgoing;
  };

  const send = (target: string | URL, init: RawInit): Promise<Response> =>
    new Promise<Response>((resolve, reject) =>
      start(target, init, reject, (answer, empty) => {
        resolve(
          new Response(empty ? null : bodyStream(answer), {
            status: answer.statusCode ?? 502,
            statusText: answer.statusMessage ?? '',
            headers: headerPairs(answer),
          }),
        );
      }),
    );

  /**
   * The answer read whole into text, with no `Response` and no web stream: what the client
   * does with every JSON answer (bench/profile.ts: the stream and the `Response` of each
   * upstream answer were a tenth of the proxy's CPU on Node 20). At most `maxBytes` bytes: a
   * declared or received length over it rejects with a {@link BodyTooLargeError} carrying the
   * status, and the connection is closed.
   */
  const sendText = (target: string | URL, init: TextCall, maxBytes: number): Promise<TextAnswer> =>
    new Promise<TextAnswer>((settled, failed) => {
      // One timer for the whole call, rather than an `AbortController` of its own: at
      // `timeoutMs` the request is destroyed (its socket closed) and the call rejects with an
      // {@link UpstreamDeadlineError}. The caller's signal gets one listener that does the
      // same, rather than `http.request`'s `signal` option (bench/profile.ts: its stream
      // plumbing was 2 KB of garbage per call).
      let timer: ReturnType<typeof setTimeout> | undefined;
      const { signal } = init;
      const onAbort = () => {
        outgoing?.destroy(signal!.reason as Error);
        reject(signal!.reason as Error);
      };
      const resolve = (answer: TextAnswer) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        settled(answer);
      };
      const reject = (error: Error) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        failed(error);
      };
      const outgoing = start(
        target,
        init,
        reject,
        (answer, empty) => {
          const status = answer.statusCode ?? 502;
          const header = (name: string): string | undefined => {
            const value = answer.headers[name];
            return Array.isArray(value) ? value.join(', ') : value;
          };
          const tooLarge = () => {
            answer.destroy();
            reject(Object.assign(new BodyTooLargeError(maxBytes), { status }));
          };
          if (empty) return resolve({ status, header, text: '' });
          const declared = answer.headers['content-length'];
          if (declared !== undefined && Number(declared) > maxBytes) return tooLarge();
          const chunks: Buffer[] = [];
          let size = 0;
          answer.on('data', (chunk: Buffer) => {
            size += chunk.byteLength;
            if (size > maxBytes) tooLarge();
            else chunks.push(chunk);
          });
          answer.on('end', () => {
            const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)).toString('utf8');
            // As `TextDecoder` reads it: a byte-order mark is no part of the text.
            resolve({ status, header, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text });
          });
          answer.on('error', reject);
          answer.on('close', () => {
            if (!answer.complete)
              reject(Object.assign(new Error('the answer was cut before its end'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
          });
        },
        true,
      );
      if (!outgoing) return;
      signal?.addEventListener('abort', onAbort, { once: true });
      if (init.timeoutMs !== undefined) {
        const ms = init.timeoutMs;
        timer = setTimeout(() => {
          const error = new UpstreamDeadlineError(ms);
          outgoing.destroy(error);
          failed(error);
        }, ms);
      }
    });

  const nodeFetch = async (request: Request): Promise<Response> =>
    send(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body ? new Uint8Array(await request.arrayBuffer()) : undefined,
      signal: request.signal,
    });
  return Object.assign(nodeFetch, { sendText });
};

/** One request as the node fetch sends it: from a `Request`, or handed directly (a JSON or empty body). */
type RawInit = Omit<TextCall, 'timeoutMs'>;

let shared: TextFetch | undefined;

/**
 * The `fetch` a client uses on Node when given none (the Node platform's, node/platform.ts):
 * one shared `createNodeFetch()` on Node, whose
 * aborted calls close their sockets at once (Node's global fetch, undici, completes the
 * connects that were under way when the abort came and keeps them idle for 4 s: 200 timed-out
 * calls left 200 sockets open on the service 2 s later) and which costs less CPU per call;
 * under Deno or Bun (which also load Node entry points) the global `fetch`.
 */
export const nodeDefaultFetch = (): TextFetch | undefined => {
  const versions = process.versions as NodeJS.ProcessVersions & { bun?: string; deno?: string };
  if (versions.bun || versions.deno) return undefined;
  return (shared ??= createNodeFetch());
};
