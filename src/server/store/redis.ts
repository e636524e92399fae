/**
 * The store in Redis, for several proxy and receiver instances of one shop (the `redis`
 * package, node-redis 5 or later, an optional peer dependency loaded only when this store is
 * made). What lives there, under one key prefix, each key with an expiry:
 *
 * - `{prefix}b:{invoice id}`: the merchant's books of the invoice (JSON), `{prefix}bl:{invoice id}`
 *   the claim of them (`SET NX PX`) while one instance compares and tells the shop;
 * - `{prefix}due`: the invoices the reconciler tracks (a sorted set by when each is due) and
 *   `{prefix}term`: the terminal of each (a hash);
 * - the outbox (the shop's webhooks): `{prefix}wq` pending by due time, `{prefix}wf` given up,
 *   `{prefix}wm:{id}` each message (a hash), `{prefix}wd:{id}` delivered (kept `booksTtlMs`);
 * - `{prefix}i:{invoice id}`: the last status, `updatedAt` and fingerprint recorded (a hash);
 * - `{prefix}r:{invoice id}`: whose turn it is to read the invoice from the service;
 * - `{prefix}d:{invoice id}`: the claim of the invoice's one dispute (`SET NX PX`), then `kept`;
 * - the channel `{prefix}updates`: every recorded state, to every instance.
 *
 * Recording is one Lua script (compare, write, publish), so no two instances can move an
 * invoice backwards between them. Commands fail fast while Redis is away (no offline queue,
 * a command timeout): the proxy then serves reads and polls by itself, and the receiver
 * answers 5xx so that the service delivers again.
 */
import { InvoiceSchema, safeParse } from '../../schemas/index.js';
import {
  fingerprint,
  isTerminal,
  markOf,
  withoutSecrets,
  type BooksClaim,
  type BooksEntry,
  type CheckoutStore,
  type DisputeClaim,
  type InvoiceMark,
  type InvoiceUpdate,
  type OutboxMessage,
  type OutboxOutcome,
  type StoreListener,
  type TrackedInvoice,
} from './types.js';
import {
  CLAIM_DUE_SCRIPT,
  COMMIT_BOOKS_SCRIPT,
  OUTBOX_ADD_SCRIPT,
  OUTBOX_CLAIM_SCRIPT,
  OUTBOX_SETTLE_SCRIPT,
  RECORD_SCRIPT,
  RELEASE_SCRIPT,
  TRACK_SCRIPT,
} from './redis-scripts.js';

/** Options of `createRedisStore`: where Redis is, and the keys' prefix and expiry. */
export interface RedisStoreOptions {
  /** `redis://…` of the server; ignored when `client` is given. */
  url?: string;
  /**
   * A node-redis client (`createClient()` of the `redis` package, v5 or later) to use instead
   * of making one; the store duplicates it for its subscription and never closes it. Make it
   * with `disableOfflineQueue: true`, or commands wait while Redis is away (up to `commandTimeoutMs`).
   */
  client?: object;
  /** Prefix of every key and of the channel (default `merchant-checkout:`). */
  prefix?: string;
  /** How long an invoice's books are kept after their last change, in ms (default 30 days). */
  booksTtlMs?: number;
  /** How long an invoice's last state is kept after its last change, in ms (default 7 days). */
  stateTtlMs?: number;
  /** How long an invoice's made dispute is remembered (no second one is sent), in ms (default 30 days). */
  disputeTtlMs?: number;
  /** How long one command may take before it counts as failed, in ms (default 1 000). */
  commandTimeoutMs?: number;
  /** Told about connection errors (the store keeps reconnecting). */
  onError?: (error: unknown) => void;
}

/** The prefix of every key and channel the Redis store uses, by default. */
export const DEFAULT_REDIS_PREFIX = 'merchant-checkout:';
const DAY_MS = 24 * 60 * 60 * 1000;

/** The part of a node-redis client the store uses. */
interface RedisClientLike {
  readonly isOpen: boolean;
  readonly isReady: boolean;
  connect(): Promise<unknown>;
  duplicate(): RedisClientLike;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  set(key: string, value: string, options?: { condition?: 'NX'; expiration?: { type: 'PX'; value: number } }): Promise<string | null>;
  get(key: string): Promise<string | null>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
  destroy?(): void;
}

const positive = (value: number | undefined, fallback: number, name: string): number => {
  const chosen = value ?? fallback;
  if (!(chosen > 0 && Number.isFinite(chosen))) throw new TypeError(`createRedisStore: ${name} must be a positive number of milliseconds`);
  return chosen;
};

/**
 * A store in Redis, shared by every instance that uses the same server and prefix:
 *
 * ```ts
 * const store = createRedisStore({ url: process.env.REDIS_URL });
 * createCheckoutHandler({ client, authorize, store });
 * createNotificationHandler({ token, onNotification, store });
 * ```
 *
 * The `redis` package is loaded on first use; the connection is made in the background and
 * remade after a failure (the first commands fail until it is up).
 */
export const createRedisStore = (options: RedisStoreOptions = {}): CheckoutStore => {
  if (options.client === undefined && typeof options.url !== 'string') throw new TypeError('createRedisStore: give url or client');
  const prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
  if (typeof prefix !== 'string') throw new TypeError('createRedisStore: prefix must be a string');
  const booksTtlMs = positive(options.booksTtlMs, 30 * DAY_MS, 'booksTtlMs');
  const stateTtlMs = positive(options.stateTtlMs, 7 * DAY_MS, 'stateTtlMs');
  const disputeTtlMs = positive(options.disputeTtlMs, 30 * DAY_MS, 'disputeTtlMs');
  const commandTimeoutMs = positive(options.commandTimeoutMs, 1000, 'commandTimeoutMs');
  const channel = `${prefix}updates`;
  const listeners = new Set<StoreListener>();
  const report = (error: unknown) => {
    try {
      options.onError?.(error);
    } catch {
      // A failing logger changes nothing.
    }
  };
  let closed = false;

  const onMessage = (message: string) => {
    let update: InvoiceUpdate;
    try {
      const parsed = JSON.parse(message) as { source?: unknown; invoice?: unknown };
      const invoice = safeParse(InvoiceSchema, parsed.invoice);
      if (!invoice.success || (parsed.source !== 'notification' && parsed.source !== 'read')) return;
      update = { invoice: invoice.data, source: parsed.source };
    } catch {
      return;
    }
    for (const listener of listeners) {
      try {
        listener.update(update);
      } catch {
        // One listener's failure is its own.
      }
    }
  };

  /** Commands on one connection, subscriptions on another (a subscribed connection takes no commands). */
  const connected = (async () => {
    const ownClient = options.client === undefined;
    let client: RedisClientLike;
    if (ownClient) {
      const { createClient } = await import('redis');
      client = createClient({
        url: options.url!,
        disableOfflineQueue: true,
        socket: { reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 1000), connectTimeout: 2000 },
      });
    } else {
      client = options.client as RedisClientLike;
    }
    client.on('error', report);
    const subscriber = client.duplicate();
    subscriber.on('error', report);
    let readyOnce = false;
    subscriber.on('ready', () => {
      if (!readyOnce) {
        readyOnce = true;
        return;
      }
      for (const listener of listeners) listener.resumed?.();
    });
    // In the background: until Redis answers, commands fail and the handlers degrade.
    if (!client.isOpen) client.connect().catch(report);
    const subscribed = subscriber
      .connect()
      .then(() => subscriber.subscribe(channel, onMessage))
      .catch((error: unknown) => {
        if (!closed) report(error);
      });
    return { client, subscriber, ownClient, subscribed };
  })();
  // A missing `redis` package is reported once here and by every command.
  connected.catch(report);

  /** One command, failing after `commandTimeoutMs`. */
  const command = async <T>(run: (client: RedisClientLike) => Promise<T>): Promise<T> => {
    const { client } = await connected;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const work = run(client);
    try {
      return await Promise.race([
        work,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`redis: no answer within ${commandTimeoutMs} ms`)), commandTimeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
      work.catch(() => undefined);
    }
  };

  const claimBooks = async (id: string, holdMs: number): Promise<BooksClaim> => {
    const key = `${prefix}b:${id}`;
    const lock = `${prefix}bl:${id}`;
    const token = `claim:${crypto.randomUUID()}`;
    const set = await command((client) => client.set(lock, token, { condition: 'NX', expiration: { type: 'PX', value: Math.max(1, Math.ceil(holdMs)) } }));
    if (set !== 'OK') return { state: 'busy' };
    let last: BooksEntry | undefined;
    try {
      const text = await command((client) => client.get(key));
      last = text === null ? undefined : (JSON.parse(text) as BooksEntry);
    } catch (error) {
      await command((client) => client.eval(RELEASE_SCRIPT, { keys: [lock], arguments: [token] })).catch(() => undefined);
      throw error;
    }
    return {
      state: 'claimed',
      last,
      commit: async (entry) =>
        Number(await command((client) => client.eval(COMMIT_BOOKS_SCRIPT, { keys: [key, lock], arguments: [token, JSON.stringify(entry), String(booksTtlMs)] }))) === 1,
      release: async () => {
        await command((client) => client.eval(RELEASE_SCRIPT, { keys: [lock], arguments: [token] }));
      },
    };
  };

  const dueKey = `${prefix}due`;
  const termKey = `${prefix}term`;

  const track = async (id: string, terminal: string | undefined, dueAt: number): Promise<void> => {
    await command((client) => client.eval(TRACK_SCRIPT, { keys: [dueKey, termKey], arguments: [id, String(Math.floor(dueAt)), terminal ?? ''] }));
  };

  const reschedule = async (id: string, dueAt: number): Promise<void> => {
    // XX: only an invoice still tracked (another instance may have settled it meanwhile).
    await command((client) => client.eval("return redis.call('ZADD', KEYS[1], 'XX', ARGV[1], ARGV[2])", { keys: [dueKey], arguments: [String(Math.floor(dueAt)), id] }));
  };

  const untrack = async (id: string): Promise<void> => {
    await command((client) => client.eval("redis.call('ZREM', KEYS[1], ARGV[1]); return redis.call('HDEL', KEYS[2], ARGV[1])", { keys: [dueKey, termKey], arguments: [id] }));
  };

  const claimDue = async (now: number, count: number, leaseMs: number): Promise<TrackedInvoice[]> => {
    const flat = (await command((client) =>
      client.eval(CLAIM_DUE_SCRIPT, { keys: [dueKey, termKey], arguments: [String(Math.floor(now)), String(Math.max(0, Math.floor(count))), String(Math.floor(now + leaseMs))] }),
    )) as string[];
    const claimed: TrackedInvoice[] = [];
    for (let index = 0; index + 1 < flat.length; index += 2) claimed.push({ id: flat[index]!, terminal: flat[index + 1] || undefined });
    return claimed;
  };

  const outboxKeys = (id: string) => ({ message: `${prefix}wm:${id}`, delivered: `${prefix}wd:${id}` });
  const pendingKey = `${prefix}wq`;
  const failedKey = `${prefix}wf`;

  const outboxAdd = async (message: { id: string; body: string; createdAt: number }, dueAt: number): Promise<boolean> => {
    const keys = outboxKeys(message.id);
    const added = await command((client) =>
      client.eval(OUTBOX_ADD_SCRIPT, { keys: [keys.message, keys.delivered, pendingKey], arguments: [message.id, message.body, String(message.createdAt), String(Math.floor(dueAt))] }),
    );
    return Number(added) === 1;
  };

  const outboxClaim = async (now: number, count: number, leaseMs: number): Promise<OutboxMessage[]> => {
    const flat = (await command((client) =>
      client.eval(OUTBOX_CLAIM_SCRIPT, {
        keys: [pendingKey],
        arguments: [String(Math.floor(now)), String(Math.max(0, Math.floor(count))), String(Math.floor(now + leaseMs)), `${prefix}wm:`],
      }),
    )) as string[];
    const claimed: OutboxMessage[] = [];
    for (let index = 0; index + 4 < flat.length; index += 5) {
      const [id, body, createdAt, attempts, lastError] = flat.slice(index, index + 5) as [string, string, string, string, string];
      claimed.push({ id, body, createdAt: Number(createdAt), attempts: Number(attempts), lastError: lastError || undefined, at: now + leaseMs });
    }
    return claimed;
  };

  const outboxSettle = async (id: string, outcome: OutboxOutcome, now: number): Promise<void> => {
    const keys = outboxKeys(id);
    const next = outcome.delivered || outcome.nextAt === undefined ? '' : String(Math.floor(outcome.nextAt));
    await command((client) =>
      client.eval(OUTBOX_SETTLE_SCRIPT, {
        keys: [keys.message, keys.delivered, pendingKey, failedKey],
        arguments: [id, outcome.delivered ? '1' : '0', outcome.delivered ? '' : outcome.error, next, String(Math.floor(now)), String(booksTtlMs)],
      }),
    );
  };

  const outboxList = async (state: 'pending' | 'failed', count: number): Promise<OutboxMessage[]> => {
    const flat = (await command((client) =>
      client.eval(
        `local ids = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
local out = {}
for i = 1, #ids, 2 do
  local fields = redis.call('HMGET', ARGV[2] .. ids[i], 'body', 'createdAt', 'attempts', 'lastError')
  out[#out + 1] = ids[i]
  out[#out + 1] = fields[1] or ''
  out[#out + 1] = fields[2] or '0'
  out[#out + 1] = fields[3] or '0'
  out[#out + 1] = fields[4] or ''
  out[#out + 1] = ids[i + 1]
end
return out`,
        { keys: [state === 'pending' ? pendingKey : failedKey], arguments: [String(Math.max(1, Math.floor(count))), `${prefix}wm:`] },
      ),
    )) as string[];
    const listed: OutboxMessage[] = [];
    for (let index = 0; index + 5 < flat.length; index += 6) {
      const [id, body, createdAt, attempts, lastError, at] = flat.slice(index, index + 6) as [string, string, string, string, string, string];
      listed.push({ id, body, createdAt: Number(createdAt), attempts: Number(attempts), lastError: lastError || undefined, at: Number(at) });
    }
    return listed;
  };

  const outboxRedeliver = async (id: string, now: number): Promise<boolean> =>
    Number(
      await command((client) =>
        client.eval(
          `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
return 1`,
          { keys: [outboxKeys(id).message, pendingKey, failedKey], arguments: [id, String(Math.floor(now))] },
        ),
      ),
    ) === 1;

  const trackedCount = async (): Promise<number> =>
    Number(await command((client) => client.eval("return redis.call('ZCARD', KEYS[1])", { keys: [dueKey], arguments: [] })));

  const lastSeen = async (id: string): Promise<InvoiceMark | undefined> => {
    const [status, updatedAt] = (await command((client) =>
      client.eval("return redis.call('HMGET', KEYS[1], 'status', 'updatedAt')", { keys: [`${prefix}i:${id}`], arguments: [] }),
    )) as [string | null, string | null];
    if (typeof status !== 'string') return undefined;
    const at = updatedAt ? Number(updatedAt) : Number.NaN;
    return { status, updatedAt: Number.isFinite(at) ? at : undefined };
  };

  const record = async (update: InvoiceUpdate): Promise<boolean> => {
    const invoice = withoutSecrets(update.invoice);
    const mark = markOf(invoice);
    const payload = JSON.stringify({ source: update.source, invoice });
    const result = await command((client) =>
      client.eval(RECORD_SCRIPT, {
        keys: [`${prefix}i:${invoice.id}`],
        arguments: [
          mark.status,
          mark.updatedAt === undefined ? '' : String(mark.updatedAt),
          fingerprint(JSON.stringify(invoice)),
          isTerminal(mark.status) ? '1' : '0',
          String(stateTtlMs),
          channel,
          payload,
        ],
      }),
    );
    return Number(result) === 1;
  };

  const claimRefresh = async (id: string, intervalMs: number): Promise<boolean> =>
    (await command((client) => client.set(`${prefix}r:${id}`, '1', { condition: 'NX', expiration: { type: 'PX', value: Math.max(1, Math.floor(intervalMs)) } }))) === 'OK';

  const claimDispute = async (id: string, holdMs: number): Promise<DisputeClaim | undefined> => {
    const key = `${prefix}d:${id}`;
    const token = `claim:${crypto.randomUUID()}`;
    const set = await command((client) => client.set(key, token, { condition: 'NX', expiration: { type: 'PX', value: Math.max(1, Math.ceil(holdMs)) } }));
    if (set !== 'OK') return undefined;
    return {
      settle: async (outcome) => {
        if (outcome === 'kept') await command((client) => client.set(key, 'kept', { expiration: { type: 'PX', value: disputeTtlMs } }));
        else await command((client) => client.eval(RELEASE_SCRIPT, { keys: [key], arguments: [token] }));
      },
    };
  };

  /** Closes a connection: politely when Redis answers, at once when it does not. */
  const shut = async (client: RedisClientLike) => {
    if (!client.isReady) {
      if (client.isOpen) client.destroy?.();
      return;
    }
    try {
      if (client.close) await client.close();
      else await client.quit?.();
    } catch {
      client.destroy?.();
    }
  };

  return {
    claimBooks,
    track,
    reschedule,
    untrack,
    claimDue,
    trackedCount,
    outboxAdd,
    outboxClaim,
    outboxSettle,
    outboxList,
    outboxRedeliver,
    lastSeen,
    record,
    subscribe: (listener) => {
      listeners.add(listener);
      return Promise.resolve({
        close: () => {
          listeners.delete(listener);
          return Promise.resolve();
        },
      });
    },
    claimRefresh,
    claimDispute,
    close: async () => {
      if (closed) return;
      closed = true;
      listeners.clear();
      let parts: Awaited<typeof connected>;
      try {
        parts = await connected;
      } catch {
        return;
      }
      await parts.subscribed;
      await shut(parts.subscriber);
      if (parts.ownClient) await shut(parts.client);
    },
  };
};
