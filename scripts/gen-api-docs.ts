/**
 * `npm run docs:api`: the reference of `merchant-checkout/server` and `merchant-checkout/mock`
 * in docs/api/, written from the sources' TSDoc:
 *
 *   docs/api/README.md, server.md, mock.md   TypeDoc with typedoc-plugin-markdown (typedoc.json;
 *                                            scripts/typedoc-declared-types.js keeps zod's
 *                                            types short). TypeDoc fails on any export, class
 *                                            member or option without a comment.
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
export const REGENERATE_API_DOCS = 'run `npm run docs:api` (scripts/gen-api-docs.ts)';

/** Writes the whole reference into `outDir` (emptied first); throws with TypeDoc's output when it fails. */
export const generateApiDocs = (outDir: string): void => {
  const typedoc = spawnSync(process.execPath, [join(root, 'node_modules/typedoc/bin/typedoc'), '--out', outDir], {
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
