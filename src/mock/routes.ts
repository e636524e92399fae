/**
 * Operations declared once: each is one row (method, path, how it is signed, handler); the
 * merchant API and the public API are tables of these rows, registered on Hono by the
 * pipeline. Hono answers no 405 by itself, so `refuseOtherMethods` adds one fallback per path.
 * Imports errors.ts and Hono's types.
 */
import type { Context, Env, Hono } from 'hono';
import { MockControlError } from './errors.js';

/** How a request is signed: JSON body, URL only (GET, body-less POST), multipart (URL only), or not at all. */
export type Signing = 'json' | 'url' | 'multipart' | 'public';

export interface Route<Context> {
  method: 'GET' | 'POST';
  /** Path under the API's prefix, with `{name}` segments. */
  path: string;
  signing: Signing;
  handle: (context: Context, params: Record<string, string>) => Response | Promise<Response>;
}

/** A row's path as Hono writes it: `{id}` → `:id`. */
export const honoPath = (path: string): string => path.replace(/\{([^}/]+)\}/g, ':$1');

/**
 * After the rows are registered: for each of their paths a fallback that answers 405 with the
 * path's methods in `Allow` (thrown as a `MockControlError`, so `onError` writes it in the
 * app's error shape). A request that fits a row never reaches it; one that fits no path at
 * all falls through to the 404.
 */
export const refuseOtherMethods = <E extends Env>(
  app: Hono<E>,
  rows: readonly { method: string; path: string }[],
  message: (allowed: string, c: Context<E>) => string,
): void => {
  const methods = new Map<string, string[]>();
  for (const { method, path } of rows) methods.set(path, [...(methods.get(path) ?? []), method]);
  for (const [path, allowed] of methods) {
    const allow = [...new Set(allowed)].join(', ');
    app.all(path, (c) => {
      throw new MockControlError(405, 'method_not_allowed', message(allow, c), { headers: { allow } });
    });
  }
};
