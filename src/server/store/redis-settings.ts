/**
 * The Redis store's check of the server it writes to (redis.ts; docs/server.md, "Run Redis so
 * that it keeps the books"): Redis as a distribution installs it forgets on a restart
 * (`appendonly no`), and Redis run as a cache deletes keys under memory pressure (an eviction
 * `maxmemory-policy`; every key the store writes has an expiry, so the `volatile-*` policies
 * delete them too). Either loses the books, the tracked invoices and the shop's webhooks with
 * nothing said. Read with `CONFIG GET`; a managed Redis that refuses it is told to be checked
 * by hand. Imports nothing but the client's shape.
 */
import type { Command } from './redis-client.js';

/** The settings the store reads. */
const SETTINGS = ['appendonly', 'appendfsync', 'maxmemory-policy'] as const;
type Setting = (typeof SETTINGS)[number];

/** A setting of the store's Redis that can lose what the store keeps, or `CONFIG GET` when Redis refused to say. */
export type RedisSettingName = 'appendonly' | 'appendfsync' | 'maxmemory-policy' | 'CONFIG GET';

/**
 * A Redis setting that lets a restart, a crash or memory pressure lose what the store keeps;
 * its message names the setting, what it loses and what to set. Told to `onError` of
 * `createRedisStore` (or `console.warn` without one) when the store connects, and answered by
 * `checkSettings()`.
 */
export class RedisSettingWarning extends Error {
  /** The class's name, for logs. */
  override name = 'RedisSettingWarning';
  /** The setting (`appendonly`, `appendfsync`, `maxmemory-policy`), or `CONFIG GET` when Redis refused to tell: check all three by hand. */
  readonly setting: RedisSettingName;
  /** The setting's value, or Redis's refusal. */
  readonly value: string;
  constructor(setting: RedisSettingName, value: string, message: string) {
    super(message);
    this.setting = setting;
    this.value = value;
  }
}

const BY_HAND = `check by hand (your provider's console) that appendonly is yes, appendfsync is everysec or always, and maxmemory-policy is noeviction`;

/** What each value that can lose data means, in one line naming the setting and what to set. */
const warningsOf = (settings: Readonly<Record<Setting, string | undefined>>): RedisSettingWarning[] => {
  const warnings: RedisSettingWarning[] = [];
  const { appendonly, appendfsync } = settings;
  const policy = settings['maxmemory-policy'];
  if (appendonly !== undefined && appendonly !== 'yes') {
    warnings.push(
      new RedisSettingWarning(
        'appendonly',
        appendonly,
        `appendonly is ${appendonly}: a Redis restart loses the books, the tracked invoices and the webhooks not yet delivered (all of them, or what changed since the last snapshot); set appendonly yes`,
      ),
    );
  } else if (appendfsync === 'no') {
    warnings.push(
      new RedisSettingWarning(
        'appendfsync',
        appendfsync,
        'appendfsync is no: the append-only file reaches the disk when the operating system flushes it (about every 30 s on Linux), so a crash of the machine loses what changed since; set appendfsync everysec (at most about a second) or always',
      ),
    );
  }
  if (policy !== undefined && policy !== 'noeviction') {
    warnings.push(
      new RedisSettingWarning(
        'maxmemory-policy',
        policy,
        `maxmemory-policy is ${policy}: when Redis reaches maxmemory it deletes keys without a word, the books and the webhooks not yet delivered among them (every key of the store has an expiry, so volatile-* policies delete them too); set maxmemory-policy noeviction (a full Redis then refuses writes, which the kit answers with 5xx so that nothing is acknowledged)`,
      ),
    );
  }
  return warnings;
};

/** One setting's value from `CONFIG GET`'s reply: an object (node-redis over RESP2 and RESP3), a Map, or name-value pairs. */
const valueIn = (reply: unknown, name: string): string | undefined => {
  let value: unknown;
  if (reply instanceof Map) value = reply.get(name);
  else if (Array.isArray(reply)) value = reply[reply.indexOf(name) + 1];
  else if (typeof reply === 'object' && reply !== null) value = (reply as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.toLowerCase() : undefined;
};

/**
 * Reads `appendonly`, `appendfsync` and `maxmemory-policy` (one `CONFIG GET` each: Redis before
 * 7 takes one name per call) and answers the warnings of those that can lose data, none when
 * all are safe. A Redis that answers but refuses (`CONFIG` renamed away, an ACL without it, a
 * managed service) or is too slow is one warning saying what to check by hand; a Redis that
 * cannot be reached (`isReady()` false) rejects, so that the next connection checks again.
 */
export const readRedisSettings = async (command: Command, isReady: () => boolean): Promise<RedisSettingWarning[]> => {
  let replies: unknown[];
  try {
    replies = await Promise.all(SETTINGS.map((name) => command((client) => client.configGet(name))));
  } catch (error) {
    if (!isReady()) throw error;
    const refusal = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 200);
    return [new RedisSettingWarning('CONFIG GET', refusal, `CONFIG GET failed (${refusal}): ${BY_HAND}`)];
  }
  const settings = Object.fromEntries(SETTINGS.map((name, index) => [name, valueIn(replies[index], name)])) as Record<
    Setting,
    string | undefined
  >;
  return warningsOf(settings);
};
