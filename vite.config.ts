import { defineConfig } from 'vite';

// The demo's dev server. Library builds are in scripts/build.js (several outputs per run).
export default defineConfig({
  root: 'demo',
  publicDir: false,
  server: { port: Number(process.env.PORT ?? 5173), strictPort: true },
});
