/**
 * `merchant-checkout reconcile` for a shop's cron: reads invoices by id or internal id, and
 * with `--notify` posts each state to the shop's kit receiver, which tells the shop of a change
 * once: a payment whose every notification was lost is credited when the command runs, and a
 * second run changes nothing. Settings are read from the environment, a wrong one named.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { MerchantClient, createCheckoutServer, toNodeHandler, type CheckoutServer, type InvoiceChange } from '../../src/server/node.js';

const MERCHANT = { apiKey: 'cron-api-key', secretKey: 'cron-secret-key', storeId: 3, storeName: 'Cron Shop' };
const TOKEN = 'cron-notification-token';

let mock: MockServer;
let client: MerchantClient;
let kit: CheckoutServer;
let shop: Server;
let notifyUrl: string;
const changes: InvoiceChange[] = [];

before(async () => {
  mock = await startMockServer({ merchants: [MERCHANT], controls: true, port: 0 });
  client = new MerchantClient({ baseUrl: mock.url, apiKey: MERCHANT.apiKey, secretKey: MERCHANT.secretKey });
  kit = createCheckoutServer({
    client,
    authorize: () => true,
    reconcile: false,
    notifications: { token: TOKEN, path: '/notify' },
    onChange: (change) => void changes.push(change),
  });
  shop = createServer(toNodeHandler(kit.fetch));
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  notifyUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/notify`;
});

after(async () => {
  await kit.close();
  shop.closeAllConnections();
  await new Promise((resolve) => shop.close(resolve));
  await mock.close();
});

const ENV = {
  PAYMENT_API_URL: '',
  PAYMENT_API_KEY: MERCHANT.apiKey,
  PAYMENT_SECRET_KEY: MERCHANT.secretKey,
  PAYMENT_NOTIFICATION_TOKEN: TOKEN,
};

const run = async (args: string[], env: Record<string, string | undefined> = { ...ENV, PAYMENT_API_URL: mock.url }, stdin = '') => {
  let out = '';
  let err = '';
  const status = await runCli(args, { env, out: (text) => void (out += text), err: (text) => void (err += text), stdin: () => stdin });
  return { status, out, err };
};

/** An invoice whose notifications go nowhere (a shop whose receiver was down). */
const lostInvoice = () =>
  client.createInvoice({
    type: 'in',
    amount: '2100.00',
    currency: 'RUB',
    notificationUrl: 'http://127.0.0.1:9/nowhere',
    notificationToken: TOKEN,
    internalId: `cron-${crypto.randomUUID()}`,
    startDeal: true,
  });

describe('merchant-checkout reconcile', () => {
  test('--notify: a payment nobody was told of reaches the shop once; a second run finds nothing new', async () => {
    const invoice = await lostInvoice();
    mock.service.markPaid(invoice.id);
    const first = await run(['reconcile', '--id', invoice.id, '--internal-id', invoice.internalId!, '--notify', notifyUrl, '--json']);
    assert.equal(first.status, 0, first.err);
    const report = JSON.parse(first.out) as {
      checked: number;
      findings: { invoiceId: string; status: string; paid: string; finding: string }[];
    };
    assert.equal(report.checked, 2);
    assert.deepEqual(
      report.findings.map(({ invoiceId, status, paid, finding }) => [invoiceId, status, paid, finding]),
      [
        [invoice.id, 'paid', '2100.00 RUB', 'paid_never_notified'],
        [invoice.id, 'paid', '2100.00 RUB', 'unchanged'],
      ],
    );
    assert.equal(changes.filter((change) => change.invoiceId === invoice.id).length, 1);
    const again = await run(['reconcile', '--ids-file', '-', '--notify', notifyUrl], undefined, `# yesterday's orders\n${invoice.id}\n`);
    assert.equal(again.status, 0);
    assert.match(again.out, /^invoice\s+internal id\s+status\s+paid\s+finding$/m);
    assert.match(again.out, new RegExp(`${invoice.id}.*paid.*2100\\.00 RUB.*unchanged`));
    assert.equal(changes.filter((change) => change.invoiceId === invoice.id).length, 1);
  });

  test('without --notify it reads and reports; an unknown id is not_found with exit status 1', async () => {
    const invoice = await lostInvoice();
    const missing = crypto.randomUUID();
    const result = await run(['reconcile', '--id', `${invoice.id},${missing}`, '--json']);
    assert.equal(result.status, 1);
    const { findings } = JSON.parse(result.out) as { findings: { finding: string; status: string | null }[] };
    assert.deepEqual(
      findings.map((finding) => [finding.finding, finding.status]),
      [
        ['read', 'new'],
        ['not_found', null],
      ],
    );
  });

  test('a missing or malformed setting is named, with exit status 2, before anything is sent', async () => {
    const requests = mock.service.requests.length;
    const cases: [string[], Record<string, string | undefined>, RegExp][] = [
      [['reconcile', '--id', 'x'], { ...ENV, PAYMENT_API_URL: undefined }, /PAYMENT_API_URL is not set/],
      [['reconcile', '--id', 'x'], { ...ENV, PAYMENT_API_URL: 'not a url' }, /PAYMENT_API_URL must be an absolute URL/],
      [['reconcile', '--id', 'x'], { PAYMENT_API_URL: mock.url, PAYMENT_API_KEY: 'k' }, /PAYMENT_SECRET_KEY is not set/],
      [
        ['reconcile', '--id', 'x'],
        { PAYMENT_API_URL: mock.url, PAYMENT_TERMINALS: '[{"apiKey":"a"}]' },
        /PAYMENT_TERMINALS\[0\]\.secretKey/,
      ],
      [['reconcile', '--id', 'x', '--notify', 'nope'], { ...ENV, PAYMENT_API_URL: mock.url }, /--notify must be an absolute URL/],
      [['reconcile'], { ...ENV, PAYMENT_API_URL: mock.url }, /give at least one --id/],
      [['reconcile', '--bogus'], { ...ENV, PAYMENT_API_URL: mock.url }, /Unknown option '--bogus'/],
    ];
    for (const [args, env, message] of cases) {
      const result = await run(args, env);
      assert.equal(result.status, 2, `${args.join(' ')}: ${result.err}`);
      assert.match(result.err, message);
    }
    assert.equal(mock.service.requests.length, requests, 'nothing was sent');
  });

  test('--help lists every command and setting; an unknown command is refused', async () => {
    const help = await run(['--help']);
    assert.equal(help.status, 0);
    for (const word of ['reconcile', 'PAYMENT_API_URL', 'PAYMENT_TERMINALS']) assert.ok(help.out.includes(word), word);
    const own = await run(['reconcile', '--help']);
    for (const option of ['--id', '--internal-id', '--ids-file', '--notify', '--json']) assert.ok(own.out.includes(option), option);
    const unknown = await run(['frobnicate']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.err, /no command "frobnicate"/);
  });
});
