/**
 * `@custom-elements-manifest/analyzer` settings. `npm run build` writes `custom-elements.json`
 * (package.json `customElements`, shipped in the package, not committed) from the element's
 * JSDoc contract (`@summary`, `@event`, `@csspart`, `@cssproperty`) and its Lit decorators
 * (attributes and properties). scripts/gen-element-api.ts reads the same analysis to generate
 * the React event props, the typings' event map and README tables, and
 * test/repo/public-surface.test.ts holds the rest to it (docs/ARCHITECTURE.md, "The element").
 */

/** The modules of the public element API; the rest of `src/element` is internal. */
const MODULES = ['index', 'define', 'register', 'merchant-checkout', 'events'];

/** Where a source module lands in the package (`scripts/build.js`: entries at the top of dist/esm). */
const ENTRIES = {
  'src/element/index': 'dist/esm/index.js',
  'src/element/define': 'dist/esm/define.js',
  // Re-exported whole by index.ts (and cdn.ts); the bundler folds it into the entry.
  'src/element/api': 'dist/esm/index.js',
};
const shipped = (sourcePath) => {
  const bare = sourcePath.replace(/^\.?\//, '').replace(/\.(ts|js)$/, '');
  return ENTRIES[bare] ?? bare.replace(/^src\//, 'dist/esm/') + '.js';
};

/** A module specifier as the analyzer wrote it (`./x.js`, `/src/…`, `src/…`) → a package path. */
const resolveModule = (fromPath, specifier) => {
  if (!specifier.startsWith('.')) return shipped(specifier);
  const base = fromPath.split('/').slice(0, -1);
  for (const part of specifier.split('/')) {
    if (part === '..') base.pop();
    else if (part !== '.') base.push(part);
  }
  return shipped(base.join('/'));
};

const LIT_TYPES = { Number: 'number', Boolean: 'boolean', String: 'string' };

/**
 * Fills in the type of a Lit property that has none in the source (`pollInterval =
 * DEFAULT_POLL_INTERVAL`) from its decorator's `type: Number`, as Lit converts the attribute.
 */
const litPropertyTypes = () => ({
  name: 'merchant-checkout:lit-property-types',
  analyzePhase({ ts, node, moduleDoc }) {
    if (!ts.isClassDeclaration(node) || !node.name) return;
    const declaration = moduleDoc.declarations?.find((candidate) => candidate.name === node.name.getText());
    for (const member of node.members) {
      if (!ts.isPropertyDeclaration(member) || member.type) continue;
      const options = ts
        .getDecorators?.(member)
        ?.map((decorator) => decorator.expression)
        .find((call) => ts.isCallExpression(call) && call.expression.getText() === 'property')?.arguments[0];
      if (!options || !ts.isObjectLiteralExpression(options)) continue;
      const typeOption = options.properties.find((property) => property.name?.getText() === 'type');
      const text = typeOption && ts.isPropertyAssignment(typeOption) ? LIT_TYPES[typeOption.initializer.getText()] : undefined;
      if (!text) continue;
      const name = member.name.getText();
      const field = declaration?.members?.find((candidate) => candidate.name === name);
      if (field && !field.type) field.type = { text };
      for (const attribute of declaration?.attributes ?? []) {
        if (attribute.fieldName === name && !attribute.type) attribute.type = { text };
      }
    }
  },
});

/**
 * What a user of the package needs, and nothing the analyzer guessed wrong: private members
 * out; the anonymous subclass and the `tagName` parameter that `register.ts` passes to
 * `customElements.define` out; the registration stated where it happens (`define`); the
 * unnamed event that `dispatchEvent(new CheckoutCopyEvent(…))` adds out (the `@event` tags
 * name them all); and paths of the shipped files instead of the sources.
 */
const packageView = () => ({
  name: 'merchant-checkout:package-view',
  packageLinkPhase({ customElementsManifest }) {
    for (const module of customElementsManifest.modules) {
      module.declarations = (module.declarations ?? []).filter((declaration) => !declaration.name.startsWith('anonymous_'));
      for (const declaration of module.declarations) {
        if (declaration.members) {
          declaration.members = declaration.members.filter((member) => member.privacy !== 'private' && !member.name.startsWith('#'));
        }
        if (declaration.events) declaration.events = declaration.events.filter((event) => event.name);
        if (declaration.superclass?.module) declaration.superclass.module = resolveModule(module.path, declaration.superclass.module);
      }
      module.exports = (module.exports ?? []).filter((entry) => entry.kind !== 'custom-element-definition');
      if (module.path === 'src/element/define.ts') {
        module.exports.push({
          kind: 'custom-element-definition',
          name: 'merchant-checkout',
          declaration: { name: 'MerchantCheckoutElement', module: shipped('src/element/merchant-checkout') },
        });
      }
      for (const entry of module.exports) {
        if (entry.declaration?.module) entry.declaration.module = resolveModule(module.path, entry.declaration.module);
      }
    }
    for (const module of customElementsManifest.modules) {
      for (const declaration of module.declarations) {
        for (const list of [
          declaration.members,
          declaration.attributes,
          declaration.events,
          declaration.cssParts,
          declaration.cssProperties,
        ]) {
          for (const item of list ?? []) {
            if (item.inheritedFrom?.module) item.inheritedFrom.module = shipped(item.inheritedFrom.module);
          }
        }
      }
      module.path = shipped(module.path);
    }
  },
});

export default {
  globs: MODULES.map((name) => `src/element/${name}.ts`),
  outdir: '.',
  litelement: true,
  // package.json already names the manifest; the analyzer must not rewrite a shared file.
  packagejson: false,
  plugins: [litPropertyTypes(), packageView()],
};
