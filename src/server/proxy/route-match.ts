/**
 * Path matching of the checkout protocol: the one place that decides which of its routes a
 * request path names (`/banks`, and the invoice routes `/invoices/{id}[/operation]`). It works on the decoded segments of the (already
 * WHATWG-normalised) path, decodes exactly once, and refuses what could mean something else
 * to another layer: encoded slashes or backslashes, dot segments, control characters,
 * malformed percent-encoding. Empty segments (`//`, a trailing `/`) match nothing.
 */
import { UUID_PATTERN } from '../schemas/index.js';

/** A route of the checkout protocol; all but `banks` name an invoice. */
export type CheckoutRoute = 'invoice' | 'variants' | 'cancel' | 'deal' | 'events' | 'receipt' | 'dispute' | 'banks';

/** The one method each route answers (besides `OPTIONS`, which never reaches upstream). */
export const ROUTE_METHOD: Readonly<Record<CheckoutRoute, 'GET' | 'POST'>> = {
  invoice: 'GET',
  variants: 'GET',
  cancel: 'POST',
  deal: 'POST',
  events: 'GET',
  receipt: 'POST',
  dispute: 'POST',
  banks: 'GET',
};

/** Each route's path template under the mount (what traces and metrics name it by). */
export const ROUTE_TEMPLATE: Readonly<Record<CheckoutRoute, string>> = {
  invoice: '/invoices/{id}',
  variants: '/invoices/{id}/available-payment-variants',
  cancel: '/invoices/{id}/cancel',
  deal: '/invoices/{id}/deal',
  events: '/invoices/{id}/events',
  receipt: '/invoices/{id}/receipt',
  dispute: '/invoices/{id}/dispute',
  banks: '/banks',
};

/** The routes whose body is a multipart upload (a receipt): their own size cap and read deadline. */
export const UPLOAD_ROUTES: ReadonlySet<CheckoutRoute> = new Set(['receipt', 'dispute']);

const OPERATION_SEGMENTS: ReadonlyMap<string, CheckoutRoute> = new Map([
  ['available-payment-variants', 'variants'],
  ['cancel', 'cancel'],
  ['deal', 'deal'],
  ['events', 'events'],
  ['receipt', 'receipt'],
  ['dispute', 'dispute'],
]);

/** No path of the protocol comes close; longer ones are not even decoded. */
const MAX_PATH_CHARS = 1024;

export type RouteMatch =
  /** `id` is the invoice's (lower-cased), `''` for `banks`, which names none. */
  | { kind: 'route'; route: CheckoutRoute; id: string }
  /** The path names a route but its id is not a UUID (`id` is what was given). */
  | { kind: 'bad_id'; route: CheckoutRoute; id: string }
  | { kind: 'malformed'; message: string }
  | { kind: 'unknown' };

/** The decoded segments of a mount prefix: `'/checkout-api/'` → `['checkout-api']`, `'/'` → `[]`. */
export const basePathSegments = (basePath: string | undefined): string[] => {
  if (basePath === undefined) return [];
  if (typeof basePath !== 'string' || (basePath !== '' && !basePath.startsWith('/'))) {
    throw new TypeError(`createCheckoutHandler: basePath must start with "/", got ${JSON.stringify(basePath)}`);
  }
  const segments = basePath.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '.' || segment === '..' || /[%\\?#]/.test(segment))) {
    throw new TypeError(`createCheckoutHandler: basePath must be a plain path like "/checkout-api", got ${JSON.stringify(basePath)}`);
  }
  return segments;
};

const decodeSegment = (raw: string): string | { malformed: string } => {
  let decoded = raw;
  // Most segments have nothing encoded (bench/profile.ts: decoding each was a cost of every answer).
  if (raw.includes('%')) {
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return { malformed: 'the path is not valid percent-encoded UTF-8' };
    }
  }
  if (decoded.includes('/') || decoded.includes('\\')) return { malformed: 'the path contains an encoded slash or a backslash' };
  if (decoded === '.' || decoded === '..') return { malformed: 'the path contains a dot segment' };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(decoded)) return { malformed: 'the path contains a control character' };
  return decoded;
};

/**
 * Which route `pathname` (the `pathname` of a parsed URL, still percent-encoded) names under
 * the mount prefix `base`. The id of a `route` match is lower-cased: UUIDs are
 * case-insensitive, and one spelling keeps the merchant's lookup and the id comparison simple.
 */
export const matchCheckoutRoute = (pathname: string, base: readonly string[]): RouteMatch => {
  if (pathname.length > MAX_PATH_CHARS || !pathname.startsWith('/')) return { kind: 'unknown' };
  const segments: string[] = [];
  for (const raw of pathname.slice(1).split('/')) {
    const decoded = decodeSegment(raw);
    if (typeof decoded !== 'string') return { kind: 'malformed', message: decoded.malformed };
    segments.push(decoded);
  }
  if (segments.length === base.length + 1 && segments[base.length] === 'banks' && base.every((segment, index) => segments[index] === segment)) {
    return { kind: 'route', route: 'banks', id: '' };
  }
  if (segments.length < base.length + 2 || segments.length > base.length + 3) return { kind: 'unknown' };
  if (base.some((segment, index) => segments[index] !== segment)) return { kind: 'unknown' };
  const [collection, id, operation] = segments.slice(base.length);
  if (collection !== 'invoices' || !id) return { kind: 'unknown' };
  const route = operation === undefined ? 'invoice' : OPERATION_SEGMENTS.get(operation);
  if (!route) return { kind: 'unknown' };
  if (!UUID_PATTERN.test(id)) return { kind: 'bad_id', route, id };
  return { kind: 'route', route, id: id.toLowerCase() };
};
