/**
 * The test controls under `/__mock` (only with `controls: true`): unsigned, JSON, and each a
 * thin wrapper around the method of the same meaning on the service object. The real service
 * has no such path. Answers allow any origin, so a demo page on another port can drive them.
 */
import * as z from 'zod/mini';
import { safeParse } from '../schemas/index.js';
import { errorBody } from './assumptions.js';
import { MockControlError, MockHttpError, errorResponse, jsonResponse, parseJson, readBodyText } from './http.js';
import type { MockService } from './service.js';

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
const EmptySchema = z.strictObject({});

/** What `GET /__mock` lists. */
export const CONTROL_ROUTES = [
  'GET  /__mock/invoices                     every invoice (lookup form)',
  'GET  /__mock/invoices/{id}                one invoice (lookup form)',
  'POST /__mock/invoices/{id}/paid           new → paid',
  'POST /__mock/invoices/{id}/expire         new → expired, now',
  'POST /__mock/invoices/{id}/deal           start a deal; body {"option"?, "method"?}',
  'POST /__mock/latency                      body {"ms"}: delay every API answer',
  'POST /__mock/fail                         body {"count"?: 1, "status"?: 500}: fail the next requests',
  'POST /__mock/hang                         body {"count"?: 1}: never answer the next requests',
  'POST /__mock/malform                      body {"count"?: 1}: answer the next requests with broken JSON',
  'POST /__mock/reset                        clear faults and latency',
  'GET  /__mock/requests                     every API request received',
  'GET  /__mock/notifications                every notification and its attempts',
] as const;

const body = async <Schema extends z.ZodMiniType>(request: Request, schema: Schema, limit: number): Promise<z.output<Schema>> => {
  const text = await readBodyText(request, limit);
  const value = text.trim() === '' ? {} : parseJson(text);
  const parsed = safeParse(schema, value);
  if (!parsed.success) throw new MockHttpError('validation_failed', parsed.message, { issues: parsed.issues });
  return parsed.data;
};

export const handleControl = async (service: MockService, request: Request, path: string, limit: number): Promise<Response> => {
  const method = request.method.toUpperCase();
  if (method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS });
  const ok = (value: unknown = { ok: true }) => jsonResponse(200, value, CORS);
  const segments = path.split('/').filter(Boolean);
  const want = (allowed: 'GET' | 'POST') => {
    if (method !== allowed) {
      throw new MockHttpError('method_not_allowed', `use ${allowed} for /__mock${path}`, { headers: { allow: allowed } });
    }
  };
  const invoice = (id: string) => {
    const found = service.getInvoice(id);
    if (!found) throw new MockControlError(404, 'not_found', `no invoice ${id}`);
    return found;
  };

  try {
    const [first, id, action, ...rest] = segments;
    if (rest.length) throw new MockHttpError('not_found', `no control at /__mock${path}`);
    if (first === undefined) {
      want('GET');
      return ok({ controls: CONTROL_ROUTES });
    }
    if (first === 'invoices' && id === undefined) {
      want('GET');
      return ok(service.listInvoices());
    }
    if (first === 'invoices' && id !== undefined && action === undefined) {
      want('GET');
      return ok(invoice(id));
    }
    if (first === 'invoices' && id !== undefined) {
      want('POST');
      if (action === 'paid') {
        await body(request, EmptySchema, limit);
        service.markPaid(id);
      } else if (action === 'expire') {
        await body(request, EmptySchema, limit);
        service.expire(id);
      } else if (action === 'deal') {
        service.startDeal(id, await body(request, DealSchema, limit));
      } else {
        throw new MockHttpError('not_found', `no control at /__mock${path}`);
      }
      return ok(invoice(id));
    }
    if (id !== undefined) throw new MockHttpError('not_found', `no control at /__mock${path}`);
    switch (first) {
      case 'latency':
        want('POST');
        service.setLatency((await body(request, LatencySchema, limit)).ms);
        return ok();
      case 'fail': {
        want('POST');
        const { count: times = 1, status } = await body(request, FailSchema, limit);
        service.failNext(times, status);
        return ok();
      }
      case 'hang':
        want('POST');
        service.hangNext((await body(request, CountSchema, limit)).count ?? 1);
        return ok();
      case 'malform':
        want('POST');
        service.malformNext((await body(request, CountSchema, limit)).count ?? 1);
        return ok();
      case 'reset':
        want('POST');
        await body(request, EmptySchema, limit);
        service.reset();
        return ok();
      case 'requests':
        want('GET');
        return ok(service.requests);
      case 'notifications':
        want('GET');
        return ok(service.notifications);
      default:
        throw new MockHttpError('not_found', `no control at /__mock${path}`);
    }
  } catch (error) {
    if (error instanceof MockHttpError) return errorResponse(error, CORS);
    if (error instanceof MockControlError) return jsonResponse(error.status, errorBody(error.code, error.message), CORS);
    throw error;
  }
};
