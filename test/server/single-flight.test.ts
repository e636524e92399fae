/**
 * `createSingleFlight` on its own: concurrent callers share one call; each waits only as long
 * as its signal lets it; the call is aborted once every caller has gone; nothing is left
 * listening on a caller's signal once it has its answer.
 */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, test } from 'node:test';
import { createSingleFlight } from '../../src/server/single-flight.js';

/** A call the test settles by hand, counting how often it was started and seeing its signal. */
const manual = <T>() => {
  let starts = 0;
  let settle: { resolve: (value: T) => void; reject: (error: unknown) => void } | undefined;
  let signal: AbortSignal | undefined;
  const work = (given: AbortSignal) => {
    starts++;
    signal = given;
    return new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
  };
  return { work, starts: () => starts, settle: () => settle!, signal: () => signal! };
};

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('single flight', () => {
  test('concurrent callers of one key share one call; another key or scope has its own', async () => {
    const flight = createSingleFlight();
    const scope = {};
    const call = manual<string>();
    const answers = Promise.all([1, 2, 3].map(() => flight(scope, 'a', new AbortController().signal, call.work)));
    const other = manual<string>();
    const elsewhere = flight({}, 'a', undefined, other.work);
    await tick();
    assert.equal(call.starts(), 1);
    assert.equal(other.starts(), 1);
    call.settle().resolve('one');
    other.settle().resolve('two');
    assert.deepEqual(await answers, ['one', 'one', 'one']);
    assert.equal(await elsewhere, 'two');
    // Settled: the next caller starts a fresh call.
    const again = manual<string>();
    const next = flight(scope, 'a', undefined, again.work);
    await tick();
    again.settle().resolve('three');
    assert.equal(await next, 'three');
  });

  test('a caller leaving gets its reason at once, and the others keep waiting for the call', async () => {
    const flight = createSingleFlight();
    const scope = {};
    const call = manual<string>();
    const leaving = new AbortController();
    const gone = flight(scope, 'a', leaving.signal, call.work);
    const stays = flight(scope, 'a', new AbortController().signal, call.work);
    await tick();
    leaving.abort(new Error('left'));
    await assert.rejects(gone, /left/);
    assert.equal(call.signal().aborted, false, 'another caller still waits');
    call.settle().resolve('answer');
    assert.equal(await stays, 'answer');
    assert.equal(call.starts(), 1);
  });

  test('the call is aborted with the last caller’s reason once every caller has gone', async () => {
    const flight = createSingleFlight();
    const scope = {};
    const call = manual<string>();
    const first = new AbortController();
    const second = new AbortController();
    const a = flight(scope, 'k', first.signal, call.work);
    const b = flight(scope, 'k', second.signal, call.work);
    await tick();
    first.abort(new Error('first left'));
    await assert.rejects(a, /first left/);
    assert.equal(call.signal().aborted, false);
    second.abort(new Error('second left'));
    await assert.rejects(b, /second left/);
    assert.equal(call.signal().aborted, true);
    assert.match(String((call.signal().reason as Error).message), /second left/);
    // Its late rejection is nobody's: no unhandled rejection.
    call.settle().reject(new Error('aborted'));
    await tick();
    // A new caller does not join the abandoned call.
    const fresh = manual<string>();
    const c = flight(scope, 'k', undefined, fresh.work);
    await tick();
    assert.equal(fresh.starts(), 1);
    fresh.settle().resolve('fresh');
    assert.equal(await c, 'fresh');
  });

  test('a caller whose signal has aborted already is refused without a call', async () => {
    const flight = createSingleFlight();
    const call = manual<string>();
    await assert.rejects(flight({}, 'a', AbortSignal.abort(new Error('too late')), call.work), /too late/);
    await tick();
    // Nobody waits for the call started for it: it is aborted as soon as it starts.
    assert.equal(call.signal().aborted, true);
  });

  test('a caller without a signal waits until the call settles; a rejection that is no Error becomes one', async () => {
    const flight = createSingleFlight();
    const call = manual<string>();
    const waiting = flight({}, 'a', undefined, call.work);
    await tick();
    call.settle().reject('plain text');
    await assert.rejects(waiting, (error: unknown) => error instanceof Error && error.message === 'plain text');
  });

  test('nothing stays listening on a caller’s signal once it has its answer', async () => {
    const flight = createSingleFlight();
    const scope = {};
    const call = manual<string>();
    const signals = [new AbortController().signal, new AbortController().signal];
    const answers = signals.map((signal) => flight(scope, 'a', signal, call.work));
    await tick();
    assert.equal(call.starts(), 1);
    for (const signal of signals) assert.equal(getEventListeners(signal, 'abort').length, 1);
    call.settle().resolve('done');
    await Promise.allSettled(answers);
    for (const signal of signals) assert.equal(getEventListeners(signal, 'abort').length, 0);
  });
});
