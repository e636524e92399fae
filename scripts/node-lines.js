#!/usr/bin/env node
/**
 * The Node lines this project is tested on, declared once: scripts/setup.sh installs each one's
 * binary from the npm registry (the platform package `node-<os>-<cpu>` that the `node` package
 * installs too) into `.cache/node/<version>/`, ignored by git, and scripts/test.js runs the Node
 * suite on every line and everything else on `MAIN_LINE`, the newest LTS. `engines.node` in
 * package.json names the oldest (test/repo/node-lines.test.ts holds the two equal).
 *
 *   node scripts/node-lines.js        prints the versions, one per line (for setup.sh)
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Maintenance (22), active LTS (24) and current (26), each its newest release on 2026-11-28. */
export const NODE_LINES = ['22.23.3', '24.21.0', '26.10.0'];

/** The line the build, the checks, the browser and the end-to-end suites run on: the newest LTS. */
export const MAIN_LINE = '24.21.0';

const root = new URL('..', import.meta.url).pathname;

/** The folder whose `node` is this version's binary (put it first on PATH to run under it). */
export const nodeBinDir = (version) => join(root, '.cache', 'node', version, 'node_modules', '.bin');

/** This version's binary, or an Error saying how to install it. */
export const nodeBinary = (version) => {
  const binary = join(nodeBinDir(version), 'node');
  return existsSync(binary) ? binary : new Error(`Node ${version} is not installed in .cache/node: run scripts/setup.sh`);
};

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) console.log(NODE_LINES.join('\n'));
