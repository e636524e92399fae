/**
 * The gateway: the kit as a process a shop on any stack runs next to its app (docs/gateway.md).
 * One Fetch handler over one kit: the checkout protocol (authorized by checkout tokens), the
 * service's notifications, the reconciler, the shop's signed webhook of every change, the
 * shop's bearer API (`/v1`: create an invoice and get its token, mint a token, list and
 * redeliver webhooks) and the health checks. Runtime-neutral; the process is server.ts.
 */
import { Hono, type Context } from 'hono';
import {
  MerchantApiError,
  MerchantClientError,
  MerchantTrackingError,
  MerchantValidationError,
  DEFAULT_RECONCILE_TICK_MS,
  createCheckoutServer,
  createWebhookSender,
  webPlatform,
  journalWebhookAttempt,
  type CheckoutErrorContext,
  type CheckoutServer,
  type CheckoutStore,
  type CreateInvoiceRequest,
  type Invoice,
  type MerchantClient,
  type ServerPlatform,
  type WebhookAttempt,
  type WebhookSender,
} from '../server/index.js';
import { checkoutTokensFor } from '../server/proxy/checkout-token.js';
import { secretsEqual } from '../server/http/answers.js';
import { withoutSecrets } from '../server/store/types.js';
import type { GatewayConfig } from './settings.js';
import { consoleFor, journalApi, mountConsole, noteRedelivery } from './journal.js';

/** One line of the gateway's log: a level, a message and fields (never a secret, a token or requisites). */
export type GatewayLog = (level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;

export interface Gateway {
  /** The whole gateway as one handler. */
  fetch: (request: Request) => Promise<Response>;
  kit: CheckoutServer;
  webhooks: WebhookSender | undefined;
  /** From now on `/readyz` answers 503 (the process is stopping). */
  drain(): void;
  /** Stops the reconciler and the webhooks, waiting for work under way. */
  close(): Promise<void>;
}

export interface GatewayDeps {
  clients: readonly MerchantClient[];
  store: CheckoutStore;
  log: GatewayLog;
  /** Sends the shop's webhooks (tests); default the global `fetch`. */
  webhookFetch?: (request: Request) => Promise<Response>;
  now?: () => number;
  /** The metrics as Prometheus text (`GET /metrics`); without it the route is 404. */
  metricsText?: () => Promise<string>;
  /** The runtime's HMAC for checkout tokens (default Web Crypto's; the process, server.ts, passes Node's). */
  platform?: ServerPlatform;
}

const json = (status: number, body: unknown) => Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
const refused = (status: number, code: string, message: string) => json(status, { error: { code, message } });

/** The path of a request's URL (no query), without parsing the whole URL. */
export const pathOf = (url: string): string => {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  const end = url.indexOf('?', start);
  return end === -1 ? url.slice(start) : url.slice(start, end);
};

/** A failure's log fields: its message, which part failed, the path of the request it answered and the invoice, when there are. */
const failureFields = (error: unknown, { source, request, invoiceId }: CheckoutErrorContext): Record<string, unknown> => ({
  error: error instanceof Error ? error.message : String(error),
  source,
  ...(request ? { path: pathOf(request.url) } : {}),
  ...(invoiceId ? { invoice: invoiceId } : {}),
});

/** Fields of a create-invoice body the gateway fills itself. */
const FILLED = ['notificationUrl', 'notificationToken'] as const;

/** The shop's signed webhook of changes, when one is configured; each attempt told to the log and to `journal`. */
const shopWebhooks = (config: GatewayConfig, deps: GatewayDeps, now: () => number, journal: (attempt: WebhookAttempt) => void) =>
  config.webhookUrl && config.webhookSecret
    ? createWebhookSender({
        store: deps.store,
        url: config.webhookUrl,
        secret: config.webhookSecret,
        now,
        timeoutMs: config.webhookTimeoutMs,
        retryDelaysMs: config.webhookRetryDelaysMs,
        ...(deps.webhookFetch ? { fetch: deps.webhookFetch } : {}),
        onAttempt: (attempt) => {
          const { id, status, outcome, error, ms } = attempt;
          deps.log(outcome === 'delivered' ? 'info' : 'warn', 'webhook', { change: id, status, outcome, error, ms });
          journal(attempt);
        },
        report: (error, context) => deps.log('error', 'webhook failed', failureFields(error, context)),
      })
    : undefined;

/** The answer to a failed call to the service: the caller's mistake, a refusal, or no answer. */
const failed = (error: unknown): Response => {
  if (error instanceof MerchantValidationError) return refused(400, 'bad_request', error.message);
  // Made at the service, not recorded here: the shop must keep the id and not create it again.
  if (error instanceof MerchantTrackingError)
    return json(503, { error: { code: 'store_unavailable', message: error.message }, invoice: error.invoice });
  if (error instanceof MerchantApiError)
    return refused(
      error.status === 404 ? 404 : 502,
      error.status === 404 ? 'not_found' : 'upstream_error',
      `the payment service refused: ${error.messages.join('; ')}`,
    );
  if (error instanceof MerchantClientError) return refused(502, 'upstream_error', error.message);
  throw error;
};

/** Whether the store records now (a write, where the store can prove one), within a second; logged when not. */
const storeReady = async (store: CheckoutStore, log: GatewayLog): Promise<{ ok: true } | { ok: false; reason: string }> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      store.check ? store.check() : store.trackedCount(),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('the store did not answer within 1 s')), 1000))),
    ]);
    return { ok: true };
  } catch (error) {
    const reason = `store: ${error instanceof Error ? error.message : String(error)}`;
    log('error', 'not ready', { reason });
    return { ok: false, reason };
  } finally {
    clearTimeout(timer);
  }
};

/**
 * The reconciler's timing from `GATEWAY_RECONCILE_INTERVAL_MS`: it looks for due invoices at
 * least twice per interval, and an invoice a stopped instance had claimed is free again after
 * the interval (or two reads' time budgets, whichever is longer; never over the kit's minute).
 */
const reconcileSchedule = (config: GatewayConfig) => ({
  openIntervalMs: config.reconcileIntervalMs,
  tickMs: Math.min(DEFAULT_RECONCILE_TICK_MS, Math.max(100, Math.floor(config.reconcileIntervalMs / 2))),
  leaseMs: Math.min(60_000, Math.max(config.reconcileIntervalMs, 2 * config.timeoutMs)),
});

/** The terminals' notification tokens; the gateway refuses to start without one. */
const notificationTokens = (config: GatewayConfig): string[] => {
  const tokens = config.terminals
    .map((terminal) => terminal.notificationToken)
    .filter((token): token is string => typeof token === 'string' && token !== '');
  if (tokens.length === 0)
    throw new TypeError("PAYMENT_NOTIFICATION_TOKEN is not set: the gateway receives the service's notifications with it");
  return tokens;
};

export const createGateway = (config: GatewayConfig, deps: GatewayDeps): Gateway => {
  const platform = deps.platform ?? webPlatform();
  const { checkoutTokenAuthorizer, signCheckoutToken } = checkoutTokensFor(() => platform);
  const { clients, store, log } = deps;
  const now = deps.now ?? Date.now;
  const tokens = notificationTokens(config);
  let noteAttempt: (attempt: WebhookAttempt) => void = () => undefined;
  const webhooks = shopWebhooks(config, deps, now, (attempt) => noteAttempt(attempt));
  const kit = createCheckoutServer({
    client: clients,
    store,
    basePath: config.basePath,
    authorize: checkoutTokenAuthorizer(config.secrets, {
      now,
      onRefused: (reason, invoice) => log('info', 'checkout token refused', { reason, invoice }),
    }),
    ...(config.origins.length > 0 ? { cors: { origins: config.origins, allowHeaders: ['X-Checkout-Token'] } } : {}),
    timeoutMs: config.timeoutMs,
    maxUploadBytes: config.maxUploadBytes,
    uploadTimeoutMs: config.uploadTimeoutMs,
    notifications: {
      token: tokens,
      path: config.notificationsPath,
      onUnconfirmed: ({ invoiceId, reason }) => log('warn', 'notification not confirmed by the service', { invoice: invoiceId, reason }),
    },
    onChange: async (change) => {
      log('info', 'change', { change: change.id, kind: change.kind, invoice: change.invoiceId, source: change.source });
      await webhooks?.enqueue(change);
    },
    now,
    reconcile: reconcileSchedule(config),
    onError: (error, context) => log('error', 'kit', failureFields(error, context)),
  });
  noteAttempt = journalWebhookAttempt(kit.journal);
  webhooks?.start();
  let draining = false;
  const journalConsole = consoleFor(config, kit, webhooks, log, now);

  /** The token a page gets for an invoice: valid until the invoice's expiry plus `GATEWAY_TOKEN_TTL_MS`. */
  const tokenFor = async (invoice: Invoice) => {
    const expiresAt = Math.max(Date.parse(invoice.expireAt) || now(), now()) + config.tokenTtlMs;
    return {
      checkoutToken: await signCheckoutToken(config.secrets[0]!, invoice.id, expiresAt),
      checkoutTokenExpiresAt: new Date(expiresAt).toISOString(),
    };
  };

  const api = new Hono().basePath('/v1');
  api.use('*', async (c, next) => {
    const presented = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1];
    if (!config.apiKey) return refused(404, 'not_found', 'the /v1 API is off: set GATEWAY_API_KEY');
    if (!(await secretsEqual(config.apiKey, presented))) return refused(401, 'unauthorized', 'missing or wrong bearer key');
    return next();
  });
  api.post('/invoices', async (c: Context) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return refused(400, 'bad_request', 'the body is not JSON');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return refused(400, 'bad_request', "the body must be a JSON object (the service's create-invoice fields)");
    const given = FILLED.find((field) => field in body);
    if (given) return refused(400, 'bad_request', `${given}: the gateway fills it itself`);
    if (!config.publicUrl) return refused(503, 'service_unavailable', 'set GATEWAY_PUBLIC_URL: the gateway fills notificationUrl with it');
    const request = {
      ...body,
      notificationUrl: `${config.publicUrl}${config.notificationsPath}`,
      notificationToken: tokens[0]!,
    } as CreateInvoiceRequest;
    try {
      const client = clients[0]!;
      const invoice = request.internalId ? await client.createInvoiceOnce(request) : await client.createInvoice(request);
      log('info', 'invoice created', { invoice: invoice.id });
      return json(201, { invoice: withoutSecrets(invoice), ...(await tokenFor(invoice)) });
    } catch (error) {
      return failed(error);
    }
  });
  api.post('/invoices/:id/checkout-token', async (c: Context) => {
    const id = c.req.param('id') ?? '';
    // The invoice must exist at one of the shop's terminals; its expiry dates the token.
    for (const client of clients) {
      try {
        return json(200, await tokenFor(await client.getInvoice(id)));
      } catch (error) {
        if (!(error instanceof MerchantApiError && error.status === 404)) return failed(error);
      }
    }
    return refused(404, 'not_found', 'no terminal knows this invoice');
  });
  api.get('/webhooks', async (c: Context) => {
    if (!webhooks) return refused(404, 'not_found', 'no shop webhook: set SHOP_WEBHOOK_URL');
    const state = c.req.query('state') === 'pending' ? 'pending' : 'failed';
    return json(200, { state, webhooks: await webhooks.list(state, 500) });
  });
  api.post('/webhooks/:id/redeliver', async (c: Context) => {
    if (!webhooks) return refused(404, 'not_found', 'no shop webhook: set SHOP_WEBHOOK_URL');
    const id = c.req.param('id') ?? '';
    const found = await webhooks.redeliver(id);
    noteRedelivery(kit.journal, id, found);
    return found ? json(202, { ok: true }) : refused(404, 'not_found', 'no such webhook');
  });
  journalApi(api, kit.journal);

  const ready = () => (draining ? Promise.resolve({ ok: false as const, reason: 'stopping' }) : storeReady(store, log));

  const app = new Hono();
  app.get('/healthz', () => json(200, { ok: true }));
  app.get('/readyz', async () => {
    const state = await ready();
    return json(state.ok ? 200 : 503, state);
  });
  app.get('/metrics', async () =>
    deps.metricsText
      ? new Response(await deps.metricsText(), {
          headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' },
        })
      : refused(404, 'not_found', 'no metrics here'),
  );
  app.route('/', api);
  mountConsole(app, journalConsole);
  app.all('*', (c) => kit.fetch(c.req.raw));

  // The checkout protocol and the notifications go to the kit without the router in front (most
  // of the gateway's requests are reads of the protocol: issue 26's cost against the kit alone).
  const protocol = `${config.basePath}/`;
  return {
    fetch: async (request) => {
      const path = pathOf(request.url);
      return (protocol !== '//' && path.startsWith(protocol)) || path === config.notificationsPath
        ? kit.fetch(request)
        : app.fetch(request);
    },
    kit,
    webhooks,
    drain: () => {
      draining = true;
    },
    close: async () => {
      await webhooks?.stop();
      await kit.close();
    },
  };
};
