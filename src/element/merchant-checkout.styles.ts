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
const dark = unsafeCSS(
  `:host([theme='dark']) {${DARK}} @media (prefers-color-scheme: dark) { :host(:not([theme='light'])) {${DARK}} }`,
);

/**
 * The card. (Comments live here, not in the CSS: the CSS text ships as it is written.)
 *
 * - Stacks (`.base`, `header`, `dl`, …) are grids: each block below the previous, at its own
 *   `--_gap`.
 * - Whatever the service sends (a 40-letter status, a 100 KB name) wraps inside the card:
 *   `overflow-wrap: anywhere` is inherited by everything; a card or phone number breaks only
 *   between its groups (`.group`, each `nowrap`).
 * - Requisites are drawn strictly left to right in typed order (`bidi-override`), whatever
 *   letters of a right-to-left script are among them.
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
  header,
  dl,
  .field,
  .qr,
  .variants,
  .variant-group,
  .skeleton,
  .change,
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

  header,
  .field {
    --_gap: 2px;
  }

  dl,
  .skeleton,
  [part~='error'] {
    --_gap: calc(var(--_spacing) * 0.75);
  }

  .change,
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

  .icon {
    flex: none;
    width: 2rem;
    height: 2rem;
    fill: none;
    stroke: currentColor;
    stroke-width: 2;
    stroke-linecap: round;
    stroke-linejoin: round;
    color: var(--_muted);
  }

  .icon.paid,
  .success {
    color: var(--_success);
  }

  .icon.canceled,
  .icon.error {
    color: var(--_danger);
  }

  .success {
    font-weight: 600;
  }

  input {
    max-width: 100%;
    min-width: 0;
  }

  .bank-name {
    display: flex;
    align-items: center;
    gap: var(--_half);
  }

  .report {
    display: grid;
    gap: var(--_half);
    padding: calc(var(--_spacing) * 0.75);
    border: 1px solid var(--_border);
    border-radius: var(--_inner-radius);
  }

  h3 {
    font-size: 1rem;
  }

  .label,
  .payee,
  dt,
  figcaption,
  .notice {
    color: var(--_muted);
    font-size: 0.875rem;
  }

  .status-value {
    font-weight: 600;
  }

  [data-screen='paid'] .status-value {
    color: var(--_success);
  }

  dd,
  .actions,
  [part~='timer'],
  ul {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--_half);
  }

  .value,
  .time {
    min-width: 0;
    font-variant-numeric: tabular-nums;
  }

  .requisites {
    direction: ltr;
    unicode-bidi: bidi-override;
  }

  .group {
    white-space: nowrap;
  }

  .amount {
    font-size: 1.75rem;
    font-weight: 700;
  }

  .requisites,
  .time {
    font-size: 1.25rem;
    font-weight: 600;
  }

  .note {
    flex-basis: 100%;
  }

  .guidance,
  .change {
    padding: calc(var(--_spacing) * 0.75);
    background: var(--_surface);
    border-radius: var(--_inner-radius);
  }

  .change {
    border: 2px solid var(--_danger);
    font-weight: 600;
  }

  .qr {
    justify-items: center;
  }

  /* The amount and the time left share a row: a phone's first screen holds the deal and "I have paid". */
  .amount-row {
    display: flex;
    flex-wrap: wrap;
    align-items: end;
    justify-content: space-between;
    gap: var(--_half) var(--_spacing);
  }

  /* A phone: tighter rhythm, so the deal, the amount and "I have paid" fit its first screen (360×640). */
  @media (max-width: 480px) {
    .base {
      --_gap: calc(var(--_spacing) * 0.75);
      padding: var(--_spacing);
    }
  }

  .fold > summary {
    width: fit-content;
    list-style: none;
  }

  .fold > summary::-webkit-details-marker {
    display: none;
  }

  .fold[open] > summary {
    margin-block-end: var(--_spacing);
  }

  .qr svg,
  .qr img {
    width: min(12rem, 100%);
    height: auto;
    border-radius: var(--_inner-radius);
  }

  ul {
    padding: 0;
    list-style: none;
  }

  li[part~='variant'] {
    padding: 4px 10px;
    border: 1px solid var(--_border);
    border-radius: 999px;
    font-size: 0.875rem;
  }

  li[aria-current='true'] {
    border-color: var(--_accent);
    font-weight: 600;
  }

  .badge {
    margin-inline-start: 6px;
    color: var(--_muted);
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

  [aria-disabled='true'] {
    cursor: progress;
    opacity: 0.7;
  }

  .small {
    min-height: 36px;
    padding: 0 var(--_half);
    font-size: 0.875rem;
  }

  .primary {
    border-color: var(--_accent);
    background: var(--_accent);
    color: var(--_accent-text);
  }

  .danger {
    border-color: var(--_danger);
    background: var(--_background);
    color: var(--_danger);
  }

  .alert,
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
