#!/usr/bin/env node
/**
 * `npm run build`: everything under `dist/`.
 *
 *   dist/esm/      browser ES modules with bare imports of lit, qrcode, zod (for bundlers)
 *   dist/cdn/      merchant-checkout.js: one minified ES module for a <script>, with no bare import;
 *                  its lazy chunks beside it (merchant-checkout-<name>.js, loaded relative to it);
 *                  integrity.json: the SRI hash (sha384) of every file there, also printed
 *   dist/node/     the server and mock entries for Node ≥ 20 (dependencies stay imports), and the
 *                  runtime-neutral server entry (server-web.js: no `node:` module, for workerd and the like)
 *   dist/types/    declarations for every entry
 *   custom-elements.json   the Custom Elements Manifest, from the element's JSDoc
 *
 * No source maps, JS or declaration: they would point at `src/` and `node_modules/`, which the
 * package does not ship. The ES modules and the Node entries are not minified, so a stack trace
 * reads as it is; the CDN file's users debug with the npm build. Lit is in production mode in
 * every bundle we make (no `development` condition); docs/element.md "Embedding" says how to get its
 * development build. File names carry no content hash, so `npm pack` lists the same files
 * from one build to the next (test/e2e/package.test.ts), and a page that copied dist/cdn/ keeps
 * its URLs from one version to the next (its `integrity` changes, see docs/element.md "Script tag").
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { cssLiterals } from './css-literals.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = (path) => `${root}src/${path}`;

/** Packages a merchant's bundler resolves itself (listed in `dependencies`/`peerDependencies`). */
const isExternal = (id) => /^(lit|@lit\/[^/]+|qrcode|zod|react|react-dom)(\/|$)/.test(id) || id.startsWith('node:');

const browserEntries = {
  index: src('element/index.ts'),
  define: src('element/define.ts'),
  react: src('react/index.ts'),
  schemas: src('schemas/index.ts'),
};
const cdnEntry = src('element/cdn.ts');
const nodeEntries = {
  server: src('server/node.ts'),
  'server-web': src('server/index.ts'),
  redis: src('server/redis.ts'),
  sqlite: src('server/sqlite.ts'),
  mock: src('mock/index.ts'),
  'mock-cli': src('mock/cli.ts'),
  cli: src('cli/bin.ts'),
};

const common = { configFile: false, root, logLevel: 'warn', publicDir: false };

/**
 * The CDN file splits QR texts with src/element/qr-segments.ts instead of qrcode's own
 * segments.js and regex.js (a Dijkstra search, with the Kanji tables and dijkstrajs): never
 * more bits for a text (test/element-ssr/qr-segments.test.ts), 0.9 KB less brotli.
 */
const qrSegments = {
  name: 'qr-segments',
  enforce: 'pre',
  resolveId(source, importer) {
    const inQrCore = importer?.replace(/\\/g, '/').includes('/qrcode/lib/core/');
    if (inQrCore && (source === './segments' || source === './regex')) return src('element/qr-segments.ts');
    return undefined;
  },
};

/**
 * Modules of the ES build keep their place under `src/`; the decorator helper the compiler
 * adds (a virtual module named after its package and version) becomes `_virtual/decorate.js`.
 */
const browserFileName = (chunk) => {
  const helper = /(?:^|\/)_virtual\/.*\/helpers\/(?:esm\/)?([^/]+?)(?:\.js)?$/.exec(chunk.name);
  return helper ? `_virtual/${helper[1]}.js` : '[name].js';
};

rmSync(`${root}dist`, { recursive: true, force: true });

await build({
  ...common,
  build: {
    outDir: 'dist/esm',
    emptyOutDir: false,
    target: 'es2022',
    minify: false,
    sourcemap: false,
    lib: { entry: browserEntries, formats: ['es'] },
    rollupOptions: {
      external: isExternal,
      output: { preserveModules: true, preserveModulesRoot: 'src', entryFileNames: browserFileName },
    },
  },
});

await build({
  ...common,
  define: { 'process.env.NODE_ENV': '"production"' },
  // Not Vite's default list: without `development`, Lit resolves to its production build.
  resolve: { conditions: ['browser', 'production'] },
  plugins: [qrSegments, cssLiterals],
  build: {
    outDir: 'dist/cdn',
    emptyOutDir: false,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    lib: { entry: { 'merchant-checkout': cdnEntry }, formats: ['es'] },
    rolldownOptions: {
      // What the first render needs stays in merchant-checkout.js, which exports it to the lazy
      // chunks: with library mode's strict entry signature, Rolldown would move every module the
      // entry shares with a chunk (Lit, the formatters) into a third file the entry imports.
      preserveEntrySignatures: 'allow-extension',
      output: {
        // Library mode keeps the whitespace and `@__PURE__` notes of ES output for a later
        // bundler; these files are final, so minify them whole (about 10% smaller gzipped).
        minify: true,
        comments: { annotation: false },
        // What the element loads with `import()` (a QR code, a form) is a chunk beside the main
        // file under a stable name: `import('./merchant-checkout-qr-matrix.js')` resolves
        // against the main file's URL wherever a merchant serves dist/cdn/ from.
        chunkFileNames: 'merchant-checkout-[name].js',
      },
    },
  },
});

/**
 * SRI: the `integrity` value of every file of dist/cdn/, printed and written to
 * dist/cdn/integrity.json (`{ "merchant-checkout.js": "sha384-…", … }`, which ships), for the
 * script tag's `integrity` attribute and an import map's `integrity` entries.
 */
const cdnDir = `${root}dist/cdn`;
const integrity = Object.fromEntries(
  readdirSync(cdnDir)
    .filter((name) => name.endsWith('.js'))
    .sort()
    .map((name) => [
      name,
      `sha384-${createHash('sha384')
        .update(readFileSync(`${cdnDir}/${name}`))
        .digest('base64')}`,
    ]),
);
writeFileSync(`${cdnDir}/integrity.json`, `${JSON.stringify(integrity, null, 2)}\n`);

await build({
  ...common,
  build: {
    outDir: 'dist/node',
    emptyOutDir: false,
    target: 'node20',
    ssr: true,
    minify: false,
    sourcemap: false,
    rollupOptions: {
      input: nodeEntries,
      external: isExternal,
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name].js' },
    },
  },
});

const tsc = spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.build.json`], {
  stdio: 'inherit',
});
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

// custom-elements.json (package.json `customElements`), from custom-elements-manifest.config.js.
const cem = spawnSync(process.execPath, [`${root}node_modules/@custom-elements-manifest/analyzer/cem.js`, 'analyze', '--quiet'], {
  cwd: root,
  stdio: 'inherit',
});
if (cem.status !== 0) process.exit(cem.status ?? 1);
console.log('built dist/; SRI of the CDN files (dist/cdn/integrity.json):');
for (const [name, hash] of Object.entries(integrity)) console.log(`  ${hash}  dist/cdn/${name}`);
