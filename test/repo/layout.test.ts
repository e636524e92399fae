/**
 * A layout that shows the architecture (issue 29): no hand-written source file under `src/`
 * over 500 lines, no function over 150, the element class at most 300, no class holding more
 * than 8 mutable fields (issue 39; an element's `@property` attributes aside), and no import cycle,
 * type-only imports and `import()` included. Generated files (`*.generated.ts`) are exempt.
 * Each test names every offender, so one run says all there is to split.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { importGraph, root, sourceFiles, sourceOf, visit } from './source-graph.js';

const MAX_FILE_LINES = 500;
const MAX_FUNCTION_LINES = 150;
const MAX_ELEMENT_CLASS_LINES = 300;
const MAX_MUTABLE_FIELDS = 8;
const ELEMENT_FILE = 'src/element/merchant-checkout.ts';
const ELEMENT_CLASS = 'MerchantCheckoutElement';

/** Lines of text, as `wc -l` counts them for a file that ends with a newline. */
const lineCount = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** Lines a node spans, from its first token (not its JSDoc) to its last. */
const spanOf = (source: ts.SourceFile, node: ts.Node): { line: number; lines: number } => {
  const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
  const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
  return { line: first + 1, lines: last - first + 1 };
};

const nameOf = (node: ts.Node): string => {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name && (ts.isIdentifier(named.name) || ts.isPrivateIdentifier(named.name) || ts.isStringLiteral(named.name)))
    return named.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyDeclaration(parent) && (ts.isIdentifier(parent.name) || ts.isPrivateIdentifier(parent.name)))
    return parent.name.text;
  return '(anonymous)';
};

test(`no hand-written source file under src/ is over ${MAX_FILE_LINES} lines`, () => {
  assert.ok(sourceFiles.length > 50, 'the source files were found');
  const offenders = sourceFiles
    .map((file) => ({ file, lines: lineCount(readFileSync(join(root, file), 'utf8')) }))
    .filter(({ lines }) => lines > MAX_FILE_LINES)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
  assert.ok(offenders.length === 0, `split these by concern (at most ${MAX_FILE_LINES} lines each):\n${offenders.join('\n')}`);
});

test(`no function under src/ is over ${MAX_FUNCTION_LINES} lines`, () => {
  const offenders: string[] = [];
  for (const file of sourceFiles) {
    const source = sourceOf(file);
    visit(source, (node) => {
      if (!ts.isFunctionLike(node) || !('body' in node) || !node.body) return;
      const { line, lines } = spanOf(source, node);
      if (lines > MAX_FUNCTION_LINES) offenders.push(`${file}:${line} ${nameOf(node)}: ${lines} lines`);
    });
  }
  assert.ok(offenders.length === 0, `shorten these (at most ${MAX_FUNCTION_LINES} lines each):\n${offenders.join('\n')}`);
});

test(`the element class is at most ${MAX_ELEMENT_CLASS_LINES} lines`, () => {
  const source = sourceOf(ELEMENT_FILE);
  const element = source.statements.find(
    (node): node is ts.ClassDeclaration => ts.isClassDeclaration(node) && node.name?.text === ELEMENT_CLASS,
  );
  assert.ok(element, `${ELEMENT_FILE} declares ${ELEMENT_CLASS}`);
  const { lines } = spanOf(source, element);
  assert.ok(
    lines <= MAX_ELEMENT_CLASS_LINES,
    `${ELEMENT_CLASS} is ${lines} lines (its JSDoc not counted): move more into controllers or the session`,
  );
});

/** Strongly connected components of more than one file (or a file importing itself): Tarjan's. */
const cyclesOf = (graph: Map<string, Set<string>>): string[][] => {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const connect = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.has(file)) components.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return components;
};

/** One cycle through `component`, as a path of imports that comes back to its start. */
const cyclePath = (graph: Map<string, Set<string>>, component: string[]): string => {
  const members = new Set(component);
  const start = component[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const file = queue.shift()!;
    for (const target of graph.get(file) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [file];
        for (let at = file; at !== start;) path.unshift((at = previous.get(at)!));
        return [...path, start].join(' → ');
      }
      if (!previous.has(target)) {
        previous.set(target, file);
        queue.push(target);
      }
    }
  }
  return component.join(', ');
};

/**
 * The fields of a class that can be assigned again: instance and static properties without
 * `readonly` (`#private` ones included) and constructor parameter properties without it. An
 * element's public attributes (`@property(…)`) are its API, not its state, and do not count.
 */
const mutableFields = (source: ts.SourceFile, node: ts.ClassLikeDeclaration): string[] => {
  const readonly = (member: ts.Node) =>
    (ts.getModifiers(member as ts.HasModifiers) ?? []).some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword);
  const attribute = (member: ts.Node) =>
    (ts.getDecorators(member as ts.HasDecorators) ?? []).some((decorator) => /^property\b/.test(decorator.expression.getText(source)));
  const fields: string[] = [];
  for (const member of node.members) {
    if (ts.isPropertyDeclaration(member) && !readonly(member) && !attribute(member)) fields.push(member.name.getText(source));
    if (ts.isConstructorDeclaration(member)) {
      for (const parameter of member.parameters) {
        if (ts.isParameterPropertyDeclaration(parameter, member) && !readonly(parameter)) fields.push(parameter.name.getText(source));
      }
    }
  }
  return fields;
};

test('the mutable fields are counted as described: readonly and @property aside, #private and parameter properties in', () => {
  const sample = ts.createSourceFile(
    'sample.ts',
    `class Sample {
      @property() attribute = '';
      @state() private shown = false;
      readonly #fixed = 1;
      #count = 0;
      static cache: unknown;
      constructor(private name: string, readonly id: string, plain: number) {}
    }`,
    ts.ScriptTarget.Latest,
    true,
  );
  const sampleClass = sample.statements.find(ts.isClassDeclaration)!;
  assert.deepEqual(mutableFields(sample, sampleClass), ['shown', '#count', 'cache', 'name']);
});

test(`no class under src/ holds more than ${MAX_MUTABLE_FIELDS} mutable fields`, () => {
  const offenders: string[] = [];
  let classes = 0;
  for (const file of sourceFiles) {
    const source = sourceOf(file);
    visit(source, (node) => {
      if (!ts.isClassLike(node)) return;
      classes++;
      const fields = mutableFields(source, node);
      if (fields.length > MAX_MUTABLE_FIELDS) offenders.push(`${file} ${nameOf(node)}: ${fields.length} (${fields.join(', ')})`);
    });
  }
  assert.ok(classes > 20, 'the classes were found');
  assert.ok(offenders.length === 0, `split these by concern (at most ${MAX_MUTABLE_FIELDS} mutable fields each):\n${offenders.join('\n')}`);
});

test('src/ has no import cycle, type-only imports and import() included', () => {
  const graph = importGraph();
  const cycles = cyclesOf(graph).map((component) => `${component.join(', ')}\n    e.g. ${cyclePath(graph, component)}`);
  assert.ok(cycles.length === 0, `move what both sides share into a module both import:\n${cycles.join('\n')}`);
});
