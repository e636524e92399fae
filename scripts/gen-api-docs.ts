/**
 * `npm run docs:api`: the reference of every entry of the package (package.json `exports`) in
 * docs/api/, one page an entry, written from the sources' TSDoc:
 *
 *   docs/api/README.md, <entry>.md           TypeDoc with typedoc-plugin-markdown (typedoc.json;
 *                                            scripts/typedoc-declared-types.js keeps zod's
 *                                            types short, scripts/typedoc-entry-names.js names
 *                                            each page after its entry). TypeDoc fails on any
 *                                            export, class member or option without a comment.
 *   docs/api/mock-cli.md                     the flags of `merchant-checkout-mock`, from
 *                                            src/mock/cli-flags.ts (the list the CLI parses)
 *
 *   npm run docs:api                  rewrite them
 *   test/repo/api-docs.test.ts        regenerates into a temporary directory and fails when
 *                                     docs/api differs
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliFlagsMarkdown } from '../src/mock/cli-flags.js';

const root = fileURLToPath(new URL('..', import.meta.url));

export const API_DOCS_DIR = 'docs/api';

/**
 * Every entry of package.json `exports` that has types: the source its declarations are built
 * from (TypeDoc's entry point) and its page in docs/api. test/repo/api-docs.test.ts holds this
 * to package.json and each page to every export of its entry.
 */
export const API_ENTRIES: Readonly<Record<string, { source: string; page: string }>> = {
  '.': { source: 'src/element/index.ts', page: 'merchant-checkout.md' },
  './define': { source: 'src/element/define.ts', page: 'define.md' },
  './react': { source: 'src/react/index.ts', page: 'react.md' },
  './server': { source: 'src/server/node.ts', page: 'server.md' },
  './redis': { source: 'src/server/redis.ts', page: 'redis.md' },
  './sqlite': { source: 'src/server/sqlite.ts', page: 'sqlite.md' },
  './mock': { source: 'src/mock/index.ts', page: 'mock.md' },
  './schemas': { source: 'src/schemas/index.ts', page: 'schemas.md' },
  './jsx': { source: 'src/types/jsx.ts', page: 'jsx.md' },
  './vue': { source: 'src/types/vue.ts', page: 'vue.md' },
  './cdn': { source: 'src/element/cdn.ts', page: 'cdn.md' },
};
export const REGENERATE_API_DOCS = 'run `npm run docs:api` (scripts/gen-api-docs.ts)';

/** Writes the whole reference into `outDir` (emptied first); throws with TypeDoc's output when it fails. */
export const generateApiDocs = (outDir: string): void => {
  const entryPoints = Object.values(API_ENTRIES).flatMap(({ source }) => ['--entryPoints', source]);
  const typedoc = spawnSync(process.execPath, [join(root, 'node_modules/typedoc/bin/typedoc'), ...entryPoints, '--out', outDir], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  if (typedoc.status !== 0) {
    throw new Error(`TypeDoc failed (exit ${typedoc.status ?? typedoc.signal}):\n${typedoc.stdout}${typedoc.stderr}`);
  }
  writeFileSync(join(outDir, 'mock-cli.md'), cliFlagsMarkdown());
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    generateApiDocs(join(root, API_DOCS_DIR));
    console.log(`wrote ${API_DOCS_DIR}/`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
