/**
 * Request signing of the merchant API (the service's documentation, "Authorization"):
 * `X-Signature = base64(HMAC-SHA1(secretKey, METHOD + fullUrl + jsonBody))`.
 *
 * Web Crypto, so the same code runs in Node ≥ 20, Deno, Bun and edge runtimes; where the
 * runtime offers `node:crypto` (Node ≥ 20.16, Deno, Bun) its HMAC computes the same digest.
 */
import { remember } from '../remember.js';

/**
 * A request to sign for the merchant API: `X-Signature = base64(HMAC-SHA1(secretKey, METHOD +
 * fullUrl + jsonBody))` (the service's documentation, "Authorization").
 */
export interface SignableRequest {
  /** HTTP method; upper-cased before signing (`get` and `GET` sign alike, as they are sent alike). */
  method: string;
  /** The full request URL exactly as sent: scheme, host (with port), path and any query. */
  url: string | URL;
  /**
   * The body exactly as sent. Only JSON text (a string) is part of the signed string; a
   * `FormData` (multipart) body or no body signs method + URL only.
   */
  body?: string | FormData | null | undefined;
}

const encoder = new TextEncoder();

// Importing a key costs more than the HMAC itself; a merchant has a handful of secrets at
// most, so the imported keys are kept, bounded in case secrets are rotated often.
const MAX_CACHED_KEYS = 32;
type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;
const keyCache = new Map<string, Promise<HmacKey>>();

const importKey = (secretKey: string): Promise<HmacKey> => {
  let key = keyCache.get(secretKey);
  if (!key) {
    key = crypto.subtle.importKey('raw', encoder.encode(secretKey), { name: 'HMAC', hash: 'SHA-1' }, false, ['sign', 'verify']);
    remember(keyCache, secretKey, key, MAX_CACHED_KEYS);
  }
  return key;
};

/** What this module needs of `node:crypto`. */
export interface NodeCrypto {
  createHmac(
    algorithm: 'sha1' | 'sha256',
    key: string,
  ): { update(text: string, encoding: 'utf8'): { digest(encoding: 'base64'): string; digest(): Uint8Array } };
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}

/**
 * `node:crypto` where the runtime has it, looked up without importing it (so nothing changes
 * for bundlers and edge runtimes). Its HMAC runs synchronously: Web Crypto's goes through the
 * thread pool and a promise per call, which made signing the largest single cost of a
 * proxied request (bench/proxy.ts).
 */
export const nodeCrypto = (): NodeCrypto | undefined => {
  const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const crypto = runtime?.getBuiltinModule?.('node:crypto') as Partial<NodeCrypto> | undefined;
  return typeof crypto?.createHmac === 'function' && typeof crypto.timingSafeEqual === 'function' ? (crypto as NodeCrypto) : undefined;
};

/** The exact text that is signed: method, full URL and, for a JSON text body, the body. */
export const stringToSign = ({ method, url, body }: SignableRequest): string =>
  `${method.toUpperCase()}${String(url)}${typeof body === 'string' ? body : ''}`;

const toBase64 = (bytes: Uint8Array): string => {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
};

/** Base64 of the raw HMAC-SHA1 digest of the request; the value of `X-Signature`. */
export const signRequest = async (request: SignableRequest, secretKey: string): Promise<string> => {
  if (typeof secretKey !== 'string' || secretKey.length === 0) {
    throw new TypeError('signRequest: secretKey must be a non-empty string');
  }
  const node = nodeCrypto();
  if (node) return node.createHmac('sha1', secretKey).update(stringToSign(request), 'utf8').digest('base64');
  const key = await importKey(secretKey);
  const digest = await crypto.subtle.sign('HMAC', key, encoder.encode(stringToSign(request)));
  return toBase64(new Uint8Array(digest));
};

/**
 * Checks a signature in constant time (Web Crypto's `verify` compares the digests itself).
 * Anything that is not the canonical Base64 of the 20-byte digest is simply not a match.
 */
export const verifySignature = async (
  request: SignableRequest,
  signature: string | null | undefined,
  secretKey: string,
): Promise<boolean> => {
  if (!signature || !secretKey) return false;
  let given: Uint8Array<ArrayBuffer>;
  try {
    given = Uint8Array.from(atob(signature), (char) => char.charCodeAt(0));
  } catch {
    return false;
  }
  // `atob` ignores the unused low bits of the last character, so several texts decode to the
  // same digest; only the canonical Base64 text is the signature.
  if (toBase64(given) !== signature) return false;
  const node = nodeCrypto();
  if (node) {
    const expected = node.createHmac('sha1', secretKey).update(stringToSign(request), 'utf8').digest();
    // The length of an HMAC-SHA1 digest is no secret; timingSafeEqual wants equal lengths.
    return given.byteLength === expected.byteLength && node.timingSafeEqual(given, expected);
  }
  const key = await importKey(secretKey);
  return crypto.subtle.verify('HMAC', key, given, encoder.encode(stringToSign(request)));
};
