/**
 * Installed before any script of the leak page: counts what is alive at a given moment.
 *
 * - timers: `setTimeout`s not yet fired or cleared, `setInterval`s not cleared,
 *   `requestAnimationFrame`s not yet run or cancelled;
 * - requests: `fetch` calls not yet settled, and answers whose body was not read to the end;
 * - listeners: registered and not removed, on `window`, `document` and every
 *   `<merchant-checkout>` (including `once` listeners not yet fired and `signal` ones not yet
 *   aborted), counted without holding the elements (a WeakMap per target).
 *
 * `window.__leaks.snapshot()` returns the counts.
 */
(() => {
  const live = { timeouts: new Set(), intervals: new Set(), frames: new Set() };
  const counts = { fetchPending: 0, bodiesUnread: 0, fetches: 0, listeners: { window: 0, document: 0, element: 0 } };

  const { setTimeout: nativeSetTimeout, clearTimeout: nativeClearTimeout } = window;
  const { setInterval: nativeSetInterval, clearInterval: nativeClearInterval } = window;
  const { requestAnimationFrame: nativeRaf, cancelAnimationFrame: nativeCancelRaf } = window;

  window.setTimeout = function (callback, delay, ...args) {
    const id = nativeSetTimeout.call(
      window,
      (...callArgs) => {
        live.timeouts.delete(id);
        if (typeof callback === 'function') callback(...callArgs);
      },
      delay,
      ...args,
    );
    live.timeouts.add(id);
    return id;
  };
  window.clearTimeout = function (id) {
    live.timeouts.delete(id);
    live.intervals.delete(id);
    nativeClearTimeout.call(window, id);
  };
  window.setInterval = function (callback, delay, ...args) {
    const id = nativeSetInterval.call(window, callback, delay, ...args);
    live.intervals.add(id);
    return id;
  };
  window.clearInterval = function (id) {
    live.intervals.delete(id);
    live.timeouts.delete(id);
    nativeClearInterval.call(window, id);
  };
  window.requestAnimationFrame = function (callback) {
    const id = nativeRaf.call(window, (time) => {
      live.frames.delete(id);
      callback(time);
    });
    live.frames.add(id);
    return id;
  };
  window.cancelAnimationFrame = function (id) {
    live.frames.delete(id);
    nativeCancelRaf.call(window, id);
  };

  const nativeFetch = window.fetch;
  window.fetch = function (...args) {
    counts.fetches++;
    counts.fetchPending++;
    return nativeFetch.apply(window, args).then(
      (response) => {
        counts.fetchPending--;
        if (response.body) {
          counts.bodiesUnread++;
          const settle = () => counts.bodiesUnread--;
          // Each reader of the body is counted once, when it finishes one way or the other.
          for (const method of ['text', 'json', 'arrayBuffer', 'blob', 'formData']) {
            const read = response[method];
            response[method] = function (...readArgs) {
              return read.apply(this, readArgs).finally(settle);
            };
          }
        }
        return response;
      },
      (error) => {
        counts.fetchPending--;
        throw error;
      },
    );
  };

  /** Which bucket a target's listeners count in; undefined for targets not watched. */
  const bucketOf = (target) => {
    if (target === window) return 'window';
    if (target === document) return 'document';
    if (target instanceof Element && target.localName === 'merchant-checkout') return 'element';
    return undefined;
  };
  const registrations = new WeakMap();
  const keyOf = (type, options) => `${type}|${typeof options === 'boolean' ? options : Boolean(options && options.capture)}`;
  const nativeAdd = EventTarget.prototype.addEventListener;
  const nativeRemove = EventTarget.prototype.removeEventListener;

  const forget = (target, key, listener) => {
    const byKey = registrations.get(target);
    const entry = byKey?.get(key)?.get(listener);
    if (!entry) return;
    byKey.get(key).delete(listener);
    counts.listeners[entry.bucket]--;
    if (entry.onceHelper) nativeRemove.call(target, entry.type, entry.onceHelper, entry.capture);
  };

  EventTarget.prototype.addEventListener = function (type, listener, options) {
    nativeAdd.call(this, type, listener, options);
    const bucket = bucketOf(this);
    if (!bucket || !listener) return;
    const signal = typeof options === 'object' && options ? options.signal : undefined;
    if (signal?.aborted) return;
    const key = keyOf(type, options);
    if (!registrations.has(this)) registrations.set(this, new Map());
    const byKey = registrations.get(this);
    if (!byKey.has(key)) byKey.set(key, new Map());
    if (byKey.get(key).has(listener)) return;
    const capture = typeof options === 'boolean' ? options : Boolean(options && options.capture);
    const entry = { bucket, type, capture, onceHelper: undefined };
    byKey.get(key).set(listener, entry);
    counts.listeners[bucket]++;
    if (typeof options === 'object' && options && options.once) {
      // Added after the listener, so it runs right after the browser dropped that one.
      entry.onceHelper = () => forget(this, key, listener);
      nativeAdd.call(this, type, entry.onceHelper, { capture, once: true });
    }
    signal?.addEventListener('abort', () => forget(this, key, listener), { once: true });
  };
  EventTarget.prototype.removeEventListener = function (type, listener, options) {
    nativeRemove.call(this, type, listener, options);
    if (bucketOf(this) && listener) forget(this, keyOf(type, options), listener);
  };

  window.__leaks = {
    snapshot: () => ({
      timeouts: live.timeouts.size,
      intervals: live.intervals.size,
      animationFrames: live.frames.size,
      fetchPending: counts.fetchPending,
      bodiesUnread: counts.bodiesUnread,
      fetches: counts.fetches,
      listeners: { ...counts.listeners },
      elementsInDocument: document.querySelectorAll('merchant-checkout').length,
    }),
  };
})();
