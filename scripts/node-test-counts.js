/**
 * A `node:test` reporter (`--test-reporter=./scripts/node-test-counts.js`) that writes one JSON
 * object when the run ends: `{ passed, failed, cancelled, skipped, todo, failures }`, where
 * `failures` lists `{ name, file }`. scripts/test.js reads it for the run's summary while the
 * `spec` reporter prints for people. Counted as the `spec` reporter counts: every test that is
 * not a suite, a parent test with subtests included, and a test file that failed to run at
 * all (its process crashed, or it exceeded `--test-timeout`).
 */
export default async function* nodeTestCounts(source) {
  const counts = { passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0, failures: [] };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { data } = event;
    if (data.details?.type === 'suite') continue;
    if (data.todo) counts.todo++;
    else if (data.skip) counts.skipped++;
    else if (event.type === 'test:pass') counts.passed++;
    else if (data.details?.error?.failureType === 'cancelledByParent') counts.cancelled++;
    else {
      counts.failed++;
      counts.failures.push({ name: data.name, file: data.file });
    }
  }
  yield `${JSON.stringify(counts)}\n`;
}
