/**
 * The test controls under `/__mock` (only with `controls: true`): unsigned, JSON, each a thin
 * wrapper around the method of the same meaning on the service object, which it gets as a
 * `ControlTarget` (so this module does not import service.ts). The real service has no such
 * path. Answers allow any origin, so a demo page on another port can drive them.
 * Imports errors.ts, http.ts and the shared schemas' `safeParse`.
 */
import * as z from 'zod/mini';
import { safeParse } from '../schemas/index.js';
import { MockControlError } from './errors.js';
import { jsonResponse, parseJson, readBytes } from './http.js';

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

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type',
};

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

const body = async <Schema extends z.ZodMiniType>(request: Request, schema: Schema, limit: number): Promise<z.output<Schema>> => {
  const text = new TextDecoder().decode(await readBytes(request, limit));
  const value = text.trim() === '' ? {} : parseJson(text);
  const parsed = safeParse(schema, value);
  if (!parsed.success) throw new MockControlError(400, 'validation_failed', parsed.message);
  return parsed.data;
};

const notHere = (path: string) => new MockControlError(404, 'not_found', `no control at /__mock${path}`);

export const handleControl = async (target: ControlTarget, request: Request, path: string, limit: number): Promise<Response> => {
  const method = request.method.toUpperCase();
  if (method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS });
  const ok = (value: unknown = { ok: true }) => jsonResponse(200, value, CORS);
  const want = (allowed: 'GET' | 'POST') => {
    if (method !== allowed) throw new MockControlError(405, 'method_not_allowed', `use ${allowed} for /__mock${path}`, { headers: { allow: allowed } });
  };
  const invoice = (id: string) => {
    const found = target.getInvoice(id);
    if (found === undefined) throw new MockControlError(404, 'not_found', `no invoice ${id}`);
    return found;
  };
  const [first, id, action, ...rest] = path.split('/').filter(Boolean);
  try {
    if (rest.length) throw notHere(path);
    if (first === undefined) return want('GET'), ok({ controls: CONTROL_ROUTES });
    if (first === 'invoices' && id === undefined) return want('GET'), ok(target.listInvoices());
    if (first === 'invoices' && id !== undefined && action === undefined) return want('GET'), ok(invoice(id));
    if (first === 'invoices' && id !== undefined) {
      want('POST');
      const simpleActions = { paid: (i: string) => target.markPaid(i), expire: (i: string) => target.expire(i), confirm: (i: string) => target.confirmTransfer(i) };
      const simple = action && Object.hasOwn(simpleActions, action) ? simpleActions[action as keyof typeof simpleActions] : undefined;
      if (simple) {
        await body(request, EmptySchema, limit);
        simple(id);
      } else if (action === 'deal') target.startDeal(id, await body(request, DealSchema, limit));
      else if (action === 'dispute') target.openDispute(id, await body(request, DisputeSchema, limit));
      else if (action === 'resolve') target.resolveDispute(id, (await body(request, ResolveSchema, limit)).outcome);
      else throw notHere(path);
      return ok(invoice(id));
    }
    if (id !== undefined) throw notHere(path);
    switch (first) {
      case 'clock':
        if (method === 'POST') await target.advanceClock((await body(request, ClockSchema, limit)).advanceMs);
        else want('GET');
        return ok({ now: target.now() });
      case 'state':
        return want('GET'), ok(target.dump());
      case 'no-requisites':
        want('POST');
        target.setNoRequisites((await body(request, NoRequisitesSchema, limit)).methods);
        return ok();
      case 'latency':
        want('POST');
        target.setLatency((await body(request, LatencySchema, limit)).ms);
        return ok();
      case 'fail': {
        want('POST');
        const { count: times = 1, status } = await body(request, FailSchema, limit);
        target.failNext(times, status);
        return ok();
      }
      case 'hang':
        want('POST');
        target.hangNext((await body(request, CountSchema, limit)).count ?? 1);
        return ok();
      case 'malform':
        want('POST');
        target.malformNext((await body(request, CountSchema, limit)).count ?? 1);
        return ok();
      case 'reset':
        want('POST');
        await body(request, EmptySchema, limit);
        target.reset();
        return ok();
      case 'requests':
        return want('GET'), ok(target.requests);
      case 'notifications':
        return want('GET'), ok(target.notifications);
      default:
        throw notHere(path);
    }
  } catch (error) {
    if (error instanceof MockControlError) return jsonResponse(error.status, { error: { code: error.code, message: error.message } }, { ...error.headers, ...CORS });
    throw error;
  }
};
