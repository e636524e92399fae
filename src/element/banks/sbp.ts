/**
 * SBP payment links and the bank apps that open them: which device and browser the payer is
 * on, the link that opens one bank's app, and the list of SBP members (the NSPK's format or
 * ours), read strictly. Lazy: loaded with the bank picker. No DOM, no Lit.
 */
import { plainText } from '../format.js';
import { type BankEntry, entryName, findBank, hexColor } from './directory.js';

/** The payer's device, as far as bank apps go. */
export type Platform = 'ios' | 'android' | 'desktop';

/** An app's built-in browser, which usually cannot open bank apps. */
export type InAppBrowser = 'telegram' | 'vk' | 'instagram' | 'facebook';

/** An SBP payment link, `https://qr.nspk.ru/…` or `https://sub.nspk.ru/…` (no credentials, no port, a path). */
export const isSbpLink = (url: string | null | undefined): boolean => {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    return (
      parsed.protocol === 'https:' &&
      (parsed.hostname === 'qr.nspk.ru' || parsed.hostname === 'sub.nspk.ru') &&
      !parsed.port &&
      !parsed.username &&
      !parsed.password &&
      parsed.pathname.length > 1
    );
  } catch {
    return false;
  }
};

/**
 * The payer's platform from `navigator.userAgent` and `navigator.maxTouchPoints`: iPadOS
 * presents itself as a Mac, and only its touch points tell it apart.
 */
export const platform = (userAgent: string, maxTouchPoints = 0): Platform => {
  if (/android/i.test(userAgent)) return 'android';
  if (/iphone|ipad|ipod/i.test(userAgent) || (/macintosh/i.test(userAgent) && maxTouchPoints > 1)) return 'ios';
  return 'desktop';
};

/** The app whose built-in browser shows the page, from `navigator.userAgent`; undefined in a real browser. */
export const inAppBrowser = (userAgent: string): InAppBrowser | undefined => {
  if (/telegram/i.test(userAgent)) return 'telegram';
  if (/vkandroidapp|vkclient|com\.vkontakte|com\.vk\.vkclient/i.test(userAgent)) return 'vk';
  // Before Facebook: Instagram's browser may carry Facebook's markers too.
  if (/instagram/i.test(userAgent)) return 'instagram';
  if (/FBAN|FBAV|FB_IAB|FBIOS|FB4A/.test(userAgent)) return 'facebook';
  return undefined;
};

/** An SBP member id as bank apps register it as a URL scheme. */
export const SBP_SCHEMA = /^bank\d{12}$/;

/** A Java (Android) package name: two or more dot-separated identifiers. */
export const ANDROID_PACKAGE = /^[A-Za-z][\w]*(\.[A-Za-z][\w]*)+$/;

/**
 * The link that opens `member`'s app with the SBP payment `link`:
 *
 * - iOS: the link with the member's scheme instead of `https`
 *   (`bank100000000111://qr.nspk.ru/…`);
 * - Android: a Chrome intent for the same address with the member's scheme and package, and the
 *   plain link as `S.browser_fallback_url` (opened when the app is not installed):
 *   `intent://qr.nspk.ru/…#Intent;scheme=bank100000000111;package=ru.sberbankmobile;S.browser_fallback_url=…;end`;
 * - desktop, or a member without a valid scheme: the plain link.
 *
 * Undefined when `link` is not an SBP link. A fragment of the link is dropped (it would end the
 * intent's address).
 */
export const bankAppLink = (member: Pick<BankEntry, 'schema' | 'package'> | undefined, link: string, on: Platform): string | undefined => {
  if (!isSbpLink(link)) return undefined;
  const url = new URL(link);
  const plain = `https://${url.host}${url.pathname}${url.search}`;
  const schema = member?.schema;
  if (on === 'desktop' || !schema || !SBP_SCHEMA.test(schema)) return plain;
  const address = `${url.host}${url.pathname}${url.search}`;
  if (on === 'ios') return `${schema}://${address}`;
  const pkg = member.package && ANDROID_PACKAGE.test(member.package) ? `package=${member.package};` : '';
  return `intent://${address}#Intent;scheme=${schema};${pkg}S.browser_fallback_url=${encodeURIComponent(plain)};end`;
};

/** A name from a list: a string without bidi controls, trimmed, 1–100 characters. */
const text = (value: unknown): string | undefined => {
  if (typeof value !== 'string') return undefined;
  const clean = plainText(value).trim();
  return clean && clean.length <= 100 ? clean : undefined;
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** At most this many members are read from one list. */
const MAX_MEMBERS = 1000;

/**
 * SBP members from a list: the NSPK's format (`{ version, dictionary: [{ bankName, logoURL,
 * schema, package_name, webClientUrl?, isWebClientActive? }] }`) or a plain array of
 * {@link BankEntry} (`{ code, ru, en?, aliases?, color?, schema?, package?, rank? }`), as a value
 * or as JSON text.
 *
 * Tolerant of what it does not use: extra fields are ignored, an entry without a name (or, in
 * the NSPK format, without a valid schema) is skipped, garbage gives `[]`; it never throws.
 * Strict on what becomes a link: `schema` must match `bankNNNNNNNNNNNN` and `package` be a
 * Java package name, else they are dropped. Logos (`logoURL`) are never kept. The first entry of
 * a code wins.
 */
export const parseSbpMembers = (json: unknown): BankEntry[] => {
  let value = json;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  const list: unknown[] = Array.isArray(value) ? value : isObject(value) && Array.isArray(value.dictionary) ? value.dictionary : [];
  const members = new Map<string, BankEntry>();
  for (const item of list.slice(0, MAX_MEMBERS)) {
    if (!isObject(item)) continue;
    const schema = typeof item.schema === 'string' && SBP_SCHEMA.test(item.schema) ? item.schema : undefined;
    const nspk = 'bankName' in item && !('code' in item);
    const ru = text(item.ru) ?? text(item.bankName) ?? text(item.name);
    const code = nspk ? schema : (text(item.code) ?? schema);
    if (!ru || !code || members.has(code)) continue;
    const androidPackage = item.package ?? item.package_name;
    const rank = typeof item.rank === 'number' && Number.isFinite(item.rank) && item.rank > 0 ? item.rank : undefined;
    members.set(code, {
      code,
      ru,
      en: text(item.en),
      aliases: Array.isArray(item.aliases) ? item.aliases.slice(0, 20).flatMap((alias) => text(alias) ?? []) : undefined,
      color: hexColor(item.color),
      schema,
      package:
        typeof androidPackage === 'string' && androidPackage.length <= 255 && ANDROID_PACKAGE.test(androidPackage)
          ? androidPackage
          : undefined,
      rank,
    });
  }
  return [...members.values()];
};

/** What `loadSbpMembers` needs of `fetch`: the protocol client's, so the element never calls `fetch` itself. */
export type MembersFetch = (input: string, init: RequestInit) => Promise<Pick<Response, 'ok' | 'status' | 'text'>>;

/** Options of {@link loadSbpMembers}. */
export interface LoadMembersOptions {
  /** Give up after this many milliseconds (default 5000). */
  readonly timeout?: number;
  readonly signal?: AbortSignal | undefined;
  /** The page's URL: a relative list URL is resolved against it and must stay on its origin. */
  readonly base?: string | undefined;
}

/** The largest list read, in characters (the NSPK's whole list is about 60 KB). */
const MAX_LIST_CHARS = 1_000_000;

/**
 * The merchant's replacement for the bank list: an object or array as it is (see
 * {@link parseSbpMembers}), or a URL (`https:`, or relative to the page's origin) fetched with
 * `fetcher` within `timeout`. Rejects when the URL is refused, the answer is not OK, too large,
 * or names no bank: the element then keeps the bundled directory.
 */
export const loadSbpMembers = async (source: unknown, fetcher: MembersFetch, options: LoadMembersOptions = {}): Promise<BankEntry[]> => {
  if (typeof source !== 'string') {
    const members = parseSbpMembers(source);
    if (!members.length) throw new TypeError('The bank list names no bank');
    return members;
  }
  const base = options.base ?? globalThis.location?.href;
  const url = new URL(source, base);
  const sameOrigin = base !== undefined && url.origin === new URL(base).origin;
  if (url.protocol !== 'https:' && !sameOrigin) throw new TypeError('The bank list must be an https: or same-origin URL');
  const controller = new AbortController();
  const abort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) abort();
  options.signal?.addEventListener('abort', abort, { once: true });
  const timer = setTimeout(
    () => controller.abort(new DOMException('The bank list took too long', 'TimeoutError')),
    options.timeout ?? 5000,
  );
  try {
    const response = await fetcher(url.href, { signal: controller.signal, credentials: 'omit', headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`The bank list answered ${response.status}`);
    const body = await response.text();
    if (body.length > MAX_LIST_CHARS) throw new Error('The bank list is too large');
    const members = parseSbpMembers(body);
    if (!members.length) throw new TypeError('The bank list names no bank');
    return members;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', abort);
  }
};

/** A collator for `lang`, or the default one for a tag `Intl` refuses. */
const collatorFor = (lang: string): Intl.Collator => {
  try {
    return new Intl.Collator(lang);
  } catch {
    return new Intl.Collator();
  }
};

/**
 * The picker's list: each member completed from the directory entry of the same schema or
 * code (its names, aliases, colour, rank and code, so a merchant's logo template and `banks`
 * overrides apply; the member's own name stays searchable), keeping the member's schema and
 * package; then the ranked banks by rank, and the others alphabetically in `lang`.
 */
export const orderForPicker = (members: readonly BankEntry[], directory: readonly BankEntry[], lang: string): BankEntry[] => {
  const bySchema = new Map(directory.flatMap((entry) => (entry.schema ? [[entry.schema, entry] as const] : [])));
  const seen = new Set<string>();
  const list: BankEntry[] = [];
  for (const member of members) {
    const known = (member.schema && bySchema.get(member.schema)) || findBank(member.code, directory);
    const entry: BankEntry = known
      ? {
          ...known,
          aliases: [...(known.aliases ?? []), ...(member.aliases ?? []), ...(member.ru === known.ru ? [] : [member.ru])],
          schema: member.schema ?? known.schema,
          package: member.package ?? known.package,
          rank: member.rank ?? known.rank,
        }
      : member;
    if (seen.has(entry.code)) continue;
    seen.add(entry.code);
    list.push(entry);
  }
  const collator = collatorFor(lang);
  return list.sort((a, b) =>
    a.rank !== undefined && b.rank !== undefined
      ? a.rank - b.rank
      : a.rank !== undefined
        ? -1
        : b.rank !== undefined
          ? 1
          : collator.compare(entryName(a, lang), entryName(b, lang)),
  );
};
