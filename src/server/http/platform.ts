/**
 * What the kit asks of the runtime it runs on, chosen once by the entry a shop imports (the
 * way stripe-node's entries hand its core a platform object): the Node entry
 * (`src/server/node.ts`, the `node` export condition of `merchant-checkout/server`) passes Node's
 * (`node/platform.ts`: `node:crypto`'s synchronous HMAC, the keep-alive `fetch`), every other
 * runtime gets {@link webPlatform} (Web Crypto, the global `fetch`). Nothing here runs when the
 * module is imported, and nothing asks at call time which runtime this is.
 *
 * A runtime without something the kit needs (timers, a streaming body, Web Crypto's HMAC) is
 * refused when a client or the kit is made, naming what is missing ({@link requireRuntime}),
 * never at the first payment.
 */
import { remember } from '../remember.js';
import type { UpstreamFetch } from './runtime-seam.js';

/** The hashes the kit's HMACs use: SHA-1 signs the service's requests, SHA-256 checkout tokens. */
export type HmacHash = 'SHA-1' | 'SHA-256';

/** The runtime's HMAC and `fetch`, as the kit uses them. */
export interface ServerPlatform {
  /** What errors call it: `'node'` or `'web'`. */
  readonly name: string;
  /** Base64 of HMAC(`hash`, `key`, `text`), synchronously where the runtime's HMAC is. */
  hmac(hash: HmacHash, key: string, text: string): string | Promise<string>;
  /** Whether `mac` is HMAC(`hash`, `key`, `text`), compared in constant time. */
  verifyHmac(hash: HmacHash, key: string, text: string, mac: Uint8Array<ArrayBuffer>): boolean | Promise<boolean>;
  /** The `fetch` of a `MerchantClient` given none; undefined: the global `fetch`. */
  defaultFetch(): UpstreamFetch | undefined;
}

/** What the kit may need of a runtime, and how an error names it. */
const FEATURES = {
  timers: {
    what: 'timers (setTimeout and clearTimeout)',
    has: (scope: Scope) => typeof scope.setTimeout === 'function' && typeof scope.clearTimeout === 'function',
  },
  streams: { what: 'a streaming body (ReadableStream)', has: (scope: Scope) => typeof scope.ReadableStream === 'function' },
  hmac: {
    what: 'Web Crypto HMAC (crypto.subtle)',
    has: (scope: Scope) => {
      const subtle = scope.crypto?.subtle;
      return typeof subtle?.importKey === 'function' && typeof subtle.sign === 'function' && typeof subtle.verify === 'function';
    },
  },
  fetch: { what: 'fetch', has: (scope: Scope) => typeof scope.fetch === 'function' },
} as const;

/** Something the kit needs of the runtime. */
export type RuntimeFeature = keyof typeof FEATURES;

/** The globals the checks read. */
interface Scope {
  setTimeout?: unknown;
  clearTimeout?: unknown;
  ReadableStream?: unknown;
  fetch?: unknown;
  crypto?: { subtle?: { importKey?: unknown; sign?: unknown; verify?: unknown } };
}

/**
 * Throws a `TypeError` naming every feature of `needs` the runtime lacks, in `who`'s name
 * (`createCheckoutServer needs timers (setTimeout and clearTimeout), which this runtime does
 * not have`). `scope` is the global scope, or a stand-in in tests.
 */
export const requireRuntime = (who: string, needs: readonly RuntimeFeature[], scope: object = globalThis): void => {
  const missing = needs.filter((need) => !FEATURES[need].has(scope as Scope)).map((need) => FEATURES[need].what);
  if (missing.length > 0) throw new TypeError(`${who} needs ${missing.join(' and ')}, which this runtime does not have`);
};

const encoder = new TextEncoder();

/** Base64 of bytes, as `btoa` takes them. */
export const toBase64 = (bytes: Uint8Array): string => {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
};

// Importing a key costs more than the HMAC itself; a merchant has a handful of secrets at
// most, so the imported keys are kept, bounded in case secrets are rotated often.
const MAX_CACHED_KEYS = 32;
type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/**
 * The Web platform of the runtime's globals (`scope`): Web Crypto's HMAC, the global `fetch`.
 * Throws when `scope` has no `crypto.subtle` ({@link requireRuntime}).
 */
export const webPlatformOf = (scope: object): ServerPlatform => {
  requireRuntime('merchant-checkout/server', ['hmac'], scope);
  const subtle = (scope as { crypto: typeof crypto }).crypto.subtle;
  const keys = new Map<string, Promise<HmacKey>>();
  const keyOf = (hash: HmacHash, secret: string): Promise<HmacKey> => {
    const name = `${hash}\n${secret}`;
    let key = keys.get(name);
    if (!key) {
      key = subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash }, false, ['sign', 'verify']);
      remember(keys, name, key, MAX_CACHED_KEYS);
    }
    return key;
  };
  return {
    name: 'web',
    hmac: async (hash, key, text) => toBase64(new Uint8Array(await subtle.sign('HMAC', await keyOf(hash, key), encoder.encode(text)))),
    verifyHmac: async (hash, key, text, mac) => subtle.verify('HMAC', await keyOf(hash, key), mac, encoder.encode(text)),
    defaultFetch: () => undefined,
  };
};

let web: ServerPlatform | undefined;

/** The Web platform of this runtime (made on first use, then shared: its imported keys with it). */
export const webPlatform = (): ServerPlatform => (web ??= webPlatformOf(globalThis));
