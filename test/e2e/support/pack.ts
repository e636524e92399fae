/**
 * `npm pack` of this repository as it is built (`npm run build` first): the file list of a dry
 * run, and a real tarball. Lifecycle scripts are ignored, so packing never builds.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const pack = (args: string[]): unknown =>
  JSON.parse(
    execFileSync(npm, ['pack', '--json', '--ignore-scripts', ...args], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
  );

/** The paths `npm publish` would ship, sorted, `/`-separated. */
export const packedFiles = (): string[] =>
  (pack(['--dry-run']) as [{ files: { path: string }[] }])[0].files.map((file) => file.path).sort();

/** Packs the package into `destination` and answers the tarball's path. */
export const packTarball = (destination: string): string =>
  join(destination, (pack(['--pack-destination', destination]) as [{ filename: string }])[0].filename);
