/**
 * The gateway on a Redis that can lose data (issue 37, point 4), with a real `redis-server`:
 * `merchant-checkout serve --check` prints a warning line naming the setting and what to set
 * (or what to check by hand when Redis refuses `CONFIG GET`) and still exits 0, as it prints
 * none for a Redis run right; the gateway serving logs the same as a JSON `warn` line.
 *
 * Needs Debian's `redis-server`; without it the suite fails saying so, it is not skipped.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main.js';
import { jsonLog, startGateway } from '../../src/gateway/server.js';
import { readConfig, settingsSource } from '../../src/gateway/settings.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { startRedis, type RedisProcess } from '../support/redis-server.js';
import { waitFor } from '../support/wait.js';

const MERCHANT = { apiKey: 'redis-check-key', secretKey: 'redis-check-secret', storeId: 12, storeName: 'Redis Check Shop' };

let mock: MockServer;
const servers: RedisProcess[] = [];

before(async () => {
  mock = await startMockServer({ merchants: [MERCHANT], port: 0 });
});
after(async () => {
  for (const server of servers.splice(0)) await server.stop();
  await mock.close();
});

const redisWith = async (...args: string[]) => {
  const server = await startRedis({ args });
  servers.push(server);
  return server;
};

const env = (redisUrl: string) => ({
  PAYMENT_API_URL: mock.url,
  PAYMENT_API_KEY: MERCHANT.apiKey,
  PAYMENT_SECRET_KEY: MERCHANT.secretKey,
  PAYMENT_NOTIFICATION_TOKEN: 'redis-check-token',
  GATEWAY_SECRET: 'redis-check-gateway-secret-0123',
  REDIS_URL: redisUrl,
  REDIS_PREFIX: `check-${crypto.randomUUID()}:`,
  PORT: '0',
});

const check = async (redisUrl: string) => {
  let out = '';
  const status = await runCli(['serve', '--check'], {
    env: env(redisUrl),
    out: (text) => void (out += text),
    err: (text) => void (out += text),
    stdin: () => '',
  });
  return { status, out };
};

describe('the gateway says when its Redis can lose data', () => {
  test('serve --check: appendonly no and allkeys-lru are warning lines naming each setting; the check still passes', async () => {
    const server = await redisWith('--appendonly', 'no', '--maxmemory-policy', 'allkeys-lru');
    const { status, out } = await check(server.url);
    assert.equal(status, 0, out);
    assert.match(out, /^ok {4}store \(redis\)$/m);
    assert.match(out, /^warn {2}redis: appendonly is no: .*; set appendonly yes$/m);
    assert.match(out, /^warn {2}redis: maxmemory-policy is allkeys-lru: .*; set maxmemory-policy noeviction/m);
  });

  test('serve --check: a Redis that refuses CONFIG is one warning saying what to check by hand', async () => {
    const server = await redisWith('--rename-command', 'CONFIG', '');
    const { status, out } = await check(server.url);
    assert.equal(status, 0, out);
    const warnings = out.split('\n').filter((line) => line.startsWith('warn'));
    assert.equal(warnings.length, 1, out);
    assert.match(
      warnings[0]!,
      /^warn {2}redis: CONFIG GET failed \(.*unknown command.*\): check by hand .*maxmemory-policy is noeviction$/,
    );
  });

  test('serve --check: a Redis run right prints no warning', async () => {
    const server = await redisWith('--appendonly', 'yes', '--maxmemory-policy', 'noeviction');
    const { status, out } = await check(server.url);
    assert.equal(status, 0, out);
    assert.match(out, /^ok {4}store \(redis\)$/m);
    assert.doesNotMatch(out, /^warn/m);
  });

  test('serving, the gateway logs a JSON warn line naming the setting and what to set', async () => {
    const server = await redisWith('--appendonly', 'no');
    const lines: string[] = [];
    const running = await startGateway(
      readConfig(settingsSource(env(server.url), undefined)),
      jsonLog('info', (text) => void lines.push(...text.trimEnd().split('\n'))),
    );
    try {
      const line = await waitFor('the warning', () => lines.find((each) => each.includes('"redis setting"')));
      const logged = JSON.parse(line) as Record<string, unknown>;
      assert.equal(logged.level, 'warn');
      assert.equal(logged.setting, 'appendonly');
      assert.equal(logged.value, 'no');
      assert.match(String(logged.advice), /^appendonly is no: a Redis restart loses .*; set appendonly yes$/);
    } finally {
      await running.stop();
    }
  });
});
