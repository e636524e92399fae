#!/usr/bin/env node
/**
 * `merchant-checkout-mock` (and `npm run mock`): the mock payment service on a port, with one
 * merchant (plus any extra terminals sharing its secret) whose keys it prints. Every option of
 * `createMockService` has a flag (cli-flags.ts, the one list). Test controls are on; stop with
 * Ctrl-C.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { AmountLimit, MockMerchant, MockServiceOptions } from './options.js';
import { helpText, parseArgsOptions, type CliFlagValues } from './cli-flags.js';
import { CONTROL_ROUTES } from './controls.js';
import { startMockServer } from './server.js';

const fail = (message: string): never => {
  throw new Error(message);
};

const integer = (name: string, text: string | undefined, fallback?: number): number | undefined => {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  const signed = name === 'utc-offset';
  if (!Number.isInteger(value) || (value < 0 && !signed))
    fail(`--${name} must be a ${signed ? '' : 'non-negative '}integer, got ${JSON.stringify(text)}`);
  return value;
};

const pairs = (name: string, items: string[] | undefined, pattern: RegExp): RegExpExecArray[] =>
  (items ?? []).map((item) => pattern.exec(item) ?? fail(`--${name}: cannot read ${JSON.stringify(item)}`));

const main = async (): Promise<void> => {
  // `--quirks` alone means quirks with the default seed; parseArgs wants a value.
  const args = process.argv.slice(2).map((arg) => (arg === '--quirks' ? '--quirks=true' : arg));
  // The options are built from CLI_FLAGS, the table CliFlagValues is typed from.
  const v = parseArgs({ args, options: parseArgsOptions(), strict: true }).values as CliFlagValues;
  if (v.help) {
    process.stdout.write(helpText());
    return;
  }
  const env = process.env;
  const apiKey = v['api-key'] ?? env.MOCK_API_KEY ?? 'mock-api-key';
  const secretKey = v['secret-key'] ?? env.MOCK_SECRET_KEY ?? 'mock-secret-key';
  const storeId = integer('store-id', v['store-id'] ?? env.MOCK_STORE_ID, 1)!;
  const storeName = v['store-name'] ?? env.MOCK_STORE_NAME ?? 'Mock Shop';
  const controls = !v['no-controls'];
  const oneOf = <T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T | undefined =>
    value === undefined ? undefined : allowed.includes(value as T) ? (value as T) : fail(`--${name} must be one of ${allowed.join(', ')}`);
  const terminal = (key: string, id: number): MockMerchant => ({
    apiKey: key,
    secretKey,
    storeId: id,
    storeName,
    payIn: !v['pay-in-disabled'],
    payOut: !v['pay-out-disabled'],
    twoFactorEnabled: !v['no-2fa'],
    ...(v.balance ? { balance: v.balance } : {}),
  });
  const dealTtl = v['deal-ttl'] ? (/^(\d+)-(\d+)$/.exec(v['deal-ttl']) ?? fail('--deal-ttl must be <min>-<max> seconds')) : undefined;
  const cancel = v['cancel-without-deal'];
  const seconds = (name: string, text: string | undefined) => {
    const value = integer(name, text);
    return value === undefined ? undefined : value * 1000;
  };
  const options: Omit<MockServiceOptions, 'publicBaseUrl'> = {
    merchants: [terminal(apiKey, storeId), ...(v['extra-api-key'] ?? []).map((key, i) => terminal(key, storeId + i + 1))],
    controls,
    seed: integer('seed', v.seed),
    quirks: v.quirks === undefined ? undefined : v.quirks === 'true' ? true : integer('quirks', v.quirks),
    fixtures: v.fixtures ? (JSON.parse(readFileSync(v.fixtures, 'utf8')) as unknown) : undefined,
    invoiceTtlMs: seconds('invoice-ttl', v['invoice-ttl'] ?? env.MOCK_INVOICE_TTL),
    dealTtlMs: dealTtl ? { min: Number(dealTtl[1]) * 1000, max: Number(dealTtl[2]) * 1000 } : undefined,
    amountLimits: Object.fromEntries(
      pairs('amount-limit', v['amount-limit'], /^([A-Z0-9*]+):([\d.]+)-([\d.]+)$/).map((m): [string, AmountLimit] => [
        m[1]!,
        { min: m[2]!, max: m[3]! },
      ]),
    ),
    rates: Object.fromEntries(pairs('rate', v.rate, /^([A-Z0-9]+)=([\d.]+)$/).map((m) => [m[1]!, m[2]!])),
    serviceFeePercent: v['service-fee'],
    cancelWithoutDeal:
      cancel === undefined
        ? undefined
        : cancel === 'allow'
          ? 'allow'
          : (() => {
              const m = /^(\d{3}):(.+)$/.exec(cancel) ?? fail('--cancel-without-deal must be allow or STATUS:MESSAGE');
              return { status: Number(m[1]), message: m[2]! };
            })(),
    noRequisites: v['no-requisites']?.split(',').filter(Boolean),
    paymentMethodName: oneOf('payment-method-name', v['payment-method-name'], ['create', 'always', 'never'] as const),
    dealIdIsInvoiceId: v['deal-id-is-invoice-id'],
    hostedPageRoutes: !v['no-hosted-page-routes'],
    notificationFormat: oneOf('notification-format', v['notification-format'], ['documented', 'legacy'] as const),
    errorFormat: oneOf('error-format', v['error-format'], ['documented', 'legacy'] as const),
    notificationRetry: {
      attempts: integer('notify-attempts', v['notify-attempts']),
      intervalMs: seconds('notify-interval', v['notify-interval']),
    },
    utcOffsetMinutes: integer('utc-offset', v['utc-offset']),
    clock: { ...(v['clock-start'] ? { start: v['clock-start'] } : {}), frozen: v['frozen-clock'] },
    withdrawalTxDelayMs: seconds('withdrawal-tx-delay', v['withdrawal-tx-delay']),
    maxBodyBytes: integer('max-body', v['max-body']),
    maxUploadBytes: integer('max-upload', v['max-upload']),
    bodyTimeoutMs: seconds('body-timeout', v['body-timeout']),
    code2FA: v['code-2fa'],
    ...(v['notify-any-host'] ? { notificationAllowed: () => true } : {}),
  };
  const invoicePageUrl = v['invoice-page'] ?? env.MOCK_INVOICE_PAGE_URL;
  const publicBaseUrl = v['public-url'] ?? env.MOCK_PUBLIC_URL;
  const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as typeof options;
  const mock = await startMockServer({
    ...defined,
    port: integer('port', v.port ?? env.MOCK_PORT, 4010),
    host: v.host ?? env.MOCK_HOST ?? '127.0.0.1',
    ...(publicBaseUrl ? { publicBaseUrl } : {}),
    ...(invoicePageUrl ? { invoicePageUrl } : {}),
  });

  const lines = [
    'merchant-checkout mock payment service',
    `  base URL:    ${mock.url}`,
    `  merchant API: ${mock.url}/api/merchant`,
    `  public API:  ${mock.url}/api/public`,
    `  API key:     ${apiKey}`,
    ...(v['extra-api-key'] ?? []).map((key) => `  API key:     ${key} (same secret)`),
    `  secret key:  ${secretKey}`,
    `  store:       ${storeId} "${storeName}"`,
    ...(options.seed !== undefined ? [`  seed:        ${options.seed}`] : []),
    ...(options.quirks !== undefined ? [`  quirks:      on (seed ${options.quirks === true ? (options.seed ?? 1) : options.quirks})`] : []),
    controls ? `  controls:    ${mock.url}/__mock (unsigned)` : '  controls:    off',
    ...(controls ? CONTROL_ROUTES.map((route) => `    ${route}`) : []),
    `  notifications: ${v['notify-any-host'] ? 'to any host' : 'to loopback hosts only (--notify-any-host for others)'}`,
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
