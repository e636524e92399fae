/**
 * The built package, imported by its public names (package self-reference through
 * `exports`), as a merchant's Node server would: proves `npm run build` wrote working entries.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

test('merchant-checkout/server loads in plain Node and signs like the reference', async () => {
  const server = await import('merchant-checkout/server');
  const url = 'https://pay.example.com/api/merchant/invoices';
  const body = '{"amount":"1500.00","comment":"Привет"}';
  const expected = createHmac('sha1', 'k').update(`POST${url}${body}`).digest('base64');
  assert.equal(await server.signRequest({ method: 'POST', url, body }, 'k'), expected);
  assert.equal(typeof server.MerchantClient, 'function');
  assert.throws(() => new server.MerchantClient({ baseUrl: 'nope', apiKey: 'a', secretKey: 'b' }), /baseUrl/);
});

test('every export of package.json points at a file that the build wrote', async () => {
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
    exports: Record<string, string | Record<string, string>>;
  };
  const missing: string[] = [];
  for (const [name, target] of Object.entries(pkg.exports)) {
    for (const file of typeof target === 'string' ? [target] : Object.values(target)) {
      try {
        await readFile(new URL(`../../${file}`, import.meta.url));
      } catch {
        missing.push(`${name} → ${file}`);
      }
    }
  }
  assert.deepEqual(missing, []);
});

/** The relative imports of a built module, followed: every file it reaches. */
const reached = async (entry: URL): Promise<Map<string, string>> => {
  const files = new Map<string, string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (files.has(file.href)) continue;
    const text = await readFile(file, 'utf8');
    files.set(file.href, text);
    for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) queue.push(new URL(specifier!, file));
  }
  return files;
};

test('merchant-checkout/server resolves by export condition: Node gets the Node entry, other runtimes the neutral one', async () => {
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
    exports: Record<string, Record<string, string>>;
  };
  assert.deepEqual(Object.keys(pkg.exports['./server']!), ['types', 'node', 'default']);
  const node = await import('merchant-checkout/server');
  assert.equal(typeof node.toNodeHandler, 'function', 'Node loads the Node entry');
  assert.equal(node.nodePlatform().name, 'node');
  const neutral = (await import(new URL(`../../${pkg.exports['./server']!.default}`, import.meta.url).href)) as Record<string, unknown>;
  assert.equal(neutral.toNodeHandler, undefined, 'the neutral entry has no Node adapter');
  assert.equal(typeof neutral.createCheckoutServer, 'function');
  assert.equal(
    await (neutral.signRequest as typeof node.signRequest)({ method: 'GET', url: 'https://pay.example/a' }, 'k'),
    await node.signRequest({ method: 'GET', url: 'https://pay.example/a' }, 'k'),
  );
});

test('the neutral server entry, with every file it reaches, names no node: module, no process, no require', async () => {
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
    exports: Record<string, Record<string, string>>;
  };
  const files = await reached(new URL(`../../${pkg.exports['./server']!.default}`, import.meta.url));
  assert.ok(files.size > 1, 'the entry and its chunks were read');
  const found: string[] = [];
  for (const [file, text] of files) {
    // Comments aside: only code counts.
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    for (const pattern of [/["']node:[a-z_/]+["']/, /\bgetBuiltinModule\b/, /\brequire\s*\(/, /\bprocess\s*\./, /@hono\/node-server/])
      if (pattern.test(code)) found.push(`${file.slice(file.indexOf('/dist/'))}: ${String(pattern)}`);
  }
  assert.deepEqual(found, []);
});
