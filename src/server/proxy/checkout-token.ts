/**
 * Checkout tokens: a shop on any stack lets a page show one invoice by handing it a short-lived
 * token, an HMAC over the invoice id and an expiry with a secret the shop and the kit share.
 * Minting one is a few lines in any language:
 *
 *   token = "{invoiceId}.{expiresAt unix seconds}.{base64url(HMAC-SHA256(secret, "{invoiceId}.{expiresAt}"))}"
 *
 * The element sends it in `X-Checkout-Token`; the kit's `authorize` (`checkoutTokenAuthorizer`)
 * accepts a request for an invoice only with a token for exactly that invoice, not expired,
 * compared in constant time, with the platform's HMAC (http/platform.ts).
 */

import { CHECKOUT_TOKEN_HEADER } from '../../schemas/headers.js';
import type { ServerPlatform } from '../http/platform.js';
import { checkOptions, type OptionShapeOf } from '../options-check.js';

export { CHECKOUT_TOKEN_HEADER };

/** Why a token was refused. */
export type CheckoutTokenRefusal = 'missing' | 'malformed' | 'expired' | 'wrong_invoice' | 'bad_signature';

const base64url = (base64: string): string => base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

const fromBase64url = (text: string): Uint8Array<ArrayBuffer> | undefined => {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
};

const checkSecret = (secret: string) => {
  if (typeof secret !== 'string' || secret.length < 16)
    throw new TypeError('checkout tokens: the secret must be a string of at least 16 characters');
};

/** Checkout tokens made and checked with one platform's HMAC (http/platform.ts). */
export interface CheckoutTokens {
  /** A token for invoice `invoiceId` valid until `expiresAt` (a `Date` or epoch ms). */
  readonly signCheckoutToken: (secret: string, invoiceId: string, expiresAt: Date | number) => Promise<string>;
  /**
   * Whether `token` lets its bearer act on invoice `invoiceId` at `now` (epoch ms): true, or why
   * not. Every secret given is tried (a rotation), each in constant time.
   */
  readonly verifyCheckoutToken: (
    secrets: string | readonly string[],
    token: string | null | undefined,
    invoiceId: string,
    now?: number,
  ) => Promise<true | CheckoutTokenRefusal>;
  /**
   * An `authorize` hook for the kit: a request may touch an invoice only with a valid checkout
   * token for it in `X-Checkout-Token`. `onRefused` hears why one was refused (never the token).
   * A token whose signature was verified is remembered (at most 4,096, then
   * forgotten all at once), so a page's next reads cost no HMAC; its invoice and expiry are
   * checked on every request all the same.
   */
  readonly checkoutTokenAuthorizer: (
    secrets: string | readonly string[],
    options?: CheckoutTokenAuthorizerOptions,
  ) => (invoiceId: string, request: Request) => Promise<boolean>;
}

/** Checkout tokens with the HMAC of the platform `platform()` answers (the entries pass theirs). */
export const checkoutTokensFor = (platform: () => ServerPlatform): CheckoutTokens => {
  const signCheckoutToken: CheckoutTokens['signCheckoutToken'] = async (secret, invoiceId, expiresAt) => {
    checkSecret(secret);
    const seconds = Math.floor((typeof expiresAt === 'number' ? expiresAt : expiresAt.getTime()) / 1000);
    const id = invoiceId.toLowerCase();
    return `${id}.${seconds}.${base64url(await platform().hmac('SHA-256', secret, `${id}.${seconds}`))}`;
  };
  const verifyCheckoutToken: CheckoutTokens['verifyCheckoutToken'] = async (secrets, token, invoiceId, now = Date.now()) =>
    verifyToken(platform(), secrets, token, invoiceId, now);
  return {
    signCheckoutToken,
    verifyCheckoutToken,
    checkoutTokenAuthorizer: (secrets, options = {}) => authorizer(verifyCheckoutToken, secrets, options),
  };
};

/** {@link CheckoutTokens.verifyCheckoutToken} with `platform`'s HMAC. */
const verifyToken = async (
  platform: ServerPlatform,
  secrets: string | readonly string[],
  token: string | null | undefined,
  invoiceId: string,
  now: number,
): Promise<true | CheckoutTokenRefusal> => {
  if (!token) return 'missing';
  const match = /^([0-9a-fA-F-]{36})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return 'malformed';
  const [, id, seconds, signature] = match as unknown as [string, string, string, string];
  const mac = fromBase64url(signature);
  if (!mac) return 'malformed';
  let valid = false;
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    // Each secret is tried whatever the last one said: the time taken tells nothing. Node's
    // platform answers synchronously (Web Crypto's HMAC goes through the thread pool and a
    // promise: most of a token check's cost).
    if (await platform.verifyHmac('SHA-256', secret, `${id}.${seconds}`, mac)) valid = true;
  }
  if (!valid) return 'bad_signature';
  if (id.toLowerCase() !== invoiceId.toLowerCase()) return 'wrong_invoice';
  if (Number(seconds) * 1000 <= now) return 'expired';
  return true;
};

/** Options of {@link checkoutTokenAuthorizer}. */
export interface CheckoutTokenAuthorizerOptions {
  /** The clock, in ms since the epoch (default `Date.now`). */
  now?: () => number;
  /** Hears why a token was refused, and for which invoice (never the token). */
  onRefused?: (reason: CheckoutTokenRefusal, invoiceId: string) => void;
}

/** The keys `checkoutTokenAuthorizer` takes (options-check.ts). */
const CHECKOUT_TOKEN_AUTHORIZER_OPTIONS = { now: true, onRefused: true } as const satisfies OptionShapeOf<CheckoutTokenAuthorizerOptions>;

/** How many verified tokens an authorizer remembers (a page reads its invoice every few seconds with the same one). */
const VERIFIED_TOKENS = 4_096;

/** {@link CheckoutTokens.checkoutTokenAuthorizer} over `verifyCheckoutToken`. */
const authorizer = (
  verifyCheckoutToken: CheckoutTokens['verifyCheckoutToken'],
  secrets: string | readonly string[],
  options: CheckoutTokenAuthorizerOptions,
): ((invoiceId: string, request: Request) => Promise<boolean>) => {
  checkOptions('checkoutTokenAuthorizer', options, CHECKOUT_TOKEN_AUTHORIZER_OPTIONS);
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) checkSecret(secret);
  /** Verified tokens: the invoice each is for and when it expires (epoch ms). */
  const verified = new Map<string, { id: string; expiresAt: number }>();
  return async (invoiceId, request) => {
    const token = request.headers.get(CHECKOUT_TOKEN_HEADER);
    const now = (options.now ?? Date.now)();
    const known = token ? verified.get(token) : undefined;
    if (known && known.id === invoiceId.toLowerCase() && known.expiresAt > now) return true;
    const verdict = await verifyCheckoutToken(secrets, token, invoiceId, now);
    if (verdict === true) {
      if (verified.size >= VERIFIED_TOKENS) verified.clear();
      const [id, seconds] = token!.split('.');
      verified.set(token!, { id: id!.toLowerCase(), expiresAt: Number(seconds) * 1000 });
      return true;
    }
    options.onRefused?.(verdict, invoiceId);
    return false;
  };
};
