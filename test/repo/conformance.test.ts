/**
 * docs/CONFORMANCE.md says how the kit handles each operation, field, error and assumption of
 * the payment service's reference. Its lists are held to the code here, read from the sources
 * (never copied): every row of `OPERATIONS` with its method and path, every option of the mock
 * (each member of each interface of src/mock/options.ts, read with TypeScript, each key of
 * `DEFAULTS` and each value that module exports), every stable code of `SERVICE_ERROR_CODES`,
 * every checkout error code with the status of `CHECKOUT_ERROR_STATUS`, and the status and
 * option values the schemas know. The page lists the mock's plumbing options (`now`, `seed`, …)
 * too, so no hand-kept list says which options are assumptions.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import ts from 'typescript';
import * as mockOptions from '../../src/mock/options.js';
import {
  CHECKOUT_ERROR_STATUS,
  KNOWN_DEAL_STATUSES,
  KNOWN_DISPUTE_REASONS,
  KNOWN_INVOICE_STATUSES,
  KNOWN_PAYMENT_OPTIONS,
} from '../../src/schemas/index.js';
import { OPERATION_LIST } from '../../src/schemas/operations.js';
import { SERVICE_ERROR_CODES } from '../../src/server/client/service-errors.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const PAGE = 'docs/CONFORMANCE.md';
const OPTIONS_FILE = 'src/mock/options.ts';
const page = readFileSync(join(root, PAGE), 'utf8');

/** The text of every `code span` of `text`. */
const codeSpans = (text: string): string[] => [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
/** Whether `name` occurs as a whole word (`payIn` in `merchants[].payIn`, not in `payInLimit`). */
const hasWord = (text: string, name: string): boolean =>
  new RegExp(`(?<![\\w$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`).test(text);
/** The names (of `names`) that no code span of `text` carries as a word. */
const missingFrom = (text: string, names: Iterable<string>): string[] => {
  const spans = codeSpans(text);
  return [...new Set(names)].filter((name) => !spans.some((span) => hasWord(span, name))).sort();
};
/** The section of the page under `heading` (a `##` or `###` line), up to the next heading of its level or above. */
const section = (heading: string): string => {
  const lines = page.split('\n');
  const start = lines.findIndex((line) => /^#{2,3} /.test(line) && line.replace(/^#+ /, '').startsWith(heading));
  assert.ok(start >= 0, `${PAGE} has a section "${heading}"`);
  const level = /^#+/.exec(lines[start]!)![0].length;
  const end = lines.findIndex((line, index) => index > start && new RegExp(`^#{1,${level}} `).test(line));
  return lines.slice(start, end === -1 ? undefined : end).join('\n');
};
/** The table rows of the operations overview: the section "The operations" before its first subsection. */
const overviewRows = (): string[] =>
  section('The operations')
    .split(/\n(?=### )/)[0]!
    .split('\n')
    .filter((line) => line.startsWith('|'));

test('every operation of OPERATIONS is a row of the operations table: its client method with its method and path', () => {
  assert.ok(OPERATION_LIST.length > 0);
  const rows = overviewRows();
  const missing = OPERATION_LIST.filter(
    (row) =>
      !rows.some((line) => {
        const spans = codeSpans(line);
        return spans.some((span) => hasWord(span, row.name)) && spans.includes(`${row.method} ${row.path}`);
      }),
  ).map((row) => `${row.name} (${row.method} ${row.path})`);
  assert.deepEqual(missing, [], `${PAGE}: a row of "The operations" naming each operation and \`METHOD path\``);
});

test('every operation is described beyond the overview: a section under its path, or a row of a shared table', () => {
  const lines = page.split('\n');
  const overview = new Set(overviewRows());
  const undescribed = OPERATION_LIST.filter(
    (row) =>
      !lines.some((line) => /^#{3} /.test(line) && line.includes(`\`${row.method} ${row.path}\``)) &&
      !lines.some((line) => line.startsWith('|') && !overview.has(line) && line.includes(`\`${row.name}(`)),
  ).map((row) => row.name);
  assert.deepEqual(undescribed, [], `${PAGE}: a "### … \`METHOD path\`" section, or a row "\`name(…)\`" in a shared table`);
});

test('every option of the mock (src/mock/options.ts) is named: interface members, DEFAULTS keys, exported values', () => {
  const source = ts.createSourceFile(OPTIONS_FILE, readFileSync(join(root, OPTIONS_FILE), 'utf8'), ts.ScriptTarget.Latest, true);
  const interfaces = source.statements.filter(ts.isInterfaceDeclaration);
  assert.ok(interfaces.length > 0, `${OPTIONS_FILE} declares the options' interfaces`);
  const members = interfaces.flatMap((declaration) =>
    declaration.members.filter(ts.isPropertySignature).map((member) => member.name.getText(source)),
  );
  assert.ok(members.length > 0);
  const wanted = [...members, ...Object.keys(mockOptions.DEFAULTS), ...Object.keys(mockOptions)];
  assert.deepEqual(missingFrom(page, wanted), [], `${PAGE} names each in a code span (the options table, or the fixed choices below it)`);
});

test("every stable code of SERVICE_ERROR_CODES is in the table of the service's errors", () => {
  const table = section("The service's errors");
  assert.deepEqual(missingFrom(table, SERVICE_ERROR_CODES), [], `${PAGE}: each code with the service's text it stands for`);
});

test('every checkout error code is a row of its table, with the status CHECKOUT_ERROR_STATUS gives it', () => {
  const table = section("The checkout protocol's errors");
  const missing = Object.entries(CHECKOUT_ERROR_STATUS)
    .filter(([code, status]) => !new RegExp(`^\\|\\s*\`${code}\`\\s*\\|\\s*${status}\\s*\\|`, 'm').test(table))
    .map(([code, status]) => `${code} ${status}`);
  assert.deepEqual(missing, [], `${PAGE}: a row "| \`code\` | status | when |" for each`);
});

test('the statuses, payment options and dispute reasons the schemas know are all named', () => {
  const known = [...KNOWN_INVOICE_STATUSES, ...KNOWN_DEAL_STATUSES, ...KNOWN_PAYMENT_OPTIONS, ...KNOWN_DISPUTE_REASONS];
  assert.deepEqual(missingFrom(page, known), []);
});

test('the repository paths the page names exist', () => {
  const paths = codeSpans(page)
    .map((span) => span.split(/[\s,]/, 1)[0]!)
    .filter((span) => /^(?:src|test|docs|openapi|scripts)\//.test(span) && !span.includes('*'));
  assert.ok(paths.length > 0);
  const missing = [...new Set(paths)].filter((path) => !existsSync(join(root, path)));
  assert.deepEqual(missing, [], `${PAGE} names files that are not in the repository`);
});

test("the page names the vendor's documentation site as its reference, and links to nothing else outside the repository", () => {
  assert.match(page, /docs\.stormtrade\.club/);
  const foreign = [...page.matchAll(/https?:\/\/[^\s)`'"<>]+/g)]
    .map((match) => match[0])
    .filter((url) => new URL(url).hostname !== 'docs.stormtrade.club');
  assert.deepEqual(foreign, []);
  for (const [, target] of page.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
    if (/^https?:/.test(target!)) continue;
    assert.ok(existsSync(join(root, 'docs', target!)), `${PAGE} links to ${target}`);
  }
});
