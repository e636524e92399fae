/**
 * The test controls under `/__mock` (only with `controls: true`): unsigned, JSON, each a thin
 * wrapper around the method of the same meaning on the service object, which it gets as a
 * `ControlTarget` (so this module does not import service.ts). The real service has no such
 * path. Answers allow any origin, so a demo page on another port can drive them.
 * Imports errors.ts, http.ts, routes.ts, Hono and the shared schemas (`safeParse`, the dispute lists).
 */
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import * as z from 'zod/mini';
import { DOCUMENTED_DISPUTE_REASONS, KNOWN_DISPUTE_RESULTS, safeParse } from '../schemas/index.js';
import { MockControlError } from './errors.js';
import type { FaultScope } from './faults.js';
import { jsonResponse, parseJson, readBody } from './http.js';
import { refuseOtherMethods } from './routes.js';

/** What the controls call: the matching methods of `MockService`. */
export interface ControlTarget {
  readonly requests: readonly unknown[];
  readonly notifications: readonly unknown[];
  getInvoice(id: string): unknown;
  listInvoices(): unknown[];
  markPaid(id: string): void;
  expire(id: string): void;
  startDeal(id: string, variant?: { option?: string; method?: string }): void;
  confirmTransfer(id: string): void;
  openDispute(id: string, dispute?: { reason?: (typeof DOCUMENTED_DISPUTE_REASONS)[number]; amount?: string }): void;
  resolveDispute(id: string, result: string, amount?: string): void;
  correctAmount(id: string, amount: string): void;
  notificationOutage(durationMs: number): { until: string };
  setNoRequisites(methods: readonly string[]): void;
  setLatency(ms: number): void;
  failNext(count: number, status?: number, scope?: FaultScope): void;
  hangNext(count: number, scope?: FaultScope): void;
  malformNext(count: number, scope?: FaultScope): void;
  reset(): void;
  advanceClock(ms: number): Promise<void>;
  now(): string;
  dump(): unknown;
}

const count = z.optional(z.int().check(z.nonnegative(), z.lte(10_000)));
const invoiceId = z.optional(z.string().check(z.minLength(1)));
const CountSchema = z.strictObject({ count, invoiceId });
const FailSchema = z.strictObject({ count, invoiceId, status: z.optional(z.int().check(z.gte(400), z.lte(599))) });
const LatencySchema = z.strictObject({ ms: z.number().check(z.nonnegative(), z.lte(600_000)) });
const DealSchema = z.strictObject({
  option: z.optional(z.string().check(z.minLength(1))),
  method: z.optional(z.string().check(z.minLength(1))),
});
const DisputeSchema = z.strictObject({ reason: z.optional(z.enum(DOCUMENTED_DISPUTE_REASONS)), amount: z.optional(z.string()) });
/** `result` (a documented dispute result) with `amount` for AMOUNT_CHANGED; the older `outcome` still works. */
const ResolveSchema = z
  .strictObject({ result: z.optional(z.string()), amount: z.optional(z.string()), outcome: z.optional(z.enum(['paid', 'canceled'])) })
  .check(
    z.superRefine((body, ctx) => {
      if ((body.result === undefined) === (body.outcome === undefined)) {
        ctx.issues.push({
          code: 'custom',
          path: ['result'],
          message: `is required (one of ${KNOWN_DISPUTE_RESULTS.join(', ')}), and "outcome" is not sent with it`,
          input: body.result,
        });
      }
    }),
  );
const CorrectSchema = z.strictObject({ amount: z.string() });
// Its range is the method's to check, so both ways in say the same.
const OutageSchema = z.strictObject({ durationMs: z.number() });
const ClockSchema = z.strictObject({ advanceMs: z.number().check(z.nonnegative(), z.lte(365 * 86_400_000)) });
const NoRequisitesSchema = z.strictObject({ methods: z.array(z.string()) });
const EmptySchema = z.strictObject({});

export interface ControlLimits {
  maxBodyBytes: number;
  bodyTimeoutMs: number;
}

/** The body of a control: empty means `{}`; else JSON checked against `schema` (400 when it does not fit). */
const parsed = async <Schema extends z.ZodMiniType>(request: Request, schema: Schema, limits: ControlLimits): Promise<z.output<Schema>> => {
  const { text } = await readBody(request, { limit: limits.maxBodyBytes, timeoutMs: limits.bodyTimeoutMs });
  const result = safeParse(schema, text.trim() === '' ? {} : parseJson(text));
  if (!result.success) throw new MockControlError(400, 'validation_failed', result.message);
  return result.data;
};

interface ControlRow {
  method: 'GET' | 'POST';
  /** Under `/__mock`, Hono's form (`:id`). */
  path: string;
  /** What it does, for `GET /__mock` and the CLI's banner. */
  doc: string;
  /** What it answers (`{ok: true}` for nothing); a POST gets its parsed body. */
  run: (target: ControlTarget, params: Record<string, string>, request: Request, limits: ControlLimits) => unknown;
}

const get = (path: string, doc: string, run: (target: ControlTarget, params: Record<string, string>) => unknown): ControlRow => ({
  method: 'GET',
  path,
  doc,
  run,
});

const post = <Schema extends z.ZodMiniType>(
  path: string,
  doc: string,
  schema: Schema,
  run: (target: ControlTarget, body: z.output<Schema>, params: Record<string, string>) => unknown,
): ControlRow => ({
  method: 'POST',
  path,
  doc,
  run: async (target, params, request, limits) => run(target, await parsed(request, schema, limits), params),
});

const invoice = (target: ControlTarget, id = ''): unknown => {
  const found = target.getInvoice(id);
  if (found === undefined) throw new MockControlError(404, 'not_found', `no invoice ${id}`);
  return found;
};

/** `POST /invoices/:id/<action>`: does it, then answers the invoice. */
const invoiceAction = <Schema extends z.ZodMiniType>(
  action: string,
  doc: string,
  schema: Schema,
  run: (target: ControlTarget, id: string, body: z.output<Schema>) => void,
): ControlRow =>
  post(`/invoices/:id/${action}`, doc, schema, (target, body, { id = '' }) => {
    run(target, id, body);
    return invoice(target, id);
  });

/** One row per control; `CONTROL_ROUTES` is written from them. */
const CONTROLS: readonly ControlRow[] = [
  get('/', 'this list', () => ({ controls: CONTROL_ROUTES })),
  get('/invoices', 'every invoice (lookup form)', (t) => t.listInvoices()),
  get('/invoices/:id', 'one invoice (lookup form)', (t, p) => invoice(t, p.id)),
  invoiceAction('paid', 'new or dispute → paid (a pay-out: sent)', EmptySchema, (t, id) => t.markPaid(id)),
  invoiceAction('expire', 'new → expired, now', EmptySchema, (t, id) => t.expire(id)),
  invoiceAction('confirm', 'the payer confirmed the transfer: deal → transfer_confirmed', EmptySchema, (t, id) => t.confirmTransfer(id)),
  invoiceAction('deal', 'start a deal; body {"option"?, "method"?}', DealSchema, (t, id, deal) => t.startDeal(id, deal)),
  invoiceAction(
    'dispute',
    'the service opens a dispute on a new, paid, expired or canceled pay-in; body {"reason"?, "amount"?}',
    DisputeSchema,
    (t, id, dispute) => t.openDispute(id, dispute),
  ),
  invoiceAction(
    'resolve',
    'decide a dispute; body {"result": "ACCEPTED" | "AMOUNT_CHANGED" | "TTL_EXPIRED" | …, "amount"?}',
    ResolveSchema,
    (t, id, { result, outcome, amount }) => t.resolveDispute(id, (result ?? outcome)!, amount),
  ),
  invoiceAction('correct', 'correct a paid pay-in\'s amount (a second paid); body {"amount"}', CorrectSchema, (t, id, { amount }) =>
    t.correctAmount(id, amount),
  ),
  post('/no-requisites', 'body {"methods": [...]} ("*" for all): banks without free requisites', NoRequisitesSchema, (t, { methods }) =>
    t.setNoRequisites(methods),
  ),
  get('/clock', 'the mock clock', (t) => ({ now: t.now() })),
  post(
    '/clock',
    'body {"advanceMs"}: move the clock on (expiries, notification retries)',
    ClockSchema,
    async (t, { advanceMs }) => (await t.advanceClock(advanceMs), { now: t.now() }),
  ),
  get('/state', 'the state, in the fixtures format', (t) => t.dump()),
  post('/latency', 'body {"ms"}: delay every API answer', LatencySchema, (t, { ms }) => t.setLatency(ms)),
  post(
    '/fail',
    'body {"count"?: 1, "status"?: 500, "invoiceId"?}: fail the next requests (about that invoice)',
    FailSchema,
    (t, { count = 1, status, invoiceId }) => t.failNext(count, status, { invoiceId }),
  ),
  post(
    '/hang',
    'body {"count"?: 1, "invoiceId"?}: never answer the next requests (about that invoice)',
    CountSchema,
    (t, { count = 1, invoiceId }) => t.hangNext(count, { invoiceId }),
  ),
  post(
    '/malform',
    'body {"count"?: 1, "invoiceId"?}: answer the next requests (about that invoice) with broken JSON',
    CountSchema,
    (t, { count = 1, invoiceId }) => t.malformNext(count, { invoiceId }),
  ),
  post('/reset', 'clear faults and latency', EmptySchema, (t) => t.reset()),
  get('/requests', 'every API request received', (t) => t.requests),
  get('/notifications', 'every notification and its attempts', (t) => t.notifications),
  post(
    '/notifications/outage',
    'body {"durationMs"}: the shop\'s server does not answer for that long (mock clock)',
    OutageSchema,
    (t, { durationMs }) => t.notificationOutage(durationMs),
  ),
];

/** What `GET /__mock` lists: `METHOD /__mock/path  what it does`, one line per control. */
export const CONTROL_ROUTES: readonly string[] = CONTROLS.map(
  (row) => `${row.method.padEnd(4)} ${`/__mock${row.path === '/' ? '' : row.path.replace(/:(\w+)/g, '{$1}')}`.padEnd(38)} ${row.doc}`,
);

/**
 * The controls as a Hono app to mount at `/__mock`: CORS for any origin (Hono's middleware),
 * one route per row, 405 with Allow for another method of a known path, 404 for the rest;
 * errors as `{error: {code, message}}`.
 */
export const createControls = (target: ControlTarget, limits: ControlLimits): Hono => {
  const app = new Hono();
  app.use('*', cors({ origin: '*', allowMethods: ['GET', 'POST', 'OPTIONS'], allowHeaders: ['content-type'] }));
  for (const row of CONTROLS) {
    app.on(row.method, row.path, async (c) => jsonResponse(200, (await row.run(target, c.req.param(), c.req.raw, limits)) ?? { ok: true }));
  }
  refuseOtherMethods(app, CONTROLS, (allowed, c) => `use ${allowed} for ${c.req.path}`);
  app.all('*', (c) => {
    throw new MockControlError(404, 'not_found', `no control at ${c.req.path}`);
  });
  app.onError((error) => {
    if (error instanceof MockControlError)
      return jsonResponse(error.status, { error: { code: error.code, message: error.message } }, error.headers);
    throw error;
  });
  return app;
};
