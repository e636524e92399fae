/**
 * web-test-runner plugin: React for the browser tests of `merchant-checkout/react`.
 *
 * React ships CommonJS only, which the dev server cannot serve as ES modules. All of React's
 * entries are bundled once, together, with esbuild (development build, so StrictMode double-
 * mounts as in a merchant's dev server), so `react` and `react-dom` share one copy; each entry
 * is then served as a small ES module that re-exports that copy's names.
 */
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';

const PREFIX = '/__react/';
const ENTRIES = ['react', 'react/jsx-runtime', 'react-dom', 'react-dom/client'];
const identifier = (name) => name.replace(/\W/g, '_');

/** One ES module holding every entry, each as a namespace export. */
const bundle = () =>
  build({
    stdin: {
      contents: ENTRIES.map((entry) => `export * as ${identifier(entry)} from ${JSON.stringify(entry)};`).join('\n'),
      resolveDir: process.cwd(),
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    define: { 'process.env.NODE_ENV': '"development"' },
    write: false,
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0].text);

/**
 * The names each entry exports, read by a separate Node process: loading React here would
 * patch web-test-runner's own console.
 */
let exportNames;
const namesOf = (entry) => {
  exportNames ??= JSON.parse(
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { createRequire } from 'node:module'; const require = createRequire(process.cwd() + '/'); console.log(JSON.stringify(Object.fromEntries(${JSON.stringify(ENTRIES)}.map((entry) => [entry, Object.keys(require(entry))]))));`,
      ],
      { cwd: process.cwd(), env: { ...process.env, NODE_ENV: 'development' }, encoding: 'utf8' },
    ),
  );
  return exportNames[entry].filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
};

/** An entry as an ES module: its CommonJS exports by name, and as default. */
const facade = (entry) => {
  const names = namesOf(entry);
  const namespace = identifier(entry);
  return [
    `import { ${namespace} as m } from '${PREFIX}bundle.js';`,
    'const cjs = m.default ?? m;',
    'export default cjs;',
    `export const { ${names.join(', ')} } = cjs;`,
  ].join('\n');
};

export const reactPlugin = () => {
  let bundled;
  return {
    name: 'react-esm',
    resolveImport({ source }) {
      if (ENTRIES.includes(source)) return `${PREFIX}${encodeURIComponent(source)}.js`;
      return undefined;
    },
    async serve(context) {
      if (!context.path.startsWith(PREFIX)) return undefined;
      const name = decodeURIComponent(context.path.slice(PREFIX.length, -'.js'.length));
      if (name === 'bundle') return { body: await (bundled ??= bundle()), type: 'js' };
      if (ENTRIES.includes(name)) return { body: facade(name), type: 'js' };
      return undefined;
    },
  };
};
