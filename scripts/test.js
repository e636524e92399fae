#!/usr/bin/env node
/**
 * `npm test`: every check of the project, in order, with one summary line at the very end.
 *
 *   1. build (`dist/`: the demo, the e2e tests and the type checks import the package by name)
 *   2. typecheck (tsc, with and without the DOM library) and lint (ESLint, lit-analyzer)
 *   3. the Node suite (node:test through tsx): schemas, server, mock
 *   4. the browser suite (web-test-runner in headless Chromium): the element, the React wrapper
 *   5. the end-to-end suite (node:test driving Chromium with playwright-core) against the build
 *   6. the proxy and end-to-end suites once more against the mock with `quirks` on
 *      (`MOCK_QUIRKS`, see test/support/quirks.ts): every answer shape the reference permits
 *
 * Each suite's own output streams through; the last line is `N passed, N failed` over the
 * whole run (a check counts as one test). Exit code 1 on any failure, or when a suite ran no
 * test at all. `--only node|browser|e2e|quirks|checks` (repeatable) runs a subset.
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const only = process.argv.flatMap((arg, i, all) => (arg === '--only' ? [all[i + 1]] : []));
const wanted = (name) => only.length === 0 || only.includes(name);

const BROWSER_DIRS = ['test/element', 'test/react'];
const E2E_DIR = 'test/e2e';

const findTests = (dir) => {
  const out = [];
  const walk = (path) => {
    let entries;
    try {
      entries = readdirSync(path);
    } catch {
      return;
    }
    for (const name of entries) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.test.ts')) out.push(relative(root, full));
    }
  };
  walk(join(root, dir));
  return out.sort();
};

const stripAnsi = (text) => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');

/** Runs a command, streaming its output, and resolves with the exit code and the output text. */
const run = (command, args, env = {}) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
      process.stderr.write(chunk);
    });
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output: stripAnsi(output) }));
  });

const bin = (name) => join(root, 'node_modules', '.bin', name);
const results = [];

const check = async (name, command, args) => {
  console.log(`\n── ${name} ──`);
  const { code } = await run(command, args);
  results.push({ name, passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 });
};

const nodeSuite = async (name, files, env = {}) => {
  console.log(`\n── ${name}: ${files.length} files ──`);
  if (files.length === 0) {
    results.push({ name, passed: 0, failed: 1, note: 'no test files found' });
    return;
  }
  const { code, output } = await run(process.execPath, [
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    ...files,
  ], env);
  const passed = Number(/^ℹ pass (\d+)$/m.exec(output)?.[1] ?? 0);
  let failed = Number(/^ℹ fail (\d+)$/m.exec(output)?.[1] ?? 0);
  const cancelled = Number(/^ℹ cancelled (\d+)$/m.exec(output)?.[1] ?? 0);
  failed += cancelled;
  if (code !== 0 && failed === 0) failed = 1;
  if (passed + failed === 0) failed = 1;
  results.push({ name, passed, failed });
};

if (wanted('checks') || wanted('e2e') || wanted('quirks')) await check('build', 'npm', ['run', '--silent', 'build']);
const built = !results.some((result) => result.name === 'build' && result.failed);

if (wanted('checks') && built) {
  await check('typecheck', 'npm', ['run', '--silent', 'typecheck']);
  await check('lint', 'npm', ['run', '--silent', 'lint']);
}

if (wanted('node')) {
  const all = findTests('test');
  const nodeFiles = all.filter((file) => ![...BROWSER_DIRS, E2E_DIR].some((dir) => file.startsWith(`${dir}/`)));
  await nodeSuite('node', nodeFiles);
}

if (wanted('browser')) {
  console.log('\n── browser (web-test-runner, Chromium) ──');
  const { code, output } = await run(bin('web-test-runner'), []);
  const match = /^wtr: (\d+) passed, (\d+) failed, (\d+) skipped$/m.exec(output);
  let passed = Number(match?.[1] ?? 0);
  let failed = Number(match?.[2] ?? 0) + Number(match?.[3] ?? 0);
  if (code !== 0 && failed === 0) failed = 1;
  if (passed + failed === 0) failed = 1;
  results.push({ name: 'browser', passed, failed });
}

if (wanted('e2e') && built) await nodeSuite('e2e', findTests(E2E_DIR));

/** The suites that talk to the mock through the proxy and the browser, run again with its quirks on. */
const QUIRKS_FILES = ['test/server/checkout-mock.test.ts', 'test/e2e/cdn.test.ts', 'test/e2e/demo.test.ts'];
if (wanted('quirks') && built) await nodeSuite('quirks', QUIRKS_FILES, { MOCK_QUIRKS: '20261123' });

const passed = results.reduce((sum, result) => sum + result.passed, 0);
const failed = results.reduce((sum, result) => sum + result.failed, 0);
console.log(`\n${results.map((result) => `${result.name}: ${result.passed} passed, ${result.failed} failed${result.note ? ` (${result.note})` : ''}`).join(' · ')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
