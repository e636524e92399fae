import type { Plugin } from 'vite';

/** The minified text of a piece of CSS (scripts/css-literals.js). */
export declare const minifyCss: (text: string) => string;
/** A Vite plugin minifying the css`…` literals of the element's sources (scripts/css-literals.js). */
export declare const cssLiterals: Plugin;
