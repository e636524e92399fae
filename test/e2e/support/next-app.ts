/**
 * The Next.js example (examples/nextjs) as an app-router app in a scratch app
 * (./scratch-app.ts): its `lib/` and `app/` copied, a root layout and a client page with the
 * element through `merchant-checkout/react`, and Next's own build (Turbopack) run on it.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** What a Next.js app takes from npm besides merchant-checkout (linked from this repository). */
export const NEXT_APP = ['next', 'react', 'react-dom', '@lit/react', 'typescript', '@types/react', '@types/react-dom', '@types/node'];

/** The deepest directory holding both paths. */
const commonRoot = (a: string, b: string): string => {
  const [left, right] = [a.split(sep), b.split(sep)];
  let index = 0;
  while (index < left.length && left[index] === right[index]) index++;
  return left.slice(0, index).join(sep) || sep;
};

export const write = (path: string, text: string): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

/** An app-router app: the Next.js kit and routes of docs/server.md, and a client page with the element. */
export const nextApp = (app: string): void => {
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
  // each file's real place, so a package the scratch app does not have stays missing.
  write(join(app, 'next.config.mjs'), `export default { turbopack: { root: ${JSON.stringify(commonRoot(app, root))} } };\n`);
};

/** The `next` command of the app, as `node <bin>` arguments. */
export const nextBin = (app: string): string => join(app, 'node_modules/next/dist/bin/next');

/** `next build` of the app (production, offline): its exit status and everything it printed. */
export const nextBuild = (app: string): Promise<{ status: number | null; output: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [nextBin(app), 'build'], {
      cwd: app,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
