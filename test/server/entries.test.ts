/**
 * The server's entries as a runtime loads them (issue 39, point 3 and "Bad input"), each in a
 * fresh Node process:
 * - importing an entry changes nothing global: every property of `globalThis` and of the Web
 *   classes' prototypes is the same before and after, and the runtime-neutral entry makes no
 *   `Request`, `Response` or `Headers` while it loads (workerd refuses one in global scope);
 * - a runtime without something the kit needs (Web Crypto's HMAC, timers, a streaming body,
 *   `fetch`) is refused when the client or the kit is made, naming what is missing, never at the
 *   first payment. The process stands in for such a runtime by deleting the global after the
 *   entry is imported.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const source = (path: string) => pathToFileURL(`${root}${path}`).href;

/** Runs `script` (an ES module body) in a fresh Node process with tsx; answers what it printed as JSON. */
const run = (script: string): unknown => {
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(child.status, 0, `the child process failed:\n${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!);
};

/** Every global and every member of the Web classes' prototypes, by name: what it is (identity kept in the child). */
const SNAPSHOT = `
// zod (a dependency) keeps its registry and configuration on globalThis, so that copies of it share them.
const DEPENDENCIES = ['__zod_globalConfig', '__zod_globalRegistry'];
const classes = ['Request', 'Response', 'Headers', 'ReadableStream', 'AbortSignal', 'URL', 'TextEncoder', 'Promise', 'Object', 'Array', 'Function'];
const snapshot = () => {
  const seen = new Map();
  // Read, not described: Node defines some globals (Request, fetch, …) as getters it replaces
  // on first read, and loading them adds undici's dispatcher: all read once before the listing.
  for (const key of Reflect.ownKeys(globalThis)) void globalThis[key];
  for (const key of Reflect.ownKeys(globalThis)) if (!DEPENDENCIES.includes(String(key))) seen.set('globalThis.' + String(key), globalThis[key]);
  for (const name of classes) {
    const proto = globalThis[name]?.prototype;
    if (!proto) continue;
    seen.set(name + '.prototype [[Prototype]]', Object.getPrototypeOf(proto));
    for (const key of Reflect.ownKeys(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, key);
      seen.set(name + '.prototype.' + String(key), d && ('value' in d ? d.value : d.get));
    }
  }
  return seen;
};
const changes = (before, after) => {
  const out = [];
  for (const [key, value] of after) if (!before.has(key)) out.push('added ' + key); else if (!Object.is(before.get(key), value)) out.push('changed ' + key);
  for (const key of before.keys()) if (!after.has(key)) out.push('removed ' + key);
  return out;
};
`;

const ENTRIES = ['src/server/index.ts', 'src/server/node.ts', 'src/server/redis.ts', 'src/server/sqlite.ts', 'src/mock/index.ts'];

for (const entry of ENTRIES) {
  test(`importing ${entry} changes nothing global`, () => {
    const changed = run(`${SNAPSHOT}
const before = snapshot();
const exports = await import(${JSON.stringify(source(entry))});
const after = snapshot();
console.log(JSON.stringify({ exports: Object.keys(exports).length, changes: changes(before, after) }));`) as {
      exports: number;
      changes: string[];
    };
    assert.ok(changed.exports > 0, `${entry} was imported`);
    assert.deepEqual(changed.changes, []);
  });
}

test('the runtime-neutral entry makes no Request, Response or Headers while it loads', () => {
  const made = run(`
const made = [];
for (const name of ['Request', 'Response', 'Headers']) {
  const Native = globalThis[name];
  globalThis[name] = new Proxy(Native, { construct(target, args, newTarget) { made.push(name); return Reflect.construct(target, args, newTarget); } });
}
const server = await import(${JSON.stringify(source('src/server/index.ts'))});
console.log(JSON.stringify({ made, loaded: typeof server.createCheckoutServer }));`) as { made: string[]; loaded: string };
  assert.equal(made.loaded, 'function');
  assert.deepEqual(made.made, []);
});

/** What constructing after deleting `globals` answers: the error's message, or 'made'. */
const constructWithout = (globals: string[], construct: string): string =>
  run(`
const server = await import(${JSON.stringify(source('src/server/index.ts'))});
const options = { baseUrl: 'https://pay.example', apiKey: 'key', secretKey: 'secret', fetch: async () => new Response('{}') };
const client = ${globals.includes('crypto') || globals.includes('fetch') ? 'undefined' : 'new server.MerchantClient(options)'};
for (const name of ${JSON.stringify(globals)}) delete globalThis[name];
let outcome;
try { ${construct}; outcome = 'made'; } catch (error) { outcome = error instanceof TypeError ? error.message : 'not a TypeError: ' + error; }
console.log(JSON.stringify(outcome));`) as string;

test("the platform is the entry's: importing the Node entry does not change what a client of the neutral one uses", () => {
  const used = run(`
const calls = [];
globalThis.fetch = async (input) => { calls.push(String(input.url ?? input)); return new Response('{"id":"x"}', { status: 404 }); };
const neutral = await import(${JSON.stringify(source('src/server/index.ts'))});
await import(${JSON.stringify(source('src/server/node.ts'))});
const client = new neutral.MerchantClient({ baseUrl: 'https://pay.example', apiKey: 'key', secretKey: 'secret' });
await client.getInvoice('4f1c2b9e-6a47-4c1e-9d2a-0b5e8f7c3a61').catch(() => undefined);
console.log(JSON.stringify(calls));`) as string[];
  assert.deepEqual(used, ['https://pay.example/api/merchant/invoices/4f1c2b9e-6a47-4c1e-9d2a-0b5e8f7c3a61']);
});

test('a runtime without Web Crypto HMAC: MerchantClient and the kit are refused when made, naming crypto.subtle', () => {
  assert.equal(
    constructWithout(['crypto'], 'new server.MerchantClient(options)'),
    'merchant-checkout/server needs Web Crypto HMAC (crypto.subtle), which this runtime does not have',
  );
  assert.equal(
    constructWithout(['crypto'], 'server.createCheckoutServer({ client, authorize: () => true })'),
    'createCheckoutServer needs Web Crypto HMAC (crypto.subtle), which this runtime does not have',
  );
});

test('a runtime without timers: the kit, the proxy and the receiver are refused when made, naming them', () => {
  const kit = 'server.createCheckoutServer({ client, authorize: () => true })';
  assert.equal(
    constructWithout(['setTimeout', 'clearTimeout'], kit),
    'createCheckoutServer needs timers (setTimeout and clearTimeout), which this runtime does not have',
  );
  assert.match(
    constructWithout(['setTimeout'], 'server.createCheckoutHandler({ client, authorize: () => true })'),
    /^createCheckoutHandler needs timers \(setTimeout and clearTimeout\)/,
  );
  assert.match(
    constructWithout(['clearTimeout'], "server.createNotificationHandler({ client, token: 'a notification token' })"),
    /^createNotificationHandler needs timers/,
  );
});

test('a runtime without a streaming body: the kit is refused when made, naming ReadableStream', () => {
  assert.equal(
    constructWithout(['ReadableStream'], 'server.createCheckoutServer({ client, authorize: () => true })'),
    'createCheckoutServer needs a streaming body (ReadableStream), which this runtime does not have',
  );
});

test('a runtime without fetch: a client given none is refused when made; one given a fetch is made', () => {
  assert.equal(
    constructWithout(['fetch'], "new server.MerchantClient({ baseUrl: 'https://pay.example', apiKey: 'key', secretKey: 'secret' })"),
    'MerchantClient needs fetch, which this runtime does not have',
  );
  assert.equal(constructWithout(['fetch'], 'new server.MerchantClient(options)'), 'made');
});

test('with every feature there, each is made (the checks refuse only what is missing)', () => {
  assert.equal(constructWithout([], 'server.createCheckoutServer({ client, authorize: () => true }).close?.()'), 'made');
});
