/**
 * What the docs say about where the kit runs is what the tests run: docs/server.md's table of
 * runtimes has a column for Node and for each runtime test/e2e/runtimes.test.ts serves the kit
 * on, every cell says `tested` or `not supported: <why>`, the rows of the kit's timer, of a
 * Worker's `scheduled` handler and of each durable store say `tested` exactly where the test
 * runs them, and a file a cell names exists. package.json's
 * `engines.node` names the oldest Node line the suite runs on (scripts/node-lines.js), and the
 * README says the same.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MAIN_LINE, NODE_LINES } from '../../scripts/node-lines.js';
import { RUNTIMES, SCHEDULED_RUNTIMES, STORES, TIMER_RUNTIMES, type Runtime } from '../e2e/support/runtimes.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** The table after the `<!-- runtimes: … -->` marker of docs/server.md: header cells, then rows of cells. */
const runtimesTable = (): { header: string[]; rows: string[][] } => {
  const text = read('docs/server.md');
  const start = text.indexOf('<!-- runtimes:');
  assert.ok(start >= 0, 'docs/server.md has the runtimes table');
  const lines = text.slice(start).split('\n').slice(1);
  const table = lines.slice(
    0,
    lines.findIndex((line) => !line.startsWith('|')),
  );
  const cells = (line: string) =>
    line
      .slice(1, -1)
      .split(' | ')
      .map((cell) => cell.trim());
  return { header: cells(table[0]!), rows: table.slice(2).map(cells) };
};

test("docs/server.md's table of runtimes has Node and each runtime the end-to-end test runs the kit on", () => {
  const { header, rows } = runtimesTable();
  assert.deepEqual(header, ['feature', 'Node', ...RUNTIMES]);
  assert.ok(rows.length >= 9, 'checkout read, event stream, notifications, timer, cron, scheduled handler, receipts, SQLite, Redis');
  for (const row of rows) {
    assert.equal(row.length, header.length, row[0]);
    for (const [index, cell] of row.slice(1).entries()) {
      assert.match(cell, /^(tested\b|not supported: \S)/, `${row[0]} on ${header[index + 1]}`);
      for (const [file] of cell.matchAll(/test\/[\w/.-]+\.test\.ts/g)) assert.ok(existsSync(join(root, file)), `${file} exists`);
    }
  }
});

/** The rows that hold for some runtimes only: where the end-to-end test runs each, and whether the Node suite does. */
const PARTIAL_ROWS: { row: RegExp; runtimes: readonly Runtime[]; node: boolean }[] = [
  { row: /kit's timer/, runtimes: TIMER_RUNTIMES, node: true },
  { row: /`scheduled` handler/, runtimes: SCHEDULED_RUNTIMES, node: false },
  { row: /^durable store: SQLite/, runtimes: RUNTIMES.filter((runtime) => STORES[runtime].includes('SQLite')), node: true },
  { row: /^durable store: Redis/, runtimes: RUNTIMES.filter((runtime) => STORES[runtime].includes('Redis')), node: true },
];

test('the rows of the timer, the scheduled handler and each durable store say tested exactly where the end-to-end test runs them', () => {
  const { header, rows } = runtimesTable();
  for (const { row: name, runtimes, node } of PARTIAL_ROWS) {
    const row: string[] = rows.find((each) => name.test(each[0]!)) ?? [];
    assert.ok(row.length > 0, `a row matching ${String(name)}`);
    assert.equal(row[header.indexOf('Node')]!.startsWith('tested'), node, `${row[0]} on Node`);
    for (const runtime of RUNTIMES) {
      const cell: string = row[header.indexOf(runtime)] ?? '';
      assert.equal(cell.startsWith('tested'), runtimes.includes(runtime), `${row[0]} on ${runtime}: ${cell}`);
    }
  }
});

test('engines.node names the oldest Node line tested, the README the same, and the main line is one of them', () => {
  const oldest = NODE_LINES[0]!.split('.')[0]!;
  const { engines } = JSON.parse(read('package.json')) as { engines: { node: string } };
  assert.equal(engines.node, `>=${oldest}`);
  assert.ok(NODE_LINES.includes(MAIN_LINE));
  const readme = read('README.md');
  assert.ok(readme.includes(`Node ≥ ${oldest}`), `the README says Node ≥ ${oldest}`);
  assert.doesNotMatch(readme, new RegExp(`Node ≥ (?!${oldest}\\b)\\d+`), 'no other lowest Node line in the README');
});
