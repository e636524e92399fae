#!/usr/bin/env node
/**
 * `npm test`: every check of the project, in order, with one summary line at the very end.
 *
 *   1. build (`dist/`: the demo, the e2e tests and the type checks import the package by name)
 *   2. typecheck (tsc, with and without the DOM library) and lint (ESLint, lit-analyzer)
 *   3. the Node suite (node:test through tsx): schemas, server, mock, once on each Node line
 *      (scripts/node-lines.js: 22, 24, 26; `--node VERSION` for fewer)
 *   4. the browser suite (web-test-runner): the element, the React wrapper, once in each engine
 *      (Chromium, Firefox ESR, WebKit; web-test-runner.config.js), `--engine NAME` for fewer
 *   5. the end-to-end suite (node:test driving Chromium with playwright-core) against the build
 *   6. the proxy and end-to-end suites once more against the mock with `quirks` on
 *      (`MOCK_QUIRKS`, see test/support/quirks.ts): every answer shape the reference permits
 *
 * Everything but the Node suite runs on the newest LTS (`MAIN_LINE`), whichever Node started this
 * script: its folder leads PATH, so `npm`, the runners and the processes the tests start run on it
 * too. The lines' binaries are installed by scripts/setup.sh; a missing one fails its part, saying so.
 *
 * Each suite's own output streams through; the last line is `N passed, N failed` over the
 * whole run (a check counts as one test); the line before it gives each part's counts and
 * seconds. The counts come from reporters that write JSON, not
 * from the printed text: scripts/node-test-counts.js for `node:test`, the `summaryReporter` of
 * test/support/wtr-plugins.js for web-test-runner. Every `node:test` test has a timeout
 * (scripts/node-test-timeout.js; 60 s, 120 s end to end) and every test file a ceiling
 * (`--test-timeout`). Exit code 1 on any failure, or when a suite ran no test at all.
 * `--only node|browser|e2e|quirks|checks` (repeatable) runs a subset.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { ENGINES } from '../test/support/engines.js';
import { MAIN_LINE, NODE_LINES, nodeBinDir, nodeBinary } from './node-lines.js';

const root = new URL('..', import.meta.url).pathname;
const valuesOf = (flag) => process.argv.flatMap((arg, i, all) => (arg === flag ? [all[i + 1]] : []));
const only = valuesOf('--only');
const wanted = (name) => only.length === 0 || only.includes(name);
const engines = valuesOf('--engine').length > 0 ? valuesOf('--engine') : ENGINES;
for (const engine of engines) {
  if (!ENGINES.includes(engine)) throw new TypeError(`--engine ${engine}: one of ${ENGINES.join(', ')}`);
}
const main = nodeBinary(MAIN_LINE);
if (main instanceof Error) {
  console.error(`${main.message} (every part runs on Node ${MAIN_LINE})`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const lines = valuesOf('--node').length > 0 ? valuesOf('--node') : NODE_LINES;
for (const line of lines) {
  if (!NODE_LINES.includes(line)) throw new TypeError(`--node ${line}: one of ${NODE_LINES.join(', ')}`);
}

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

/** PATH with a Node line's folder first: `node`, `npm` and every `#!/usr/bin/env node` run on it. */
const pathFor = (line) => [nodeBinDir(line), process.env.PATH].join(delimiter);

/** Runs a command (on the main line unless `line` says) with its output streaming through, and resolves with its exit code. */
const run = (command, args, env = {}, line = MAIN_LINE) =>
  new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, PATH: pathFor(line), ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0) }));
    child.on('error', (error) => {
      console.error(`${command}: ${error.message}`);
      resolve({ code: 1 });
    });
  });

const secondsSince = (started) => Math.round((Date.now() - started) / 1000);
const bin = (name) => join(root, 'node_modules', '.bin', name);
const results = [];

const check = async (name, command, args) => {
  console.log(`\n── ${name} ──`);
  const started = Date.now();
  const { code } = await run(command, args);
  results.push({ name, passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, seconds: secondsSince(started) });
};

/** A fresh file for a reporter to write, in a directory removed when the run ends. */
const reportDir = mkdtempSync(join(tmpdir(), 'merchant-checkout-test-'));
process.on('exit', () => rmSync(reportDir, { recursive: true, force: true }));
let reports = 0;
const reportFile = (name) => join(reportDir, `${++reports}-${name}.json`);
const readReport = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};

/** A suite's result: a non-zero exit counts as a failure, and so does a run of no test at all. */
const record = (name, { code, started, passed = 0, failed = 0, note }) => {
  if (code !== 0 && failed === 0) failed = 1;
  if (passed + failed === 0) failed = 1;
  results.push({ name, passed, failed, seconds: secondsSince(started), note });
};

/** Per-test timeouts (scripts/node-test-timeout.js) and each file's ceiling (`--test-timeout`). */
const NODE_TIMEOUTS = {
  node: { test: 60_000, file: 300_000 },
  e2e: { test: 120_000, file: 600_000 },
};

/**
 * A `node:test` run through tsx: the `spec` reporter streams to the terminal, and
 * scripts/node-test-counts.js writes the counts to a file that this script reads.
 */
const nodeSuite = async (name, files, { env = {}, timeouts = NODE_TIMEOUTS.node, line = MAIN_LINE } = {}) => {
  console.log(`\n── ${name}: ${files.length} files, Node ${line} ──`);
  if (files.length === 0) {
    results.push({ name, passed: 0, failed: 1, note: 'no test files found' });
    return;
  }
  const node = nodeBinary(line);
  if (node instanceof Error) {
    console.error(node.message);
    results.push({ name, passed: 0, failed: 1, note: node.message });
    return;
  }
  const counts = reportFile(name);
  const started = Date.now();
  const { code } = await run(
    node,
    [
      '--import',
      'tsx',
      '--import',
      './scripts/node-test-timeout.js',
      '--test',
      `--test-timeout=${timeouts.file}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=./scripts/node-test-counts.js',
      `--test-reporter-destination=${counts}`,
      ...files,
    ],
    { NODE_TEST_TIMEOUT_MS: String(timeouts.test), ...env },
    line,
  );
  const report = readReport(counts);
  record(name, {
    code,
    started,
    passed: report?.passed,
    failed: report && report.failed + report.cancelled,
    note: report ? undefined : 'no report from the test runner',
  });
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
  for (const line of lines) await nodeSuite(`node ${line.split('.')[0]}`, nodeFiles, { line });
}

if (wanted('browser')) {
  for (const engine of engines) {
    console.log(`\n── browser ${engine} (web-test-runner) ──`);
    const name = `browser ${engine}`;
    // test/support/wtr-plugins.js `summaryReporter` writes `{ passed, failed, skipped }` here.
    const summary = reportFile(name.replace(' ', '-'));
    const started = Date.now();
    const { code } = await run(bin('web-test-runner'), [], { WTR_SUMMARY_FILE: summary, WTR_ENGINE: engine });
    const report = readReport(summary);
    // A skipped browser test counts as failed (no test is skipped in any engine).
    record(name, {
      code,
      started,
      passed: report?.passed,
      failed: report && report.failed + report.skipped,
      note: report ? undefined : 'no report from web-test-runner',
    });
  }
}

if (wanted('e2e') && built) await nodeSuite('e2e', findTests(E2E_DIR), { timeouts: NODE_TIMEOUTS.e2e });

/** The suites that talk to the mock through the proxy and the browser, run again with its quirks on. */
const QUIRKS_FILES = ['test/server/checkout-mock.test.ts', 'test/e2e/cdn.test.ts', 'test/e2e/demo.test.ts'];
if (wanted('quirks') && built) await nodeSuite('quirks', QUIRKS_FILES, { env: { MOCK_QUIRKS: '20261123' }, timeouts: NODE_TIMEOUTS.e2e });

const passed = results.reduce((sum, result) => sum + result.passed, 0);
const failed = results.reduce((sum, result) => sum + result.failed, 0);
console.log(
  `\n${results
    .map((result) => {
      const notes = [result.note, result.seconds === undefined ? undefined : `${result.seconds} s`].filter(Boolean);
      return `${result.name}: ${result.passed} passed, ${result.failed} failed${notes.length ? ` (${notes.join(', ')})` : ''}`;
    })
    .join(' · ')}`,
);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
