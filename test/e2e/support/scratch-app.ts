/**
 * An adopter's app in a temporary directory, with the package as npm would install it: the
 * built package packed (`npm pack`) and unpacked into `node_modules/merchant-checkout`, and each
 * other package the app needs a link to this repository's copy (what `npm ci` installed here:
 * the install is offline). Nothing else is linked, so a package the build reaches for without
 * the app having it (an optional peer) is missing there, as on an adopter's machine.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packTarball } from './pack.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface ScratchApp {
  /** The temporary directory (the tarball lies here). */
  scratch: string;
  /** The app's directory, with its package.json and node_modules. */
  app: string;
  tarball: string;
  /** What the packed package.json declares. */
  packed: {
    dependencies: Record<string, string>;
    optionalDependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  /** Removes the temporary directory. */
  remove(): void;
}

/** Links this repository's `node_modules/<name>` into the app's node_modules. */
export const linkPackage = (app: string, name: string): void => {
  const target = join(root, 'node_modules', name);
  assert.ok(existsSync(target), `${name} is in this repository's node_modules (npm ci)`);
  mkdirSync(dirname(join(app, 'node_modules', name)), { recursive: true });
  symlinkSync(target, join(app, 'node_modules', name), 'junction');
};

/**
 * A scratch app with the packed package installed, its declared `dependencies` and
 * `optionalDependencies` linked and
 * `extra` packages linked too; `tarball` reuses one packed before.
 */
export const scratchApp = (prefix: string, extra: readonly string[], tarball?: string): ScratchApp => {
  const scratch = mkdtempSync(join(tmpdir(), `merchant-checkout-${prefix}-`));
  const packedTarball = tarball ?? packTarball(scratch);
  const app = join(scratch, 'app');
  const unpacked = join(app, 'node_modules', 'merchant-checkout');
  mkdirSync(unpacked, { recursive: true });
  const untar = spawnSync('tar', ['-xzf', packedTarball, '-C', unpacked, '--strip-components=1'], { encoding: 'utf8' });
  assert.equal(untar.status, 0, `tar: ${untar.stderr}`);
  const packed = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8')) as ScratchApp['packed'];
  // npm installs optional dependencies too (better-sqlite3, the durable store's binding) when they build.
  const installed = [...Object.keys(packed.dependencies), ...Object.keys(packed.optionalDependencies ?? {})];
  for (const name of new Set([...installed, ...extra])) linkPackage(app, name);
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify({ name: `scratch-${prefix}`, private: true, type: 'module', dependencies: { 'merchant-checkout': `file:${packedTarball}` } }, null, 2)}\n`,
  );
  return { scratch, app, tarball: packedTarball, packed, remove: () => rmSync(scratch, { recursive: true, force: true }) };
};
