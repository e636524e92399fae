/**
 * The Redis store's queues (redis.ts): the merchant's books with their claims, the invoices
 * the reconciler tracks (`{prefix}due`, `{prefix}term`), and the outbox of the shop's webhooks
 * (`{prefix}wq`, `{prefix}wf`, `{prefix}wm:{id}`, `{prefix}wd:{id}`).
 */
import type { BooksClaim, BooksEntry, CheckoutStore, OutboxMessage, OutboxOutcome, TrackedInvoice } from './types.js';
import type { Command } from './redis-client.js';
import {
  CLAIM_DUE_SCRIPT,
  COMMIT_BOOKS_SCRIPT,
  OUTBOX_ADD_SCRIPT,
  OUTBOX_CLAIM_SCRIPT,
  OUTBOX_SETTLE_SCRIPT,
  RELEASE_SCRIPT,
  TRACK_SCRIPT,
} from './redis-scripts.js';

/** The books of each invoice and the invoices tracked, as the store's methods. */
export const redisBooks = (command: Command, prefix: string, booksTtlMs: number) => {
  const claimBooks = async (id: string, holdMs: number): Promise<BooksClaim> => {
    const key = `${prefix}b:${id}`;
    const lock = `${prefix}bl:${id}`;
    const token = `claim:${crypto.randomUUID()}`;
    const set = await command((client) =>
      client.set(lock, token, { condition: 'NX', expiration: { type: 'PX', value: Math.max(1, Math.ceil(holdMs)) } }),
    );
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
        Number(
          await command((client) =>
            client.eval(COMMIT_BOOKS_SCRIPT, { keys: [key, lock], arguments: [token, JSON.stringify(entry), String(booksTtlMs)] }),
          ),
        ) === 1,
      release: async () => {
        await command((client) => client.eval(RELEASE_SCRIPT, { keys: [lock], arguments: [token] }));
      },
    };
  };

  const dueKey = `${prefix}due`;
  const termKey = `${prefix}term`;

  const track = async (id: string, terminal: string | undefined, dueAt: number): Promise<void> => {
    await command((client) =>
      client.eval(TRACK_SCRIPT, { keys: [dueKey, termKey], arguments: [id, String(Math.floor(dueAt)), terminal ?? ''] }),
    );
  };

  const reschedule = async (id: string, dueAt: number): Promise<void> => {
    // XX: only an invoice still tracked (another instance may have settled it meanwhile).
    await command((client) =>
      client.eval("return redis.call('ZADD', KEYS[1], 'XX', ARGV[1], ARGV[2])", {
        keys: [dueKey],
        arguments: [String(Math.floor(dueAt)), id],
      }),
    );
  };

  const untrack = async (id: string): Promise<void> => {
    await command((client) =>
      client.eval("redis.call('ZREM', KEYS[1], ARGV[1]); return redis.call('HDEL', KEYS[2], ARGV[1])", {
        keys: [dueKey, termKey],
        arguments: [id],
      }),
    );
  };

  const claimDue = async (now: number, count: number, leaseMs: number): Promise<TrackedInvoice[]> => {
    const flat = (await command((client) =>
      client.eval(CLAIM_DUE_SCRIPT, {
        keys: [dueKey, termKey],
        arguments: [String(Math.floor(now)), String(Math.max(0, Math.floor(count))), String(Math.floor(now + leaseMs))],
      }),
    )) as string[];
    const claimed: TrackedInvoice[] = [];
    for (let index = 0; index + 1 < flat.length; index += 2) claimed.push({ id: flat[index]!, terminal: flat[index + 1] || undefined });
    return claimed;
  };

  const trackedCount = async (): Promise<number> =>
    Number(await command((client) => client.eval("return redis.call('ZCARD', KEYS[1])", { keys: [dueKey], arguments: [] })));

  return { claimBooks, track, reschedule, untrack, claimDue, trackedCount } satisfies Partial<CheckoutStore>;
};

/** The outbox of the shop's webhooks, as the store's methods. */
export const redisOutbox = (command: Command, prefix: string, booksTtlMs: number) => {
  const outboxKeys = (id: string) => ({ message: `${prefix}wm:${id}`, delivered: `${prefix}wd:${id}` });
  const pendingKey = `${prefix}wq`;
  const failedKey = `${prefix}wf`;

  const outboxAdd = async (message: { id: string; body: string; createdAt: number }, dueAt: number): Promise<boolean> => {
    const keys = outboxKeys(message.id);
    const added = await command((client) =>
      client.eval(OUTBOX_ADD_SCRIPT, {
        keys: [keys.message, keys.delivered, pendingKey],
        arguments: [message.id, message.body, String(message.createdAt), String(Math.floor(dueAt))],
      }),
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
      claimed.push({
        id,
        body,
        createdAt: Number(createdAt),
        attempts: Number(attempts),
        lastError: lastError || undefined,
        at: now + leaseMs,
      });
    }
    return claimed;
  };

  const outboxSettle = async (id: string, outcome: OutboxOutcome, now: number): Promise<void> => {
    const keys = outboxKeys(id);
    const next = outcome.delivered || outcome.nextAt === undefined ? '' : String(Math.floor(outcome.nextAt));
    await command((client) =>
      client.eval(OUTBOX_SETTLE_SCRIPT, {
        keys: [keys.message, keys.delivered, pendingKey, failedKey],
        arguments: [
          id,
          outcome.delivered ? '1' : '0',
          outcome.delivered ? '' : outcome.error,
          next,
          String(Math.floor(now)),
          String(booksTtlMs),
        ],
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
      const [id, body, createdAt, attempts, lastError, at] = flat.slice(index, index + 6) as [
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      listed.push({
        id,
        body,
        createdAt: Number(createdAt),
        attempts: Number(attempts),
        lastError: lastError || undefined,
        at: Number(at),
      });
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

  return { outboxAdd, outboxClaim, outboxSettle, outboxList, outboxRedeliver } satisfies Partial<CheckoutStore>;
};
