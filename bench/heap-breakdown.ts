/**
 * What grew between two heap snapshots, by kind of object (V8's node type and constructor
 * name), per unit (e.g. per open stream):
 *
 *   node --import tsx bench/heap-breakdown.ts before.heapsnapshot after.heapsnapshot [units] [--by-holder]
 *
 * `--by-holder`: the objects new in the second snapshot, by their kind and the kind of an
 * object that holds them.
 *
 * `node --import tsx bench/events.ts idle 2000 --snapshot` writes the two snapshots of the idle
 * streams benchmark to bench/.out/.
 */
import { readFile } from 'node:fs/promises';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

export const kinds = (snapshot: Snapshot): Map<string, { count: number; bytes: number }> => {
  const fields = snapshot.snapshot.meta.node_fields;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const types = snapshot.snapshot.meta.node_types[0];
  const result = new Map<string, { count: number; bytes: number }>();
  for (let index = 0; index < snapshot.nodes.length; index += width) {
    const type = types[snapshot.nodes[index + typeAt]!]!;
    const rawName = snapshot.strings[snapshot.nodes[index + nameAt]!] ?? '';
    // Strings and numbers are told apart by type only; closures and objects by their name.
    const name =
      type === 'string' || type === 'concatenated string' || type === 'sliced string' || type === 'number' ? '' : rawName.slice(0, 60);
    const key = `${type}${name ? ` ${name}` : ''}`;
    const entry = result.get(key) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += snapshot.nodes[index + sizeAt]!;
    result.set(key, entry);
  }
  return result;
};

const main = async () => {
  const [beforeFile, afterFile, unitsText = '1'] = process.argv.slice(2);
  if (!beforeFile || !afterFile) throw new Error('usage: heap-breakdown.ts before.heapsnapshot after.heapsnapshot [units]');
  const units = Number(unitsText);
  const before = kinds(JSON.parse(await readFile(beforeFile, 'utf8')) as Snapshot);
  const after = kinds(JSON.parse(await readFile(afterFile, 'utf8')) as Snapshot);
  const rows = [...after].map(([key, { count, bytes }]) => {
    const was = before.get(key) ?? { count: 0, bytes: 0 };
    return { key, count: (count - was.count) / units, bytes: (bytes - was.bytes) / units };
  });
  rows.sort((a, b) => b.bytes - a.bytes);
  const total = rows.reduce((sum, row) => sum + row.bytes, 0);
  const lines = [`${(total / 1000).toFixed(2)} KB per unit in all (${units} units)`, '    bytes   count  kind'];
  for (const row of rows.slice(0, 60)) lines.push(`${row.bytes.toFixed(0).padStart(9)} ${row.count.toFixed(2).padStart(7)}  ${row.key}`);
  process.stdout.write(`${lines.join('\n')}\n`);
};

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/')) && !process.argv.includes('--by-holder')) await main();

interface FullSnapshot extends Snapshot {
  snapshot: Snapshot['snapshot'] & { meta: Snapshot['snapshot']['meta'] & { edge_fields: string[]; edge_types: [string[], ...unknown[]] } };
  edges: number[];
}

/**
 * The objects of `after` that `before` does not have (V8 keeps an object's id across the
 * snapshots of one process), each counted under its kind and the kind of one object that
 * holds it (strong edges only): "who keeps what", per unit.
 */
export const retainedBy = (before: FullSnapshot, after: FullSnapshot): Map<string, { count: number; bytes: number }> => {
  const fields = after.snapshot.meta.node_fields;
  const width = fields.length;
  const [typeAt, nameAt, idAt, sizeAt, edgeCountAt] = ['type', 'name', 'id', 'self_size', 'edge_count'].map((field) =>
    fields.indexOf(field),
  ) as [number, number, number, number, number];
  const types = after.snapshot.meta.node_types[0];
  const edgeFields = after.snapshot.meta.edge_fields;
  const edgeWidth = edgeFields.length;
  const edgeTypeAt = edgeFields.indexOf('type');
  const toAt = edgeFields.indexOf('to_node');
  const edgeTypes = after.snapshot.meta.edge_types[0];
  const weak = edgeTypes.indexOf('weak');
  const beforeIds = new Set<number>();
  const beforeWidth = before.snapshot.meta.node_fields.length;
  const beforeIdAt = before.snapshot.meta.node_fields.indexOf('id');
  for (let index = 0; index < before.nodes.length; index += beforeWidth) beforeIds.add(before.nodes[index + beforeIdAt]!);
  const kindOf = (node: number) => {
    const type = types[after.nodes[node + typeAt]!]!;
    const name = /string|number/.test(type) ? '' : (after.strings[after.nodes[node + nameAt]!] ?? '').slice(0, 50);
    return `${type}${name ? ` ${name}` : ''}`;
  };
  const holder = new Map<number, number>();
  let edge = 0;
  for (let node = 0; node < after.nodes.length; node += width) {
    const count = after.nodes[node + edgeCountAt]!;
    for (let each = 0; each < count; each++, edge += edgeWidth) {
      if (after.edges[edge + edgeTypeAt] === weak) continue;
      const to = after.edges[edge + toAt]!;
      if (!holder.has(to)) holder.set(to, node);
    }
  }
  const result = new Map<string, { count: number; bytes: number }>();
  for (let node = 0; node < after.nodes.length; node += width) {
    if (beforeIds.has(after.nodes[node + idAt]!)) continue;
    const by = holder.get(node);
    const key = `${kindOf(node)}  ←  ${by === undefined ? '(none)' : kindOf(by)}`;
    const entry = result.get(key) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += after.nodes[node + sizeAt]!;
    result.set(key, entry);
  }
  return result;
};

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/')) && process.argv.includes('--by-holder')) {
  const [beforeFile, afterFile, unitsText = '1'] = process.argv.slice(2).filter((each) => !each.startsWith('--'));
  const units = Number(unitsText);
  const rows = [
    ...retainedBy(
      JSON.parse(await readFile(beforeFile!, 'utf8')) as FullSnapshot,
      JSON.parse(await readFile(afterFile!, 'utf8')) as FullSnapshot,
    ),
  ];
  rows.sort((a, b) => b[1].bytes - a[1].bytes);
  for (const [key, { count, bytes }] of rows.slice(0, 80))
    process.stdout.write(`${(bytes / units).toFixed(0).padStart(7)} ${(count / units).toFixed(2).padStart(6)}  ${key}\n`);
}
