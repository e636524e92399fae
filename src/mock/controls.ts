/**
 * The test controls under `/__mock` (only with `controls: true`): unsigned, JSON, each a thin
 * wrapper around the method of the same meaning on the service object, which it gets as a
 * `ControlTarget` (so this module does not import service.ts). The real service has no such
 * path. Answers allow any origin, so a demo page on another port can drive them.
 * Imports errors.ts, http.ts, routes.ts, Hono and the shared schemas' `safeParse`.
 */
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import * as z from 'zod/mini';
import { safeParse } from '../schemas/index.js';
import { MockControlError } from './errors.js';
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
  openDispute(id: string, dispute?: { reason?: 'no_payment' | 'invalid_sum'; amount?: string }): void;
  resolveDispute(id: string, outcome: 'paid' | 'canceled'): void;
  setNoRequisites(methods: readonly string[]): void;
  setLatency(ms: number): void;
  failNext(count: number, status?: number): void;
  hangNext(count: number): void;
  malformNext(count: number): void;
  reset(): void;
  advanceClock(ms: number): Promise<void>;
  now(): string;
  dump(): unknown;
}

const count = z.optional(z.int().check(z.nonnegative(), z.lte(10_000)));
const CountSchema = z.strictObject({ count });
const FailSchema = z.strictObject({ count, status: z.optional(z.int().check(z.gte(400), z.lte(599))) });
const LatencySchema = z.strictObject({ ms: z.number().check(z.nonnegative(), z.lte(600_000)) });
const DealSchema = z.strictObject({ option: z.optional(z.string().check(z.minLength(1))), method: z.optional(z.string().check(z.minLength(1))) });
const DisputeSchema = z.strictObject({ reason: z.optional(z.enum(['no_payment', 'invalid_sum'])), amount: z.optional(z.string()) });
const ResolveSchema = z.strictObject({ outcome: z.enum(['paid', 'canceled']) });
const ClockSchema = z.strictObject({ advanceMs: z.number().check(z.nonnegative(), z.lte(365 * 86_400_000)) });
const NoRequisitesSchema = z.strictObject({ methods: z.array(z.string()) });
const EmptySchema = z.strictObject({});

/** What `GET /__mock` lists. */
export const CONTROL_ROUTES = [
  'GET  /__mock/invoices                     every invoice (lookup form)',
  'GET  /__mock/invoices/{id}                one invoice (lookup form)',
  'POST /__mock/invoices/{id}/paid           new or dispute → paid',
  'POST /__mock/invoices/{id}/expire         new → expired, now',
  'POST /__mock/invoices/{id}/deal           start a deal; body {"option"?, "method"?}',
  'POST /__mock/invoices/{id}/confirm        the payer confirmed the transfer: deal → transfer_confirmed',
  'POST /__mock/invoices/{id}/dispute        open a dispute; body {"reason"?, "amount"?}',
  'POST /__mock/invoices/{id}/resolve        decide a dispute; body {"outcome": "paid" | "canceled"}',
  'POST /__mock/no-requisites                body {"methods": [...]} ("*" for all): banks without free requisites',
  'GET  /__mock/clock                        the mock clock',
  'POST /__mock/clock                        body {"advanceMs"}: move the clock on (expiries, notification retries)',
  'GET  /__mock/state                        the state, in the fixtures format',
  'POST /__mock/latency                      body {"ms"}: delay every API answer',
  'POST /__mock/fail                         body {"count"?: 1, "status"?: 500}: fail the next requests',
  'POST /__mock/hang                         body {"count"?: 1}: never answer the next requests',
  'POST /__mock/malform                      body {"count"?: 1}: answer the next requests with broken JSON',
  'POST /__mock/reset                        clear faults and latency',
  'GET  /__mock/requests                     every API request received',
  'GET  /__mock/notifications                every notification and its attempts',
] as const;

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
  /** What it answers (`{ok: true}` for nothing); a POST gets its parsed body. */
  run: (target: ControlTarget, params: Record<string, string>, request: Request, limits: ControlLimits) => unknown;
}

const get = (path: string, run: (target: ControlTarget, params: Record<string, string>) => unknown): ControlRow => ({ method: 'GET', path, run });

const post = <Schema extends z.ZodMiniType>(path: string, schema: Schema, run: (target: ControlTarget, body: z.output<Schema>, params: Record<string, string>) => unknown): ControlRow => ({
  method: 'POST',
  path,
  run: async (target, params, request, limits) => run(target, await parsed(request, schema, limits), params),
});

const invoice = (target: ControlTarget, id = ''): unknown => {
  const found = target.getInvoice(id);
  if (found === undefined) throw new MockControlError(404, 'not_found', `no invoice ${id}`);
  return found;
};

/** `POST /invoices/:id/<action>`: does it, then answers the invoice. */
const invoiceAction = <Schema extends z.ZodMiniType>(action: string, schema: Schema, run: (target: ControlTarget, id: string, body: z.output<Schema>) => void): ControlRow =>
  post(`/invoices/:id/${action}`, schema, (target, body, { id = '' }) => {
    run(target, id, body);
    return invoice(target, id);
  });

/** One row per control, the same list `CONTROL_ROUTES` describes. */
const CONTROLS: readonly ControlRow[] = [
  get('/', () => ({ controls: CONTROL_ROUTES })),
  get('/invoices', (t) => t.listInvoices()),
  get('/invoices/:id', (t, p) => invoice(t, p.id)),
  invoiceAction('paid', EmptySchema, (t, id) => t.markPaid(id)),
  invoiceAction('expire', EmptySchema, (t, id) => t.expire(id)),
  invoiceAction('confirm', EmptySchema, (t, id) => t.confirmTransfer(id)),
  invoiceAction('deal', DealSchema, (t, id, deal) => t.startDeal(id, deal)),
  invoiceAction('dispute', DisputeSchema, (t, id, dispute) => t.openDispute(id, dispute)),
  invoiceAction('resolve', ResolveSchema, (t, id, { outcome }) => t.resolveDispute(id, outcome)),
  post('/no-requisites', NoRequisitesSchema, (t, { methods }) => t.setNoRequisites(methods)),
  get('/clock', (t) => ({ now: t.now() })),
  post('/clock', ClockSchema, async (t, { advanceMs }) => (await t.advanceClock(advanceMs), { now: t.now() })),
  get('/state', (t) => t.dump()),
  post('/latency', LatencySchema, (t, { ms }) => t.setLatency(ms)),
  post('/fail', FailSchema, (t, { count = 1, status }) => t.failNext(count, status)),
  post('/hang', CountSchema, (t, { count = 1 }) => t.hangNext(count)),
  post('/malform', CountSchema, (t, { count = 1 }) => t.malformNext(count)),
  post('/reset', EmptySchema, (t) => t.reset()),
  get('/requests', (t) => t.requests),
  get('/notifications', (t) => t.notifications),
];

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
    if (error instanceof MockControlError) return jsonResponse(error.status, { error: { code: error.code, message: error.message } }, error.headers);
    throw error;
  });
  return app;
};
