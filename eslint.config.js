import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import lit from 'eslint-plugin-lit';
import litA11y from 'eslint-plugin-lit-a11y';
import wc from 'eslint-plugin-wc';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
            { from: 'package', name: ['describe', 'test', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'], package: 'node:test' },
            { from: 'package', name: ['it', 'describe'], package: 'mocha' },
          ],
        },
      ],
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'smart'],
      'no-restricted-syntax': [
        'error',
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
      ],
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
      'no-restricted-imports': ['error', { patterns: ['**/element/**', '**/react/**', 'lit', 'lit/*'] }],
    },
  },
  {
    // No import cycles in the package's code: each folder imports in one direction (its
    // README says which). Type-only imports are erased and may close a loop.
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
