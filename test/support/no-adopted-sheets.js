// Runs before any module: the page becomes a browser without constructable, adoptable style
// sheets (Safari before 16.4), so Lit and the element fall back to `<style>` elements.
delete Document.prototype.adoptedStyleSheets;
delete ShadowRoot.prototype.adoptedStyleSheets;
