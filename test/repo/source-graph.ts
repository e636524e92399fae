/**
 * The hand-written sources of src/ and their relative imports (type-only imports, re-exports and
 * `import()` included), for the tests of the layout (layout.test.ts) and of the floors
 * (floors.test.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const SOURCE = /\.(?:[cm]?ts|tsx|[cm]?js)$/;

/** Every hand-written source file under src/, relative to the repository, sorted. */
export const sourceFiles: string[] = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && SOURCE.test(entry.name) && !entry.name.includes('.generated.'))
  .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
  .sort();

const parsed = new Map<string, ts.SourceFile>();
export const sourceOf = (file: string): ts.SourceFile => {
  let source = parsed.get(file);
  if (!source) {
    source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
    parsed.set(file, source);
  }
  return source;
};

export const visit = (node: ts.Node, each: (node: ts.Node) => void): void => {
  each(node);
  ts.forEachChild(node, (child) => visit(child, each));
};

/** The relative module specifiers of a file: imports, re-exports, `import()`, `import('…')` types. */
export const specifiersOf = (source: ts.SourceFile): string[] => {
  const found: string[] = [];
  visit(source, (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push(node.moduleReference.expression.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
  });
  return found.filter((specifier) => specifier.startsWith('.'));
};

/** The file a relative specifier names (`./x.js` is `./x.ts` in the sources), if it is one of src/. */
export const resolveSpecifier = (from: string, specifier: string): string | undefined => {
  const base = resolve(root, dirname(from), specifier);
  const stem = base.replace(/\.(?:[cm]?js|jsx)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.d.ts`, `${stem}.mts`, join(base, 'index.ts')];
  const hit = candidates.find((candidate) => SOURCE.test(candidate) && existsSync(candidate));
  return hit && relative(root, hit).split('\\').join('/');
};

/** Every source file of src/ and the source files of src/ it imports. */
export const importGraph = (): Map<string, Set<string>> => {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles) {
    const targets = new Set<string>();
    for (const specifier of specifiersOf(sourceOf(file))) {
      const target = resolveSpecifier(file, specifier);
      if (target && sourceFiles.includes(target)) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
};
