/**
 * The CLI as `npm run mock` starts it (`tsx src/mock/cli.ts`): it prints the base URL and the
 * keys, serves the merchant API with them, and stops on SIGTERM.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MerchantClient } from '../../src/server/node.js';
import { startCli } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const CLI = 'src/mock/cli.ts';

test('package.json wires `npm run mock` and the merchant-checkout-mock bin to the CLI', () => {
  const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string>; bin: Record<string, string> };
  assert.equal(pkg.scripts.mock, `tsx ${CLI}`);
  assert.equal(pkg.bin['merchant-checkout-mock'], './dist/node/mock-cli.js');
  assert.match(readFileSync(`${root}${CLI}`, 'utf8'), /^#!\/usr\/bin\/env node\n/, 'the built bin keeps this shebang');
});

test('the CLI prints the base URL and keys, serves with them, and stops on SIGTERM', async () => {
  const cli = startCli(['--import', 'tsx', CLI, '--port', '0', '--api-key', 'cli-key', '--store-name', 'CLI Shop'], {
    cwd: root,
    env: { ...process.env, MOCK_SECRET_KEY: 'cli-secret' },
  });
  try {
    const output = await cli.waitFor(/Ctrl-C to stop/);
    const baseUrl = /base URL:\s+(\S+)/.exec(output)?.[1];
    assert.ok(baseUrl, `printed a base URL:\n${output}`);
    assert.match(baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(output, /API key:\s+cli-key/);
    assert.match(output, /secret key:\s+cli-secret/);
    assert.match(output, /\/__mock/);

    const client = new MerchantClient({ baseUrl, apiKey: 'cli-key', secretKey: 'cli-secret', timeoutMs: 5_000 });
    const invoice = await client.createInvoice({
      type: 'in',
      amount: '1990',
      currency: 'RUB',
      notificationUrl: 'http://127.0.0.1:9/hooks',
      notificationToken: 't',
      startDeal: true,
    });
    assert.equal(invoice.storeName, 'CLI Shop');
    assert.equal(invoice.sum.amount, '1990.00');
    const paid = await fetch(`${baseUrl}/__mock/invoices/${invoice.id}/paid`, { method: 'POST' });
    assert.equal(paid.status, 200);
    await paid.body?.cancel();
    assert.equal(await cli.stop(), 0);
    assert.match(cli.output(), /stopping the mock/);
  } finally {
    await cli.stop();
  }
});

test('the CLI explains itself with --help and refuses a bad port', () => {
  const help = spawnSync(process.execPath, ['--import', 'tsx', CLI, '--help'], { cwd: root, encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /Usage: merchant-checkout-mock/);
  const bad = spawnSync(process.execPath, ['--import', 'tsx', CLI, '--port', 'abc'], { cwd: root, encoding: 'utf8' });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /--port must be a non-negative integer/);
});

test('the CLI takes every option as a flag: fixtures, seed, quirks, clock, terminals, limits', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mock-cli-'));
  const fixtures = join(dir, 'fixtures.json');
  const id = '0a0eb051-b255-42a8-a7bc-606e1c04233e';
  writeFileSync(
    fixtures,
    JSON.stringify({ invoices: [{ id, apiKey: 'cli-key', internalId: 'from-file', amount: '666', currency: 'RUB' }] }),
  );
  const cli = startCli(
    [
      '--import',
      'tsx',
      CLI,
      '--port',
      '0',
      '--api-key',
      'cli-key',
      '--secret-key',
      's',
      '--extra-api-key',
      'cli-key-2',
      '--fixtures',
      fixtures,
      '--seed',
      '7',
      '--quirks=3',
      '--frozen-clock',
      '--clock-start',
      '2026-01-01T00:00:00Z',
      '--amount-limit',
      'RUB:10-20000',
      '--notification-format',
      'legacy',
      '--cancel-without-deal',
      'allow',
      '--no-requisites',
      'vtb,alfabank',
    ],
    { cwd: root },
  );
  try {
    const output = await cli.waitFor(/Ctrl-C to stop/);
    const baseUrl = /base URL:\s+(\S+)/.exec(output)?.[1] ?? '';
    assert.match(output, /cli-key-2 \(same secret\)/);
    assert.match(output, /quirks:\s+on \(seed 3\)/);
    const state = (await (await fetch(`${baseUrl}/__mock/state`)).json()) as { invoices: { id: string; internalId: string }[] };
    assert.deepEqual(
      state.invoices.map((invoice) => [invoice.id, invoice.internalId]),
      [[id, 'from-file']],
    );
    const clock = (await (await fetch(`${baseUrl}/__mock/clock`)).json()) as { now: string };
    assert.equal(clock.now, '2026-01-01T00:00:00+00:00', 'a frozen clock at --clock-start');
    const other = new MerchantClient({ baseUrl, apiKey: 'cli-key-2', secretKey: 's', timeoutMs: 5_000 });
    const small = await other.createInvoice({
      type: 'in',
      amount: '15',
      currency: 'RUB',
      notificationUrl: 'http://127.0.0.1:9/h',
      notificationToken: 't',
    });
    assert.equal(small.sum.amount, '15.00', '--amount-limit');
    assert.equal((await other.cancelInvoice(small.id)).status, 'canceled', '--cancel-without-deal allow');
  } finally {
    await cli.stop();
  }
});
