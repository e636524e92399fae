/**
 * web-test-runner plugins and reporter of this project: `qrcode` and `@sinonjs/fake-timers`
 * are CommonJS only, and the test script needs the run's counts (docs/ARCHITECTURE.md, "Tests").
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const requireHere = createRequire(`${process.cwd()}/`);

/** Names a CommonJS module exports (read in Node), to re-export them as ES named exports too. */
const exportNames = (specifier) => {
  try {
    return Object.keys(requireHere(specifier)).filter((name) => name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name));
  } catch {
    return [];
  }
};

const QR_PREFIX = '/__cjs/';

/**
 * `qrcode` (and `@sinonjs/fake-timers`, for the tests) are CommonJS only, which
 * web-test-runner's rollup CommonJS adapter cannot load.
 * Pre-bundle each imported `qrcode` entry to one ES module with esbuild (browser platform, so
 * the Node-only PNG renderer stays out) and serve it at a virtual path.
 */
export const commonJsPlugin = (packages = ['qrcode']) => {
  const cache = new Map();
  const matches = (source) => packages.some((name) => source === name || source.startsWith(`${name}/`));
  return {
    name: 'cjs-prebundle',
    resolveImport({ source }) {
      if (matches(source)) return `${QR_PREFIX}${encodeURIComponent(source)}.js`;
      return undefined;
    },
    async serve(context) {
      if (!context.path.startsWith(QR_PREFIX)) return undefined;
      const specifier = decodeURIComponent(context.path.slice(QR_PREFIX.length, -'.js'.length));
      if (!matches(specifier)) return undefined;
      if (!cache.has(specifier)) {
        cache.set(
          specifier,
          build({
            stdin: {
              contents: [
                `import m from ${JSON.stringify(specifier)};`,
                'export default m;',
                ...exportNames(specifier).map((name) => `export const ${name} = m.${name};`),
              ].join('\n'),
              resolveDir: process.cwd(),
            },
            bundle: true,
            format: 'esm',
            platform: 'browser',
            // `@sinonjs/fake-timers` requires Node's `util` only when `process` exists.
            external: ['util'],
            write: false,
            logLevel: 'silent',
          }).then((result) => result.outputFiles[0].text),
        );
      }
      return { body: await cache.get(specifier), type: 'js' };
    },
  };
};

const countTests = (suite, totals) => {
  for (const test of suite.tests ?? []) {
    if (test.skipped) totals.skipped++;
    else if (test.passed) totals.passed++;
    else totals.failed++;
  }
  for (const child of suite.suites ?? []) countTests(child, totals);
};

/**
 * Counts the run's tests: writes `{ passed, failed, skipped }` as JSON to `outputFile`
 * (scripts/test.js passes `WTR_SUMMARY_FILE` and reads it) and prints
 * `wtr: N passed, N failed, N skipped` as the last line, for a person running
 * web-test-runner by hand. A file whose tests could not even load counts as one failure, so a
 * broken import is never "0 failed".
 */
export const summaryReporter = ({ outputFile = process.env.WTR_SUMMARY_FILE } = {}) => {
  let totals;
  return {
    onTestRunFinished({ sessions }) {
      totals = { passed: 0, failed: 0, skipped: 0 };
      for (const session of sessions) {
        if (session.testResults) countTests(session.testResults, totals);
        const loadFailed =
          !session.passed && session.errors?.length && !session.testResults?.tests?.length && !session.testResults?.suites?.length;
        if (loadFailed || (session.status === 'FINISHED' && !session.testResults)) totals.failed++;
      }
      if (outputFile) writeFileSync(outputFile, `${JSON.stringify(totals)}\n`);
    },
    stop() {
      if (totals) console.log(`wtr: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
    },
  };
};
