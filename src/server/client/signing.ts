/**
 * Request signing of the merchant API (the service's documentation, "Authorization"):
 * `X-Signature = base64(HMAC-SHA1(secretKey, METHOD + fullUrl + jsonBody))`.
 *
 * The HMAC is the platform's (http/platform.ts): Node's `node:crypto` through the Node entry,
 * Web Crypto elsewhere; both compute the same digest.
 */
import { toBase64, type ServerPlatform } from '../http/platform.js';

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

/** The exact text that is signed: method, full URL and, for a JSON text body, the body. */
export const stringToSign = ({ method, url, body }: SignableRequest): string =>
  `${method.toUpperCase()}${String(url)}${typeof body === 'string' ? body : ''}`;

/** `signRequest` and `verifySignature` with one platform's HMAC (http/platform.ts). */
export interface RequestSigning {
  /** Base64 of the raw HMAC-SHA1 digest of the request; the value of `X-Signature`. */
  readonly signRequest: (request: SignableRequest, secretKey: string) => Promise<string>;
  /**
   * Checks a signature in constant time. Anything that is not the canonical Base64 of the
   * 20-byte digest is simply not a match.
   */
  readonly verifySignature: (request: SignableRequest, signature: string | null | undefined, secretKey: string) => Promise<boolean>;
}

/**
 * Signing with the HMAC of the platform `platform()` answers, asked when a request is first
 * signed (the entries pass theirs: `merchant-checkout/server` Node's, or Web Crypto's).
 */
export const signingFor = (platform: () => ServerPlatform): RequestSigning => ({
  signRequest: async (request, secretKey) => {
    if (typeof secretKey !== 'string' || secretKey.length === 0) {
      throw new TypeError('signRequest: secretKey must be a non-empty string');
    }
    return platform().hmac('SHA-1', secretKey, stringToSign(request));
  },
  verifySignature: async (request, signature, secretKey) => {
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
    return platform().verifyHmac('SHA-1', secretKey, stringToSign(request), given);
  },
});
