/**
 * Real framework builds of the packed package, offline, in a scratch app that has neither
 * `redis` nor any optional peer it does not use (test/e2e/support/scratch-app.ts):
 *
 * - `next build` (Next.js 16, Turbopack) of an app-router app whose route handlers import the
 *   kit from `merchant-checkout/server` (the Next.js files of docs/server.md, with the example's
 *   lib/store.ts replaced by the default store) and whose client page renders the element
 *   through `merchant-checkout/react` (test/e2e/support/next-app.ts);
 * - the example as it is, whose lib/store.ts imports `merchant-checkout/redis`, failing to build
 *   with Next's own message without `redis` installed: the check above can fail;
 * - a Vite build of a React page with the element.
 *
 * test/e2e/serverless.test.ts builds the example as it is, with `redis`, and runs it.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type * as Vite from 'vite';
import { NEXT_APP, nextApp, nextBuild, write } from './support/next-app.js';
import { scratchApp, type ScratchApp } from './support/scratch-app.js';

/** What a Vite React app takes from npm besides merchant-checkout. */
const VITE_APP = ['vite', 'react', 'react-dom', '@lit/react'];

let next: ScratchApp;
let broken: ScratchApp;
let vite: ScratchApp;

/**
 * The example without Redis: its lib/store.ts (the one file that imports `merchant-checkout/redis`)
 * replaced by the kit's default store, as in a shop that keeps the default.
 */
const withoutRedis = (app: string) =>
  write(
    join(app, 'lib/store.ts'),
    `import type { CheckoutStore } from 'merchant-checkout/server';\n\nexport const store = (): CheckoutStore | undefined => undefined;\n`,
  );

before(() => {
  next = scratchApp('next', NEXT_APP);
  broken = scratchApp('next-redis', NEXT_APP, next.tarball);
  vite = scratchApp('vite', VITE_APP, next.tarball);
});

after(() => {
  for (const made of [broken, vite, next]) made?.remove();
});

test('the packed package declares redis as an optional peer, and the server entry never names it', () => {
  assert.equal(next.packed.peerDependencies?.redis !== undefined, true);
  const serverFiles = [
    join(next.app, 'node_modules/merchant-checkout/dist/node/server.js'),
    ...readdirSync(join(next.app, 'node_modules/merchant-checkout/dist/node/chunks')).map((file) =>
      join(next.app, 'node_modules/merchant-checkout/dist/node/chunks', file),
    ),
  ];
  const named = serverFiles.filter((file) => /["']redis["']/.test(readFileSync(file, 'utf8')));
  assert.deepEqual(
    named.map((file) => file.slice(next.app.length)),
    [],
    'only dist/node/redis.js may name it',
  );
});

test(
  "next build of an app-router app: the kit's route handlers and a client page with the element, without redis installed",
  { timeout: 300_000 },
  async () => {
    nextApp(next.app);
    withoutRedis(next.app);
    const build = await nextBuild(next.app);
    assert.equal(build.status, 0, build.output.slice(-4000));
    for (const route of ['/checkout-api/[...path]', '/payments/notify', '/api/cron/reconcile', '/pay/[invoiceId]'])
      assert.ok(build.output.includes(route), `${route} in:\n${build.output.slice(-2000)}`);
    assert.doesNotMatch(build.output, /Can't resolve 'redis'/);
  },
);

test(
  "the example as it is takes the Redis store: its build fails with Next's own message without redis installed",
  { timeout: 300_000 },
  async () => {
    nextApp(broken.app);
    const build = await nextBuild(broken.app);
    assert.notEqual(build.status, 0);
    assert.match(build.output, /Can't resolve 'redis'/);
  },
);

test('a Vite build of a React page with the element, from the installed package', { timeout: 120_000 }, async () => {
  write(
    join(vite.app, 'index.html'),
    `<!doctype html>\n<html lang="en">\n  <body>\n    <div id="root"></div>\n    <script type="module" src="/main.tsx"></script>\n  </body>\n</html>\n`,
  );
  write(
    join(vite.app, 'main.tsx'),
    `import { createRoot } from 'react-dom/client';\nimport { MerchantCheckout } from 'merchant-checkout/react';\n\ncreateRoot(document.getElementById('root')!).render(<MerchantCheckout invoiceId="6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b" endpoint="/checkout-api" />);\n`,
  );
  const { build } = (await import(join(vite.app, 'node_modules/vite/dist/node/index.js'))) as typeof Vite;
  await build({
    root: vite.app,
    logLevel: 'error',
    configFile: false,
    oxc: { jsx: { runtime: 'automatic' } },
    build: { outDir: 'dist', minify: true },
  });
  const assets = readdirSync(join(vite.app, 'dist/assets')).filter((file) => file.endsWith('.js'));
  const code = assets.map((file) => readFileSync(join(vite.app, 'dist/assets', file), 'utf8')).join('\n');
  assert.ok(code.includes('merchant-checkout'), 'the element is in the bundle');
  assert.ok(/customElements\.define|customElements\.get/.test(code), 'and registers its tag');
});
