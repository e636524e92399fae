/**
 * The mock's one Hono app. It finds `/api/merchant`, `/api/public` or `/__mock` anywhere in
 * the path and routes from there, so `fetch` mounts under any prefix; refuses every request
 * once the mock is closed (503) and applies due expiries first; serves the test controls
 * (when given a target) and the APIs; answers 404 (and the APIs' errors) in the configured
 * error shape. Imports pipeline, controls, http, errors.
 */
import { Hono } from 'hono';
import { createControls, type ControlTarget } from './controls.js';
import { MockControlError, notFound } from './errors.js';
import { errorResponse } from './http.js';
import { MERCHANT_PREFIX, PUBLIC_PREFIX, registerApi, type MockEnv, type PipelineOptions } from './pipeline.js';

/** The prefix of the test controls; the real service has no such path. */
export const CONTROL_PREFIX = '/__mock';

export interface MockAppOptions extends PipelineOptions {
  /** What `/__mock/*` drives; without it the controls are not served. */
  controls: ControlTarget | undefined;
  isClosed: () => boolean;
  /** Applies what the clock says is due, before every request. */
  sweep: () => void;
}

/** Where a prefix starts in `path` as whole segments, or -1. */
const prefixAt = (path: string, prefix: string): number => {
  for (let from = 0; ;) {
    const at = path.indexOf(prefix, from);
    if (at < 0) return -1;
    const after = path[at + prefix.length];
    if (after === undefined || after === '/') return at;
    from = at + 1;
  }
};

/**
 * The path Hono routes on: from the first of the mock's prefixes on (the controls ignore
 * empty segments and a trailing slash), else the whole path, which no route matches.
 */
const routedPath =
  (controls: boolean) =>
  (request: Request): string => {
    const path = new URL(request.url).pathname;
    const controlAt = controls ? prefixAt(path, CONTROL_PREFIX) : -1;
    const apiAt = Math.max(prefixAt(path, MERCHANT_PREFIX), prefixAt(path, PUBLIC_PREFIX));
    if (controlAt >= 0 && (apiAt < 0 || controlAt < apiAt)) return `/${path.slice(controlAt).split('/').filter(Boolean).join('/')}`;
    return apiAt >= 0 ? path.slice(apiAt) : path;
  };

const apiPrefixOf = (path: string): string | undefined =>
  [MERCHANT_PREFIX, PUBLIC_PREFIX].find((prefix) => path === prefix || path.startsWith(`${prefix}/`));

export const createMockApp = (o: MockAppOptions): Hono<MockEnv> => {
  const app = new Hono<MockEnv>({ getPath: routedPath(o.controls !== undefined) });
  app.use('*', async (_, next) => {
    if (o.isClosed()) return errorResponse(new MockControlError(503, 'service_closed', 'the mock service is closed'), o.errorFormat);
    o.sweep();
    await next();
  });
  if (o.controls) app.route(CONTROL_PREFIX, createControls(o.controls, o));
  registerApi(app, o);
  app.notFound((c) => {
    const path = c.req.path;
    const prefix = apiPrefixOf(path);
    return errorResponse(
      notFound(prefix ? `no operation ${c.req.method} ${path.slice(prefix.length)}` : `nothing at ${path}`),
      o.errorFormat,
    );
  });
  // A refusal is an answer; anything else (a hang given up, the mock closed) rejects `fetch`.
  app.onError((error) => {
    if (error instanceof MockControlError) return errorResponse(error, o.errorFormat);
    throw error;
  });
  return app;
};
