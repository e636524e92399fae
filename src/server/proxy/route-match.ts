/**
 * Path matching of the checkout protocol: the one place that decides which of its routes
 * (`CHECKOUT_ROUTES`, src/schemas/checkout-routes.ts) a request path names. It works on the
 * decoded segments of the (already WHATWG-normalised) path, decodes exactly once, and refuses
 * what could mean something else to another layer: encoded slashes or backslashes, dot
 * segments, control characters, malformed percent-encoding. Empty segments (`//`, a trailing
 * `/`) match nothing.
 */
import { UUID_PATTERN } from '../../schemas/patterns.js';
import { CHECKOUT_ROUTES, CHECKOUT_ROUTE_NAMES, type CheckoutRouteName } from '../../schemas/checkout-routes.js';

/** A route of the checkout protocol; all but `banks` name an invoice. */
export type CheckoutRoute = CheckoutRouteName;

/** The routes whose body is a multipart upload (a receipt): their own size cap and read deadline. */
export const UPLOAD_ROUTES: ReadonlySet<CheckoutRoute> = new Set(
  CHECKOUT_ROUTE_NAMES.filter((name) => CHECKOUT_ROUTES[name].body === 'multipart'),
);

/** Each route's path template as segments: `'/invoices/{id}/deal'` → `['invoices', '{id}', 'deal']`. */
const TEMPLATES: readonly { route: CheckoutRoute; segments: readonly string[] }[] = CHECKOUT_ROUTE_NAMES.map((route) => ({
  route,
  segments: CHECKOUT_ROUTES[route].path.split('/').slice(1),
}));

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
  if (segments.length <= base.length || base.some((segment, index) => segments[index] !== segment)) return { kind: 'unknown' };
  // Plain loops: this runs for every request (bench/profile.ts).
  const length = segments.length - base.length;
  for (const template of TEMPLATES) {
    if (template.segments.length !== length) continue;
    let id: string | undefined;
    let fits = true;
    for (let index = 0; index < length && fits; index++) {
      const part = template.segments[index]!;
      const given = segments[base.length + index]!;
      if (part === '{id}') {
        id = given;
        fits = given !== '';
      } else {
        fits = given === part;
      }
    }
    if (!fits) continue;
    if (id === undefined) return { kind: 'route', route: template.route, id: '' };
    if (!UUID_PATTERN.test(id)) return { kind: 'bad_id', route: template.route, id };
    return { kind: 'route', route: template.route, id: id.toLowerCase() };
  }
  return { kind: 'unknown' };
};
