/**
 * The handler a scheduler calls to reconcile (docs/server.md, "Serverless hosts"). On a host
 * whose instances sleep between requests the reconciler's timer runs only while an instance is
 * awake, so a scheduler outside (a platform's cron, which calls a URL with `Authorization:
 * Bearer <secret>`, or any cron with curl) calls this instead. Each call runs reconciliation
 * passes until nothing is due or its time budget is spent (`Reconciler.drain`), and answers
 * what it did. Calls at once, on one instance or several, share the work through the store's
 * leases (`claimDue`): each due invoice is read by one of them.
 */
import type { OptionShapeOf } from '../options-check.js';
import { baseHeaders, errorAnswer, jsonAnswer, secretMatcher } from '../http/answers.js';
import { errorContext, type CheckoutErrorHandler } from '../http/error-context.js';
import type { Reconciler } from './reconciler.js';

/** The kit's handler for a scheduler: its secret, where the kit's `fetch` serves it, how long a call may read. */
export interface KitCronOptions {
  /**
   * What the scheduler presents as `Authorization: Bearer <secret>` (Vercel Cron sends its
   * `CRON_SECRET` so), compared in constant time; at least 16 characters. A call without it, or
   * with another, is 401 and reads nothing.
   */
  secret: string;
  /**
   * The path of the handler in the kit's combined `fetch`. Default `/merchant-checkout/reconcile`.
   * The `cron` handler itself answers on any path.
   */
  path?: string;
  /**
   * How long one call may read, in ms (default 5 000): no read starts after it, and a read still
   * waiting for the service, or for the invoice's books that another instance holds (one killed
   * while holding them keeps them `handlerTimeoutMs` + 5 s), is cut and due again at the next
   * call. A change already handed to `onChange` is waited for (at most `handlerTimeoutMs`), so
   * give the function that long more.
   */
  budgetMs?: number;
}

/** Where the kit's combined `fetch` serves the scheduler's handler, by default. */
export const DEFAULT_CRON_PATH = '/merchant-checkout/reconcile';
/**
 * How long one scheduler's call reads, by default (ms): half of the shortest limit a common
 * serverless platform puts on a request by default (10 s), leaving the rest to a cold start and
 * to a change being handed to the shop when the budget ends.
 */
export const DEFAULT_CRON_BUDGET_MS = 5_000;
/** The shortest secret the handler takes (Vercel recommends at least 16 characters for `CRON_SECRET`). */
export const MIN_CRON_SECRET_LENGTH = 16;

/** The keys of the kit's `cron` (options-check.ts: an unknown one is refused with the kit's other options). */
export const KIT_CRON_OPTIONS = { secret: true, path: true, budgetMs: true } as const satisfies OptionShapeOf<KitCronOptions>;

/** The options checked, with their defaults. */
export const cronOptionsOf = (options: KitCronOptions): Required<KitCronOptions> => {
  if (typeof options !== 'object' || options === null) throw new TypeError('createCheckoutServer: cron must be an object ({ secret })');
  const { secret, path = DEFAULT_CRON_PATH, budgetMs = DEFAULT_CRON_BUDGET_MS } = options;
  if (typeof secret !== 'string' || secret.length < MIN_CRON_SECRET_LENGTH) {
    throw new TypeError(`createCheckoutServer: cron.secret must be a string of at least ${MIN_CRON_SECRET_LENGTH} characters`);
  }
  if (typeof path !== 'string' || !path.startsWith('/'))
    throw new TypeError("createCheckoutServer: cron.path must be a path starting with '/'");
  if (!(typeof budgetMs === 'number' && budgetMs > 0 && Number.isFinite(budgetMs))) {
    throw new TypeError('createCheckoutServer: cron.budgetMs must be a positive number of milliseconds');
  }
  return { secret, path, budgetMs };
};

/** The presented bearer token, if the request has one. */
const bearer = (request: Request): string | undefined => /^Bearer\s+(.+?)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1];

/**
 * The handler: `GET` or `POST` with the secret runs {@link Reconciler.drain} for `budgetMs`
 * (cut sooner when the caller leaves) and answers 200 with what it did; a wrong or missing secret
 * is 401, another method 405, a store that failed 500 (told to `report`).
 */
export const createCronHandler = (
  reconciler: Reconciler,
  options: Required<KitCronOptions>,
  report: CheckoutErrorHandler,
): ((request: Request) => Promise<Response>) => {
  const matches = secretMatcher(options.secret);
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'POST') {
      const headers = baseHeaders();
      headers.set('allow', 'GET, POST');
      return errorAnswer('method_not_allowed', 'use GET or POST', headers);
    }
    if (!(await matches(bearer(request)))) {
      const headers = baseHeaders();
      headers.set('www-authenticate', 'Bearer');
      return errorAnswer('unauthorized', 'the scheduler must present the secret as Authorization: Bearer <secret>', headers);
    }
    try {
      const done = await reconciler.drain({ budgetMs: options.budgetMs, signal: request.signal });
      return jsonAnswer(200, {
        ok: true,
        passes: done.passes,
        checked: done.checked,
        changes: done.changes,
        errors: done.errors,
        stillDue: done.stillDue,
        stopped: done.stopped,
        findings: done.findings.map(({ invoiceId, internalId, finding, status, error }) => ({
          invoiceId,
          internalId,
          finding,
          status,
          error,
        })),
      });
    } catch (error) {
      report(error, errorContext('cron', request));
      return errorAnswer('internal_error', 'reconciliation failed: the store did not answer; the next call tries again');
    }
  };
};
