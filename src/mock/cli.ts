#!/usr/bin/env node
/**
 * `merchant-checkout-mock` (and `npm run mock`): the mock payment service on a port, with one
 * merchant whose keys it prints. Test controls are on; stop with Ctrl-C.
 */
import { parseArgs } from 'node:util';
import { CONTROL_ROUTES } from './controls.js';
import { startMockServer } from './server.js';

const HELP = `Usage: merchant-checkout-mock [options]

Serves an offline fake of the payment service's merchant API under {base_url}/api/merchant.

Options (each also read from the environment variable shown):
  --port <n>             port to listen on, 0 for a free one      MOCK_PORT (default 4010)
  --host <addr>          interface to listen on                   MOCK_HOST (default 127.0.0.1)
  --public-url <url>     the {base_url} clients sign against       MOCK_PUBLIC_URL (default http://host:port)
  --invoice-page <url>   invoiceUrl = <url>?id=<id>                MOCK_INVOICE_PAGE_URL (default {base_url}/invoice)
  --api-key <key>        the merchant's X-Identity                 MOCK_API_KEY (default mock-api-key)
  --secret-key <key>     the merchant's signing secret             MOCK_SECRET_KEY (default mock-secret-key)
  --store-id <n>         storeId of its invoices                   MOCK_STORE_ID (default 1)
  --store-name <name>    storeName of its invoices                 MOCK_STORE_NAME (default "Mock Shop")
  --invoice-ttl <sec>    seconds until an invoice expires          MOCK_INVOICE_TTL (default 1800)
  --notify-any-host      send notifications to any host, not only loopback ones
  --no-controls          do not serve the /__mock/* test controls
  -h, --help             this text
`;

const main = async (): Promise<void> => {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'public-url': { type: 'string' },
      'invoice-page': { type: 'string' },
      'api-key': { type: 'string' },
      'secret-key': { type: 'string' },
      'store-id': { type: 'string' },
      'store-name': { type: 'string' },
      'invoice-ttl': { type: 'string' },
      'notify-any-host': { type: 'boolean', default: false },
      'no-controls': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const env = process.env;
  const number = (name: string, text: string | undefined, fallback: number): number => {
    if (text === undefined || text === '') return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a non-negative integer, got ${JSON.stringify(text)}`);
    return value;
  };
  const apiKey = values['api-key'] ?? env.MOCK_API_KEY ?? 'mock-api-key';
  const secretKey = values['secret-key'] ?? env.MOCK_SECRET_KEY ?? 'mock-secret-key';
  const storeId = number('store-id', values['store-id'] ?? env.MOCK_STORE_ID, 1);
  const storeName = values['store-name'] ?? env.MOCK_STORE_NAME ?? 'Mock Shop';
  const controls = !values['no-controls'];
  const invoicePageUrl = values['invoice-page'] ?? env.MOCK_INVOICE_PAGE_URL;
  const publicBaseUrl = values['public-url'] ?? env.MOCK_PUBLIC_URL;

  const mock = await startMockServer({
    merchants: [{ apiKey, secretKey, storeId, storeName }],
    port: number('port', values.port ?? env.MOCK_PORT, 4010),
    host: values.host ?? env.MOCK_HOST ?? '127.0.0.1',
    controls,
    invoiceTtlMs: number('invoice-ttl', values['invoice-ttl'] ?? env.MOCK_INVOICE_TTL, 1800) * 1000,
    ...(publicBaseUrl ? { publicBaseUrl } : {}),
    ...(invoicePageUrl ? { invoicePageUrl } : {}),
    ...(values['notify-any-host'] ? { notificationAllowed: () => true } : {}),
  });

  const lines = [
    'merchant-checkout mock payment service',
    `  base URL:    ${mock.url}`,
    `  merchant API: ${mock.url}/api/merchant`,
    `  API key:     ${apiKey}`,
    `  secret key:  ${secretKey}`,
    `  store:       ${storeId} "${storeName}"`,
    controls ? `  controls:    ${mock.url}/__mock (unsigned)` : '  controls:    off',
    ...(controls ? CONTROL_ROUTES.map((route) => `    ${route}`) : []),
    `  notifications: ${values['notify-any-host'] ? 'to any host' : 'to loopback hosts only (--notify-any-host for others)'}`,
    '',
    `  new MerchantClient({ baseUrl: '${mock.url}', apiKey: '${apiKey}', secretKey: '${secretKey}' })`,
    '',
    'Ctrl-C to stop.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the mock\n`);
    void mock.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
};

main().catch((error: unknown) => {
  process.stderr.write(`merchant-checkout-mock: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
