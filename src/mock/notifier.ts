/**
 * Status notifications: `POST notificationUrl` with the invoice's token, retried with
 * exponential backoff a bounded number of times (see `NOTIFICATION_RETRY` in assumptions.ts).
 */
import { NOTIFICATION_EVENT_STATUS_CHANGED, type InvoiceNotification } from '../schemas/index.js';
import { NOTIFICATION_RETRY, isLoopbackUrl } from './assumptions.js';
import { isoWithOffset } from './time.js';

export interface NotificationRetryOptions {
  /** Attempts in all, the first one included (default 6). */
  attempts?: number;
  /** Wait before the first retry, doubled after each (default 1000 ms). */
  baseDelayMs?: number;
  /** Longest wait between attempts (default 30 000 ms). */
  maxDelayMs?: number;
  /** An attempt with no complete answer after this long has failed (default 10 000 ms). */
  timeoutMs?: number;
}

export interface NotifierOptions extends NotificationRetryOptions {
  fetch: (request: Request) => Promise<Response>;
  allowed: (url: URL) => boolean;
  now: () => number;
}

export interface NotificationAttempt {
  /** When the attempt was made (ISO 8601). */
  at: string;
  /** The receiver's HTTP status, or null when no answer came. */
  status: number | null;
  /** Why no answer came (network error, timeout). */
  error?: string;
}

export interface NotificationRecord {
  invoiceId: string;
  url: string;
  event: string;
  previousStatus: string | null;
  status: string;
  /** `pending` while attempts remain; `skipped` when the URL is not allowed (see `notificationAllowed`). */
  state: 'pending' | 'delivered' | 'failed' | 'skipped' | 'canceled';
  attempts: NotificationAttempt[];
}

/** The header the token travels in, as a receiver would spell it. */
export const NOTIFICATION_TOKEN_HEADER_NAME = 'X-Notification-Token';

export const defaultNotificationFetch = (request: Request): Promise<Response> => fetch(request);
export const defaultNotificationAllowed = isLoopbackUrl;

export class Notifier {
  readonly records: NotificationRecord[] = [];
  readonly #options: Required<NotificationRetryOptions> & NotifierOptions;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #closed = new AbortController();
  #pending = 0;
  #waiters: (() => void)[] = [];

  constructor(options: NotifierOptions) {
    this.#options = {
      attempts: NOTIFICATION_RETRY.attempts,
      baseDelayMs: NOTIFICATION_RETRY.baseDelayMs,
      maxDelayMs: NOTIFICATION_RETRY.maxDelayMs,
      timeoutMs: NOTIFICATION_RETRY.timeoutMs,
      ...Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)),
    } as Required<NotificationRetryOptions> & NotifierOptions;
    if (!(this.#options.attempts >= 1)) throw new RangeError('notification attempts must be at least 1');
  }

  /** Queues the notification of one status change; `invoice` is the lookup form at the time of the change. */
  send(change: { url: string; token: string; invoice: InvoiceNotification['invoice']; previousStatus: string | null }): NotificationRecord {
    const record: NotificationRecord = {
      invoiceId: change.invoice.id,
      url: change.url,
      event: NOTIFICATION_EVENT_STATUS_CHANGED,
      previousStatus: change.previousStatus,
      status: change.invoice.status,
      state: 'pending',
      attempts: [],
    };
    this.records.push(record);
    let url: URL | undefined;
    try {
      url = new URL(change.url);
    } catch {
      url = undefined;
    }
    if (!url || !this.#options.allowed(url) || this.#closed.signal.aborted) {
      record.state = this.#closed.signal.aborted ? 'canceled' : 'skipped';
      return record;
    }
    this.#pending++;
    void this.#attempt(record, change, 1);
    return record;
  }

  /** Resolves once no notification is waiting for an attempt (delivered, failed, skipped or canceled). */
  settled(): Promise<void> {
    if (this.#pending === 0) return Promise.resolve();
    // Retry timers do not hold the process open by themselves; a caller who waits does.
    const keepAlive = setInterval(() => undefined, 1_000);
    return new Promise<void>((resolve) => {
      this.#waiters.push(() => {
        clearInterval(keepAlive);
        resolve();
      });
    });
  }

  /** Stops every retry and aborts every attempt in flight. */
  close(): void {
    this.#closed.abort(new Error('mock service closed'));
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const record of this.records) if (record.state === 'pending') record.state = 'canceled';
    this.#pending = 0;
    this.#release();
  }

  async #attempt(
    record: NotificationRecord,
    change: { url: string; token: string; invoice: InvoiceNotification['invoice']; previousStatus: string | null },
    attempt: number,
  ): Promise<void> {
    if (record.state !== 'pending') return;
    const sentAt = isoWithOffset(this.#options.now());
    const body: InvoiceNotification = {
      event: NOTIFICATION_EVENT_STATUS_CHANGED,
      invoice: change.invoice,
      previousStatus: change.previousStatus,
      sentAt,
    };
    const entry: NotificationAttempt = { at: sentAt, status: null };
    record.attempts.push(entry);
    const signal = AbortSignal.any([this.#closed.signal, AbortSignal.timeout(this.#options.timeoutMs)]);
    try {
      const response = await this.#options.fetch(
        new Request(change.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', [NOTIFICATION_TOKEN_HEADER_NAME]: change.token },
          body: JSON.stringify(body),
          signal,
        }),
      );
      entry.status = response.status;
      await response.body?.cancel().catch(() => undefined);
    } catch (error) {
      entry.error = signal.aborted && !this.#closed.signal.aborted ? 'timed out' : error instanceof Error ? error.message : String(error);
    }
    if (record.state !== 'pending') return;
    if (entry.status !== null && entry.status >= 200 && entry.status < 300) {
      this.#finish(record, 'delivered');
    } else if (attempt >= this.#options.attempts) {
      this.#finish(record, 'failed');
    } else {
      const delay = Math.min(this.#options.baseDelayMs * 2 ** (attempt - 1), this.#options.maxDelayMs);
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        void this.#attempt(record, change, attempt + 1);
      }, delay);
      timer.unref?.();
      this.#timers.add(timer);
    }
  }

  #finish(record: NotificationRecord, state: 'delivered' | 'failed'): void {
    record.state = state;
    this.#pending--;
    if (this.#pending === 0) this.#release();
  }

  #release(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }
}
