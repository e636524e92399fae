import { css, unsafeCSS } from 'lit';

/**
 * The dark palette's defaults (a merchant's `--merchant-checkout-*` values win in both themes).
 * One constant for both places it applies, joined with `unsafeCSS`: it is this module's own
 * text, nothing from outside.
 */
const DARK = `
  --_accent: var(--merchant-checkout-accent, #8ab4ff);
  --_accent-text: var(--merchant-checkout-accent-text, #0b1220);
  --_text: var(--merchant-checkout-text, #e6e8eb);
  --_muted: var(--merchant-checkout-muted, #a8b0bb);
  --_background: var(--merchant-checkout-background, #15181d);
  --_surface: var(--merchant-checkout-surface, #1f242b);
  --_border: var(--merchant-checkout-border, #444d59);
  --_danger: var(--merchant-checkout-danger, #ff9b8f);
  --_success: var(--merchant-checkout-success, #7ee2a0);
`;

/** Dark by `theme="dark"`, or by the system's dark mode unless `theme="light"`. */
const dark = unsafeCSS(`:host([theme='dark']) {${DARK}} @media (prefers-color-scheme: dark) { :host(:not([theme='light'])) {${DARK}} }`);

/**
 * The card, the loading skeleton, the boot error and the buttons: what the element draws before
 * the screens' templates and their styles (screen.styles.ts) arrive. (Comments live here, not
 * in the CSS: the CSS text ships as it is written.)
 *
 * - `.base`, the skeleton and the error are grids: each block below the previous, at its own
 *   `--_gap`.
 * - Whatever the service sends (a 40-letter status, a 100 KB name) wraps inside the card:
 *   `overflow-wrap: anywhere` is inherited by everything.
 */
const base = css`
  :host {
    --_accent: var(--merchant-checkout-accent, #1d4ed8);
    --_accent-text: var(--merchant-checkout-accent-text, #ffffff);
    --_text: var(--merchant-checkout-text, #1f2328);
    --_muted: var(--merchant-checkout-muted, #57606a);
    --_background: var(--merchant-checkout-background, #ffffff);
    --_surface: var(--merchant-checkout-surface, #f3f5f7);
    --_border: var(--merchant-checkout-border, #d0d7de);
    --_danger: var(--merchant-checkout-danger, #b42318);
    --_success: var(--merchant-checkout-success, #116329);
    --_radius: var(--merchant-checkout-radius, 12px);
    --_font: var(--merchant-checkout-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    --_spacing: var(--merchant-checkout-spacing, 16px);
    --_half: calc(var(--_spacing) / 2);
    --_inner-radius: calc(var(--_radius) / 1.5);
    display: block;
    max-width: 28rem;
    color: var(--_text);
    font: 1rem/1.45 var(--_font);
    overflow-wrap: anywhere;
  }

  :host([hidden]) {
    display: none;
  }

  * {
    box-sizing: border-box;
    margin: 0;
  }

  .base,
  .skeleton,
  [part~='error'] {
    display: grid;
    gap: var(--_gap, var(--_half));
  }

  .base {
    --_gap: var(--_spacing);
    padding: calc(var(--_spacing) * 1.25);
    background: var(--_background);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }

  .skeleton,
  [part~='error'] {
    --_gap: calc(var(--_spacing) * 0.75);
  }

  [part~='error'] {
    justify-items: start;
  }

  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }

  h2 {
    display: flex;
    align-items: center;
    gap: var(--_half);
    font-size: 1.375rem;
    line-height: 1.25;
    outline: none;
  }

  /* A phone: tighter rhythm, so the deal, the amount and "I have paid" fit its first screen (360×640). */
  @media (max-width: 480px) {
    .base {
      --_gap: calc(var(--_spacing) * 0.75);
      padding: var(--_spacing);
    }
  }

  button,
  a,
  .file-button,
  .fold > summary {
    display: inline-flex;
    align-items: center;
    min-height: 44px;
    padding: 0 calc(var(--_spacing) * 0.875);
    border: 1px solid var(--_border);
    border-radius: var(--_inner-radius);
    background: var(--_surface);
    color: var(--_text);
    font: inherit;
    font-weight: 600;
    text-decoration: none;
    cursor: pointer;
    transition: border-color 0.12s;
  }

  button:hover,
  a:hover,
  .fold > summary:hover {
    border-color: var(--_accent);
  }

  :focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }

  .primary {
    border-color: var(--_accent);
    background: var(--_accent);
    color: var(--_accent-text);
  }

  [part~='error'] p {
    color: var(--_danger);
  }

  .bar {
    height: 1.25rem;
    border-radius: 6px;
    background: linear-gradient(90deg, var(--_surface), var(--_border), var(--_surface)) 0 0 / 200% 100%;
    animation: shimmer 1.4s ease-in-out infinite;
  }

  .wide {
    height: 2rem;
    width: 70%;
  }

  .short {
    width: 40%;
  }

  @keyframes shimmer {
    to {
      background-position: -200% 0;
    }
  }

  @media (prefers-reduced-motion: reduce) {
    * {
      animation: none !important;
      transition: none !important;
    }
  }
`;

export const styles = [base, dark];
