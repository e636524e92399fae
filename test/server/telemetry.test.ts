/**
 * Traces and metrics through OpenTelemetry's API (issue 27, point 3), with the SDK's in-memory
 * exporter and a metric reader registered: a span per upstream call (with its URL template,
 * never an id), per checkout route, per notification and per reconciliation pass; metrics of
 * upstream latency and errors, notifications by outcome, open streams, reads by poll and push,
 * and findings. A canary secret, token, requisites value and receipt byte appear in no
 * attribute, event, metric label or log line.
 */
import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { after, before, test } from 'node:test';
import { ROOT_CONTEXT, context, metrics, trace, type Context } from '@opentelemetry/api';
import { TracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import type { MockService } from '../../src/mock/index.js';
import { DEFAULT_NOTIFICATIONS_PATH, type CheckoutServer, type MerchantClient } from '../../src/server/node.js';
import { kitOnMock } from '../support/kit-on-mock.js';
import { readSse } from '../support/sse.js';

/** A reader the test collects from when it wants. */
class TestReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const CANARY_SECRET = 'canary-secret-key-8f3e1d';
const CANARY_TOKEN = 'canary-notification-token-77aa';
const CANARY_RECEIPT = 'CANARY-RECEIPT-BYTES-5521';
const MERCHANT = { apiKey: 'canary-api-key-31f0', secretKey: CANARY_SECRET, storeId: 17, storeName: 'Traced Shop' };
const ORIGIN = 'https://shop.example';

const spans = new InMemorySpanExporter();
const reader = new TestReader();
let mock: MockService;
let kit: CheckoutServer;
let client: MerchantClient;
const logged: string[] = [];

before(() => {
  trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  ({ mock, client, kit } = kitOnMock(MERCHANT, {
    reconcile: false,
    notifications: { token: CANARY_TOKEN },
    onChange: () => undefined,
    onError: (error) => void logged.push(String(error instanceof Error ? `${error.message} ${error.stack}` : error)),
  }));
});

after(async () => {
  await kit.close();
  mock.close();
  trace.disable();
  metrics.disable();
});

/** An invoice with a deal whose notifications come to the kit with the canary token. */
const newInvoice = () =>
  client.createInvoice({
    type: 'in',
    amount: '1500.00',
    currency: 'RUB',
    notificationUrl: `${ORIGIN}${DEFAULT_NOTIFICATIONS_PATH}`,
    notificationToken: CANARY_TOKEN,
    startDeal: true,
  });

test("every span and metric of a payer's and a shop's day names templates and outcomes, and carries no canary", async () => {
  const invoice = await newInvoice();
  const requisites = invoice.deals.find((deal) => deal.isActive)?.requisites?.requisites;
  assert.ok(requisites);
  // A payer: reads, streams, sends a receipt.
  assert.equal((await kit.fetch(new Request(`${ORIGIN}/checkout-api/invoices/${invoice.id}`))).status, 200);
  const aborted = new AbortController();
  const stream = readSse(
    (await kit.fetch(new Request(`${ORIGIN}/checkout-api/invoices/${invoice.id}/events`, { signal: aborted.signal }))).body!,
  );
  await stream.nextEvent();
  const form = new FormData();
  form.set('attachment', new File([`%PDF-1.4 ${CANARY_RECEIPT}`], 'receipt.pdf', { type: 'application/pdf' }));
  const receipt = await kit.fetch(
    new Request(`${ORIGIN}/checkout-api/invoices/${invoice.id}/receipt`, {
      method: 'POST',
      body: form,
      headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin' },
    }),
  );
  assert.equal(receipt.status, 200, await receipt.clone().text());
  // The service: pays it and notifies; a forged and an unauthenticated notification.
  mock.markPaid(invoice.id);
  await mock.notificationsSettled();
  await stream.nextEvent();
  const post = (body: unknown, token: string) =>
    kit.fetch(
      new Request(`${ORIGIN}${DEFAULT_NOTIFICATIONS_PATH}`, {
        method: 'POST',
        headers: { 'x-notification-token': token },
        body: JSON.stringify(body),
      }),
    );
  const other = await client.createInvoice({
    type: 'in',
    amount: '1500.00',
    currency: 'RUB',
    notificationUrl: `${ORIGIN}${DEFAULT_NOTIFICATIONS_PATH}`,
    notificationToken: CANARY_TOKEN,
  });
  assert.equal(
    (
      await post(
        { notificationType: 'invoice', invoice: { id: other.id, status: 'paid', updatedAt: new Date(Date.now() + 60_000).toISOString() } },
        CANARY_TOKEN,
      )
    ).status,
    409,
  );
  assert.equal((await post({ invoice: { id: other.id } }, 'wrong-token')).status, 401);
  await kit.reconciler.reconcile({ ids: [invoice.id, other.id] });
  aborted.abort();
  await stream.close();

  const finished = spans.getFinishedSpans();
  const names = new Set(finished.map((span) => span.name));
  for (const name of [
    'POST /api/merchant/invoices',
    'GET /api/merchant/invoices/{id}',
    'POST /api/merchant/invoices/{id}/confirm-transfer',
    'GET /checkout-api/invoices/{id}',
    'GET /checkout-api/invoices/{id}/events',
    'POST /checkout-api/invoices/{id}/receipt',
    'merchant_checkout.notification',
    'merchant_checkout.reconcile',
  ]) {
    assert.ok(names.has(name), `a span ${name} (spans: ${[...names].join(', ')})`);
  }
  for (const span of finished.filter((each) => each.attributes['url.template'] !== undefined)) {
    const template = String(span.attributes['url.template']);
    assert.doesNotMatch(template, /[0-9a-f]{8}-[0-9a-f]{4}|\?/, `no id or query in ${template}`);
    assert.ok(/^[0-9a-f]{16}$/.test(String(span.attributes['merchant_checkout.terminal'])), 'the terminal as its tag');
  }
  const outcomes = finished
    .filter((span) => span.name === 'merchant_checkout.notification')
    .map((span) => span.attributes['merchant_checkout.outcome'] ?? span.attributes['http.response.status_code']);
  assert.ok(outcomes.includes('changed') && outcomes.includes('unconfirmed') && outcomes.includes(401), JSON.stringify(outcomes));

  const collected = await reader.collect();
  const points = collected.resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
  const metric = (name: string) => points.find((each) => each.descriptor.name === name);
  for (const name of [
    'merchant_checkout.upstream.duration',
    'merchant_checkout.checkout.duration',
    'merchant_checkout.notifications',
    'merchant_checkout.checkout.reads',
    'merchant_checkout.reconciler.findings',
    'merchant_checkout.streams.open',
  ]) {
    assert.ok(metric(name)?.dataPoints.length, `metric ${name}`);
  }
  const notifications = metric('merchant_checkout.notifications')!.dataPoints.map((point) => point.attributes['merchant_checkout.outcome']);
  for (const outcome of ['changed', 'unconfirmed', 'refused'])
    assert.ok(notifications.includes(outcome), `notifications ${outcome}: ${notifications.join(', ')}`);
  const reads = metric('merchant_checkout.checkout.reads')!.dataPoints.map((point) => point.attributes['merchant_checkout.via']);
  assert.deepEqual(new Set(reads), new Set(['poll', 'push']));

  const everything = JSON.stringify([
    finished.map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status })),
    points.map((each) => each.dataPoints.map((point) => point.attributes)),
    logged,
  ]);
  for (const canary of [
    CANARY_SECRET,
    CANARY_TOKEN,
    CANARY_RECEIPT,
    MERCHANT.apiKey,
    requisites,
    requisites.replace(/\s/g, ''),
    invoice.id,
  ]) {
    assert.ok(!everything.includes(canary), `a canary in the telemetry: ${canary}`);
  }
});

test("a route's span is a child of the shop's request span and the read it prompts a child of the route's; the kit makes no span of its own active", async () => {
  // A context manager as an SDK installs one (AsyncLocalStorage), counting who enters a context.
  const storage = new AsyncLocalStorage<Context>();
  const entered: string[] = [];
  context.setGlobalContextManager({
    active: () => storage.getStore() ?? ROOT_CONTEXT,
    with: (value, fn, thisArg, ...args) => {
      entered.push(trace.getSpan(value)?.spanContext().spanId ?? 'none');
      return storage.run(value, () => fn.call(thisArg, ...args));
    },
    bind: (_value, target) => target,
    enable() {
      return this;
    },
    disable() {
      return this;
    },
  });
  try {
    const invoice = await newInvoice();
    spans.reset();
    const shop = trace.getTracer('shop').startSpan('shop request');
    const answer = await context.with(trace.setSpan(context.active(), shop), () =>
      kit.fetch(new Request(`${ORIGIN}/checkout-api/invoices/${invoice.id}`)),
    );
    shop.end();
    assert.equal(answer.status, 200);
    const finished = spans.getFinishedSpans();
    const named = (name: string) => {
      const span = finished.find((each) => each.name === name);
      assert.ok(span, `a span ${name} (spans: ${finished.map((each) => each.name).join(', ')})`);
      assert.equal(span.spanContext().traceId, shop.spanContext().traceId, `${name} is in the shop's trace`);
      return span;
    };
    const route = named('GET /checkout-api/invoices/{id}');
    const read = named('GET /api/merchant/invoices/{id}');
    assert.equal(route.parentSpanContext?.spanId, shop.spanContext().spanId, "the route's span is a child of the shop's");
    assert.equal(read.parentSpanContext?.spanId, route.spanContext().spanId, "the read's span is a child of the route's");
    const kitSpans = [route, read].map((span) => span.spanContext().spanId);
    for (const id of kitSpans) assert.ok(!entered.includes(id), 'no span of the kit was made active');
  } finally {
    context.disable();
  }
});

test("without a context manager, each payer's request is still one trace: the route's span and the service calls it made (a read, a cancel)", async () => {
  const invoice = await newInvoice();
  spans.reset();
  const base = `${ORIGIN}/checkout-api/invoices/${invoice.id}`;
  assert.equal((await kit.fetch(new Request(base))).status, 200);
  const cancel = await kit.fetch(
    new Request(`${base}/cancel`, { method: 'POST', headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin' } }),
  );
  assert.equal(cancel.status, 200);
  const finished = spans.getFinishedSpans();
  for (const [routeName, callName] of [
    ['GET /checkout-api/invoices/{id}', 'GET /api/merchant/invoices/{id}'],
    ['POST /checkout-api/invoices/{id}/cancel', 'POST /api/merchant/invoices/{id}/cancel'],
  ] as const) {
    const route = finished.find((span) => span.name === routeName);
    assert.ok(route, `a span ${routeName} (spans: ${finished.map((span) => span.name).join(', ')})`);
    assert.equal(route.parentSpanContext, undefined, `${routeName} is a root: no shop span around it`);
    const calls = finished.filter((span) => span.parentSpanContext?.spanId === route.spanContext().spanId);
    assert.ok(
      calls.some((span) => span.name === callName),
      `${callName} is a child of ${routeName} (its children: ${calls.map((span) => span.name).join(', ') || 'none'})`,
    );
    for (const call of calls) assert.equal(call.spanContext().traceId, route.spanContext().traceId, `${call.name} is in the route's trace`);
  }
});

test("a notification's verification read and a reconciliation pass's read are children of their spans", async () => {
  const invoice = await newInvoice();
  spans.reset();
  mock.markPaid(invoice.id);
  await mock.notificationsSettled();
  await kit.reconciler.reconcile({ ids: [invoice.id] });
  const finished = spans.getFinishedSpans();
  const readsUnder = (parent: (typeof finished)[number]) =>
    finished.filter(
      (span) => span.name === 'GET /api/merchant/invoices/{id}' && span.parentSpanContext?.spanId === parent.spanContext().spanId,
    );
  const notifications = finished.filter((span) => span.name === 'merchant_checkout.notification');
  assert.ok(notifications.length > 0, `a notification span (spans: ${finished.map((span) => span.name).join(', ')})`);
  // Two notifications at once may share one read (single flight): it is the first one's child.
  assert.ok(
    notifications.some((span) => readsUnder(span).length === 1),
    'a notification verified with a read of its own, its child',
  );
  const [pass] = finished.filter((span) => span.name === 'merchant_checkout.reconcile');
  assert.ok(pass, 'a reconciliation span');
  const [read] = readsUnder(pass);
  assert.ok(read, "the reconciliation's read is its child");
  assert.equal(read.spanContext().traceId, pass.spanContext().traceId, "in the pass's trace");
});
