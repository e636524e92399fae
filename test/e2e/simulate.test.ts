/**
 * `merchant-checkout simulate` (issue 27) from the built bin: it plays the payment service to a
 * notification receiver and reports what the receiver got right. Against the kit's own receiver
 * (the built gateway, `merchant-checkout serve`, reading the simulated service) every scenario
 * is right; against a deliberately naive receiver (answers 200 to anything, never asks the
 * service) the report names its faults and the exit status is 1.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { ScenarioReport } from '../../src/cli/simulate.js';
import { freePort, startProcess, stop } from './support/processes.js';

const BIN = fileURLToPath(new URL('../../dist/node/cli.js', import.meta.url));
const KEYS = {
  PAYMENT_API_KEY: 'simulate-e2e-key',
  PAYMENT_SECRET_KEY: 'simulate-e2e-secret',
  PAYMENT_NOTIFICATION_TOKEN: 'simulate-e2e-token',
};
const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Runs the bin's `simulate`; its exit status, its JSON report and what it said on stderr. */
const simulate = (args: string[]) =>
  new Promise<{ status: number | null; report: { faults: number; scenarios: ScenarioReport[] }; err: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'simulate', '--json', ...args], {
      env: { ...process.env, ...KEYS },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (status) => {
      try {
        resolve({ status, report: JSON.parse(out) as { faults: number; scenarios: ScenarioReport[] }, err });
      } catch {
        reject(new Error(`simulate printed no JSON (${status}): ${out}${err}`));
      }
    });
  });

test("the kit's own receiver (the built gateway) handles every scenario right", async () => {
  const servicePort = await freePort();
  const gatewayPort = await freePort();
  const gateway = await startProcess(
    process.execPath,
    [BIN, 'serve'],
    {
      ...KEYS,
      PAYMENT_API_URL: `http://127.0.0.1:${servicePort}`,
      GATEWAY_SECRET: 'simulate-e2e-gateway-secret-01',
      PORT: String(gatewayPort),
      LOG_LEVEL: 'warn',
      // Plays the service for one scenario: nothing here outlives the process.
      GATEWAY_DATA_DIR: ':memory:',
    },
    `http://127.0.0.1:${gatewayPort}/healthz`,
  );
  cleanups.push(() => stop(gateway));
  const { status, report, err } = await simulate([
    '--receiver',
    `http://127.0.0.1:${gatewayPort}/notifications`,
    '--port',
    String(servicePort),
    '--grace-ms',
    '300',
  ]);
  assert.match(err, new RegExp(`listens at http://127.0.0.1:${servicePort}`));
  const wrong = report.scenarios.filter((scenario) => !scenario.ok);
  assert.deepEqual(wrong, [], JSON.stringify(wrong, null, 2));
  assert.equal(status, 0);
  assert.deepEqual(
    report.scenarios.map((scenario) => scenario.name),
    ['paid', 'repeated', 'out of order', 'late', 'corrected', 'dispute', 'forged', 'wrong token', 'unreadable', 'sparse'],
  );
  const by = (name: string) => report.scenarios.find((scenario) => scenario.name === name)!;
  assert.ok(by('corrected').reads >= 2, 'the corrected amount was read again');
  assert.ok(by('forged').answers[0] === 409 && by('forged').reads >= 1, 'a forged paid is checked with the service and answered 409');
  assert.equal(by('wrong token').reads, 0, 'a wrong token costs the service nothing');
});

test('a naive receiver (200 to anything, never asks the service): the report names its faults, exit status 1', async () => {
  const naive: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  });
  await new Promise<void>((resolve) => naive.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => naive.close(resolve)));
  const { status, report } = await simulate([
    '--receiver',
    `http://127.0.0.1:${(naive.address() as AddressInfo).port}/hook`,
    '--grace-ms',
    '100',
  ]);
  assert.equal(status, 1);
  const faults = Object.fromEntries(report.scenarios.filter((scenario) => !scenario.ok).map((scenario) => [scenario.name, scenario.fault]));
  assert.match(faults.forged ?? '', /forged paid at its word/);
  assert.match(faults['wrong token'] ?? '', /anybody can post to it/);
  assert.match(faults.unreadable ?? '', /the notice is lost/);
  assert.match(faults.corrected ?? '', /as a duplicate/);
  assert.match(faults.paid ?? '', /never read the invoice/);
  assert.equal(report.faults, Object.keys(faults).length);
  // Acknowledging a repeat is right at the door (crediting once is the shop's books).
  assert.equal(report.scenarios.find((scenario) => scenario.name === 'repeated')?.ok, true);
});

test('simulate refuses a missing or odd receiver with exit status 2', async () => {
  for (const args of [[], ['--receiver', 'ftp://x'], ['--receiver', 'http://127.0.0.1:9/', '--port', 'eighty']]) {
    const child = spawn(process.execPath, [BIN, 'simulate', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString('utf8')));
    const status = await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(status, 2, `${args.join(' ')}: ${err}`);
    assert.match(err, /--receiver|--port/);
  }
});
