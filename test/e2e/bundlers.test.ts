/**
 * The npm build as a merchant's bundler sees it (esbuild and Vite, importing the package by its
 * name through `exports`): dependencies stay imports (one copy of Lit in the app), an unused
 * import leaves nothing behind (`sideEffects`), only `merchant-checkout/define` and a used
 * React component register the tag, and a formatter alone does not drag the element in.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { build as viteBuild, type Rollup } from 'vite';

const root = fileURLToPath(new URL('../../', import.meta.url));
const DEPENDENCY = /^(lit|@lit\/[^/]+|qrcode|zod|react|react-dom)(\/|$)/;

const withEsbuild = async (code: string, options: { ignoreAnnotations?: boolean } = {}): Promise<string> => {
  const result = await esbuild({
    stdin: { contents: code, resolveDir: root, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    external: ['lit', 'lit/*', '@lit/*', 'qrcode', 'qrcode/*', 'zod', 'zod/*', 'react', 'react/*', 'react-dom', 'react-dom/*'],
    ...options,
  });
  return result.outputFiles[0]!.text;
};

/** The chunks Vite makes of `code`, the entry first. */
const viteChunks = async (code: string): Promise<Rollup.OutputChunk[]> => {
  const result = await viteBuild({
    configFile: false,
    root,
    logLevel: 'silent',
    publicDir: false,
    plugins: [
      {
        name: 'test-entry',
        resolveId: (id: string) => (id === 'virtual:entry' ? '\0virtual:entry' : undefined),
        load: (id: string) => (id === '\0virtual:entry' ? code : undefined),
      },
    ],
    build: {
      write: false,
      minify: false,
      target: 'es2022',
      rollupOptions: { input: 'virtual:entry', external: (id: string) => DEPENDENCY.test(id), preserveEntrySignatures: false },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result as Rollup.RollupOutput]).flatMap((output) => output.output);
  const chunks = outputs.filter((chunk): chunk is Rollup.OutputChunk => chunk.type === 'chunk');
  return chunks.sort((a, b) => Number(b.isEntry) - Number(a.isEntry));
};

const withVite = async (code: string): Promise<string> => (await viteChunks(code)).map((chunk) => chunk.code).join('\n');

/** What is left of the element in a bundle. */
const traces = (code: string) => ({
  element: /\bLitElement\b|merchant-checkout\.styles|class MerchantCheckout/.test(code),
  registers: /customElements\.define\(/.test(code) && code.includes('"merchant-checkout"'),
});

test('dist/esm imports lit, @lit/*, qrcode and zod instead of holding a copy', async () => {
  const dir = `${root}dist/esm/`;
  const files = (await readdir(dir, { recursive: true })).filter((file) => file.endsWith('.js'));
  assert.ok(files.includes('index.js') && files.includes('define.js') && files.includes('react.js'));
  assert.deepEqual(
    files.filter((file) => file.includes('node_modules')),
    [],
    'no dependency bundled into dist/esm',
  );
  const bare = new Set<string>();
  for (const file of files) {
    const code = await readFile(`${dir}${file}`, 'utf8');
    for (const match of code.matchAll(/^(?:import|export)\b[^'"]*?from\s*["']([^"']+)["']|^import\s*["']([^"']+)["']/gm)) {
      const specifier = match[1] ?? match[2]!;
      if (!specifier.startsWith('.')) bare.add(specifier);
    }
  }
  const unexpected = [...bare].filter((specifier) => !DEPENDENCY.test(specifier));
  assert.deepEqual(unexpected, []);
  for (const dependency of ['lit', '@lit/task', '@lit/react', 'zod/mini', 'react']) {
    assert.ok(
      [...bare].some((specifier) => specifier === dependency || specifier.startsWith(`${dependency}/`)),
      `imports ${dependency}`,
    );
  }
});

for (const [name, bundle] of [
  ['esbuild', withEsbuild],
  ['Vite', withVite],
] as const) {
  describe(name, () => {
    test('an unused import of the element leaves nothing in the bundle', async () => {
      assert.equal((await bundle("import { MerchantCheckoutElement } from 'merchant-checkout';")).trim(), '');
      assert.equal((await bundle("import { MerchantCheckout } from 'merchant-checkout/react';")).trim(), '');
    });

    test("import 'merchant-checkout/define' keeps the element and its registration, with Lit as an import", async () => {
      const code = await bundle("import 'merchant-checkout/define';");
      assert.deepEqual(traces(code), { element: true, registers: true });
      assert.match(code, /from\s*"lit"/);
      assert.doesNotMatch(code, /class ReactiveElement\b/, 'Lit itself is not bundled');
    });

    test('the element class alone is there without registering the tag', async () => {
      const code = await bundle("import { MerchantCheckoutElement } from 'merchant-checkout'; console.log(MerchantCheckoutElement);");
      assert.deepEqual(traces(code), { element: true, registers: false });
    });

    test('a formatter alone does not bring the element', async () => {
      const code = await bundle("import { formatMoney } from 'merchant-checkout'; console.log(formatMoney);");
      assert.ok(code.includes('formatMoney'));
      assert.deepEqual(traces(code), { element: false, registers: false });
    });

    test('the React component, used, registers the tag', async () => {
      const code = await bundle("import { MerchantCheckout } from 'merchant-checkout/react'; console.log(MerchantCheckout);");
      assert.deepEqual(traces(code), { element: true, registers: true });
      assert.match(code, /from\s*"@lit\/react"/);
    });
  });
}

test("Vite: import 'merchant-checkout/define' keeps the languages out of the page's first file, each loaded on demand", async () => {
  const [entry, ...chunks] = await viteChunks("import 'merchant-checkout/define';");
  // A Russian title (src/element/i18n/ru.ts): in a chunk of its own, not in what the page loads first.
  assert.ok(!entry!.code.includes('Переведите деньги'), 'the Russian strings are not in the entry chunk');
  const russian = chunks.filter((chunk) => chunk.code.includes('Переведите деньги'));
  assert.equal(russian.length, 1, 'one chunk holds them');
  assert.ok(entry!.dynamicImports.includes(russian[0]!.fileName), 'the entry loads it with import()');
});

test('control: without the sideEffects hint (esbuild ignoreAnnotations) the unused element stays', async () => {
  // Proves the empty bundles above come from package.json `sideEffects`, not from an empty entry.
  const code = await withEsbuild("import { MerchantCheckoutElement } from 'merchant-checkout';", { ignoreAnnotations: true });
  assert.equal(traces(code).element, true);
});
