/**
 * The gateway refuses a setting that is not one (issue 37, point 5): a key of the `--config`
 * file, or a variable of the environment named as the gateway's own (`GATEWAY_`, `PAYMENT_`,
 * `SHOP_`, a near miss of `REDIS_URL` or `REDIS_PREFIX`), exits 2 naming it and the nearest
 * setting. The environment's other variables, and the examples' shops' own `GATEWAY_URL` and
 * `SHOP_BOOKS`, are left alone: the gateway still starts with them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';

const MERCHANT = { apiKey: 'settings-api-key', secretKey: 'settings-secret-key', storeId: 3, storeName: 'Settings Shop' };

let mock: MockServer;
let folder: string;

before(async () => {
  mock = await startMockServer({ merchants: [MERCHANT], port: 0 });
  folder = mkdtempSync(join(tmpdir(), 'gateway-settings-'));
});

after(async () => {
  await mock?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** What a gateway needs to serve, as the environment gives it. */
const settings = () => ({
  PAYMENT_API_URL: mock.url,
  PAYMENT_API_KEY: MERCHANT.apiKey,
  PAYMENT_SECRET_KEY: MERCHANT.secretKey,
  PAYMENT_NOTIFICATION_TOKEN: 'settings-notification-token',
  GATEWAY_SECRET: 'settings-token-secret-0123456789',
  PORT: '0',
  // Nothing here outlives the test.
  GATEWAY_DATA_DIR: ':memory:',
});

/** `merchant-checkout serve …` in process: its exit status and what it printed. */
const serve = async (args: string[], env: Record<string, string>) => {
  const out = { text: '', err: '' };
  const status = await runCli(['serve', ...args], {
    env,
    out: (text: string) => void (out.text += text),
    err: (text: string) => void (out.err += text),
    stdin: () => '',
  });
  return { status, ...out };
};

const configFile = (name: string, settings: Record<string, unknown>): string => {
  const path = join(folder, name);
  writeFileSync(path, JSON.stringify(settings));
  return path;
};

describe('settings that are not settings', () => {
  test('a misspelt variable with the gateway prefixes exits 2 naming the nearest setting', async () => {
    for (const [name, nearest] of [
      ['GATEWAY_PUBLICURL', 'GATEWAY_PUBLIC_URL'],
      ['GATEWAY_ALLOWED_ORIGIN', 'GATEWAY_ALLOWED_ORIGINS'],
      ['PAYMENT_NOTIFICATIONS_TOKEN', 'PAYMENT_NOTIFICATION_TOKEN'],
      ['SHOP_WEBHOOK_SECRETS', 'SHOP_WEBHOOK_SECRET'],
      ['REDIS_URI', 'REDIS_URL'],
      ['REDIS_PREFX', 'REDIS_PREFIX'],
    ] as const) {
      const run = await serve(['--check'], { ...settings(), [name]: 'value' });
      assert.equal(run.status, 2, `${name}: ${run.text}${run.err}`);
      assert.equal(
        run.err,
        `merchant-checkout serve: ${name} (in the environment) is not a setting of the gateway; did you mean ${nearest}?\n`,
      );
    }
  });

  test('a variable with a gateway prefix and no setting near it exits 2 pointing at --help; each one is named', async () => {
    const run = await serve(['--check'], { ...settings(), GATEWAY_COLOUR: 'teal', PAYMENT_MOOD: 'calm' });
    assert.equal(run.status, 2);
    assert.match(
      run.err,
      /GATEWAY_COLOUR \(in the environment\) is not a setting of the gateway; merchant-checkout serve --help lists them/,
    );
    assert.match(run.err, /PAYMENT_MOOD \(in the environment\) is not a setting of the gateway; merchant-checkout serve --help lists them/);
  });

  test('a key of the config file that is not a setting exits 2 naming the file, the key and the nearest setting', async () => {
    const file = configFile('misspelt.json', { GATEWAY_BASEPATH: '/pay', basePath: '/pay' });
    const run = await serve(['--check', '--config', file], settings());
    assert.equal(run.status, 2);
    assert.equal(
      run.err,
      `merchant-checkout serve: GATEWAY_BASEPATH (a key of --config ${file}) is not a setting of the gateway; did you mean GATEWAY_BASE_PATH?; ` +
        `basePath (a key of --config ${file}) is not a setting of the gateway; merchant-checkout serve --help lists them\n`,
    );
  });

  test("other programs' variables, the examples' shops' own and empty ones are left alone: the gateway serves", async () => {
    const file = configFile('right.json', {
      GATEWAY_BASE_PATH: '/pay',
      PAYMENT_TERMINALS: [{ apiKey: MERCHANT.apiKey, secretKey: MERCHANT.secretKey }],
    });
    const run = await serve(['--check', '--config', file], {
      ...settings(),
      PATH: process.env.PATH ?? '/usr/bin',
      HOME: '/home/shop',
      REDIS_HOST: '10.0.0.5',
      REDIS_PORT: '6380',
      REDIS_PASSWORD: 'another-program',
      REDIS_SERVER: '/usr/bin/redis-server',
      GATEWAY_URL: 'http://127.0.0.1:8080',
      SHOP_BOOKS: '/tmp/books.json',
      GATEWAY_PUBLICURL: '',
      NODE_ENV: 'production',
    });
    assert.equal(run.status, 0, run.err + run.text);
    assert.match(run.text, /ok\s+settings/);
    assert.match(run.text, /ok\s+terminal 1 \([0-9a-f]{16}\) reaches/);
  });
});
