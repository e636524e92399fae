/**
 * Single flight: concurrent reads of the same thing (a burst of payers polling one invoice,
 * reconnecting streams, the refresher) make one upstream call, and its answer serves every
 * caller. Each caller waits only as long as its own signal lets it; the shared call is
 * aborted once every caller has gone (so a payer leaving, or a time budget running out,
 * still closes the upstream request when nobody else waits for it).
 */
import { abortable } from './body.js';

interface Flight<T> {
  promise: Promise<T>;
  controller: AbortController;
  waiting: number;
}

export type SingleFlight = <T>(scope: object, key: string, signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>) => Promise<T>;

/**
 * `flight(scope, key, signal, work)`: joins the call of `work` in flight for `scope` (e.g. the
 * terminal's client) and `key` (the invoice id), or starts one.
 */
export const createSingleFlight = (): SingleFlight => {
  const byScope = new WeakMap<object, Map<string, Flight<unknown>>>();
  return <T>(scope: object, key: string, signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    let flights = byScope.get(scope);
    if (!flights) {
      flights = new Map();
      byScope.set(scope, flights);
    }
    const table = flights;
    let flight = table.get(key) as Flight<T> | undefined;
    if (!flight) {
      const controller = new AbortController();
      const started: Flight<T> = { promise: Promise.resolve().then(() => work(controller.signal)), controller, waiting: 0 };
      const forget = () => {
        if (table.get(key) === started) table.delete(key);
      };
      started.promise.then(forget, forget);
      // Every caller may have left before it settles.
      started.promise.catch(() => undefined);
      table.set(key, started);
      flight = started;
    }
    // A caller without a signal (the refresher) waits until the call settles.
    signal ??= new AbortController().signal;
    const joined = flight;
    joined.waiting++;
    const own = signal;
    const leave = () => {
      joined.waiting--;
      if (joined.waiting === 0 && !joined.controller.signal.aborted) {
        // Nobody waits any more: cancel the call, and let the next caller start a fresh one.
        if (table.get(key) === joined) table.delete(key);
        joined.controller.abort(own.reason);
      }
    };
    if (own.aborted) {
      leave();
      return Promise.reject(own.reason as Error);
    }
    own.addEventListener('abort', leave, { once: true });
    const settled = () => own.removeEventListener('abort', leave);
    joined.promise.then(settled, settled);
    return abortable(joined.promise, own);
  };
};
