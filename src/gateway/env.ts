/**
 * The settings every command of `merchant-checkout` reads from the environment: where the
 * service is and the shop's terminals. A missing or malformed setting is an error naming the
 * variable, before anything is sent.
 */
import { MerchantClient, type MerchantClientOptions } from '../server/node.js';

/** A setting the command cannot run without, or one it cannot read: named, for the shop's operator. */
export class SettingError extends Error {
  override name = 'SettingError';
}

/** One terminal of the shop: its keys and the token its invoices were created with. */
export interface TerminalSetting {
  apiKey: string;
  secretKey: string;
  notificationToken?: string | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

const required = (env: Env, name: string): string => {
  const value = env[name];
  if (value === undefined || value.trim() === '') throw new SettingError(`${name} is not set`);
  return value.trim();
};

/**
 * The shop's terminals: `PAYMENT_TERMINALS` (a JSON list of `{ apiKey, secretKey,
 * notificationToken? }`), or one from `PAYMENT_API_KEY`, `PAYMENT_SECRET_KEY` and
 * `PAYMENT_NOTIFICATION_TOKEN`.
 */
export const terminalsFrom = (env: Env): TerminalSetting[] => {
  const listed = env.PAYMENT_TERMINALS;
  if (listed === undefined || listed.trim() === '') {
    return [
      {
        apiKey: required(env, 'PAYMENT_API_KEY'),
        secretKey: required(env, 'PAYMENT_SECRET_KEY'),
        notificationToken: env.PAYMENT_NOTIFICATION_TOKEN,
      },
    ];
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(listed);
  } catch {
    throw new SettingError('PAYMENT_TERMINALS is not JSON: give a list like [{"apiKey":"…","secretKey":"…","notificationToken":"…"}]');
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw new SettingError('PAYMENT_TERMINALS must be a non-empty JSON list of terminals');
  return parsed.map((item: unknown, index) => {
    const fields = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    for (const key of ['apiKey', 'secretKey'] as const) {
      if (typeof fields[key] !== 'string' || fields[key] === '')
        throw new SettingError(`PAYMENT_TERMINALS[${index}].${key} must be a non-empty string`);
    }
    const token = fields.notificationToken;
    if (token !== undefined && (typeof token !== 'string' || token === ''))
      throw new SettingError(`PAYMENT_TERMINALS[${index}].notificationToken must be a non-empty string when given`);
    return { apiKey: fields.apiKey as string, secretKey: fields.secretKey as string, notificationToken: token };
  });
};

/** The service's base URL (`PAYMENT_API_URL`) and a client per terminal. */
export const clientsFrom = (env: Env): { baseUrl: string; terminals: TerminalSetting[]; clients: MerchantClient[] } => {
  const baseUrl = required(env, 'PAYMENT_API_URL');
  try {
    new URL(baseUrl);
  } catch {
    throw new SettingError(`PAYMENT_API_URL must be an absolute URL, got ${JSON.stringify(baseUrl)}`);
  }
  const terminals = terminalsFrom(env);
  return { baseUrl, terminals, clients: terminalClients(baseUrl, terminals) };
};

/**
 * A client of the service at `baseUrl` per terminal, with the same `options` (a time limit, a
 * `fetch`): what every command and the gateway reach the service with. Keys a client refuses are
 * a `SettingError` saying which terminal's.
 */
export const terminalClients = (
  baseUrl: string,
  terminals: readonly TerminalSetting[],
  options: Pick<MerchantClientOptions, 'timeoutMs' | 'fetch'> = {},
): MerchantClient[] =>
  terminals.map((terminal, index) => {
    try {
      return new MerchantClient({ baseUrl, apiKey: terminal.apiKey, secretKey: terminal.secretKey, ...options });
    } catch (error) {
      const which = terminals.length === 1 ? "the terminal's" : `terminal ${index + 1}'s`;
      throw new SettingError(`${which} settings are refused: ${error instanceof Error ? error.message : String(error)}`);
    }
  });

/** The environment variables these settings read, for `--help`. */
export const ENV_HELP = [
  ['PAYMENT_API_URL', "the service's base URL (required)"],
  ['PAYMENT_API_KEY', "a terminal's API key (required unless PAYMENT_TERMINALS)"],
  ['PAYMENT_SECRET_KEY', "that terminal's secret key (required unless PAYMENT_TERMINALS)"],
  ['PAYMENT_NOTIFICATION_TOKEN', 'the notificationToken of its invoices'],
  ['PAYMENT_TERMINALS', 'several terminals: a JSON list of {"apiKey","secretKey","notificationToken"}'],
] as const;
