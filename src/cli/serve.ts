/**
 * `merchant-checkout serve`: the gateway (src/gateway) as a process, configured by the
 * environment and an optional JSON file (src/gateway/settings.ts). `--check` reads the
 * settings, reaches the service with every terminal (a signed read) and the store, and says
 * what failed, without serving; a Redis setting that can lose data is a warning, printed,
 * which does not fail the check (a managed Redis may neither show nor let change it).
 */
import { commandArgs } from './args.js';
import { SettingError } from '../gateway/env.js';
import type { CommandIo } from './reconcile.js';
import { jsonLog, clientsFor, startGateway, storeFor, storeKind } from '../gateway/server.js';
import { readConfig, settingsHelp, settingsSource, type GatewayConfig } from '../gateway/settings.js';

export const SERVE_HELP = `merchant-checkout serve: the checkout gateway, for a shop on any stack

Serves the checkout protocol (pages show an invoice with a checkout token the shop mints), the
payment service's notifications (verified with the service), the reconciler, the shop's signed
webhook of every change, a bearer API for the shop (POST /v1/invoices, POST
/v1/invoices/{id}/checkout-token, GET /v1/webhooks, POST /v1/webhooks/{id}/redeliver),
GET /healthz and GET /readyz. Logs JSON lines; stops gracefully on SIGTERM.

Usage: merchant-checkout serve [--config FILE] [--check]

  --config FILE   a JSON object of the settings below (the environment wins over it)
  --check         check the settings, the service (a signed read with each terminal) and the
                  store, print what failed, and exit (0 all good, 1 something failed); a
                  Redis setting that can lose data (appendonly, appendfsync,
                  maxmemory-policy) is printed as a warning and does not fail it
  --help          this text

Settings (environment, or keys of the config file):
${settingsHelp()}

A key of the config file that is not one of these, or a GATEWAY_*, PAYMENT_* or SHOP_*
variable (or a near miss of REDIS_URL, REDIS_PREFIX) that is not, is refused (exit 2).

Exit status: 0 stopped, 1 a check failed, 2 a setting is missing or malformed (named).
`;

/** Reaches the service with each terminal and the store: one line each, and whether all passed. */
const check = async (config: GatewayConfig, io: CommandIo): Promise<boolean> => {
  let ok = true;
  const line = (passed: boolean | 'warn', what: string, detail = '') => {
    if (!passed) ok = false;
    io.out(`${passed === 'warn' ? 'warn' : passed ? 'ok  ' : 'FAIL'}  ${what}${detail ? `: ${detail}` : ''}\n`);
  };
  line(true, 'settings');
  for (const [index, client] of clientsFor(config).entries()) {
    try {
      await client.listPaymentOptions();
      line(true, `terminal ${index + 1} (${client.terminal}) reaches ${config.serviceUrl}`);
    } catch (error) {
      line(false, `terminal ${index + 1} (${client.terminal})`, error instanceof Error ? error.message : String(error));
    }
  }
  let store: ReturnType<typeof storeFor>;
  try {
    store = storeFor(config, () => undefined);
  } catch (error) {
    line(false, 'store', error instanceof Error ? error.message : String(error));
    return ok;
  }
  try {
    const end = Date.now() + 5000;
    for (;;) {
      try {
        await (store.check ? store.check() : store.trackedCount());
        break;
      } catch (error) {
        if (Date.now() > end) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    line(true, `store (${storeKind(config)})`);
    if ('checkSettings' in store) for (const warning of await store.checkSettings()) line('warn', 'redis', warning.message);
  } catch (error) {
    line(false, 'store', error instanceof Error ? error.message : String(error));
  } finally {
    await store.close();
  }
  return ok;
};

export interface ServeIo extends CommandIo {
  /** Resolves when the process is asked to stop (SIGTERM, SIGINT); the bin wires the signals. */
  stopSignal?: Promise<string>;
  /** Told once the gateway serves (tests). */
  onListening?: (url: string) => void;
}

export const serveCommand = async (args: readonly string[], io: ServeIo): Promise<number> => {
  const values = commandArgs('serve', args, { config: { type: 'string' }, check: { type: 'boolean' } }, SERVE_HELP, io);
  if (typeof values === 'number') return values;
  let config: GatewayConfig;
  try {
    config = readConfig(settingsSource(io.env, values.config));
  } catch (error) {
    if (!(error instanceof SettingError)) throw error;
    io.err(`merchant-checkout serve: ${error.message}\n`);
    return 2;
  }
  if (values.check) return (await check(config, io)) ? 0 : 1;
  const log = jsonLog(config.logLevel, io.out);
  let running;
  try {
    running = await startGateway(config, log);
  } catch (error) {
    io.err(`merchant-checkout serve: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  io.onListening?.(running.url);
  const signal = await (io.stopSignal ?? new Promise<string>(() => undefined));
  log('info', 'signal', { signal });
  await running.stop();
  return 0;
};
