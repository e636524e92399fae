/**
 * Single flight: concurrent reads of the same thing (a burst of payers polling one invoice,
 * reconnecting streams, the refresher) make one upstream call, and its answer serves every
 * caller. Each caller waits only as long as its own signal lets it; the shared call is
 * aborted once every caller has gone (so a payer leaving, or a time budget running out,
 * still closes the upstream request when nobody else waits for it).
 */
interface Flight<T> {
  promise: Promise<T>;
  controller: AbortController;
  waiting: number;
}

export type SingleFlight = <T>(
  scope: object,
  key: string,
  signal: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
) => Promise<T>;

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
      // Also marks the call's rejection handled: every caller may have left before it settles.
      const forget = () => {
        if (table.get(key) === started) table.delete(key);
      };
      started.promise.then(forget, forget);
      table.set(key, started);
      flight = started;
    }
    const joined = flight;
    joined.waiting++;
    const failed = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));
    // A caller without a signal (the refresher) waits until the call settles.
    if (!signal) return joined.promise.catch((error: unknown) => Promise.reject(failed(error)));
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
    // One listener and one reaction per caller: leaving and answering the caller are the same event.
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        leave();
        reject(own.reason as Error);
      };
      own.addEventListener('abort', onAbort, { once: true });
      joined.promise.then(
        (value) => {
          own.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          own.removeEventListener('abort', onAbort);
          reject(failed(error));
        },
      );
    });
  };
};
