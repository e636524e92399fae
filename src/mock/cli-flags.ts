/**
 * The flags of `merchant-checkout-mock`, declared once: cli.ts parses with them and prints its
 * `--help` from them, and `npm run docs:api` writes them to docs/api/mock-cli.md
 * (test/repo/api-docs.test.ts fails when that file is stale).
 */

/** One flag of `merchant-checkout-mock`. */
export interface CliFlag {
  /** The flag without its leading dashes, e.g. `port` for `--port`. */
  readonly name: string;
  /** `string` takes a value; `boolean` is a switch. */
  readonly type: 'string' | 'boolean';
  /** The flag may be given more than once. */
  readonly multiple?: boolean;
  /** A one-letter alias, e.g. `h` for `-h`. */
  readonly short?: string;
  /** How the value is written in the help, e.g. `<n>` or `[=SEED]`. */
  readonly value?: string;
  /** What it does. */
  readonly description: string;
  /** The environment variable read when the flag is not given. */
  readonly env?: string;
  /** The value used when neither the flag nor its variable is given. */
  readonly default?: string;
}

/** Every flag, in the order `--help` lists them. */
export const CLI_FLAGS = [
  { name: 'port', type: 'string', value: '<n>', description: 'port to listen on, 0 for a free one', env: 'MOCK_PORT', default: '4010' },
  { name: 'host', type: 'string', value: '<addr>', description: 'interface to listen on', env: 'MOCK_HOST', default: '127.0.0.1' },
  {
    name: 'public-url',
    type: 'string',
    value: '<url>',
    description: 'the {base_url} clients sign against',
    env: 'MOCK_PUBLIC_URL',
    default: 'http://host:port',
  },
  {
    name: 'invoice-page',
    type: 'string',
    value: '<url>',
    description: 'invoiceUrl = <url>?id=<id>',
    env: 'MOCK_INVOICE_PAGE_URL',
    default: '{base_url}/invoice',
  },
  {
    name: 'api-key',
    type: 'string',
    value: '<key>',
    description: "the merchant's X-Identity",
    env: 'MOCK_API_KEY',
    default: 'mock-api-key',
  },
  {
    name: 'secret-key',
    type: 'string',
    value: '<key>',
    description: "the merchant's signing secret",
    env: 'MOCK_SECRET_KEY',
    default: 'mock-secret-key',
  },
  {
    name: 'extra-api-key',
    type: 'string',
    multiple: true,
    value: '<key>',
    description: 'another terminal with the same secret (repeatable)',
  },
  { name: 'store-id', type: 'string', value: '<n>', description: 'storeId of its invoices', env: 'MOCK_STORE_ID', default: '1' },
  {
    name: 'store-name',
    type: 'string',
    value: '<name>',
    description: 'storeName of its invoices',
    env: 'MOCK_STORE_NAME',
    default: 'Mock Shop',
  },
  { name: 'pay-in-disabled', type: 'boolean', description: 'pay-in invoices answer 404 "Pay in disabled"' },
  { name: 'pay-out-disabled', type: 'boolean', description: 'pay-out invoices answer 404 "Pay out disabled"' },
  { name: 'no-2fa', type: 'boolean', description: 'withdrawals answer 400 "2FA should be enabled for this operation"' },
  { name: 'balance', type: 'string', value: '<amount>', description: "the account's balance in USDT", default: '10000' },
  { name: 'code-2fa', type: 'string', value: '<code>', description: 'the only code2FA withdrawals accept', default: 'any' },
  { name: 'seed', type: 'string', value: '<n>', description: 'deterministic ids, requisites and variants' },
  { name: 'quirks', type: 'string', value: '[=SEED]', description: 'vary answers over every shape the documentation permits' },
  { name: 'fixtures', type: 'string', value: '<file.json>', description: 'start with these invoices (the format of GET /__mock/state)' },
  {
    name: 'invoice-ttl',
    type: 'string',
    value: '<sec>',
    description: 'seconds until an invoice expires',
    env: 'MOCK_INVOICE_TTL',
    default: '3600',
  },
  { name: 'deal-ttl', type: 'string', value: '<min>-<max>', description: "seconds until a deal's deadline", default: '900-1800' },
  {
    name: 'amount-limit',
    type: 'string',
    multiple: true,
    value: '<CUR:MIN-MAX>',
    description: 'amount limits of a currency, * for others (repeatable)',
    default: 'RUB:1000.00-100000.00',
  },
  { name: 'rate', type: 'string', multiple: true, value: '<CUR=RATE>', description: 'USDT rate of a currency (repeatable)' },
  { name: 'service-fee', type: 'string', value: '<percent>', description: 'service fee of a paid invoice', default: '5' },
  {
    name: 'cancel-without-deal',
    type: 'string',
    value: '<allow|STATUS:MESSAGE>',
    description: 'cancel of an invoice with no active deal',
    default: '400:Invoice has no active deal',
  },
  { name: 'no-requisites', type: 'string', value: '<codes>', description: 'comma-separated bank codes with no free requisites, * for all' },
  {
    name: 'payment-method-name',
    type: 'string',
    value: '<create|always|never>',
    description: 'deals with paymentMethodName',
    default: 'create',
  },
  { name: 'deal-id-is-invoice-id', type: 'boolean', description: "a first deal takes its invoice's id" },
  { name: 'no-hosted-page-routes', type: 'boolean', description: "the hosted page's public variants and start-deal routes answer 404" },
  {
    name: 'notification-format',
    type: 'string',
    value: '<documented|legacy>',
    description: 'the shape of notifications',
    default: 'documented',
  },
  { name: 'error-format', type: 'string', value: '<documented|legacy>', description: 'the shape of error answers', default: 'documented' },
  { name: 'notify-attempts', type: 'string', value: '<n>', description: 'notification attempts in all', default: '3' },
  { name: 'notify-interval', type: 'string', value: '<sec>', description: 'seconds between attempts', default: '60' },
  { name: 'notify-any-host', type: 'boolean', description: 'send notifications to any host, not only loopback ones' },
  { name: 'utc-offset', type: 'string', value: '<minutes>', description: 'offset timestamps are written in', default: '0' },
  { name: 'clock-start', type: 'string', value: '<iso>', description: "the mock clock's start", default: 'now' },
  { name: 'frozen-clock', type: 'boolean', description: 'time moves only by POST /__mock/clock' },
  { name: 'withdrawal-tx-delay', type: 'string', value: '<sec>', description: "seconds until a withdrawal's txId", default: '5' },
  { name: 'max-body', type: 'string', value: '<bytes>', description: 'largest JSON body', default: '65536' },
  { name: 'max-upload', type: 'string', value: '<bytes>', description: 'largest multipart file', default: '10485760' },
  { name: 'body-timeout', type: 'string', value: '<sec>', description: 'a request body must arrive within this, else 408', default: '30' },
  { name: 'no-controls', type: 'boolean', description: 'do not serve the /__mock/* test controls' },
  { name: 'help', type: 'boolean', short: 'h', description: 'this text' },
] as const satisfies readonly CliFlag[];

/** What `parseArgs` gives for {@link CLI_FLAGS}: switches are booleans, repeatable flags lists. */
export type CliFlagValues = {
  [F in (typeof CLI_FLAGS)[number] as F['name']]: F['type'] extends 'boolean'
    ? boolean
    : F extends { readonly multiple: true }
      ? string[] | undefined
      : string | undefined;
};

/** How a flag is written: `-h, --help`, `--port <n>`, `--quirks[=SEED]`. */
export const flagUsage = (flag: CliFlag): string => {
  const value = flag.value === undefined ? '' : flag.value.startsWith('[') ? flag.value : ` ${flag.value}`;
  return `${flag.short ? `-${flag.short}, ` : ''}--${flag.name}${value}`;
};

/** The `options` of `node:util` `parseArgs` for {@link CLI_FLAGS}. */
export const parseArgsOptions = (): Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string; default?: boolean }> =>
  Object.fromEntries(
    (CLI_FLAGS as readonly CliFlag[]).map((flag) => [
      flag.name,
      {
        type: flag.type,
        ...(flag.multiple ? { multiple: true } : {}),
        ...(flag.short ? { short: flag.short } : {}),
        ...(flag.type === 'boolean' ? { default: false } : {}),
      },
    ]),
  );

/** The text of `merchant-checkout-mock --help`. */
export const helpText = (): string => {
  const flags: readonly CliFlag[] = CLI_FLAGS;
  const width = Math.max(...flags.map((flag) => flagUsage(flag).length)) + 2;
  const lines = flags.map((flag) => {
    const notes = [flag.default === undefined ? '' : `default ${flag.default}`, flag.env ? `env ${flag.env}` : ''].filter(Boolean);
    return `  ${flagUsage(flag).padEnd(width)}${flag.description}${notes.length ? ` (${notes.join('; ')})` : ''}`;
  });
  return [
    'Usage: merchant-checkout-mock [options]',
    '',
    'Serves an offline fake of the payment service under {base_url}/api/merchant and /api/public.',
    '',
    'Options (a flag given wins over its environment variable):',
    ...lines,
    '',
  ].join('\n');
};

/** Text for a table cell: `|` would end the cell, `<` would start an HTML tag. */
const cell = (text: string) => text.replace(/[|<]/g, (char) => `\\${char}`);

/** docs/api/mock-cli.md: the flags as a Markdown table. */
export const cliFlagsMarkdown = (): string =>
  [
    '# `merchant-checkout-mock`',
    '',
    'The mock payment service on a port (`npx merchant-checkout-mock`, or `npm run mock` in this',
    'repository), with one merchant whose keys it prints. Each flag sets an option of',
    '`startMockServer` / `createMockService` ([reference](mock.md)); test controls are on',
    'unless `--no-controls`. A flag given wins over its environment variable.',
    '',
    'Generated from `src/mock/cli-flags.ts` by `npm run docs:api`; do not edit.',
    '',
    '| flag | what it does | default | environment |',
    '|---|---|---|---|',
    ...(CLI_FLAGS as readonly CliFlag[]).map(
      (flag) =>
        `| \`${flagUsage(flag).replace(/\|/g, '\\|')}\` | ${cell(flag.description)} | ${flag.default === undefined ? '' : `\`${flag.default.replace(/\|/g, '\\|')}\``} | ${flag.env ? `\`${flag.env}\`` : ''} |`,
    ),
    '',
  ].join('\n');
