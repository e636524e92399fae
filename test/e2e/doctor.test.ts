/**
 * `merchant-checkout doctor` (issue 27) from the built bin against the built mock CLI started
 * with a brand's non-default flags: `doctor --yes --json` infers exactly those options, prints
 * them back as the same flags, leaves its one invoice canceled, and prints no secret.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { DoctorReport } from '../../src/cli/doctor.js';
import { freePort, startProcess, stop } from './support/processes.js';

const BIN = fileURLToPath(new URL('../../dist/node/cli.js', import.meta.url));
const MOCK_BIN = fileURLToPath(new URL('../../dist/node/mock-cli.js', import.meta.url));
const SECRET = `doctor-e2e-canary-${crypto.randomUUID()}`;
const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** The brand's flags, as the doctor writes them (`--name=value`). */
const BRAND_FLAGS = [
  '--error-format=legacy',
  '--rate=RUB=90.10',
  '--amount-limit=RUB:500.00-100000.00',
  '--utc-offset=-90',
  '--invoice-ttl=1800',
  '--invoice-page=https://pay.e2e.example/checkout',
  '--no-hosted-page-routes',
  '--cancel-without-deal=409:Start a deal first',
  '--deal-id-is-invoice-id',
  '--payment-method-name=always',
  '--store-id=7',
  '--store-name=E2E Shop',
];

const doctor = (args: string[], env: Record<string, string>) =>
  new Promise<{ status: number | null; out: string; err: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'doctor', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (status) => resolve({ status, out, err }));
  });

test('doctor --yes --json infers the flags a mock process was started with, and cancels its one invoice', async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const mock = await startProcess(
    process.execPath,
    [MOCK_BIN, `--port=${port}`, '--api-key=doctor-e2e-key', `--secret-key=${SECRET}`, ...BRAND_FLAGS],
    {},
    `${url}/__mock/state`,
  );
  cleanups.push(() => stop(mock));
  const env = { PAYMENT_API_URL: url, PAYMENT_API_KEY: 'doctor-e2e-key', PAYMENT_SECRET_KEY: SECRET };
  const { status, out, err } = await doctor(['--yes', '--json', '--url', url], env);
  const report = JSON.parse(out) as DoctorReport;
  assert.equal(status, 0, `${JSON.stringify(report.rows.filter((row) => !row.ok))}\n${err}`);
  assert.deepEqual(report.options, {
    errorFormat: 'legacy',
    rates: { RUB: '90.10' },
    amountLimits: { RUB: { min: '500.00', max: '100000.00' } },
    utcOffsetMinutes: -90,
    invoiceTtlMs: 1_800_000,
    invoicePageUrl: 'https://pay.e2e.example/checkout',
    hostedPageRoutes: false,
    cancelWithoutDeal: { status: 409, message: 'Start a deal first' },
    dealIdIsInvoiceId: true,
    paymentMethodName: 'always',
  });
  assert.deepEqual(report.merchant, { payIn: true, storeId: 7, storeName: 'E2E Shop' });
  assert.deepEqual([...report.mockFlags].sort(), [...BRAND_FLAGS].sort());
  assert.ok(!out.includes(SECRET) && !err.includes(SECRET), 'the secret is never printed');
  const state = (await (await fetch(`${url}/__mock/state`)).json()) as { invoices: { id: string; status: string }[] };
  assert.deepEqual(
    state.invoices.map((invoice) => [invoice.id, invoice.status]),
    [[report.invoice?.id, 'canceled']],
  );
  const requests = (await (await fetch(`${url}/__mock/requests`)).json()) as { method: string; path: string }[];
  assert.deepEqual(
    requests.filter((request) => /confirm-transfer|\/dispute|\/withdrawals/.test(request.path)),
    [],
  );

  // Another host named on the command line: refused before anything is sent.
  const refused = await doctor(['--yes', '--url', `http://127.0.0.1:${port + 1}`], env);
  assert.equal(refused.status, 2);
  assert.match(refused.err, /refusing to run/);
  const after = (await (await fetch(`${url}/__mock/requests`)).json()) as unknown[];
  assert.equal(after.length, requests.length);
});
