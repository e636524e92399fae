import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import lit from 'eslint-plugin-lit';
import litA11y from 'eslint-plugin-lit-a11y';
import wc from 'eslint-plugin-wc';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** What server and schema code never imports: the browser's side. */
const SERVER_RESTRICTED = ['**/element/**', '**/react/**', 'lit', 'lit/*'];
/** The Node entry points of src/server (scripts/build.js `nodeEntries`): they alone may import src/server/node/. */
const NODE_ENTRIES = ['src/server/node.ts', 'src/server/redis.ts', 'src/server/sqlite.ts'];

/** Rules of `no-restricted-syntax` every file keeps (a block that adds its own repeats them: flat config replaces a rule's options). */
const BASE_SYNTAX = [
  {
    selector: "CallExpression[callee.name='parseFloat']",
    message: 'Money is decimal text end to end: never parseFloat an amount.',
  },
  {
    // The named `z` export pulls the whole of zod, every locale included (~71 KB brotli),
    // into a browser bundle; the namespace import lets the bundler keep only what is used
    // (the shared schemas with their part of zod: 9.6 KB brotli).
    selector: "ImportDeclaration[source.value=/^zod(\\u002F.*)?$/] > ImportSpecifier[imported.name='z']",
    message: "Use `import * as z from 'zod/mini'`: the named `z` export defeats tree-shaking (+60 KB brotli).",
  },
];

/**
 * The ways to reach Node from runtime-neutral code that `no-restricted-imports` does not see:
 * `import()` of a Node module or of src/server/node/, `require`, `process` (so
 * `process.getBuiltinModule` and `globalThis.process` too), `getBuiltinModule` by any path.
 */
const NODE_SEAM_SYNTAX = [
  {
    selector: 'ImportExpression[source.value=/^(node:|@hono\\u002Fnode-server)/]',
    message: 'Node built-ins belong in src/server/node/ (imported by Node entry points only), import() included.',
  },
  {
    selector: 'ImportExpression[source.value=/^(\\.{1,2}\\u002F)+(server\\u002F)?node\\u002F/]',
    message: 'Node-only code (src/server/node/) is imported by Node entry points only, import() included.',
  },
  {
    selector: "CallExpression[callee.name='require']",
    message: 'No require in runtime-neutral code: Node-only code lives in src/server/node/.',
  },
  {
    selector: "Identifier[name='process']",
    message:
      'No process (process.getBuiltinModule, globalThis.process, …) in runtime-neutral code: the platform comes from the entry (http/platform.ts).',
  },
  {
    selector: "Identifier[name='getBuiltinModule']",
    message: 'No getBuiltinModule in runtime-neutral code: Node modules are imported by src/server/node/ alone.',
  },
];

export default tseslint.config(
  // test/e2e/fixtures/types: checked by their own tsconfigs against the build; some must fail.
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'custom-elements.json', 'bench/.out/', 'test/e2e/fixtures/types/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              name: ['describe', 'test', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
              package: 'node:test',
            },
            { from: 'package', name: ['it', 'describe'], package: 'mocha' },
          ],
        },
      ],
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'smart'],
      'no-restricted-syntax': ['error', ...BASE_SYNTAX],
    },
  },
  {
    files: ['src/element/**/*.ts', 'src/react/**/*.ts', 'test/element/**/*.ts', 'demo/**/*.ts'],
    ...lit.configs['flat/recommended'],
  },
  {
    files: ['src/element/**/*.ts', 'src/react/**/*.ts', 'demo/**/*.ts'],
    ...wc.configs['flat/recommended'],
  },
  {
    files: ['src/element/**/*.ts', 'demo/**/*.ts'],
    ...litA11y.configs.recommended,
  },
  {
    // Browser code must not reach the server side or Node built-ins.
    files: ['src/element/**/*.ts', 'src/react/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', '**/server/**', '**/mock/**'] }],
    },
  },
  {
    files: ['src/server/**/*.ts', 'src/schemas/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: SERVER_RESTRICTED }],
    },
  },
  {
    // Runtime code behind one seam (docs/ARCHITECTURE.md, "The server kit", Adapters): Node-only
    // code lives in src/server/node/ and only the Node entry points (scripts/build.js
    // `nodeEntries`) import it; the rest of the kit speaks Web Request/Response and asks
    // src/server/http/runtime-seam.ts.
    // test/repo/node-imports.test.ts shows this rule failing.
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/node/**', ...NODE_ENTRIES],
    rules: {
      'no-restricted-syntax': ['error', ...BASE_SYNTAX, ...NODE_SEAM_SYNTAX],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: SERVER_RESTRICTED },
            {
              regex: '^(\\.{1,2}/)+(server/)?node/',
              message:
                'Node-only code (src/server/node/) is imported by Node entry points only; use src/server/http/runtime-seam.ts and the platform (src/server/http/platform.ts).',
            },
            { regex: '^node:', message: 'Node built-ins belong in src/server/node/ (imported by Node entry points only).' },
            {
              regex: '^@hono/node-server(/|$)',
              message: 'The Node server belongs in src/server/node/ (imported by Node entry points only).',
            },
          ],
        },
      ],
    },
  },
  {
    // No import cycles in the package's code: each folder imports in one direction (its
    // README says which). This rule skips type-only imports; test/repo/layout.test.ts counts them
    // and `import()` too.
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // ANSI escapes are what the test scripts strip.
      'no-control-regex': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['scripts/**/*.js'],
    rules: { 'no-control-regex': 'off' },
  },
);
