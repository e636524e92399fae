/**
 * Operations declared once: each is one row (method, path, how it is signed, handler) that
 * the router matches; the merchant API and the public API are tables of these rows.
 * Imports errors.ts.
 */
import { MockControlError, notFound } from './errors.js';

/** How a request is signed: JSON body, URL only (GET, body-less POST), multipart (URL only), or not at all. */
export type Signing = 'json' | 'url' | 'multipart' | 'public';

export interface Route<Context> {
  method: 'GET' | 'POST';
  /** Path under the API's prefix, with `{name}` segments. */
  path: string;
  signing: Signing;
  handle: (context: Context, params: Record<string, string>) => Response | Promise<Response>;
}

const decode = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw notFound('malformed percent-encoding in the path');
  }
};

/** The row for `method path` with its parameters; 404 when no path fits, 405 (with Allow) when only the method does not. */
export const matchRoute = <Context>(routes: readonly Route<Context>[], method: string, path: string): { route: Route<Context>; params: Record<string, string> } => {
  const segments = path.split('/').slice(1);
  const allowed: string[] = [];
  for (const route of routes) {
    const pattern = route.path.split('/').slice(1);
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const fits = pattern.every((part, i) => {
      const segment = segments[i] ?? '';
      if (part.startsWith('{')) {
        params[part.slice(1, -1)] = decode(segment);
        return segment !== '';
      }
      return part === segment;
    });
    if (!fits) continue;
    if (route.method === method) return { route, params };
    allowed.push(route.method);
  }
  if (allowed.length) throw new MockControlError(405, 'method_not_allowed', `Method not allowed; use ${allowed.join(', ')}`, { headers: { allow: allowed.join(', ') } });
  throw notFound(`no operation ${method} ${path}`);
};
