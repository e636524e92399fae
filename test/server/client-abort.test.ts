/**
 * A payer who goes away while the proxy is still signing its upstream request aborts that
 * request before `fetch` is even called. The `fetch` promise then rejects with the abort
 * reason; if nobody handles it, Node ends the merchant's whole process (an unhandled
 * rejection). Found by the proxy benchmark (bench/proxy.ts): autocannon closing its
 * connections at the end of a round killed the proxy.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abortable } from '../../src/server/http/body.js';
import { MerchantClient } from '../../src/server/client/merchant-client.js';

const unhandledDuring = async (work: () => Promise<unknown>): Promise<unknown[]> => {
  const seen: unknown[] = [];
  const onUnhandled = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    await work();
    // Unhandled rejections are reported after the microtask queue drains.
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
  return seen;
};

test('abortable: a work promise that rejects after the signal aborted is not left unhandled', async () => {
  const unhandled = await unhandledDuring(async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    const work = new Promise((_, reject) => setTimeout(() => reject(new Error('late failure')), 1));
    await assert.rejects(abortable(work, controller.signal), /gone/);
    await new Promise((resolve) => setTimeout(resolve, 5));
  });
  assert.deepEqual(unhandled, []);
});

test('a caller abort during signing: the request is refused and no rejection escapes', async () => {
  let fetched = 0;
  const client = new MerchantClient({
    baseUrl: 'https://pay.example',
    apiKey: 'key',
    secretKey: 'secret',
    // Like undici's fetch: a Request whose signal is already aborted rejects with its reason.
    fetch: (request) => {
      fetched++;
      return request.signal.aborted ? Promise.reject(request.signal.reason as Error) : new Promise<Response>(() => undefined);
    },
  });
  const unhandled = await unhandledDuring(async () => {
    const controller = new AbortController();
    const call = client.getInvoiceByInternalId('order-1', { signal: controller.signal });
    controller.abort(new Error('client closed the connection'));
    await assert.rejects(call, { name: 'MerchantNetworkError' });
  });
  assert.deepEqual(unhandled, []);
  assert.ok(fetched <= 1);
});
