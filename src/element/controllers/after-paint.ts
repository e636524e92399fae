/**
 * Work that must not delay the first screen: `afterPaint(callback)` runs `callback` once the
 * browser has drawn what is rendered now — the next frame, then a task after it (a message
 * rather than a timer: no timer is left behind by an element taken off the page, and fake
 * timers in tests leave it alone). A hidden tab draws no frame: the work waits until the tab is
 * shown. Nothing runs once `signal` has aborted.
 *
 * The QR encoder, the lettermarks, the bank names and the page's first `Intl.NumberFormat` come
 * this way: on a phone they would otherwise share the network and the CPU with the requisites'
 * first render (BENCHMARKS.md, section 12).
 */
export const afterPaint = (callback: () => void, signal?: AbortSignal): void => {
  const run = (): void => {
    if (!signal?.aborted) callback();
  };
  if (typeof requestAnimationFrame !== 'function' || typeof MessageChannel !== 'function') {
    queueMicrotask(run);
    return;
  }
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      run();
    };
    channel.port2.postMessage(undefined);
  });
};
