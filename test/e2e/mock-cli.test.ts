/**
 * The built `merchant-checkout-mock` bin (`dist/node/mock-cli.js`), as an installed package
 * runs it: a shebang, no tsx, serving the merchant API with the keys it prints.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MerchantClient } from 'merchant-checkout/server';
import { startCli } from '../helpers/cli.js';

const BIN = fileURLToPath(new URL('../../dist/node/mock-cli.js', import.meta.url));

test('the built mock CLI starts with plain node, prints its keys and serves with them', async () => {
  assert.match(readFileSync(BIN, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  const cli = startCli([BIN, '--port', '0']);
  try {
    const output = await cli.waitFor(/Ctrl-C to stop/);
    const baseUrl = /base URL:\s+(\S+)/.exec(output)?.[1];
    const apiKey = /API key:\s+(\S+)/.exec(output)?.[1];
    const secretKey = /secret key:\s+(\S+)/.exec(output)?.[1];
    assert.ok(baseUrl && apiKey && secretKey, `printed the base URL and keys:\n${output}`);
    const client = new MerchantClient({ baseUrl, apiKey, secretKey, timeoutMs: 5_000 });
    const invoice = await client.createInvoice({
      type: 'in',
      amount: '2500.5',
      currency: 'RUB',
      notificationUrl: 'http://127.0.0.1:9/hooks',
      notificationToken: 't',
      startDeal: true,
    });
    assert.equal(invoice.sum.amount, '2500.50');
    assert.equal(invoice.deals[0]?.status, 'transfer_waiting');
    assert.equal(await cli.stop(), 0);
  } finally {
    await cli.stop();
  }
});
