/**
 * The console's keys (console.ts): the key compared in constant time, the session cookie (an
 * HMAC of the key and its expiry; 12 hours, `HttpOnly`, `SameSite=Strict`, the console's path
 * only), and wrong keys counted per client: past `maxWrongKeys` within 15 minutes that client
 * is held off until the window ends, each refusal told to `onRefused`.
 */
import { remember } from '../remember.js';
import { secretMatcher } from '../http/answers.js';

const WINDOW_MS = 15 * 60 * 1000;
const SESSION_MS = 12 * 60 * 60 * 1000;
const COOKIE = 'mc_console';

const encoder = new TextEncoder();
const base64url = (bytes: ArrayBuffer): string => {
  let binary = '';
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

export interface ConsoleKeyOptions {
  key: string;
  path: string;
  maxWrongKeys: number;
  now: () => number;
  onRefused: ((refusal: { client: string; count: number; locked: boolean }) => void) | undefined;
}

export const consoleKeys = (options: ConsoleKeyOptions) => {
  const { now, path, maxWrongKeys } = options;
  const keyMatches = secretMatcher(options.key);
  const macKey = crypto.subtle.importKey('raw', encoder.encode(options.key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const sessionMac = async (expires: number) =>
    base64url(await crypto.subtle.sign('HMAC', await macKey, encoder.encode(`merchant-checkout console session ${expires}`)));
  const matchesSession = async (value: string | undefined): Promise<boolean> => {
    const [version, expires, mac] = (value ?? '').split('.');
    const until = Number(expires);
    if (version !== 'v1' || !Number.isSafeInteger(until) || until * 1000 < now() || mac === undefined) return false;
    return secretMatcher(await sessionMac(until))(mac);
  };

  /** Wrong keys by client: how many since when (the oldest clients forgotten past 10 000). */
  const wrong = new Map<string, { count: number; since: number }>();
  const heldOff = (client: string): number => {
    const record = wrong.get(client);
    if (!record || record.since + WINDOW_MS <= now()) return 0;
    return record.count >= maxWrongKeys ? record.since + WINDOW_MS - now() : 0;
  };
  const refuse = (client: string) => {
    const current = wrong.get(client);
    const record = current && current.since + WINDOW_MS > now() ? current : { count: 0, since: now() };
    record.count++;
    remember(wrong, client, record, 10_000);
    try {
      options.onRefused?.({ client, count: record.count, locked: record.count >= maxWrongKeys });
    } catch {
      // A failing logger changes nothing.
    }
  };
  const cookieOf = (request: Request): string | undefined => {
    for (const part of (request.headers.get('cookie') ?? '').split(';')) {
      const [name, ...value] = part.trim().split('=');
      if (name === COOKIE) return value.join('=');
    }
    return undefined;
  };
  const bearerOf = (request: Request) => /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  const cookieFor = async (url: URL) => {
    const expires = Math.floor((now() + SESSION_MS) / 1000);
    const secure = url.protocol === 'https:' ? '; Secure' : '';
    return `${COOKIE}=v1.${expires}.${await sessionMac(expires)}; Path=${path}; HttpOnly; SameSite=Strict; Max-Age=${SESSION_MS / 1000}${secure}`;
  };

  return {
    keyMatches,
    matchesSession,
    heldOff,
    refuse,
    cookieOf,
    bearerOf,
    cookieFor,
    clearCookie: `${COOKIE}=; Path=${path}; HttpOnly; SameSite=Strict; Max-Age=0`,
  };
};
