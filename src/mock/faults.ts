/**
 * Injected faults of the API: latency before every answer, and the next answers failed, hung
 * or malformed. Waits end early when the request aborts or the mock closes. Imports http.ts.
 */
import { MockControlError, jsonResponse, textResponse } from './http.js';

export type Fault = ({ kind: 'fail'; status: number } | { kind: 'hang' } | { kind: 'malform' }) & FaultScope;

/**
 * Which requests a fault waits for: with `invoiceId`, only a request about that invoice (its
 * id is the path segment after `invoices/`), so other traffic (a reconciler reading by internal
 * id, another payer's page) does not use it up; without, the next request of any kind.
 */
export interface FaultScope {
  /** The invoice (the service's id) whose requests the fault waits for. */
  invoiceId?: string | undefined;
}

/** The invoice id a request's path names (`…/invoices/{id}…`), or undefined. */
const invoiceIdOf = (request: Request): string | undefined => {
  const segment = /\/invoices\/([^/]+)/.exec(new URL(request.url).pathname)?.[1];
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** A broken answer from `malformNext`: valid-looking JSON cut in the middle. */
export const MALFORMED_BODY = '{"id":"6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b","status":"new","sum":{"amount":"15';

const checkCount = (name: string, count: number): number => {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`${name}: count must be a non-negative integer, got ${count}`);
  return count;
};

export class Faults {
  latencyMs = 0;
  readonly #queue: Fault[] = [];
  readonly #waits = new Set<(reason: Error) => void>();

  setLatency(ms: number): void {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError(`setLatency: ms must be a finite number ≥ 0, got ${ms}`);
    this.latencyMs = ms;
  }

  push(name: string, count: number, fault: Fault): void {
    for (let i = 0; i < checkCount(name, count); i++) this.#queue.push(fault);
  }

  reset(): void {
    this.#queue.length = 0;
    this.latencyMs = 0;
  }

  close(): void {
    this.reset();
    for (const cancel of [...this.#waits]) cancel(new Error('mock service closed'));
  }

  /**
   * Applies latency and the next fault: answers the faulty response, or undefined to go on.
   * A hang waits until the request aborts or the mock closes (then rejects).
   */
  async before(request: Request, format: 'documented' | 'legacy'): Promise<Response | undefined> {
    if (this.latencyMs > 0) await this.#wait(this.latencyMs, request.signal);
    const fault = this.#take(request);
    if (!fault) return undefined;
    if (fault.kind === 'hang') await this.#wait(Infinity, request.signal);
    await request.body?.cancel().catch(() => undefined);
    if (fault.kind === 'malform') return textResponse(200, MALFORMED_BODY);
    if (fault.kind === 'fail') {
      const message = `failure injected by the mock's failNext control (HTTP ${fault.status})`;
      return format === 'legacy'
        ? jsonResponse(fault.status, { error: { code: 'injected_failure', message } })
        : jsonResponse(fault.status, [{ message }]);
    }
    throw new MockControlError(500, 'internal', 'unknown fault');
  }

  /** Removes and answers the first queued fault for this request, if any. */
  #take(request: Request): Fault | undefined {
    const index = this.#queue.findIndex((fault) => fault.invoiceId === undefined || fault.invoiceId === invoiceIdOf(request));
    return index < 0 ? undefined : this.#queue.splice(index, 1)[0];
  }

  #wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const cancel = (reason: Error) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#waits.delete(cancel);
        reject(reason);
      };
      const onAbort = () => cancel(signal?.reason instanceof Error ? signal.reason : new Error('request aborted'));
      const timer =
        ms === Infinity
          ? undefined
          : setTimeout(() => {
              signal?.removeEventListener('abort', onAbort);
              this.#waits.delete(cancel);
              resolve();
            }, ms);
      this.#waits.add(cancel);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
