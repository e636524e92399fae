/**
 * The shop's own webhook: every change the merchant's books hand on is posted to the shop's
 * URL, signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, the key the
 * base64 after `whsec_`). Each change is held in the store's outbox first, so a restart or
 * another instance carries on; it is sent until the shop answers 2xx (then never again),
 * retried with growing delays for more than a day (not the payment service's two minutes), and
 * then listed as failed for a redelivery by hand.
 */
import type { InvoiceChange } from '../books/ledger.js';
import type { CheckoutStore, OutboxMessage } from '../store/types.js';
import { withoutSecrets } from '../store/types.js';
import { checkOptions, type OptionShapeOf } from '../options-check.js';
import { errorContext, tellError, type CheckoutErrorHandler } from '../http/error-context.js';

/** Delays between attempts, in ms: about 32 hours in all before a change is given up. */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  5_000, 30_000, 120_000, 300_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 28_800_000, 28_800_000,
];

/** Options of {@link createWebhookSender}. */
export interface WebhookSenderOptions {
  /** The store whose outbox holds the messages (the kit's). */
  store: CheckoutStore;
  /** The shop's endpoint. */
  url: string;
  /** The signing secret, `whsec_` and base64 (as Standard Webhooks libraries take it). */
  secret: string;
  /** How one attempt is sent (default the global `fetch`). */
  fetch?: (request: Request) => Promise<Response>;
  /** How long one attempt may take, in ms (default 10 000). */
  timeoutMs?: number;
  /** The delays between attempts (default {@link WEBHOOK_RETRY_DELAYS_MS}). */
  retryDelaysMs?: readonly number[];
  /** How often to look for messages due, in ms (default 1 000). */
  tickMs?: number;
  /** The clock, in ms since the epoch (default `Date.now`). */
  now?: () => number;
  /** Told of each attempt: delivered, retried or given up. */
  onAttempt?: (attempt: {
    id: string;
    status: number | null;
    outcome: 'delivered' | 'retry' | 'failed';
    error?: string;
    ms: number;
    /** When it is tried again (epoch ms), for `retry`. */
    nextAt?: number;
  }) => void;
  /**
   * Told of a failure nobody waits for (the store away during a pass), with the context every
   * `onError` of the kit gets: `source` `webhook`, no request. A kit's `onError` fits here.
   */
  report?: CheckoutErrorHandler;
}

/** The keys `createWebhookSender` takes (options-check.ts). */
const WEBHOOK_SENDER_OPTIONS = {
  store: true,
  url: true,
  secret: true,
  fetch: true,
  timeoutMs: true,
  retryDelaysMs: true,
  tickMs: true,
  now: true,
  onAttempt: true,
  report: true,
} as const satisfies OptionShapeOf<WebhookSenderOptions>;

/** The body posted for a change (`data` is the change without the notification's request). */
export interface WebhookPayload {
  /** `invoice.` and the change's kind: `invoice.paid`, `invoice.amount_corrected`, … */
  type: `invoice.${InvoiceChange['kind']}`;
  /** When the message was made (ISO 8601). */
  timestamp: string;
  /** The change, its invoice without the notification token. */
  data: Omit<InvoiceChange, 'request' | 'notification'>;
}

/** The shop's webhooks: held in the store's outbox, sent until delivered. */
export interface WebhookSender {
  /** Holds the change in the outbox (once per change id) and sends it soon; resolves once it is held. */
  enqueue(change: InvoiceChange): Promise<void>;
  /** Sends what is due now; answers how many were tried. */
  pass(): Promise<number>;
  /** Sends what is due every `tickMs` (idempotent). */
  start(): void;
  /** Stops the timer and waits for a pass under way. */
  stop(): Promise<void>;
  /** Messages pending or given up. */
  list(state: 'pending' | 'failed', limit?: number): Promise<OutboxMessage[]>;
  /** Makes a message due now and sends it; false when there is none. */
  redeliver(id: string): Promise<boolean>;
}

const decodeSecret = (secret: string): Uint8Array<ArrayBuffer> => {
  const match = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(secret);
  if (!match) throw new TypeError('webhooks: the secret must be "whsec_" followed by base64 (a Standard Webhooks secret)');
  const binary = atob(match[1]!);
  if (binary.length < 16) throw new TypeError('webhooks: the secret must hold at least 16 bytes');
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
};

/** The `webhook-signature` value of one message: `v1,` and the base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`. */
export const signWebhook = async (secret: string, id: string, timestamp: number, body: string): Promise<string> => {
  const key = await crypto.subtle.importKey('raw', decodeSecret(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`)));
  let binary = '';
  for (const byte of mac) binary += String.fromCharCode(byte);
  return `v1,${btoa(binary)}`;
};

/** The body of a change's webhook (what the shop gets: the change, the service's invoice without its token). */
export const webhookBody = (change: InvoiceChange, now: number): string => {
  const { request: _request, notification: _notification, invoice, ...rest } = change;
  const payload: WebhookPayload = {
    type: `invoice.${change.kind}`,
    timestamp: new Date(now).toISOString(),
    data: { ...rest, invoice: withoutSecrets(invoice) },
  };
  return JSON.stringify(payload);
};

/** A sender of the shop's webhooks over the store's outbox (the gateway's; a Node shop may use it too, from `onChange`). */
export const createWebhookSender = (options: WebhookSenderOptions): WebhookSender => {
  checkOptions('createWebhookSender', options, WEBHOOK_SENDER_OPTIONS);
  const { store, url } = options;
  decodeSecret(options.secret);
  try {
    new URL(url);
  } catch {
    throw new TypeError(`webhooks: the url must be an absolute URL, got ${JSON.stringify(url)}`);
  }
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const timeoutMs = options.timeoutMs ?? 10_000;
  const delays = options.retryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
  const tickMs = options.tickMs ?? 1_000;
  const now = options.now ?? Date.now;
  const report = (error: unknown) => tellError(options.report, error, errorContext('webhook'));
  const leaseMs = timeoutMs * 3;

  const attempt = async (message: OutboxMessage): Promise<void> => {
    const started = Date.now();
    const timestamp = Math.floor(now() / 1000);
    let status: number | null = null;
    let error: string | undefined;
    try {
      const answer = await send(
        new Request(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'webhook-id': message.id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': await signWebhook(options.secret, message.id, timestamp, message.body),
          },
          body: message.body,
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'manual',
        }),
      );
      status = answer.status;
      await answer.body?.cancel().catch(() => undefined);
      if (status < 200 || status >= 300) error = `the shop answered ${status}`;
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    const delay = delays[message.attempts];
    const outcome = error === undefined ? 'delivered' : delay === undefined ? 'failed' : 'retry';
    const nextAt = error === undefined || delay === undefined ? undefined : now() + delay;
    await store.outboxSettle(message.id, error === undefined ? { delivered: true } : { delivered: false, error, nextAt }, now());
    options.onAttempt?.({
      id: message.id,
      status,
      outcome,
      ...(error === undefined ? {} : { error }),
      ms: Date.now() - started,
      ...(nextAt === undefined ? {} : { nextAt }),
    });
  };

  let running: Promise<number> | undefined;
  const pass = (): Promise<number> =>
    (running ??= (async () => {
      try {
        let tried = 0;
        for (;;) {
          const due = await store.outboxClaim(now(), 32, leaseMs);
          await Promise.all(due.map((message) => attempt(message).catch(report)));
          tried += due.length;
          if (due.length < 32) return tried;
        }
      } finally {
        running = undefined;
      }
    })());

  /** A pass asked for while one runs: run again after it, so nothing enqueued meanwhile waits for the tick. */
  let again = false;
  const soon = () => {
    if (running) {
      again = true;
      return;
    }
    void pass()
      .catch(report)
      .finally(() => {
        if (again) {
          again = false;
          soon();
        }
      });
  };

  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    enqueue: async (change) => {
      const at = now();
      await store.outboxAdd({ id: change.id, body: webhookBody(change, at), createdAt: at }, at);
      soon();
    },
    pass,
    start: () => {
      if (timer) return;
      timer = setInterval(soon, tickMs);
      (timer as { unref?: () => void }).unref?.();
      soon();
    },
    stop: async () => {
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
    list: (state, limit = 100) => store.outboxList(state, limit),
    redeliver: async (id) => {
      const found = await store.outboxRedeliver(id, now());
      if (found) soon();
      return found;
    },
  };
};
