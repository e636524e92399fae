/**
 * An A/B of the proxy against the kit of another copy of the sources, on one kind of load,
 * with more rounds than the throughput benchmark gives it:
 *
 *   node --import tsx bench/proxy-ab.ts <root> [rounds=20] [seconds=3] [shared|spread]
 *
 * `shared`: all 10 connections read one invoice, so the proxy's single flight answers several
 * payers with one upstream read; how many join a read changes from round to round, and so do
 * req/s and CPU per answer (by 2× here), which five rounds of 2 s do not average out. `spread`:
 * one invoice per connection, as bench/proxy.ts loads it. Both kits are bundled as they ship
 * (bench/kit.ts) and run in their own processes against one mock; the rounds alternate, the
 * order reversed every other round. Prints the medians and every round: req/s, the proxy's CPU
 * per answer, and the mock's (which tells whether as many reads were joined).
 */
import { load, startChild, stopChild, type Child } from './proxy.js';
import { kitOf } from './kit.js';
import { median } from './lib.js';

const [root, roundsArgument = '20', secondsArgument = '3', mode = 'shared'] = process.argv.slice(2);
if (!root || !['shared', 'spread'].includes(mode)) {
  console.error('usage: node --import tsx bench/proxy-ab.ts <root> [rounds] [seconds] [shared|spread]');
  process.exit(2);
}
const rounds = Number(roundsArgument);
const seconds = Number(secondsArgument);
const CONNECTIONS = 10;
const accept = { accept: 'application/json' };

interface Rounds {
  requestsPerSecond: number[];
  cpu: number[];
  mockCpu: number[];
}

const mock = await startChild('mock');
const info = mock.info!;
const targets: Record<'this tree' | 'root', Child> = {
  'this tree': await startChild('proxy', info, [], { BENCH_KIT: await kitOf() }),
  root: await startChild('proxy', info, [], { BENCH_KIT: await kitOf(root) }),
};
const urls = (base: string) =>
  (mode === 'shared' ? [info.invoices[0]!] : info.invoices).map((invoice) => `${base}/checkout-api/invoices/${invoice.id}`);
const results = new Map<string, Rounds>(Object.keys(targets).map((name) => [name, { requestsPerSecond: [], cpu: [], mockCpu: [] }]));
try {
  for (const target of Object.values(targets)) await load(urls(target.url), accept, 2, CONNECTIONS);
  for (let round = 0; round < rounds; round++) {
    const names = Object.keys(targets) as (keyof typeof targets)[];
    for (const name of round % 2 ? names.reverse() : names) {
      const target = targets[name];
      const [cpuBefore, mockBefore] = [await target.cpu(), await mock.cpu()];
      const result = await load(urls(target.url), accept, seconds, CONNECTIONS);
      const [cpuAfter, mockAfter] = [await target.cpu(), await mock.cpu()];
      const entry = results.get(name)!;
      entry.requestsPerSecond.push(result.okPerSecond);
      entry.cpu.push((cpuAfter - cpuBefore) / result.ok);
      entry.mockCpu.push((mockAfter - mockBefore) / result.ok);
    }
  }
  for (const [name, entry] of results) {
    const rounded = (values: number[]) => values.map((value) => Math.round(value)).join(', ');
    console.log(
      `${name}: ${Math.round(median(entry.requestsPerSecond))} req/s (${rounded(entry.requestsPerSecond)}); ` +
        `${Math.round(median(entry.cpu))} µs CPU per answer (${rounded(entry.cpu)}); the mock ${Math.round(median(entry.mockCpu))} µs per answer`,
    );
  }
} finally {
  await Promise.all([mock, ...Object.values(targets)].map(stopChild));
}
