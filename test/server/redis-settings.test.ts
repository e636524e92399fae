/**
 * The Redis store checks the server it writes to (issue 37, point 4): a real `redis-server`
 * started as a distribution installs it (`appendonly no`), as a cache (`maxmemory-policy
 * allkeys-lru`), with the append-only file left to the operating system (`appendfsync no`),
 * with `CONFIG` renamed away (a managed Redis), and run right (`appendonly yes`, `noeviction`):
 * each time the store connects it tells `onError` a `RedisSettingWarning` naming the setting and
 * what to set, or what to check by hand; run right, it tells nothing.
 *
 * Needs Debian's `redis-server`; without it the suite fails saying so, it is not skipped.
 */
import assert from 'node:assert/strict';
import { after, describe, mock, test } from 'node:test';
import { createRedisStore, RedisSettingWarning, type RedisStore } from '../../src/server/redis.js';
import { startRedis, type RedisProcess } from '../support/redis-server.js';
import { waitFor } from '../support/wait.js';

const servers: RedisProcess[] = [];
const stores: RedisStore[] = [];
after(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const server of servers.splice(0)) await server.stop();
});

const redisWith = async (...args: string[]) => {
  const server = await startRedis({ args });
  servers.push(server);
  return server;
};

/** A store on `server` whose `onError` keeps what it is told. */
const storeOn = (server: RedisProcess) => {
  const told: unknown[] = [];
  const store = createRedisStore({ url: server.url, prefix: `settings-${crypto.randomUUID()}:`, onError: (error) => told.push(error) });
  stores.push(store);
  const warnings = () => told.filter((error): error is RedisSettingWarning => error instanceof RedisSettingWarning);
  return { store, told, warnings };
};

/** Until the store answers a command (its connection is ready, and its check of the settings sent). */
const connected = (store: RedisStore) =>
  waitFor(
    'the store to reach Redis',
    () =>
      store.trackedCount().then(
        () => true,
        () => undefined,
      ),
    10_000,
  );

describe('the Redis store checks the settings that keep its data', () => {
  test('appendonly no (as Debian installs it): one warning naming appendonly, what a restart loses, and what to set', async () => {
    const server = await redisWith('--appendonly', 'no');
    const { store, warnings } = storeOn(server);
    const [warning] = await waitFor('the warning', () => (warnings().length ? warnings() : undefined));
    assert.equal(warning?.setting, 'appendonly');
    assert.equal(warning?.value, 'no');
    assert.match(warning?.message ?? '', /^appendonly is no: a Redis restart loses the books.*; set appendonly yes$/);
    assert.deepEqual(
      (await store.checkSettings()).map((each) => each.setting),
      ['appendonly'],
      'maxmemory-policy is noeviction by default: no second warning',
    );
  });

  test('maxmemory-policy allkeys-lru: a warning that memory pressure deletes the books, and to set noeviction', async () => {
    const server = await redisWith('--appendonly', 'yes', '--maxmemory-policy', 'allkeys-lru');
    const { store, warnings } = storeOn(server);
    await waitFor('the warning', () => (warnings().length ? true : undefined));
    await connected(store);
    assert.deepEqual(
      warnings().map(({ setting, value }) => ({ setting, value })),
      [{ setting: 'maxmemory-policy', value: 'allkeys-lru' }],
    );
    assert.match(warnings()[0]!.message, /^maxmemory-policy is allkeys-lru: .*deletes keys.*; set maxmemory-policy noeviction/);
  });

  test('appendfsync no: a warning that a crash of the machine loses what the operating system had not flushed', async () => {
    const server = await redisWith('--appendonly', 'yes', '--appendfsync', 'no');
    const { store } = storeOn(server);
    await connected(store);
    const warnings = await store.checkSettings();
    assert.deepEqual(
      warnings.map(({ setting }) => setting),
      ['appendfsync'],
    );
    assert.match(warnings[0]!.message, /^appendfsync is no: .*; set appendfsync everysec .*or always$/);
  });

  test('run right (appendonly yes, maxmemory-policy noeviction): no warning at all', async () => {
    const server = await redisWith('--appendonly', 'yes', '--maxmemory-policy', 'noeviction');
    const { store, told } = storeOn(server);
    await connected(store);
    // Answered in order on one connection: the check sent when it connected has had its answers.
    assert.deepEqual(await store.checkSettings(), []);
    assert.deepEqual(told, []);
  });

  test('CONFIG renamed away (a managed Redis): one warning saying which settings to check by hand', async () => {
    const server = await redisWith('--appendonly', 'yes', '--rename-command', 'CONFIG', '');
    const { store, warnings } = storeOn(server);
    await waitFor('the warning', () => (warnings().length ? true : undefined));
    await connected(store);
    assert.equal(warnings().length, 1, warnings().join('\n'));
    const [warning] = warnings();
    assert.equal(warning?.setting, 'CONFIG GET');
    assert.match(warning?.value ?? '', /unknown command/);
    assert.match(
      warning?.message ?? '',
      /^CONFIG GET failed \(.*\): check by hand .*appendonly is yes, appendfsync is everysec or always, and maxmemory-policy is noeviction$/,
    );
    assert.equal(await store.trackedCount(), 0, 'the store itself works without CONFIG');
  });

  test('a Redis restarted (with the same settings) is checked again when the store reconnects', async () => {
    const server = await redisWith('--appendonly', 'no');
    const { store, warnings } = storeOn(server);
    await waitFor('the first warning', () => (warnings().length === 1 ? true : undefined));
    await server.kill();
    await server.restart();
    await waitFor('the warning after the reconnect', () => (warnings().length === 2 ? true : undefined), 10_000);
    await connected(store);
  });

  test('without onError the warning is one line on console.warn', async () => {
    const server = await redisWith('--appendonly', 'no');
    const lines: string[] = [];
    const warn = mock.method(console, 'warn', (...args: unknown[]) => void lines.push(args.map(String).join(' ')));
    try {
      const store = createRedisStore({ url: server.url, prefix: 'settings-console:' });
      stores.push(store);
      await waitFor('the line', () => (lines.length ? true : undefined));
      await connected(store);
      assert.equal(lines.length, 1, lines.join('\n'));
      assert.match(lines[0]!, /^merchant-checkout: Redis appendonly is no: .*; set appendonly yes$/);
    } finally {
      warn.mock.restore();
    }
  });
});
