/**
 * A CPU profile of the proxy under load (issue 12: "profile the proxy first"):
 *
 *   node --import tsx bench/profile.ts [seconds] [connections] [shared|alloc]
 *
 * With `alloc`, a sampling heap profile instead (collected objects included): the bytes
 * allocated per answer, by allocating function and its two callers.
 *
 * Starts the mock and the proxy of bench/proxy-servers.ts, loads `GET /checkout-api/invoices/{id}`
 * with autocannon (5 s of warm-up, then `seconds` profiled through node:inspector in the
 * proxy, sampling every 200 µs), and prints where the proxy's time went: self time by
 * function and by module, and the time spent under a few functions of interest. The profile
 * is kept in bench/.out/profiles/ for DevTools.
 */
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { load, startChild, stopChild } from './proxy.js';
import { log } from './lib.js';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Which part of the stack a frame belongs to: a package, a source file of ours, a Node module, or V8's own. */
export const moduleOf = (frame: CallFrame): string => {
  const { url, functionName } = frame;
  if (url === '') return functionName.startsWith('(') ? functionName : `(native) ${functionName}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const own = /\/(src\/.+)$/.exec(url);
  if (own) return own[1]!;
  if (url.startsWith('node:')) return url;
  return url.replace(/^.*\//, '');
};

export interface ProfileSummary {
  totalMs: number;
  /** Self time (ms) by function and module, largest first. */
  functions: { name: string; module: string; ms: number }[];
  modules: { module: string; ms: number }[];
  /** Time (ms) of samples with `name` anywhere on their stack. */
  inclusive: (test: (frame: CallFrame) => boolean) => number;
}

export const summarize = (profile: Profile): ProfileSummary => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000));
  const functions = new Map<string, { name: string; module: string; ms: number }>();
  const modules = new Map<string, number>();
  let totalMs = 0;
  for (const [id, ms] of self) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') continue;
    totalMs += ms;
    const module = moduleOf(frame);
    const key = `${frame.functionName}@${frame.url}:${frame.lineNumber}`;
    const entry = functions.get(key) ?? { name: frame.functionName || '(anonymous)', module, ms: 0 };
    entry.ms += ms;
    functions.set(key, entry);
    modules.set(module, (modules.get(module) ?? 0) + ms);
  }
  const inclusive = (test: (frame: CallFrame) => boolean): number => {
    let ms = 0;
    for (const [id, time] of self) {
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        if (test(byId.get(at)!.callFrame)) {
          ms += time;
          break;
        }
      }
    }
    return ms;
  };
  return {
    totalMs,
    functions: [...functions.values()].sort((a, b) => b.ms - a.ms),
    modules: [...modules].map(([module, ms]) => ({ module, ms })).sort((a, b) => b.ms - a.ms),
    inclusive,
  };
};

interface HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  children: HeapNode[];
}
interface HeapProfile {
  head: HeapNode;
}

/** Bytes allocated per answer by each allocating function with its two callers, largest first. */
export const allocationLines = (profile: HeapProfile, answers: number): string[] => {
  const sites = new Map<string, number>();
  let total = 0;
  const name = (frame: CallFrame) => `${frame.functionName || '(anonymous)'} (${moduleOf(frame)})`;
  const walk = (node: HeapNode, callers: string[]) => {
    const here = name(node.callFrame);
    if (node.selfSize > 0) {
      const key = [here, ...callers.slice(0, 2)].join(' < ');
      sites.set(key, (sites.get(key) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) walk(child, [here, ...callers]);
  };
  walk(profile.head, []);
  const perAnswer = (bytes: number) => `${Math.round(bytes / answers)}`.padStart(6);
  return [
    `allocation profile: bench/.out/profiles/proxy.heapprofile; ${perAnswer(total).trim()} B allocated per answer (${answers} answers; sampled every 4 KiB)`,
    '',
    ...[...sites]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 30)
      .map(([site, bytes]) => `  ${perAnswer(bytes)} B  ${site}`),
  ];
};

const main = async () => {
  const alloc = process.argv[4] === 'alloc';
  const seconds = Number(process.argv[2] ?? 10);
  const connections = Number(process.argv[3] ?? 10);
  const dir = fileURLToPath(new URL('./.out/profiles/', import.meta.url));
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const mock = await startChild('mock');
  const info = mock.info!;
  const proxy = await startChild('proxy', info);
  let answers = 0;
  try {
    // One invoice per connection, as the throughput benchmark loads it (no reads joined by single flight); `shared` as argv[4]: all on one.
    const shared = process.argv[4] === 'shared';
    const url = (shared ? [info.invoices[0]!] : info.invoices).map((invoice) => `${proxy.url}/checkout-api/invoices/${invoice.id}`);
    // Warm: the JIT has optimized the hot paths before the profile starts.
    await load(url, { accept: 'application/json' }, 5, connections);
    if (alloc) await proxy.alloc();
    else await proxy.profile();
    const cpuBefore = await proxy.cpu();
    const result = await load(url, { accept: 'application/json' }, seconds, connections);
    const cpuAfter = await proxy.cpu();
    if (alloc) await proxy.allocStop(`${dir}proxy.heapprofile`);
    else await proxy.profileStop(`${dir}proxy.cpuprofile`);
    answers = result.ok;
    log(
      `${Math.round(result.okPerSecond)} req/s, ${Math.round((cpuAfter - cpuBefore) / result.ok)} µs CPU per answer, ${result.errors} errors`,
    );
  } finally {
    await stopChild(proxy);
    await stopChild(mock);
  }
  if (alloc) {
    process.stdout.write(
      `${allocationLines(JSON.parse(await readFile(`${dir}proxy.heapprofile`, 'utf8')) as HeapProfile, answers).join('\n')}\n`,
    );
    return;
  }
  const file = (await readdir(dir)).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error('no .cpuprofile written');
  const summary = summarize(JSON.parse(await readFile(`${dir}${file}`, 'utf8')) as Profile);
  const pct = (ms: number) => `${((ms / summary.totalMs) * 100).toFixed(1).padStart(5)} %`;
  const lines = [
    `profile: bench/.out/profiles/${file}; ${summary.totalMs.toFixed(0)} ms busy, ${answers} answers under load`,
    '',
    'by module (self):',
  ];
  for (const { module, ms } of summary.modules.slice(0, 25)) lines.push(`  ${pct(ms)}  ${module}`);
  lines.push('', 'by function (self):');
  for (const { name, module, ms } of summary.functions.slice(0, 40)) lines.push(`  ${pct(ms)}  ${name}  (${module})`);
  const under: [string, (frame: CallFrame) => boolean][] = [
    ['GC', (f) => f.functionName === '(garbage collector)'],
    ['hono', (f) => f.url.includes('node_modules/hono/')],
    ['zod', (f) => f.url.includes('node_modules/zod/')],
    ['src/server/node/ (the Node adapter and fetch)', (f) => f.url.includes('src/server/node/')],
    ['src/server/client/ (but signing.ts)', (f) => f.url.includes('src/server/client/') && !f.url.endsWith('src/server/client/signing.ts')],
    ['src/server/proxy/', (f) => f.url.includes('src/server/proxy/')],
    ['src/server/client/signing.ts', (f) => f.url.endsWith('src/server/client/signing.ts')],
    ['new Request', (f) => f.functionName === 'Request' && f.url.includes('undici')],
    ['new Response', (f) => f.functionName === 'Response' && f.url.includes('undici')],
    ['Headers', (f) => f.url.includes('undici') && /headers/.test(f.url)],
    ['web streams', (f) => f.url.startsWith('node:internal/webstreams')],
    ['AbortSignal / AbortController', (f) => f.url === 'node:internal/abort_controller'],
    ['EventTarget', (f) => f.url === 'node:internal/event_target'],
    ['node:http server (_http_server, _http_outgoing)', (f) => /node:_http_(server|outgoing)/.test(f.url)],
    ['node:http client (_http_client, _http_agent)', (f) => /node:_http_(client|agent)/.test(f.url)],
    ['net / stream writes', (f) => /^node:(net|internal\/stream_base_commons)$/.test(f.url)],
    ['timers', (f) => f.url === 'node:internal/timers'],
    ['URL', (f) => f.url === 'node:internal/url'],
  ];
  lines.push('', 'inclusive (samples with such a frame on the stack):');
  for (const [name, test] of under) lines.push(`  ${pct(summary.inclusive(test))}  ${name}`);
  process.stdout.write(`${lines.join('\n')}\n`);
};

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) await main();
