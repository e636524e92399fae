/**
 * `merchant-checkout doctor` (issue 27): checks a brand of the payment service before a shop
 * goes live, with the shop's own terminal. It checks what can be checked safely (signing with
 * and without a query string, a wrong signature, the reads and lists, error bodies, the public
 * routes, the shape of answers and timestamps) and, with the operator's consent, makes one test
 * invoice of the brand's minimum amount, starts a deal only if the cancel needs one, and
 * cancels it. It never confirms, disputes or withdraws: its client has only the allow-listed
 * operations and its transport refuses the others (doctor/calls.ts). It prints a table for a
 * support ticket and the mock options that reproduce the brand.
 *
 * The host rule: the keys go only to `PAYMENT_API_URL`, the configured service. `--url`, when
 * given, must name the same service (scheme, host, port and path, a trailing slash aside), or
 * the doctor refuses to run (status 2) before it sends anything; every request it makes is
 * checked against that origin again.
 */
import { MerchantClient } from '../server/node.js';
import { commandArgs } from './args.js';
import { SettingError, terminalClients, terminalsFrom } from '../gateway/env.js';
import type { CommandIo } from './reconcile.js';
import { table } from './table.js';
import { Tap, doctorClient, guardedFetch } from './doctor/calls.js';
import {
  checkErrorShapes,
  checkSigningAndReads,
  concludeErrorFormat,
  row,
  type DoctorRow,
  type DoctorSettings,
  type DoctorState,
} from './doctor/checks.js';
import { checkInvoice } from './doctor/invoice.js';
import { mockCliFlags, mockServiceOptions, notCheckedOf, orderedOptions, shellQuoted } from './doctor/mock-options.js';

export const DOCTOR_HELP = `merchant-checkout doctor: check a brand of the payment service before going live

Usage: merchant-checkout doctor [--url <base url>] [--currency <code>] [--amount <decimal>] [--yes] [--json]

Checks, with the terminal of PAYMENT_API_URL, PAYMENT_API_KEY and PAYMENT_SECRET_KEY (the first
of PAYMENT_TERMINALS), what can be checked safely: signing (a GET, a URL with a query string, a
wrong signature), the reads and lists, error bodies, the public routes, the shape of answers and
timestamps. Then, if you agree, ONE test invoice of the brand's minimum amount (found from the
refusal of a create of 0.01, or --amount), read back every way and canceled (a deal is started
first only if the brand refuses to cancel without one). It never confirms, disputes or
withdraws. Prints a table for a support ticket and the mock options that reproduce the brand
(for createMockService and as merchant-checkout-mock flags).

  --url <base url>    the service you mean to check; it must be PAYMENT_API_URL (the same
                      scheme, host, port and path), else the doctor refuses to run: the keys
                      go only to the configured service
  --currency <code>   the test invoice's currency (default RUB)
  --amount <decimal>  the test invoice's amount (default: the minimum the service states)
  --yes               create the test invoice without asking (CI). Without it the doctor asks
                      on the terminal, and without a terminal it skips the invoice checks
  --json              one JSON document (rows, options, mockOptions, mockFlags, notChecked)
  --help              this text

The test invoice's notifications go to ${'https://doctor.invalid/notifications'} (nowhere).

Exit status: 0 every check passed (the kit handles this brand), 1 a check found something the
kit cannot handle or a request failed (the test invoice, if any, is canceled first), 2 a
setting or an argument is wrong, or --url is not the configured service.
`;

/** The command's input and output; `ask` exists only when there is a terminal to ask on. */
export type DoctorIo = CommandIo;

/** The base URL as the doctor compares it: scheme, host, port and path without trailing slashes. */
const serviceOf = (text: string, name: string): URL => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SettingError(`${name} must be an absolute URL, got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new SettingError(`${name} must be an http(s) URL`);
  if (url.username || url.password) throw new SettingError(`${name} must not carry a user or a password`);
  url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/+$/, '') || '/';
  return url;
};

interface Parsed {
  base: URL;
  apiKey: string;
  secretKey: string;
  settings: Omit<DoctorSettings, 'consent'>;
}

const parseSettings = (
  values: { url?: string | undefined; currency?: string | undefined; amount?: string | undefined },
  env: CommandIo['env'],
): Parsed => {
  const configured = env.PAYMENT_API_URL?.trim();
  if (!configured) throw new SettingError('PAYMENT_API_URL is not set: the doctor checks the configured service only');
  const base = serviceOf(configured, 'PAYMENT_API_URL');
  if (values.url !== undefined && serviceOf(values.url, '--url').href !== base.href) {
    throw new SettingError(
      `refusing to run: --url ${JSON.stringify(values.url)} is not the configured service (PAYMENT_API_URL is ${base.href}); the keys go only to the configured service`,
    );
  }
  const currency = values.currency ?? 'RUB';
  if (!/^[A-Z][A-Z0-9]{1,9}$/.test(currency))
    throw new SettingError(`--currency must be a currency code like RUB, got ${JSON.stringify(currency)}`);
  const amount = values.amount;
  if (amount !== undefined && (!/^\d{1,15}(?:\.\d{1,8})?$/.test(amount) || !/[1-9]/.test(amount)))
    throw new SettingError(`--amount must be a decimal amount above zero like 1000.00, got ${JSON.stringify(amount)}`);
  const [terminal] = terminalsFrom(env);
  // Refused keys are said here, before the operator is asked anything.
  terminalClients(base.href, [terminal!], { fetch: () => Promise.reject(new Error('not sent')) });
  return { base, apiKey: terminal!.apiKey, secretKey: terminal!.secretKey, settings: { currency, amount } };
};

/** The operator's consent to the one test invoice: `--yes`, a "y" on the terminal, or none. */
const consentOf = async (
  yes: boolean | undefined,
  io: DoctorIo,
  base: URL,
  settings: Parsed['settings'],
): Promise<{ consent: boolean; reason?: string }> => {
  if (yes) return { consent: true };
  if (!io.ask) return { consent: false, reason: 'skipped: no terminal to ask on and no --yes' };
  const what = settings.amount ? `${settings.amount} ${settings.currency}` : `the minimum amount in ${settings.currency}`;
  const answer = await io.ask(`Create ONE test invoice of ${what} at ${base.host} and cancel it (never paid)? [y/N] `);
  return /^\s*y(es)?\s*$/i.test(answer) ? { consent: true } : { consent: false, reason: 'skipped: you answered no' };
};

/** The whole report as JSON. */
export interface DoctorReport {
  service: string;
  terminal: string;
  currency: string;
  ok: boolean;
  invoice: { id: string; canceled: boolean } | null;
  rows: DoctorRow[];
  options: DoctorState['options'];
  merchant: DoctorState['merchant'];
  mockOptions: Record<string, unknown>;
  mockFlags: string[];
  notChecked: { option: string; why: string }[];
  seconds: number;
}

/** Runs every check; the report. */
export const runDoctor = async (parsed: Parsed, consent: { consent: boolean; reason?: string }): Promise<DoctorReport> => {
  const started = performance.now();
  const tap = new Tap();
  const send = guardedFetch(parsed.base, tap);
  const baseUrl = parsed.base.href;
  const merchantClient = new MerchantClient({ baseUrl, apiKey: parsed.apiKey, secretKey: parsed.secretKey, fetch: send });
  // A random secret, never printed: the brand must refuse its signature.
  const wrong = new MerchantClient({ baseUrl, apiKey: parsed.apiKey, secretKey: `doctor-wrong-${crypto.randomUUID()}`, fetch: send });
  const state: DoctorState = {
    client: doctorClient(merchantClient, parsed.apiKey, send, tap),
    wrongSignature: doctorClient(wrong, parsed.apiKey, send, tap),
    tap,
    settings: { ...parsed.settings, consent: consent.consent },
    rows: [],
    options: {},
    merchant: {},
    why: {},
    stamps: [],
    invoice: null,
  };
  const signedReads = await checkSigningAndReads(state);
  await checkErrorShapes(state);
  if (consent.consent && signedReads) await checkInvoice(state);
  else {
    const reason = consent.consent ? 'skipped: the service did not accept a signed read' : (consent.reason ?? 'skipped');
    state.why.invoice = `no test invoice (${reason})`;
    row(
      state,
      'test invoice (create, reads, public routes, start-deal, cancel)',
      'one pay-in invoice of the minimum amount, canceled',
      reason,
      consent.consent ? 'not checked: fix the reads first' : 'not checked: run with --yes (or answer y) to check them',
      !consent.consent,
    );
  }
  concludeErrorFormat(state);
  const invoice = state.invoice;
  if (invoice && !invoice.canceled)
    row(
      state,
      'the test invoice',
      'canceled before the doctor ends',
      `${invoice.id} could NOT be canceled`,
      `it stays open until ${invoice.expireAt ?? 'it expires'}; cancel it by hand`,
      false,
    );
  return {
    service: baseUrl.replace(/\/$/, ''),
    terminal: merchantClient.terminal,
    currency: parsed.settings.currency,
    ok: state.rows.every((each) => each.ok),
    invoice: invoice && { id: invoice.id, canceled: invoice.canceled },
    rows: state.rows,
    options: orderedOptions(state.options),
    merchant: state.merchant,
    mockOptions: mockServiceOptions(state.options, state.merchant),
    mockFlags: mockCliFlags(state.options, state.merchant),
    notChecked: notCheckedOf(state),
    seconds: Math.round(performance.now() - started) / 1000,
  };
};

/** The report as text for a support ticket. */
export const doctorText = (report: DoctorReport): string => {
  const failed = report.rows.filter((each) => !each.ok);
  const rows = [
    ['behaviour', 'documented', 'this brand', 'what the kit does about it'],
    ...report.rows.map((each) => [each.behaviour, each.documented, `${each.ok ? '' : 'FAIL: '}${each.brand}`, each.kit]),
  ];
  return [
    `merchant-checkout doctor: ${report.service} (terminal ${report.terminal}, currency ${report.currency})`,
    '',
    table(rows).trimEnd(),
    '',
    failed.length === 0
      ? `Every check passed (${report.rows.length}): the kit handles this brand.`
      : `${failed.length} of ${report.rows.length} checks found something the kit cannot handle or a request that failed: ${failed.map((each) => each.behaviour).join('; ')}.`,
    report.invoice
      ? `Test invoice ${report.invoice.id}: ${report.invoice.canceled ? 'created and canceled' : 'NOT canceled'}.`
      : 'No test invoice was created.',
    '',
    'Mock options that reproduce this brand (createMockService; publicBaseUrl and keys are placeholders):',
    JSON.stringify(report.mockOptions, null, 2),
    '',
    'The same as flags:',
    `  merchant-checkout-mock ${report.mockFlags.map(shellQuoted).join(' ')}`,
    '',
    'Not checked:',
    ...report.notChecked.map((each) => `- ${each.option}: ${each.why}`),
    '',
  ].join('\n');
};

export const doctorCommand = async (args: readonly string[], io: DoctorIo): Promise<number> => {
  const values = commandArgs(
    'doctor',
    args,
    {
      url: { type: 'string' },
      currency: { type: 'string' },
      amount: { type: 'string' },
      yes: { type: 'boolean' },
      json: { type: 'boolean' },
    },
    DOCTOR_HELP,
    io,
  );
  if (typeof values === 'number') return values;
  let parsed: Parsed;
  try {
    parsed = parseSettings(values, io.env);
  } catch (error) {
    if (!(error instanceof SettingError)) throw error;
    io.err(`merchant-checkout doctor: ${error.message}\n`);
    return 2;
  }
  const consent = await consentOf(values.yes, io, parsed.base, parsed.settings);
  if (!consent.consent)
    io.err(`merchant-checkout doctor: the test invoice is ${consent.reason ?? 'skipped'}; its checks are listed as not checked\n`);
  const report = await runDoctor(parsed, consent);
  io.out(values.json ? `${JSON.stringify(report, null, 2)}\n` : doctorText(report));
  return report.ok ? 0 : 1;
};
