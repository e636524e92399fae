/**
 * The gateway's settings, declared once (`SETTINGS`): each an environment variable (or the same
 * key in the optional JSON config file; the environment wins), with its default and how it is
 * read. `--help`, docs/gateway.md and the start-up errors come from this table; a missing or
 * malformed setting is an error naming the variable, and so is one that is not a setting (a key
 * of the config file, or a variable of the environment named as the gateway's own: see
 * {@link unknownSettings}).
 */
import { readFileSync } from 'node:fs';
import { ENV_HELP, SettingError, terminalsFrom, type TerminalSetting } from './env.js';
import { DEFAULT_OPEN_INTERVAL_MS } from '../server/books/schedule.js';
import { WEBHOOK_RETRY_DELAYS_MS } from '../server/notifications/webhooks.js';
import { closestName, editDistance } from '../server/options-check.js';

type Reader<T> = (text: string, name: string) => T;

interface Setting<T> {
  /** The environment variable (and config file key). */
  name: string;
  /** One line for `--help`. */
  help: string;
  /** The default, as text (undefined: none). */
  fallback?: string;
  /** Required to serve. */
  required?: boolean;
  read: Reader<T>;
}

const text: Reader<string> = (value) => value;
const url: Reader<string> = (value, name) => {
  try {
    return new URL(value).href.replace(/\/+$/, '');
  } catch {
    throw new SettingError(`${name} must be an absolute URL, got ${JSON.stringify(value)}`);
  }
};
const path: Reader<string> = (value, name) => {
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(value) || value.includes('//'))
    throw new SettingError(`${name} must be a path like /checkout-api, got ${JSON.stringify(value)}`);
  return value.replace(/\/+$/, '') || '/';
};
const positive: Reader<number> = (value, name) => {
  const number = Number(value);
  if (!/^\d+$/.test(value) || !(number > 0))
    throw new SettingError(`${name} must be a positive whole number, got ${JSON.stringify(value)}`);
  return number;
};
const delays: Reader<number[]> = (value, name) => {
  const list = value.split(',').map((each) => each.trim());
  if (list.length === 0 || list.some((each) => !/^\d+$/.test(each) || Number(each) <= 0))
    throw new SettingError(`${name} must be positive whole numbers of ms, comma-separated, got ${JSON.stringify(value)}`);
  return list.map(Number);
};
const port: Reader<number> = (value, name) => {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number > 65535) throw new SettingError(`${name} must be a port (0 to 65535), got ${JSON.stringify(value)}`);
  return number;
};
const secret: Reader<string> = (value, name) => {
  if (value.length < 16) throw new SettingError(`${name} must be at least 16 characters`);
  return value;
};
const origins: Reader<string[]> = (value, name) =>
  value
    .split(',')
    .map((each) => each.trim())
    .filter(Boolean)
    .map((origin) => {
      let canonical: string;
      try {
        canonical = new URL(origin).origin;
      } catch {
        canonical = '';
      }
      if (canonical !== origin) throw new SettingError(`${name}: ${JSON.stringify(origin)} is not an origin like https://shop.example`);
      return origin;
    });
const level: Reader<'debug' | 'info' | 'warn' | 'error'> = (value, name) => {
  if (!['debug', 'info', 'warn', 'error'].includes(value))
    throw new SettingError(`${name} must be debug, info, warn or error, got ${JSON.stringify(value)}`);
  return value as 'debug' | 'info' | 'warn' | 'error';
};
const webhookSecret: Reader<string> = (value, name) => {
  if (!/^whsec_[A-Za-z0-9+/]{22,}={0,2}$/.test(value))
    throw new SettingError(`${name} must be a Standard Webhooks secret: "whsec_" and base64 of at least 16 bytes`);
  return value;
};

/** Every setting of the gateway, besides the terminals (env.ts). */
export const SETTINGS = {
  serviceUrl: { name: 'PAYMENT_API_URL', help: "the payment service's base URL", required: true, read: url },
  secret: {
    name: 'GATEWAY_SECRET',
    help: 'signs and checks the checkout tokens pages get (at least 16 characters; several: comma-separated, the first signs)',
    required: true,
    read: secret,
  },
  apiKey: {
    name: 'GATEWAY_API_KEY',
    help: "the shop's bearer key for the gateway's /v1 API (invoices, tokens, webhooks); without it that API is off",
    read: secret,
  },
  consoleKey: {
    name: 'GATEWAY_CONSOLE_KEY',
    help: "the support console's own key (/console: each invoice's journal; at least 16 characters); without it the console is off",
    read: secret,
  },
  publicUrl: {
    name: 'GATEWAY_PUBLIC_URL',
    help: "the gateway's own URL as the payment service reaches it (fills the invoices' notificationUrl)",
    read: url,
  },
  basePath: {
    name: 'GATEWAY_BASE_PATH',
    help: "the checkout protocol's path (the element's endpoint)",
    fallback: '/checkout-api',
    read: path,
  },
  notificationsPath: {
    name: 'GATEWAY_NOTIFICATIONS_PATH',
    help: "the path of the service's notifications",
    fallback: '/notifications',
    read: path,
  },
  origins: {
    name: 'GATEWAY_ALLOWED_ORIGINS',
    help: "origins of the shop's pages that call the gateway from another origin (comma-separated)",
    fallback: '',
    read: origins,
  },
  host: { name: 'HOST', help: 'the address to listen on', fallback: '127.0.0.1', read: text },
  port: { name: 'PORT', help: 'the port to listen on', fallback: '8080', read: port },
  dataDir: {
    name: 'GATEWAY_DATA_DIR',
    help: 'the folder of the durable store of one instance (SQLite, created if missing; unless REDIS_URL); `:memory:` keeps everything in memory, for tests: a restart loses the books, the tracked invoices and the webhooks',
    fallback: 'merchant-checkout-data',
    read: text,
  },
  redisUrl: { name: 'REDIS_URL', help: 'a Redis store shared by several gateway instances (instead of GATEWAY_DATA_DIR)', read: url },
  redisPrefix: { name: 'REDIS_PREFIX', help: 'the prefix of the Redis keys', fallback: 'merchant-checkout:', read: text },
  webhookUrl: { name: 'SHOP_WEBHOOK_URL', help: "the shop's endpoint for every change of an invoice (Standard Webhooks)", read: url },
  webhookSecret: {
    name: 'SHOP_WEBHOOK_SECRET',
    help: 'the signing secret of those webhooks: whsec_ and base64 (required with SHOP_WEBHOOK_URL)',
    read: webhookSecret,
  },
  webhookTimeoutMs: {
    name: 'SHOP_WEBHOOK_TIMEOUT_MS',
    help: 'how long one webhook attempt may take before it counts as failed, in ms (a message is not sent by another instance meanwhile for three times this)',
    fallback: '10000',
    read: positive,
  },
  webhookRetryDelaysMs: {
    name: 'SHOP_WEBHOOK_RETRY_DELAYS_MS',
    help: 'the waits between attempts of one webhook, in ms, comma-separated; after the last the webhook is listed as failed',
    fallback: WEBHOOK_RETRY_DELAYS_MS.join(','),
    read: delays,
  },
  reconcileIntervalMs: {
    name: 'GATEWAY_RECONCILE_INTERVAL_MS',
    help: 'how often the reconciler reads an open invoice again from the service, in ms (a payment whose notifications were all lost is found within about this long)',
    fallback: String(DEFAULT_OPEN_INTERVAL_MS),
    read: positive,
  },
  tokenTtlMs: {
    name: 'GATEWAY_TOKEN_TTL_MS',
    help: "how long a minted checkout token stays valid after its invoice's expiry, in ms",
    fallback: '3600000',
    read: positive,
  },
  timeoutMs: {
    name: 'GATEWAY_TIMEOUT_MS',
    help: 'the time budget of one checkout request, upstream calls included, in ms',
    fallback: '10000',
    read: positive,
  },
  maxUploadBytes: {
    name: 'GATEWAY_MAX_UPLOAD_BYTES',
    help: 'the largest receipt upload, in bytes',
    fallback: String(10 * 1024 * 1024 + 64 * 1024),
    read: positive,
  },
  uploadTimeoutMs: {
    name: 'GATEWAY_UPLOAD_TIMEOUT_MS',
    help: 'how long an upload may take to arrive, in ms',
    fallback: '120000',
    read: positive,
  },
  shutdownMs: {
    name: 'GATEWAY_SHUTDOWN_MS',
    help: 'on SIGTERM, how long in-flight requests may take to finish, in ms',
    fallback: '10000',
    read: positive,
  },
  logLevel: { name: 'LOG_LEVEL', help: 'the least level logged (debug, info, warn, error)', fallback: 'info', read: level },
} satisfies Record<string, Setting<unknown>>;

type Settings = typeof SETTINGS;
/** The gateway's configuration, every setting read. */
export type GatewayConfig = {
  [Key in keyof Settings]:
    ReturnType<Settings[Key]['read']> | (Settings[Key] extends { fallback: string } | { required: true } ? never : undefined);
} & {
  terminals: TerminalSetting[];
  /** The secrets that check tokens (`GATEWAY_SECRET`, comma-separated); the first signs. */
  secrets: string[];
};

/** Every name the gateway reads: its settings and the terminals' variables (env.ts). */
const SETTING_NAMES: readonly string[] = [
  ...new Set([
    ...Object.values(SETTINGS as Record<string, Setting<unknown>>).map((setting) => setting.name),
    ...ENV_HELP.map(([name]) => name),
  ]),
];

/** Prefixes that mark an environment variable as the gateway's own: one of these that is not a setting is a mistake. */
const OWN_PREFIXES = ['GATEWAY_', 'PAYMENT_', 'SHOP_'] as const;

/**
 * Variables with the gateway's prefixes that are not its settings and are no mistake: the
 * shops of examples/php and examples/python read `GATEWAY_URL` (where the gateway is) and the
 * PHP one `SHOP_BOOKS` (its books file), and a shop may keep one environment for itself and
 * the gateway.
 */
const NOT_SETTINGS: ReadonlySet<string> = new Set(['GATEWAY_URL', 'SHOP_BOOKS']);

/**
 * Whether an environment variable's name says it is meant for the gateway: a prefix of its
 * own, or two letters or fewer off its `REDIS_` settings (`REDIS_URI`, `REDIS_PREFX`). Other
 * `REDIS_` variables (`REDIS_HOST`, `REDIS_PORT`, `REDIS_PASSWORD`; the test suite's
 * `REDIS_SERVER`, the binary it starts) belong to other programs.
 */
const meantForGateway = (name: string): boolean =>
  OWN_PREFIXES.some((prefix) => name.startsWith(prefix)) ||
  (name.startsWith('REDIS_') && ['REDIS_URL', 'REDIS_PREFIX'].some((setting) => editDistance(name, setting) <= 2));

/** "X is not a setting; did you mean Y?", or where the settings are listed when none is near. */
const notASetting = (name: string, where: string): string => {
  const near = closestName(name, SETTING_NAMES);
  return `${name} (${where}) is not a setting of the gateway; ${near === undefined ? 'merchant-checkout serve --help lists them' : `did you mean ${near}?`}`;
};

/**
 * What is not a setting, one sentence each: every key of the config file that is not one, and
 * every variable of the environment {@link meantForGateway} that is not one (an empty one is as
 * good as unset). The environment carries other programs' variables; only those named as the
 * gateway's are judged.
 */
export const unknownSettings = (
  env: Readonly<Record<string, string | undefined>>,
  file?: { name: string; keys: readonly string[] },
): string[] => [
  ...(file?.keys ?? []).filter((key) => !SETTING_NAMES.includes(key)).map((key) => notASetting(key, `a key of --config ${file!.name}`)),
  ...Object.entries(env)
    .filter(([name, value]) => value !== undefined && value !== '' && meantForGateway(name))
    .filter(([name]) => !SETTING_NAMES.includes(name) && !NOT_SETTINGS.has(name))
    .map(([name]) => notASetting(name, 'in the environment')),
];

const refuseUnknown = (problems: readonly string[]) => {
  if (problems.length > 0) throw new SettingError(problems.join('; '));
};

/**
 * The settings from a JSON config file (keys as the environment variables) under the
 * environment; a key of the file, or a variable of the environment named as the gateway's own,
 * that is not a setting is a {@link SettingError} naming the nearest one.
 */
export const settingsSource = (
  env: Readonly<Record<string, string | undefined>>,
  configFile: string | undefined,
): Record<string, string | undefined> => {
  if (!configFile) {
    refuseUnknown(unknownSettings(env));
    return { ...env };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(configFile, 'utf8'));
  } catch (error) {
    throw new SettingError(`--config ${configFile}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new SettingError(`--config ${configFile}: must be a JSON object of settings`);
  refuseUnknown(unknownSettings(env, { name: configFile, keys: Object.keys(parsed) }));
  const fromFile = Object.fromEntries(
    Object.entries(parsed).map(([key, value]) => {
      if (typeof value === 'string') return [key, value];
      if (typeof value === 'number' || typeof value === 'boolean') return [key, String(value)];
      if (key === 'PAYMENT_TERMINALS' && Array.isArray(value)) return [key, JSON.stringify(value)];
      throw new SettingError(`--config ${configFile}: ${key} must be a string or a number`);
    }),
  );
  return { ...fromFile, ...Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== '')) };
};

/** Reads every setting; throws a {@link SettingError} naming the first one missing or malformed. */
export const readConfig = (source: Readonly<Record<string, string | undefined>>): GatewayConfig => {
  const config: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(SETTINGS) as [string, Setting<unknown>][]) {
    const raw = source[setting.name]?.trim();
    const value = raw === undefined || raw === '' ? setting.fallback : raw;
    if (value === undefined) {
      if (setting.required) throw new SettingError(`${setting.name} is not set (${setting.help})`);
      config[key] = undefined;
    } else {
      config[key] = setting.read(value, setting.name);
    }
  }
  if (config.webhookUrl !== undefined && config.webhookSecret === undefined)
    throw new SettingError('SHOP_WEBHOOK_SECRET is not set (SHOP_WEBHOOK_URL needs it to sign)');
  const secrets = String(source.GATEWAY_SECRET ?? '')
    .split(',')
    .map((each) => each.trim())
    .filter(Boolean);
  for (const each of secrets) secret(each, 'GATEWAY_SECRET');
  return { ...(config as Omit<GatewayConfig, 'terminals' | 'secrets'>), terminals: terminalsFrom(source), secrets };
};

/** The settings as docs/gateway.md tables them (between its `settings` markers). */
export const settingsMarkdown = (): string => {
  const rows = Object.values(SETTINGS as Record<string, Setting<unknown>>).map(
    (setting) =>
      `| \`${setting.name}\` | ${setting.required ? 'required' : setting.fallback !== undefined ? (setting.fallback === '' ? '(none)' : `\`${setting.fallback}\``) : '(none)'} | ${setting.help.replace(/\|/g, '\\|')} |`,
  );
  const terminals = [
    "| `PAYMENT_API_KEY`, `PAYMENT_SECRET_KEY` | required unless `PAYMENT_TERMINALS` | one terminal's keys |",
    '| `PAYMENT_NOTIFICATION_TOKEN` | required | the notificationToken of its invoices: the gateway receives notifications with it and fills it in the invoices it creates |',
    '| `PAYMENT_TERMINALS` | (none) | several terminals: a JSON list of `{"apiKey","secretKey","notificationToken"}` |',
  ];
  return ['| setting | default | what |', '|---|---|---|', ...rows, ...terminals].join('\n');
};

/** The settings as `--help` lists them. */
export const settingsHelp = (): string => {
  const rows = [
    ...Object.values(SETTINGS as Record<string, Setting<unknown>>).map(
      (setting) =>
        [
          setting.name,
          `${setting.help}${setting.required ? ' (required)' : setting.fallback ? ` (default ${setting.fallback})` : ''}`,
        ] as const,
    ),
    ['PAYMENT_API_KEY', "a terminal's API key (required unless PAYMENT_TERMINALS)"] as const,
    ['PAYMENT_SECRET_KEY', "that terminal's secret key (required unless PAYMENT_TERMINALS)"] as const,
    ['PAYMENT_NOTIFICATION_TOKEN', 'the notificationToken of its invoices (the gateway fills it in the invoices it creates)'] as const,
    ['PAYMENT_TERMINALS', 'several terminals: a JSON list of {"apiKey","secretKey","notificationToken"}'] as const,
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, help]) => `  ${name.padEnd(width)}  ${help}`).join('\n');
};
