/**
 * The built `merchant-checkout-mock` bin (`dist/node/mock-cli.js`), as an installed package
 * runs it: a shebang, no tsx, serving the merchant API with the keys it prints.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MerchantClient } from 'merchant-checkout/server';

const BIN = fileURLToPath(new URL('../../dist/node/mock-cli.js', import.meta.url));

test('the built mock CLI starts with plain node, prints its keys and serves with them', async () => {
  assert.match(readFileSync(BIN, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  const child = spawn(process.execPath, [BIN, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 15_000;
    while (!/Ctrl-C to stop/.test(output) && Date.now() < deadline && child.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const baseUrl = /base URL:\s+(\S+)/.exec(output)?.[1];
    const apiKey = /API key:\s+(\S+)/.exec(output)?.[1];
    const secretKey = /secret key:\s+(\S+)/.exec(output)?.[1];
    assert.ok(baseUrl && apiKey && secretKey, `printed the base URL and keys:\n${output}`);
    const client = new MerchantClient({ baseUrl, apiKey, secretKey, timeoutMs: 5_000 });
    const invoice = await client.createInvoice({
      type: 'in',
      amount: '250.5',
      currency: 'RUB',
      notificationUrl: 'http://127.0.0.1:9/hooks',
      notificationToken: 't',
      startDeal: true,
    });
    assert.equal(invoice.sum.amount, '250.50');
    assert.equal(invoice.deals[0]?.status, 'transfer_waiting');
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal(await exited, 0);
});
