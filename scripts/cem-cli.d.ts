/**
 * The analyzer's CLI module, which `bin/cem` runs: called with `noWrite` it returns the
 * manifest that `npm run build` writes, read from `custom-elements-manifest.config.js` the same
 * way. The package types only its `create()` API.
 */
declare module '@custom-elements-manifest/analyzer/cli.js' {
  export function cli(options: { argv: string[]; cwd: string; noWrite: boolean }): Promise<unknown>;
}
