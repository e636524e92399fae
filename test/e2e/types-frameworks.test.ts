/**
 * The shipped declarations, as a merchant's TypeScript sees them: `tsc` over TSX and `vue-tsc`
 * over a Vue SFC in `fixtures/types/`, which import `merchant-checkout` by its package name and
 * so resolve through `package.json` `exports` to what `npm run build` wrote. The correct usages
 * pass; in the wrong ones, every line marked `expect-error` (a misspelt attribute, property or
 * event, a bad value, a handler for another event) fails, and no other line does.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = new URL('./fixtures/types/', import.meta.url);

interface Run {
  code: number;
  output: string;
}

const runNode = (script: string, args: string[]): Promise<Run> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${root}${script}`, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });

const tsc = (project: string) => runNode('node_modules/typescript/bin/tsc', ['-p', fileURLToPath(new URL(project, fixtures))]);
const vueTsc = (project: string) => runNode('node_modules/vue-tsc/bin/vue-tsc.js', ['-p', fileURLToPath(new URL(project, fixtures))]);

/** `file(line,col): error TS1234: …` lines of a compiler's output, as `file:line`. */
const errorLines = (output: string): string[] =>
  [...output.matchAll(/^(\S+)\((\d+),\d+\): error TS\d+:/gm)].map((match) => `${match[1]!.split('/').at(-1)}:${match[2]}`);

/** The lines of a fixture marked `expect-error`, as `file:line`. */
const markedLines = async (file: string): Promise<string[]> => {
  const text = await readFile(new URL(file, fixtures), 'utf8');
  const name = file.split('/').at(-1)!;
  return text.split('\n').flatMap((line, index) => (line.includes('expect-error:') ? [`${name}:${index + 1}`] : []));
};

const assertErrorsExactlyOnMarkedLines = async (run: Run, file: string): Promise<void> => {
  const expected = await markedLines(file);
  assert.ok(expected.length >= 6, `${file} marks its mistakes`);
  assert.notEqual(run.code, 0, `${file} must not type-check:\n${run.output}`);
  assert.deepEqual([...new Set(errorLines(run.output))].sort(), expected.sort(), run.output);
};

test('TSX: the React wrapper, the bare tag and the DOM element type-check against the shipped types', async () => {
  const wrapper = await tsc('react/tsconfig.json');
  assert.equal(wrapper.code, 0, wrapper.output);
  const bare = await tsc('react/tsconfig.bare.json');
  assert.equal(bare.code, 0, bare.output);
});

test('TSX: a wrong property, event prop, handler, detail field or attribute value is an error', async () => {
  await assertErrorsExactlyOnMarkedLines(await tsc('react/tsconfig.wrong.json'), 'react/usage.wrong.tsx');
});

test('Vue: attributes, properties and @events type-check in a template (vue-tsc, strictTemplates)', async () => {
  const run = await vueTsc('vue/tsconfig.json');
  assert.equal(run.code, 0, run.output);
});

test('Vue: a wrong attribute, event name, handler, detail field or value is an error', async () => {
  await assertErrorsExactlyOnMarkedLines(await vueTsc('vue/tsconfig.wrong.json'), 'vue/Checkout.wrong.vue');
});
