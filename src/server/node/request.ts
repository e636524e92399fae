/**
 * The Node adapter's stand-ins for `Request`, `Headers` and `Response` (src/server/node/adapter.ts):
 * objects that behave as the real ones (`instanceof` holds, every member works) but are made
 * only as far as a request needs; the real one is made on first use of anything else.
 */
import type { IncomingMessage } from 'node:http';
import { markAdapterRequest, type AdapterKnows } from '../http/runtime-seam.js';

/** Node's parsed headers as a real `Headers`. */
export const toHeaders = (req: Pick<IncomingMessage, 'headers'>): Headers => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
};

/**
 * Node's parsed headers as a real `Request` takes them: the object itself when each value is one
 * string under a name a `Headers` takes (every HTTP/1.1 request but one that repeats
 * `Set-Cookie`), else a real `Headers`. A `Headers` made first is copied again, name by name and
 * sorted, by the request that takes it (bench/profile.ts).
 */
export const headersInit = (req: Pick<IncomingMessage, 'headers'>): Headers | Record<string, string> => {
  for (const name in req.headers) {
    if (typeof req.headers[name] !== 'string' || name.startsWith(':')) return toHeaders(req);
  }
  return req.headers as Record<string, string>;
};

/**
 * The `Request` a GET or HEAD is handed as: the method, URL, headers and signal are its own
 * (the headers made on first use); every other member, and undici's internal slots that
 * `new Request(request)` and `fetch(request)` read, come from a real `Request` made on first
 * use. A real one for every request was the largest cost of this adapter (bench/profile.ts):
 * given a `signal`, undici makes a second `AbortSignal` that follows it and registers the
 * request with a finalization registry.
 */
export class NodeRequest implements AdapterKnows {
  readonly #url: URL;
  readonly #href: string;
  readonly #method: string;
  readonly #incoming: IncomingMessage;
  readonly #signal: AbortSignal;
  #headers: Headers | undefined;
  #native: Request | undefined;

  constructor(url: URL, method: string, incoming: IncomingMessage, signal: AbortSignal) {
    // NodeHeaders and NodeTextResponse are made only through a NodeRequest.
    standInOnce();
    this.#url = url;
    this.#href = url.href;
    this.#method = method;
    this.#incoming = incoming;
    this.#signal = signal;
    markAdapterRequest(this, this);
  }

  get url(): string {
    return this.#href;
  }

  /** The path of `url`, from the URL the adapter parsed (the seam's `requestPath`). */
  get pathname(): string {
    return this.#url.pathname;
  }

  /** A text answer the adapter writes without a body stream (the seam's `textAnswer`). */
  textAnswer(text: string, status: number, headers: Headers): Response {
    return nodeTextAnswer(text, status, headers);
  }

  get method(): string {
    return this.#method;
  }

  get headers(): Headers {
    return (this.#headers ??= new NodeHeaders(this.#incoming) as unknown as Headers);
  }

  get signal(): AbortSignal {
    return this.#signal;
  }

  /** The real `Request`, made once. */
  native(): Request {
    return (this.#native ??= new Request(this.#href, { method: this.#method, headers: this.headers, signal: this.#signal }));
  }
}

/**
 * The headers of a request of {@link toNodeHandler}: `get` and `has` read Node's parsed
 * headers as they are; every other member (iteration, `set`, `append`, …) works on a real
 * `Headers` made on first use, which `get` and `has` read from then on. A real one made for
 * every request, to read its `Origin` and `Content-Length`, was a cost of each answer
 * (bench/profile.ts).
 */
class NodeHeaders {
  readonly #incoming: IncomingMessage;
  #native: Headers | undefined;

  constructor(incoming: IncomingMessage) {
    this.#incoming = incoming;
  }

  get(name: string): string | null {
    if (this.#native) return this.#native.get(name);
    const key = String(name).toLowerCase();
    const value = key.startsWith(':') ? undefined : this.#incoming.headers[key];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  /** The real `Headers`, made once. */
  native(): Headers {
    return (this.#native ??= toHeaders(this.#incoming));
  }
}

/**
 * Makes `light` (a class with a `native()` method) stand in for instances of `Native`: every
 * member of `Native.prototype` it does not define itself, and the symbols `Native`'s instances
 * carry (undici's internal state, which `new Request(request)`, `fetch(request)` and
 * `new Response(body, response)` read), are delegated to the real object `native()` makes on
 * first use; `instanceof Native` holds.
 */
const standIn = (light: { prototype: object }, Native: { prototype: object }, sample: object): void => {
  type Members = Record<PropertyKey, unknown>;
  type WithNative = { native(): Members };
  const own = new Set<PropertyKey>(Object.getOwnPropertyNames(light.prototype));
  const members = Object.getOwnPropertyDescriptors(Native.prototype) as Record<PropertyKey, PropertyDescriptor>;
  // Symbol-keyed methods too (`Headers.prototype[Symbol.iterator]`), which check their receiver.
  for (const name of Reflect.ownKeys(members)) {
    const descriptor = members[name]!;
    if (own.has(name)) continue;
    if (descriptor.get) {
      Object.defineProperty(light.prototype, name, {
        get(this: WithNative) {
          return this.native()[name];
        },
        configurable: true,
      });
    } else if (typeof descriptor.value === 'function') {
      Object.defineProperty(light.prototype, name, {
        value(this: WithNative, ...args: unknown[]) {
          const native = this.native() as Record<PropertyKey, (...args: unknown[]) => unknown>;
          return native[name]!(...args);
        },
        configurable: true,
        writable: true,
      });
    }
  }
  const inspect = Symbol.for('nodejs.util.inspect.custom');
  for (const symbol of [...Object.getOwnPropertySymbols(sample), inspect]) {
    Object.defineProperty(light.prototype, symbol, {
      get(this: WithNative) {
        const native = this.native();
        const value = native[symbol];
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(native) : value;
      },
      configurable: true,
    });
  }
  Object.setPrototypeOf(light.prototype, Native.prototype);
};

/**
 * A text answer to a request that came through {@link toNodeHandler}: the status, headers and
 * text are its own, and the adapter writes the text as it is; every other member (`body`,
 * `text()`, `clone()`, …) comes from a real `Response` made on first use. `new Response(text)`
 * made a body stream (on Node 20 also made transferable) that the adapter never reads: a
 * tenth of the proxy's CPU per answer (bench/profile.ts). Made by `NodeRequest.textAnswer` only for
 * a request {@link toNodeHandler} made, so nothing else ever holds one.
 */
export class NodeTextResponse {
  readonly #text: string;
  readonly #status: number;
  readonly #headers: Headers;
  #native: Response | undefined;

  constructor(text: string, status: number, headers: Headers) {
    this.#text = text;
    this.#status = status;
    this.#headers = headers;
  }

  get status(): number {
    return this.#status;
  }

  get ok(): boolean {
    return this.#status >= 200 && this.#status < 300;
  }

  get statusText(): string {
    return '';
  }

  get headers(): Headers {
    return this.#native?.headers ?? this.#headers;
  }

  /** The text to write, while no real `Response` was made (whose body someone may have read). */
  untouched(): string | undefined {
    return this.#native ? undefined : this.#text;
  }

  /** The real `Response`, made once (with the headers as they are then). */
  native(): Response {
    return (this.#native ??= new Response(this.#text, { status: this.#status, headers: this.#headers }));
  }
}

/**
 * A {@link NodeTextResponse}: the answer to any request the adapter made, its own stand-in or
 * (where a stand-in cannot pass for a request: Node 24 and later) a real one it adopted.
 * Unlike a request, a response is never brand-checked by what a handler does with it
 * (`new Response(answer.body, answer)` reads its members), so the stand-in works on every line.
 */
export const nodeTextAnswer = (text: string, status: number, headers: Headers): Response => {
  standInOnce();
  return new NodeTextResponse(text, status, headers) as unknown as Response;
};

let stoodIn = false;
let standInsPass: boolean | undefined;

/**
 * Whether a stand-in passes for a real `Request` on this Node: undici up to Node 22 keeps a
 * request's state under symbols, which the stand-in hands on (`new Request(standIn)` reads them);
 * from Node 24 it keeps it in private fields, which no stand-in can have (`new Request(standIn)`
 * throws there), so the adapter hands real requests. Asked at the first request.
 */
export const standInsWork = (): boolean =>
  (standInsPass ??= Object.getOwnPropertySymbols(new Request('http://localhost/')).some((symbol) => symbol.description === 'state'));

/**
 * Makes the stand-ins, once, when the first request arrives rather than at import: a runtime
 * that bundles this module without using it (workerd refuses a `Request` or `Response` made in
 * a module's global scope) can import the server entry.
 */
const standInOnce = (): void => {
  if (stoodIn) return;
  stoodIn = true;
  standIn(NodeRequest, Request, new Request('http://localhost/'));
  standIn(NodeHeaders, Headers, new Headers());
  standIn(NodeTextResponse, Response, new Response(''));
};
