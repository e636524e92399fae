/**
 * The floors (issue 39, point 4): the server kit and the top of src/ are stacked, each floor
 * importing only from the floors below it, never up and never sideways, type-only imports and
 * `import()` included. The order is declared here once; docs/ARCHITECTURE.md ("Floors") and
 * src/server/README.md show it, and this test holds them to it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { importGraph, root, sourceFiles } from './source-graph.js';

/** A floor: its name and the paths it holds (a folder ends with `/`), lowest first. */
interface Floor {
  name: string;
  holds: readonly string[];
}

/** The floors of src/server, lowest first. */
const SERVER_FLOORS: readonly Floor[] = [
  {
    name: 'http',
    holds: ['http/', 'fingerprint.ts', 'remember.ts', 'immutable.ts', 'options-check.ts', 'handler.ts', 'telemetry.ts', 'single-flight.ts'],
  },
  { name: 'client', holds: ['client/'] },
  { name: 'store', holds: ['store/'] },
  { name: 'books', holds: ['books/'] },
  { name: 'events', holds: ['events/'] },
  { name: 'proxy', holds: ['proxy/'] },
  { name: 'notifications', holds: ['notifications/'] },
  { name: 'journal', holds: ['journal/'] },
  { name: 'kit', holds: ['kit.ts'] },
  { name: 'node', holds: ['node/'] },
  { name: 'entries', holds: ['index.ts', 'node.ts', 'redis.ts', 'sqlite.ts'] },
];

/** The floors of src/, lowest first; the folders on one floor never import each other. */
const TOP_FLOORS: readonly (readonly string[])[] = [['schemas'], ['element', 'server'], ['types', 'mock'], ['react'], ['gateway'], ['cli']];

interface Place {
  floor: number;
  name: string;
}

const serverPlace = (file: string): Place | undefined => {
  const inner = file.slice('src/server/'.length);
  const floor = SERVER_FLOORS.findIndex(({ holds }) =>
    holds.some((held) => (held.endsWith('/') ? inner.startsWith(held) : inner === held)),
  );
  return floor < 0 ? undefined : { floor, name: SERVER_FLOORS[floor]!.name };
};

const topPlace = (file: string): Place | undefined => {
  const folder = file.split('/')[1]!;
  const floor = TOP_FLOORS.findIndex((names) => names.includes(folder));
  return floor < 0 ? undefined : { floor, name: folder };
};

/** Every import that does not go down a floor, as `from → to (floor → floor)`. */
const offenders = (within: (file: string) => boolean, place: (file: string) => Place | undefined): string[] => {
  const found: string[] = [];
  for (const [file, targets] of importGraph()) {
    if (!within(file)) continue;
    const from = place(file)!;
    for (const target of targets) {
      if (!within(target)) continue;
      const to = place(target)!;
      if (from.name === to.name || to.floor < from.floor) continue;
      found.push(`${file} → ${target} (${from.name} → ${to.name}: ${to.floor > from.floor ? 'up' : 'sideways'})`);
    }
  }
  return found;
};

test('every module of src/server and every folder of src/ is on a floor', () => {
  const lost = sourceFiles.filter((file) =>
    file.startsWith('src/server/') ? serverPlace(file) === undefined : topPlace(file) === undefined,
  );
  assert.deepEqual(lost, [], 'put these on a floor in test/repo/floors.test.ts (and in docs/ARCHITECTURE.md)');
});

test('no import in src/server runs up a floor or sideways', () => {
  const server = (file: string) => file.startsWith('src/server/');
  assert.ok(sourceFiles.filter(server).length > 60, 'the server modules were found');
  const wrong = offenders(server, serverPlace);
  assert.ok(wrong.length === 0, `imports against the floors (move what both need down a floor):\n${wrong.join('\n')}`);
});

test('no import at the top of src/ runs up a floor or sideways', () => {
  const wrong = offenders(() => true, topPlace);
  assert.ok(wrong.length === 0, `imports against the floors of src/:\n${wrong.join('\n')}`);
});

test('docs/ARCHITECTURE.md and src/server/README.md show the floors in this order', () => {
  const order = SERVER_FLOORS.map(({ name }) => name).join(' < ');
  const top = TOP_FLOORS.map((names) => names.join(', ')).join(' < ');
  for (const doc of ['docs/ARCHITECTURE.md', 'src/server/README.md']) {
    const text = readFileSync(join(root, doc), 'utf8');
    assert.ok(text.includes(order), `${doc} shows the server's floors as \`${order}\``);
  }
  const architecture = readFileSync(join(root, 'docs/ARCHITECTURE.md'), 'utf8');
  assert.ok(architecture.includes(top), `docs/ARCHITECTURE.md shows the floors of src/ as \`${top}\``);
});
