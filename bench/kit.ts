/**
 * The server kit as it ships, for the processes the benchmarks measure: `src/server/node.ts`
 * bundled by esbuild for Node (ES module, packages left external), as `npm run build` makes
 * dist/node/server.js, rather than run from the sources through tsx. tsx compiles with
 * esbuild's `keepNames`, which wraps every named closure in `__name(fn, "…")`, an
 * `Object.defineProperty` per closure made: measured here, that was CPU in every proxied
 * answer and memory in every open stream that the package does not have.
 *
 * `root` is the repository to build from (another copy of the sources for an A/B); the
 * bundle goes to bench/.out/kit/.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repository = fileURLToPath(new URL('..', import.meta.url));

/**
 * Bundles `{root}/src/server/node.ts` (or, in a copy from before the Node entry existed,
 * `src/server/index.ts`); resolves to the bundle's path.
 */
export const buildKit = async (root: string = repository): Promise<string> => {
  const outDir = fileURLToPath(new URL('./.out/kit/', import.meta.url));
  await mkdir(outDir, { recursive: true });
  const nodeEntry = resolve(root, 'src/server/node.ts');
  const entry = existsSync(nodeEntry) ? nodeEntry : resolve(root, 'src/server/index.ts');
  const outfile = `${outDir}server-${createHash('sha1').update(entry).digest('hex').slice(0, 8)}.mjs`;
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // hono, zod: resolved from this repository's node_modules by where the bundle lies.
    packages: 'external',
    logLevel: 'error',
  });
  return outfile;
};

const built = new Map<string, Promise<string>>();

/**
 * {@link buildKit}, once per root in this process; `''` with `BENCH_SOURCES=1`, which makes the
 * servers load the sources through tsx instead (to see what tsx's `keepNames` costs).
 */
export const kitOf = (root: string = repository): Promise<string> => {
  if (process.env.BENCH_SOURCES === '1') return Promise.resolve('');
  let kit = built.get(root);
  if (!kit) {
    kit = buildKit(root);
    built.set(root, kit);
  }
  return kit;
};
