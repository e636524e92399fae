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
 * - the journals of the invoices (`{prefix}j:`, `{prefix}jn:`, `{prefix}jo:`, `{prefix}jdue`: redis-journal.ts);
 * - the channel `{prefix}updates`: every recorded state, to every instance.
 *
 * Recording is one Lua script (compare, write, publish), so no two instances can move an
 * invoice backwards between them. Commands fail fast while Redis is away (no offline queue,
 * a command timeout): the proxy then serves reads and polls by itself, and the receiver
 * answers 5xx so that the service delivers again. The connections are redis-client.ts, the
 * books, the tracked invoices and the outbox redis-queues.ts, the Lua steps redis-scripts.ts.
 */
import { InvoiceSchema, safeParse } from '../../schemas/index.js';
import {
  fingerprint,
  isTerminal,
  markOf,
  withoutSecrets,
  type CheckoutStore,
  type DisputeClaim,
  type InvoiceMark,
  type InvoiceUpdate,
  type StoreListener,
} from './types.js';
import { commandWith, shut, type RedisClientLike } from './redis-client.js';
import { redisBooks, redisOutbox } from './redis-queues.js';
import { redisJournal } from './redis-journal.js';
import { RECORD_SCRIPT, RELEASE_SCRIPT } from './redis-scripts.js';
import { readRedisSettings, type RedisSettingWarning } from './redis-settings.js';
import { checkOptions, type OptionShapeOf } from '../options-check.js';

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
  /**
   * Told about connection errors (the store keeps reconnecting) and, as a
   * `RedisSettingWarning` each time the store connects, about a setting of Redis that can lose
   * what the store keeps (`appendonly`, `appendfsync`, `maxmemory-policy`), or that Redis
   * refused `CONFIG GET` and they are to be checked by hand. Without it such warnings go to
   * `console.warn`, one line each.
   */
  onError?: (error: unknown) => void;
}

/** The store in Redis: a `CheckoutStore`, and the check of the server's settings. */
export interface RedisStore extends CheckoutStore {
  /**
   * Reads Redis's `appendonly`, `appendfsync` and `maxmemory-policy` now and answers a warning
   * for each that can lose data (none when all are safe), or one saying what to check by hand
   * when Redis refuses `CONFIG GET`. Rejects when Redis cannot be reached. The store runs the
   * same check each time it connects and tells `onError`.
   */
  checkSettings(): Promise<RedisSettingWarning[]>;
}

/** The keys `createRedisStore` takes (options-check.ts). */
const REDIS_STORE_OPTIONS = {
  url: true,
  client: true,
  prefix: true,
  booksTtlMs: true,
  stateTtlMs: true,
  disputeTtlMs: true,
  commandTimeoutMs: true,
  onError: true,
} as const satisfies OptionShapeOf<RedisStoreOptions>;

/** The prefix of every key and channel the Redis store uses, by default. */
export const DEFAULT_REDIS_PREFIX = 'merchant-checkout:';
const DAY_MS = 24 * 60 * 60 * 1000;

const positive = (value: number | undefined, fallback: number, name: string): number => {
  const chosen = value ?? fallback;
  if (!(chosen > 0 && Number.isFinite(chosen))) throw new TypeError(`createRedisStore: ${name} must be a positive number of milliseconds`);
  return chosen;
};

/** Hands a state another instance recorded (a message of the channel) to this instance's listeners. */
const deliverTo =
  (listeners: Set<StoreListener>) =>
  (message: string): void => {
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
const connect = async (
  options: RedisStoreOptions,
  channel: string,
  listeners: Set<StoreListener>,
  report: (error: unknown) => void,
  isClosed: () => boolean,
) => {
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
  // The first connection is awaited by the commands (within their deadline), so the first
  // request of a process just started (a serverless instance woken) finds the store; after it,
  // while Redis is away, commands fail at once and the handlers degrade.
  const firstReady = client.isReady ? Promise.resolve() : new Promise<void>((resolve) => client.on('ready', () => resolve()));
  if (!client.isOpen) client.connect().catch(report);
  const subscribed = subscriber
    .connect()
    .then(() => subscriber.subscribe(channel, deliverTo(listeners)))
    .catch((error: unknown) => {
      if (!isClosed()) report(error);
    });
  return { client, subscriber, ownClient, subscribed, firstReady };
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
 * remade after a failure (the first commands wait for it, within `commandTimeoutMs`; after a
 * failure, commands fail at once until it is back).
 */
export const createRedisStore = (options: RedisStoreOptions = {}): RedisStore => {
  checkOptions('createRedisStore', options, REDIS_STORE_OPTIONS);
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
  const connected = connect(options, channel, listeners, report, () => closed);
  // A missing `redis` package is reported once here and by every command.
  connected.catch(report);
  const command = commandWith(connected, commandTimeoutMs);

  let commandsReady = () => false;
  const checkSettings = () => readRedisSettings(command, () => commandsReady());
  // Each time the command connection is (again) ready: a Redis restarted with other settings is told too.
  void connected.then(
    ({ client }) => {
      commandsReady = () => client.isReady;
      const check = () => {
        if (closed) return;
        checkSettings().then(
          (warnings) => {
            for (const warning of warnings) {
              if (closed) return;
              if (options.onError) report(warning);
              else console.warn(`merchant-checkout: Redis ${warning.message}`);
            }
          },
          // Redis went away meanwhile: the connection's error is told already, and the next connection checks again.
          () => undefined,
        );
      };
      client.on('ready', check);
      if (client.isReady) check();
    },
    () => undefined,
  );

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
    (await command((client) =>
      client.set(`${prefix}r:${id}`, '1', { condition: 'NX', expiration: { type: 'PX', value: Math.max(1, Math.floor(intervalMs)) } }),
    )) === 'OK';

  const claimDispute = async (id: string, holdMs: number): Promise<DisputeClaim | undefined> => {
    const key = `${prefix}d:${id}`;
    const token = `claim:${crypto.randomUUID()}`;
    const set = await command((client) =>
      client.set(key, token, { condition: 'NX', expiration: { type: 'PX', value: Math.max(1, Math.ceil(holdMs)) } }),
    );
    if (set !== 'OK') return undefined;
    return {
      settle: async (outcome) => {
        if (outcome === 'kept') await command((client) => client.set(key, 'kept', { expiration: { type: 'PX', value: disputeTtlMs } }));
        else await command((client) => client.eval(RELEASE_SCRIPT, { keys: [key], arguments: [token] }));
      },
    };
  };

  return {
    ...redisBooks(command, prefix, booksTtlMs),
    ...redisOutbox(command, prefix, booksTtlMs),
    journal: redisJournal(command, prefix),
    lastSeen,
    record,
    subscribe: async (listener) => {
      listeners.add(listener);
      // A store just made is still subscribing: what is recorded once this resolves is heard
      // (within commandTimeoutMs; a Redis that is away is heard from when it is back).
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        connected.then(({ subscribed }) => subscribed).catch(() => undefined),
        new Promise((resolve) => (timer = setTimeout(resolve, commandTimeoutMs))),
      ]);
      clearTimeout(timer);
      return {
        close: () => {
          listeners.delete(listener);
          return Promise.resolve();
        },
      };
    },
    claimRefresh,
    claimDispute,
    checkSettings,
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
