/**
 * Notifications: `POST notificationUrl` with the invoice's token in `X-Notification-Token`;
 * an answer other than 200 is retried (documented: twice more, 60 s apart) on the mock's
 * clock, so `advanceClock` drives retries. Imports clock.ts and options.ts.
 */
import type { MockClock } from './clock.js';
import { DEFAULTS, type NotificationRetryOptions } from './options.js';
import { isoWithOffset } from './time.js';

export type { NotificationRetryOptions } from './options.js';

/** One attempt at delivering a notification. */
export interface NotificationAttempt {
  /** When the attempt was made (ISO 8601, the mock's clock). */
  at: string;
  /** The receiver's HTTP status, or null when no answer came. */
  status: number | null;
  /** Why no answer came (network error, timeout). */
  error?: string;
}

/** A notification the mock sent or is sending, with its attempts. */
export interface NotificationRecord {
  /** The invoice it is about. */
  invoiceId: string;
  /** Where it is sent: the invoice's `notificationUrl`. */
  url: string;
  /** `invoice` (the documented `notificationType`), or the legacy event name. */
  event: string;
  /** The invoice's status before the change (`null` for a new invoice). */
  previousStatus: string | null;
  /** The invoice's status the notification reports. */
  status: string;
  /** `pending` while attempts remain; `skipped` when the URL is not allowed (see `notificationAllowed`). */
  state: 'pending' | 'delivered' | 'failed' | 'skipped' | 'canceled';
  /** The attempts so far, in order. */
  attempts: NotificationAttempt[];
}

/** The header the token travels in, as documented. */
export const NOTIFICATION_TOKEN_HEADER_NAME = 'X-Notification-Token';

export interface Notification {
  record: NotificationRecord;
  token: string;
  /** The JSON body of an attempt made at `at`. */
  body: (at: number) => string;
}

export interface NotifierOptions {
  retry: NotificationRetryOptions | undefined;
  fetch: (request: Request) => Promise<Response>;
  allowed: (url: URL) => boolean;
  clock: MockClock;
  /** Which statuses end the retries (documented: exactly 200). */
  delivered: (status: number) => boolean;
}

export class Notifier {
  readonly records: NotificationRecord[] = [];
  readonly #o: NotifierOptions;
  readonly #retry: Required<Omit<NotificationRetryOptions, 'baseDelayMs'>> & { baseDelayMs?: number | undefined };
  readonly #closed = new AbortController();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #cancels = new Set<() => void>();
  #pending = 0;
  #waiters: (() => void)[] = [];
  /** Until when (mock clock) the shop's server is down: attempts before it get no answer. */
  #outageUntil = Number.NEGATIVE_INFINITY;

  constructor(options: NotifierOptions) {
    this.#o = options;
    const given = Object.fromEntries(Object.entries(options.retry ?? {}).filter(([, value]) => value !== undefined));
    this.#retry = { ...DEFAULTS.notificationRetry, ...given };
    if (!(this.#retry.attempts >= 1)) throw new RangeError('notification attempts must be at least 1');
  }

  send(notification: Notification): void {
    const { record } = notification;
    this.records.push(record);
    let url: URL | undefined;
    try {
      url = new URL(record.url);
    } catch {
      url = undefined;
    }
    if (!url || !this.#o.allowed(url) || this.#closed.signal.aborted) {
      record.state = this.#closed.signal.aborted ? 'canceled' : 'skipped';
      return;
    }
    this.#pending++;
    void this.#track(this.#attempt(notification, 1));
  }

  /** The shop's server does not answer until `until` (mock clock): each attempt before it fails, and retries go on as documented. */
  outage(until: number): void {
    this.#outageUntil = until;
  }

  /** Resolves once no notification waits for an attempt (delivered, failed, skipped or canceled). */
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

  /** Resolves once no attempt is in flight (retries may still be scheduled). */
  async idle(): Promise<void> {
    while (this.#inFlight.size) await Promise.all([...this.#inFlight]);
  }

  close(): void {
    this.#closed.abort(new Error('mock service closed'));
    for (const cancel of this.#cancels) cancel();
    this.#cancels.clear();
    for (const record of this.records) if (record.state === 'pending') record.state = 'canceled';
    this.#pending = 0;
    this.#release();
  }

  #track(work: Promise<void>): Promise<void> {
    this.#inFlight.add(work);
    void work.finally(() => this.#inFlight.delete(work));
    return work;
  }

  async #attempt(notification: Notification, attempt: number): Promise<void> {
    const { record } = notification;
    if (record.state !== 'pending') return;
    const at = this.#o.clock.now();
    const entry: NotificationAttempt = { at: isoWithOffset(at), status: null };
    record.attempts.push(entry);
    if (at < this.#outageUntil)
      entry.error = `no answer: the shop's server is down until ${isoWithOffset(this.#outageUntil)} (mock outage)`;
    else await this.#post(notification, at, entry);
    if (record.state !== 'pending') return;
    if (entry.status !== null && this.#o.delivered(entry.status)) return this.#finish(record, 'delivered');
    if (attempt >= this.#retry.attempts) return this.#finish(record, 'failed');
    const { baseDelayMs, maxDelayMs, intervalMs } = this.#retry;
    const delay = baseDelayMs === undefined ? intervalMs : Math.min(baseDelayMs * 2 ** (attempt - 1), maxDelayMs);
    const cancel = this.#o.clock.at(at + delay, () => {
      this.#cancels.delete(cancel);
      return this.#track(this.#attempt(notification, attempt + 1));
    });
    this.#cancels.add(cancel);
  }

  /** One POST of the notification; its answer's status, or why none came, goes into `entry`. */
  async #post(notification: Notification, at: number, entry: NotificationAttempt): Promise<void> {
    const signal = AbortSignal.any([this.#closed.signal, AbortSignal.timeout(this.#retry.timeoutMs)]);
    try {
      const response = await this.#o.fetch(
        new Request(notification.record.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', [NOTIFICATION_TOKEN_HEADER_NAME]: notification.token },
          body: notification.body(at),
          signal,
        }),
      );
      entry.status = response.status;
      await response.body?.cancel().catch(() => undefined);
    } catch (error) {
      entry.error = signal.aborted && !this.#closed.signal.aborted ? 'timed out' : error instanceof Error ? error.message : String(error);
    }
  }

  #finish(record: NotificationRecord, state: 'delivered' | 'failed'): void {
    record.state = state;
    this.#pending--;
    if (this.#pending === 0) this.#release();
  }

  #release(): void {
    for (const resolve of this.#waiters.splice(0)) resolve();
  }
}
