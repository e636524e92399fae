/**
 * The gateway's part of each invoice's journal (docs/console.md): the console at `/console`
 * with `GATEWAY_CONSOLE_KEY` (its refusals logged), the journal as JSON on the bearer API, and
 * the redeliveries asked through that API written to the journal.
 */
import type { Hono } from 'hono';
import { createJournalConsole, journalAnswer, type CheckoutServer, type Journal, type WebhookSender } from '../server/index.js';
import type { GatewayConfig } from './settings.js';

type Handler = (request: Request) => Promise<Response>;

/** The console, when `GATEWAY_CONSOLE_KEY` is set; each refused key a warning in the log. */
export const consoleFor = (
  config: GatewayConfig,
  kit: CheckoutServer,
  webhooks: WebhookSender | undefined,
  log: (level: 'warn', message: string, fields: Record<string, unknown>) => void,
  now: () => number,
): Handler | undefined =>
  config.consoleKey
    ? createJournalConsole({
        kit,
        key: config.consoleKey,
        ...(webhooks ? { webhooks } : {}),
        now,
        onRefused: ({ client, count, locked }) => log('warn', 'console key refused', { client, count, locked }),
      })
    : undefined;

/** `GET /v1/invoices/{id}/journal` and `GET /v1/orders/{orderId}/journal` (openapi/gateway.json). */
export const journalApi = (api: Hono, journal: Journal): void => {
  api.get('/invoices/:id/journal', (c) => journalAnswer(journal, { invoiceId: c.req.param('id') }));
  api.get('/orders/:orderId/journal', (c) => journalAnswer(journal, { orderId: c.req.param('orderId') }));
};

/** `/console` and below: the console, or 404 saying how to turn it on. */
export const mountConsole = (app: Hono, handler: Handler | undefined): void => {
  const serve = (request: Request) =>
    handler
      ? handler(request)
      : Promise.resolve(
          Response.json(
            { error: { code: 'not_found', message: 'the console is off: set GATEWAY_CONSOLE_KEY' } },
            { status: 404, headers: { 'cache-control': 'no-store' } },
          ),
        );
  app.all('/console', (c) => serve(c.req.raw));
  app.all('/console/*', (c) => serve(c.req.raw));
};

/** A redelivery asked through `/v1`, in the journal of the change's invoice (a change's id is `{invoice id}:{fingerprint}`). */
export const noteRedelivery = (journal: Journal, changeId: string, found: boolean): void => {
  const invoiceId = changeId.split(':')[0] ?? '';
  if (/^[0-9a-f-]{36}$/i.test(invoiceId))
    journal.note(invoiceId, 'action', { action: 'redeliver', by: 'api', change: changeId, outcome: found ? 'ok' : 'none' });
};
