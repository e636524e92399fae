/**
 * Real framework builds of the packed package, offline, in a scratch app that has neither
 * `redis` nor any optional peer it does not use (test/e2e/support/scratch-app.ts):
 *
 * - `next build` (Next.js 16, Turbopack) of an app-router app whose route handlers import the
 *   kit from `merchant-checkout/server` (the Next.js files of docs/server.md) and whose client page
 *   renders the element through `merchant-checkout/react`;
 * - the same build failing, with Next's own message, when a route imports
 *   `merchant-checkout/redis` without `redis` installed: the check above can fail;
 * - a Vite build of a React page with the element.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type * as Vite from 'vite';
import { scratchApp, type ScratchApp } from './support/scratch-app.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** What a Next.js app and a Vite React app take from npm besides merchant-checkout (linked from this repository). */
const NEXT_APP = ['next', 'react', 'react-dom', '@lit/react', 'typescript', '@types/react', '@types/react-dom', '@types/node'];
const VITE_APP = ['vite', 'react', 'react-dom', '@lit/react'];

let next: ScratchApp;
let broken: ScratchApp;
let vite: ScratchApp;

/** The deepest directory holding both paths. */
const commonRoot = (a: string, b: string): string => {
  const [left, right] = [a.split(sep), b.split(sep)];
  let index = 0;
  while (index < left.length && left[index] === right[index]) index++;
  return left.slice(0, index).join(sep) || sep;
};

const write = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

/** An app-router app: the Next.js kit and routes of docs/server.md, and a client page with the element. */
const nextApp = (app: string) => {
  cpSync(join(root, 'examples/nextjs/lib'), join(app, 'lib'), { recursive: true });
  cpSync(join(root, 'examples/nextjs/app'), join(app, 'app'), { recursive: true });
  write(
    join(app, 'app/layout.tsx'),
    `export default function RootLayout({ children }: { children: React.ReactNode }) {\n  return (\n    <html lang="en">\n      <body>{children}</body>\n    </html>\n  );\n}\n`,
  );
  write(
    join(app, 'app/pay/[invoiceId]/page.tsx'),
    `'use client';\nimport { use } from 'react';\nimport { MerchantCheckout } from 'merchant-checkout/react';\n\nexport default function Pay({ params }: { params: Promise<{ invoiceId: string }> }) {\n  const { invoiceId } = use(params);\n  return <MerchantCheckout invoiceId={invoiceId} endpoint="/checkout-api" onCheckoutStatus={(event) => console.log(event.detail.status)} />;\n}\n`,
  );
  write(
    join(app, 'tsconfig.json'),
    `${JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          lib: ['DOM', 'DOM.Iterable', 'ESNext'],
          module: 'ESNext',
          moduleResolution: 'Bundler',
          jsx: 'react-jsx',
          strict: true,
          isolatedModules: true,
          skipLibCheck: true,
          noEmit: true,
          allowJs: false,
          incremental: false,
          esModuleInterop: true,
          resolveJsonModule: true,
          plugins: [{ name: 'next' }],
        },
        include: ['**/*.ts', '**/*.tsx', 'next-env.d.ts'],
        exclude: ['node_modules'],
      },
      null,
      2,
    )}\n`,
  );
  // Turbopack compiles nothing outside its root, and the app's packages are links into this
  // repository's node_modules: the root is their common ancestor. Resolution still starts from
  // each file's real place, so the scratch app's missing \`redis\` stays missing.
  write(join(app, 'next.config.mjs'), `export default { turbopack: { root: ${JSON.stringify(commonRoot(app, root))} } };\n`);
};

const nextBuild = (app: string) =>
  spawnSync(process.execPath, [join(app, 'node_modules/next/dist/bin/next'), 'build'], {
    cwd: app,
    encoding: 'utf8',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', CI: '1' },
    timeout: 240_000,
  });

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
  () => {
    nextApp(next.app);
    const build = nextBuild(next.app);
    const output = `${build.stdout}${build.stderr}`;
    assert.equal(build.status, 0, output.slice(-4000));
    for (const route of ['/checkout-api/[...path]', '/payments/notify', '/pay/[invoiceId]'])
      assert.ok(output.includes(route), `${route} in:\n${output.slice(-2000)}`);
    assert.doesNotMatch(output, /Can't resolve 'redis'/);
  },
);

test(
  "the same build fails with Next's own message when a route takes the Redis store without redis installed",
  { timeout: 300_000 },
  () => {
    nextApp(broken.app);
    write(
      join(broken.app, 'app/with-redis/route.ts'),
      `import { createRedisStore } from 'merchant-checkout/redis';\n\nexport const GET = async () => {\n  await createRedisStore({ url: 'redis://127.0.0.1:6379' }).close();\n  return new Response('ok');\n};\n`,
    );
    const build = nextBuild(broken.app);
    const output = `${build.stdout}${build.stderr}`;
    assert.notEqual(build.status, 0);
    assert.match(output, /Can't resolve 'redis'/);
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
