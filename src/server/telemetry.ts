/**
 * Traces and metrics of the server kit through OpenTelemetry's API (docs/ARCHITECTURE.md,
 * "The server kit"): a no-op until the shop registers an SDK. One span per upstream call, per
 * checkout route, per notification and per reconciliation pass; metrics of upstream latency and
 * errors, notifications, open event streams, reads by poll and by push, and what the
 * reconciler found.
 *
 * What may be an attribute is decided here, once: operation and route names, URL templates
 * (never an id or a query value), statuses, error codes, the terminal's tag (a fingerprint,
 * never the key), outcomes. Never a secret, a token, an invoice's requisites or a receipt.
 */
import {
  SpanKind,
  SpanStatusCode,
  context,
  isSpanContextValid,
  metrics,
  trace,
  type Attributes,
  type Context,
  type Counter,
  type Histogram,
  type Meter,
  type Span,
  type Tracer,
} from '@opentelemetry/api';

/** The instrumentation scope's name (the package's). */
export const TELEMETRY_SCOPE = 'merchant-checkout';

let tracing: { provider: unknown; value: Tracer } | undefined;

/** The tracer of the tracer provider registered now (asked again if the shop registers another). */
const tracer = (): Tracer => {
  const provider = trace.getTracerProvider();
  if (tracing?.provider !== provider) tracing = { provider, value: provider.getTracer(TELEMETRY_SCOPE) };
  return tracing.value;
};

interface Instruments {
  meter: Meter;
  upstreamDuration: Histogram;
  upstreamErrors: Counter;
  routeDuration: Histogram;
  notifications: Counter;
  /** Reads by how, tallied here and observed when metrics are collected: a read is the hot path, and an `add` per read hashes its labels. */
  reads: Record<'poll' | 'push', number>;
  findings: Counter;
}

let instruments: { provider: unknown; value: Instruments } | undefined;

/** The instruments of the meter provider registered now (made again if the shop registers one later). */
const meter = (): Instruments => {
  const provider = metrics.getMeterProvider();
  if (instruments?.provider === provider) return instruments.value;
  const made = provider.getMeter(TELEMETRY_SCOPE);
  const value: Instruments = {
    meter: made,
    upstreamDuration: made.createHistogram('merchant_checkout.upstream.duration', {
      unit: 's',
      description: "Duration of the payment service's answers, by operation and status",
    }),
    upstreamErrors: made.createCounter('merchant_checkout.upstream.errors', {
      description: 'Calls to the payment service that failed, by operation and error code',
    }),
    routeDuration: made.createHistogram('merchant_checkout.checkout.duration', {
      unit: 's',
      description: 'Duration of the checkout routes, by route and status',
    }),
    notifications: made.createCounter('merchant_checkout.notifications', {
      description: "The service's notifications, by outcome: changed, duplicate, corrected, unconfirmed, refused, failed",
    }),
    reads: { poll: 0, push: 0 },
    findings: made.createCounter('merchant_checkout.reconciler.findings', { description: 'What the reconciler found, by finding' }),
  };
  made
    .createObservableCounter('merchant_checkout.checkout.reads', {
      description: "Invoice states a payer's page got, by how: poll (a read) or push (an event)",
    })
    .addCallback((result) => {
      for (const via of ['poll', 'push'] as const)
        if (value.reads[via] > 0) result.observe(value.reads[via], { 'merchant_checkout.via': via });
    });
  instruments = { provider, value };
  return value;
};

/**
 * Runs `work` in a span, a child of the context active when it starts (the shop's request span,
 * when its HTTP instrumentation made one); the span records an error and a failing status when
 * it throws.
 *
 * The span is never made active: entering a context (`context.with`) is an `AsyncLocalStorage`
 * run, which on Node 20 and 22 turns on a hook for every promise the process makes afterwards
 * (BENCHMARKS.md, "What tracing costs"). A checkout route, a notification and a reconciliation
 * pass hand their span's context down instead (`work`'s argument, then
 * `RequestOptions.traceContext`), so the calls to the service they make are their children; a
 * read shared by several callers (single flight) is a child of the first.
 */
const inSpan = async <T>(name: string, kind: SpanKind, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> => {
  const span = tracer().startSpan(name, { kind, attributes });
  try {
    return await work(span);
  } catch (error) {
    failed(span, error);
    throw error;
  } finally {
    span.end();
  }
};

/** Marks `span` as failed by `error`: a failing status and the error's name, never its message (it may quote an answer). */
const failed = (span: Span, error: unknown): void => {
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute('error.type', error instanceof Error ? error.name : 'Error');
};

/** The context whose span is `span`, for its children; undefined for a span of no trace (no SDK), whose children need no parent. */
const contextOf = (span: Span): Context | undefined =>
  isSpanContextValid(span.spanContext()) ? trace.setSpan(context.active(), span) : undefined;

/** What an upstream call's span and metrics carry. */
export interface UpstreamCall {
  /** The operation's name (`getInvoice`, `request GET …` for the raw path call: its template is `request`). */
  operation: string;
  method: string;
  /** The path template (`/api/merchant/invoices/{id}`), never a path with ids. */
  template: string;
  /** The terminal's tag (`MerchantClient.terminal`). */
  terminal: string;
  /** The context its span is a child of (`RequestOptions.traceContext`; default: the active one). */
  parent?: Context | undefined;
}

/**
 * One call to the payment service, traced and measured; `outcome` reads the status and error
 * code of what happened. Written out rather than through `inSpan`, as is `checkoutRoute`: a
 * checkout read runs both, and each `async` layer less is a promise and a tick less per read
 * (and on Node 20, with an SDK's context manager, a hook less).
 */
export const upstreamCall = async <T>(
  call: UpstreamCall,
  work: () => Promise<T>,
  outcome: (error: unknown) => { status?: number; code?: string },
): Promise<T> => {
  const started = performance.now();
  const span = tracer().startSpan(
    `${call.method} ${call.template}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': call.method,
        'url.template': call.template,
        'merchant_checkout.operation': call.operation,
        'merchant_checkout.terminal': call.terminal,
      },
    },
    call.parent,
  );
  let status: number | undefined = 200;
  let code: string | undefined;
  try {
    return await work();
  } catch (error) {
    ({ status, code = 'error' } = outcome(error));
    failed(span, error);
    throw error;
  } finally {
    if (status !== undefined) span.setAttribute('http.response.status_code', status);
    if (code !== undefined) span.setAttribute('merchant_checkout.service_error', code);
    span.end();
    const labels: Attributes =
      status === undefined
        ? { 'merchant_checkout.operation': call.operation }
        : { 'merchant_checkout.operation': call.operation, 'http.response.status_code': status };
    const tools = meter();
    tools.upstreamDuration.record((performance.now() - started) / 1000, labels);
    if (code !== undefined) tools.upstreamErrors.add(1, { ...labels, 'merchant_checkout.service_error': code });
  }
};

/** One checkout route, traced and measured; `work` gets the context of the route's span, for the upstream calls it makes. */
export const checkoutRoute = async <T extends Response>(
  route: string,
  method: string,
  work: (traceContext: Context | undefined) => Promise<T>,
): Promise<T> => {
  const started = performance.now();
  const span = tracer().startSpan(`${method} ${route}`, {
    kind: SpanKind.SERVER,
    attributes: { 'http.request.method': method, 'http.route': route },
  });
  try {
    const answer = await work(contextOf(span));
    span.setAttribute('http.response.status_code', answer.status);
    if (answer.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    meter().routeDuration.record((performance.now() - started) / 1000, { 'http.route': route, 'http.response.status_code': answer.status });
    return answer;
  } catch (error) {
    failed(span, error);
    throw error;
  } finally {
    span.end();
  }
};

/** A notification's outcome for the metrics: a change's kind, `duplicate` (no news), `unconfirmed`, `refused` (401/400), `failed`. */
export type NotificationOutcome = 'changed' | 'corrected' | 'duplicate' | 'unconfirmed' | 'refused' | 'failed';

/** One notification, traced; its outcome counted. `work` gets the span's context, the parent of the reads it makes. */
export const notificationSpan = <T extends Response>(
  work: (outcome: (value: NotificationOutcome, kind?: string) => void, traceContext: Context | undefined) => Promise<T>,
): Promise<T> =>
  inSpan('merchant_checkout.notification', SpanKind.SERVER, {}, async (span) => {
    let seen: NotificationOutcome = 'failed';
    const outcome = (value: NotificationOutcome, kind?: string) => {
      seen = value;
      span.setAttribute('merchant_checkout.outcome', value);
      if (kind) span.setAttribute('merchant_checkout.change', kind);
    };
    try {
      const answer = await work(outcome, contextOf(span));
      span.setAttribute('http.response.status_code', answer.status);
      if (answer.status === 401 || answer.status === 400) seen = 'refused';
      return answer;
    } finally {
      meter().notifications.add(1, { 'merchant_checkout.outcome': seen });
    }
  });

/** One pass of the reconciler, traced; its findings counted. `work` gets the span's context, the parent of the reads it makes. */
export const reconcilePass = <T extends { checked: number; findings: readonly { finding: string }[] }>(
  kind: 'scheduled' | 'asked',
  work: (traceContext: Context | undefined) => Promise<T>,
): Promise<T> =>
  inSpan('merchant_checkout.reconcile', SpanKind.INTERNAL, { 'merchant_checkout.pass': kind }, async (span) => {
    const report = await work(contextOf(span));
    span.setAttribute('merchant_checkout.checked', report.checked);
    const tools = meter();
    for (const { finding } of report.findings) tools.findings.add(1, { 'merchant_checkout.finding': finding });
    return report;
  });

/** A state a payer's page got: by a read (poll) or an event (push). */
export const countRead = (via: 'poll' | 'push'): void => {
  meter().reads[via]++;
};

/** Reports the number of open event streams, read from `count`, whenever metrics are collected. */
export const observeStreams = (count: () => number): void => {
  meter()
    .meter.createObservableUpDownCounter('merchant_checkout.streams.open', { description: 'Event streams open now' })
    .addCallback((result) => result.observe(count()));
};
