/**
 * The demo runs Lit in production mode, as a merchant's site does (vite.config.ts leaves out
 * the `development` condition, which Vite names by default when it serves). The CDN file is
 * checked in package.test.ts; the browser tests keep dev mode on to catch Lit's warnings.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startDemoServer, type DemoServer } from '../../demo/server/demo-server.js';

let server: DemoServer;
let cacheDir: string;

before(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'merchant-checkout-lit-mode-'));
  server = await startDemoServer({ port: 0, host: '127.0.0.1', cacheDir, logLevel: 'warn', watch: false });
});
after(async () => {
  await server?.close();
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
});

test("the demo's pages get Lit's production build", async () => {
  const page = await (await fetch(new URL('main.ts', server.url))).text();
  const lit = /from\s+"([^"]*\/deps\/lit\.js[^"]*)"/.exec(page)?.[1];
  assert.ok(lit, 'the demo page imports Lit from the pre-bundled dependencies');
  const answer = await fetch(new URL(lit, server.url));
  assert.equal(answer.status, 200);
  // Every pre-bundled chunk: Lit's code is split among them.
  const deps = join(cacheDir, 'deps');
  const devBuilds: string[] = [];
  for (const file of (await readdir(deps)).filter((name) => name.endsWith('.js'))) {
    const code = await readFile(join(deps, file), 'utf8');
    if (/Lit is in dev mode|(?:lit-html|reactive-element|lit-element)\/development\//.test(code)) devBuilds.push(file);
  }
  assert.deepEqual(devBuilds, [], 'no pre-bundled file holds a Lit development build');
});
