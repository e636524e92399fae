/**
 * Operations declared once: the service's operations are the rows of `OPERATIONS`
 * (src/schemas/operations.ts); the mock gives each a handler, keyed by the operation's name,
 * and takes its method, path and signing from the row (`operationRoutes`). The merchant API
 * and the public API are tables of these routes, registered on Hono by the pipeline. Hono
 * answers no 405 by itself, so `refuseOtherMethods` adds one fallback per path.
 * Imports errors.ts, the shared operations and Hono's types.
 */
import type { Context, Env, Hono } from 'hono';
import { OPERATION_LIST, type OPERATIONS, type OperationName, type Signing } from '../schemas/operations.js';
import { MockControlError } from './errors.js';

/** What answers one route: the caller's context and the path's parameters by name. */
export type Handler<Context> = (context: Context, params: Record<string, string>) => Response | Promise<Response>;

export interface Route<Context> {
  /** The operation of `OPERATIONS` the route serves; none for the hosted page's undocumented routes. */
  operation?: OperationName;
  method: 'GET' | 'POST';
  /** Path under the API's prefix, with `{name}` segments. */
  path: string;
  signing: Signing;
  handle: Handler<Context>;
}

/** The operations signed with the shop's keys (under `/api/merchant`). */
export type MerchantOperationName = {
  [Name in OperationName]: (typeof OPERATIONS)[Name]['signing'] extends 'public' ? never : Name;
}[OperationName];
/** The operations of the public API (under `/api/public`, unsigned). */
export type PublicOperationName = Exclude<OperationName, MerchantOperationName>;

/**
 * The routes of the operations `handlers` answers, in the order of `OPERATIONS`: method,
 * path (under `prefix`) and signing are the row's. `handlers` is a `Record` of every
 * operation of one API, so the type checker names any that has no handler.
 */
export const operationRoutes = <Name extends OperationName, Context>(
  prefix: string,
  handlers: Record<Name, Handler<Context>>,
): Route<Context>[] =>
  OPERATION_LIST.filter((row) => Object.hasOwn(handlers, row.name)).map((row) => {
    if (!row.path.startsWith(`${prefix}/`)) throw new TypeError(`${row.name}: ${row.path} is not under ${prefix}`);
    return {
      operation: row.name,
      method: row.method,
      path: row.path.slice(prefix.length),
      signing: row.signing,
      handle: handlers[row.name as Name],
    };
  });

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
