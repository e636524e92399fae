/**
 * The CSS of Lit's css`…` literals in the element's sources, minified when the CDN files are
 * built (scripts/build.js, and bench/bundle.ts, which builds them again): the JS minifier
 * leaves a template's text as it is, comments and indentation included. Comments go, runs of
 * whitespace become one space, the spaces around `{`, `}`, `;` and after `:` go, and so does a
 * rule's last `;`. Every other space stays (a descendant combinator, `calc(a + b)`, after a
 * comma, which custom properties keep in their value), and an `${…}` in a literal is kept
 * whole. test/e2e/css-literals.test.ts holds the result to the same rules in Chromium.
 */

/** The minified text of a piece of CSS. */
export const minifyCss = (text) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};])\s*/g, '$1')
    .replace(/:\s+/g, ':')
    .replace(/;}/g, '}');

/** A Vite plugin: every css`…` literal of a module under src/element/, its text parts minified. */
export const cssLiterals = {
  name: 'css-literals',
  enforce: 'pre',
  transform(code, id) {
    if (!/\/src\/element\/.+\.ts$/.test(id.replace(/\\/g, '/')) || !code.includes('css`')) return undefined;
    const minified = code.replace(
      /\bcss`([^`]*)`/g,
      (_, body) =>
        `css\`${body
          .split(/(\$\{[^}]*\})/)
          .map((part, index) => (index % 2 ? part : minifyCss(part)))
          .join('')}\``,
    );
    return { code: minified, map: null };
  },
};
