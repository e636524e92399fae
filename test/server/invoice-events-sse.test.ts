/**
 * The event stream's own parts, without the proxy around them: the SSE framing (the same
 * bytes as Hono's `writeSSE`, which it replaced), a slow reader getting only the newest state,
 * one heartbeat timer for every stream of a handler, and the end of a stream on abort.
 */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, test } from 'node:test';
import type { Context } from 'hono';
import { SSEStreamingApi, type SSEMessage } from 'hono/streaming';
import { GetInvoiceResponseSchema, safeParse, type Invoice } from '../../src/schemas/index.js';
import type { MerchantClient } from '../../src/server/client/merchant-client.js';
import { createInvoiceEvents, sseComment, sseEvent, type CheckoutEventsOptions } from '../../src/server/events/invoice-events.js';
import { createMemoryStore } from '../../src/server/store/memory.js';
import { INVOICE_ID, exampleLookupInvoice } from '../fixtures/dto.js';
import { readSse } from '../support/sse.js';

/** What Hono's `writeSSE` writes for `message`. */
const honoFraming = async (message: SSEMessage): Promise<string> => {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const api = new SSEStreamingApi(writable, readable);
  const written = api.writeSSE(message);
  const reader = (api.responseReadable as ReadableStream<Uint8Array>).getReader();
  const { value } = await reader.read();
  await written;
  return new TextDecoder().decode(value);
};

describe('SSE framing', () => {
  const messages: SSEMessage[] = [
    { event: 'invoice', id: '1732390000000-0123456789abcdef', data: '{"id":"x","status":"new"}', retry: 3000 },
    { data: 'one line' },
    { data: '' },
    { event: 'invoice', data: 'first\nsecond\r\nthird\rfourth' },
    { id: '', data: 'empty id', retry: 0 },
    { event: '', id: '7', data: 'no event name' },
    { event: 'a b', data: 'x' },
  ];
  for (const message of messages) {
    test(`the same bytes as Hono's writeSSE: ${JSON.stringify(message)}`, async () => {
      assert.equal(sseEvent({ ...message, data: message.data as string }), await honoFraming(message));
    });
  }

  test('an event name or id with a line break throws, as in Hono', () => {
    for (const message of [
      { event: 'in\nvoice', data: 'x' },
      { id: '1\r2', data: 'x' },
    ]) {
      assert.throws(() => sseEvent(message), /must not contain/);
    }
  });

  test('a comment line', () => {
    assert.equal(sseComment('heartbeat'), ': heartbeat\n\n');
    assert.throws(() => sseComment('two\nlines'), /must not contain/);
  });
});

const parse = (overrides: Record<string, unknown> = {}): Invoice => {
  const parsed = safeParse(GetInvoiceResponseSchema, exampleLookupInvoice(overrides));
  if (!parsed.success) throw new Error(parsed.message);
  return parsed.data;
};

/** `createInvoiceEvents` over a memory store, and a stand-in for Hono's context (only `body` is used). */
const setUp = (options: CheckoutEventsOptions = {}) => {
  const client = {} as MerchantClient;
  const events = createInvoiceEvents(
    {
      store: createMemoryStore(),
      read: () => Promise.reject(new Error('no reads in these tests')),
      withBankNames: (invoice) => Promise.resolve(invoice),
      report: () => undefined,
      record: () => undefined,
    },
    options,
  );
  const context = {
    body: (data: BodyInit, status: number, headers: Record<string, string>) => new Response(data, { status, headers }),
  } as unknown as Context;
  const open = (invoice: Invoice, signal = new AbortController().signal) =>
    events.respond(context, INVOICE_ID, invoice, client, new Request(`https://shop.example/invoices/${INVOICE_ID}/events`, { signal }));
  return { events, open };
};

const at = (minute: number) => `2026-11-22T10:${String(minute).padStart(2, '0')}:00+03:00`;

describe('an event stream', () => {
  test('the headers of an event stream; the first state at once', async () => {
    const { open } = setUp();
    const response = open(parse({ updatedAt: at(1) }));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(response.headers.get('x-accel-buffering'), 'no');
    const reader = readSse(response.body!);
    const first = await reader.nextEvent();
    assert.equal(first?.event, 'invoice');
    assert.equal(first?.retry, 3000);
    await reader.close();
  });

  test('a reader that lags gets the newest state, not every state it missed', async () => {
    const { events, open } = setUp();
    const response = open(parse({ updatedAt: at(1) }));
    const reader = readSse(response.body!);
    const first = await reader.nextEvent();
    // Three new states while the reader does not read.
    for (const [minute, status] of [
      [2, 'new'],
      [3, 'new'],
      [4, 'new'],
    ] as const) {
      events.observe(parse({ updatedAt: at(minute), status, internalId: `order-${minute}` }));
    }
    await new Promise((resolve) => setImmediate(resolve));
    const next = await reader.nextEvent();
    assert.notEqual(next?.id, first?.id);
    assert.equal((JSON.parse(next!.data!) as { internalId: string }).internalId, 'order-4');
    await assert.rejects(reader.nextEvent(100), /no SSE block/, 'nothing queued behind it');
    await reader.close();
  });

  test('one heartbeat timer for all the streams of a handler, none once they are closed', async (t) => {
    const intervals = new Set<unknown>();
    const realSet = globalThis.setInterval;
    const realClear = globalThis.clearInterval;
    t.mock.method(globalThis, 'setInterval', (...args: Parameters<typeof setInterval>) => {
      const timer = realSet(...args);
      intervals.add(timer);
      return timer;
    });
    t.mock.method(globalThis, 'clearInterval', (timer: ReturnType<typeof setInterval>) => {
      intervals.delete(timer);
      realClear(timer);
    });
    const { events, open } = setUp({ heartbeatMs: 30 });
    const readers = Array.from({ length: 20 }, () => readSse(open(parse({ updatedAt: at(1) })).body!));
    for (const reader of readers) await reader.nextEvent();
    assert.equal(intervals.size, 1);
    for (const reader of readers) assert.equal((await reader.next(1000))?.comment, 'heartbeat 30');
    assert.equal(events.stats().streams, 20);
    for (const reader of readers) await reader.close();
    assert.equal(events.stats().streams, 0);
    assert.equal(intervals.size, 0);
  });

  test('an aborted request ends its stream, and nothing is left listening', async () => {
    const { events, open } = setUp();
    const controller = new AbortController();
    const response = open(parse({ updatedAt: at(1) }), controller.signal);
    const reader = readSse(response.body!);
    await reader.nextEvent();
    assert.equal(events.stats().streams, 1);
    assert.equal(getEventListeners(controller.signal, 'abort').length, 1);
    controller.abort();
    assert.equal(await reader.next(1000), undefined, 'the stream ended');
    assert.deepEqual(events.stats(), { watches: 0, streams: 0 });
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
  });

  test('a terminal state is the last event', async () => {
    const { events, open } = setUp();
    const reader = readSse(open(parse({ updatedAt: at(1) })).body!);
    await reader.nextEvent();
    events.observe(parse({ updatedAt: at(2), status: 'paid' }));
    assert.equal((JSON.parse((await reader.nextEvent())!.data!) as { status: string }).status, 'paid');
    assert.equal(await reader.next(1000), undefined);
    assert.deepEqual(events.stats(), { watches: 0, streams: 0 });
  });
});
