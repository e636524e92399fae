import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

/**
 * The demo's dev server (`npm run demo` runs it through Vite's JS API, together with the mock
 * service and the signing proxy: demo/server/). Library builds are in scripts/build.js.
 *
 * The package's public names resolve to the sources, so the demo needs no build and imports
 * exactly what a merchant's code imports.
 */
const source = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/**
 * The pages run Lit in production mode, as a merchant's site does: Vite's default conditions
 * name `development` when it serves, which picks Lit's dev build (its console notice and
 * checks). The browser tests keep dev mode on (web-test-runner.config.js) to catch Lit's
 * warnings; the README's "Embedding" says how a merchant turns it on.
 */
const conditions = ['module', 'browser', 'production'];

export default defineConfig({
  root: fileURLToPath(new URL('./demo', import.meta.url)),
  publicDir: false,
  appType: 'mpa',
  resolve: {
    conditions,
    alias: [
      { find: /^merchant-checkout$/, replacement: source('element/index.ts') },
      { find: /^merchant-checkout\/define$/, replacement: source('element/define.ts') },
      { find: /^merchant-checkout\/react$/, replacement: source('react/index.ts') },
      { find: /^merchant-checkout\/schemas$/, replacement: source('schemas/index.ts') },
    ],
  },
  plugins: [
    vue({
      // The element is a custom element, not a Vue component: Vue passes its attributes and
      // listens to its events as they are.
      template: { compilerOptions: { isCustomElement: (tag) => tag === 'merchant-checkout' } },
    }),
  ],
  optimizeDeps: {
    // Every dependency the pages import, bundled once at start. No discovery while pages load,
    // so a first visit never finds a new dependency and reloads the page under the payer.
    noDiscovery: true,
    include: [
      'lit',
      'lit/decorators.js',
      '@lit/task',
      '@lit/react',
      'qrcode/lib/core/qrcode.js',
      'zod/mini',
      'react',
      'react/jsx-dev-runtime',
      'react-dom/client',
      'vue',
    ],
  },
  server: { port: Number(process.env.PORT ?? 5173), strictPort: true },
});
