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
    display: block;
    max-width: 28rem;
    color: var(--_text);
    font-family: var(--_font);
    font-size: 1rem;
    line-height: 1.45;
  }

  :host([hidden]) {
    display: none;
  }

  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }

  .base {
    display: grid;
    gap: var(--_spacing);
    padding: calc(var(--_spacing) * 1.25);
    background: var(--_background);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }

  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }

  header {
    display: grid;
    gap: calc(var(--_spacing) / 4);
  }

  h2,
  h3,
  p,
  dl,
  dd,
  figure,
  ul {
    margin: 0;
  }

  h2 {
    font-size: 1.375rem;
    line-height: 1.25;
  }

  h2:focus {
    outline: none;
  }

  h2:focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }

  h3 {
    font-size: 1rem;
  }

  .payee,
  .label,
  dt,
  .hint {
    color: var(--_muted);
    font-size: 0.875rem;
  }

  [part~='status'] {
    font-size: 0.9375rem;
  }

  .status-value {
    font-weight: 600;
  }

  [data-screen='paid'] .status-value {
    color: var(--_success);
  }

  dl {
    display: grid;
    gap: calc(var(--_spacing) * 0.75);
  }

  .field {
    display: grid;
    gap: 2px;
  }

  dd {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--_spacing) / 2);
  }

  .value {
    overflow-wrap: anywhere;
    font-variant-numeric: tabular-nums;
  }

  .amount {
    font-size: 1.75rem;
    font-weight: 700;
    line-height: 1.2;
  }

  .requisites {
    font-size: 1.25rem;
    font-weight: 600;
    letter-spacing: 0.02em;
  }

  .guidance {
    padding: calc(var(--_spacing) * 0.75);
    background: var(--_surface);
    border-radius: calc(var(--_radius) / 1.5);
    font-size: 0.9375rem;
  }

  .qr {
    display: grid;
    justify-items: center;
    gap: calc(var(--_spacing) / 2);
  }

  .qr svg {
    width: min(12rem, 100%);
    height: auto;
    border-radius: calc(var(--_radius) / 1.5);
  }

  [part~='timer'] {
    display: flex;
    align-items: baseline;
    gap: calc(var(--_spacing) / 2);
  }

  .time {
    font-size: 1.25rem;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
  }

  .variants {
    display: grid;
    gap: calc(var(--_spacing) / 2);
  }

  .variant-group {
    display: grid;
    gap: calc(var(--_spacing) / 4);
  }

  .variant-group ul {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--_spacing) / 2);
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
    font-weight: 400;
  }

  button,
  .link-button {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    min-height: 44px;
    padding: 0 calc(var(--_spacing) * 0.875);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) / 1.5);
    background: var(--_surface);
    color: var(--_text);
    font: inherit;
    font-weight: 600;
    text-decoration: none;
    cursor: pointer;
    transition:
      background-color 120ms ease,
      border-color 120ms ease;
  }

  button:hover,
  .link-button:hover {
    border-color: var(--_accent);
  }

  button:focus-visible,
  .link-button:focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }

  button[aria-disabled='true'] {
    cursor: progress;
    opacity: 0.7;
  }

  .small {
    min-height: 36px;
    padding: 0 calc(var(--_spacing) * 0.625);
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

  .actions {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--_spacing) / 2);
  }

  .notice {
    color: var(--_muted);
    font-size: 0.875rem;
  }

  .note {
    flex-basis: 100%;
  }

  .notice.alert,
  [part~='error'] p {
    color: var(--_danger);
  }

  [part~='error'] {
    display: grid;
    gap: calc(var(--_spacing) * 0.75);
    justify-items: start;
  }

  .skeleton {
    display: grid;
    gap: calc(var(--_spacing) * 0.75);
  }

  .bar {
    height: 1.25rem;
    border-radius: 6px;
    background: linear-gradient(90deg, var(--_surface) 0%, var(--_border) 50%, var(--_surface) 100%);
    background-size: 200% 100%;
    animation: shimmer 1.4s ease-in-out infinite;
  }

  .bar.wide {
    height: 2rem;
    width: 70%;
  }

  .bar.short {
    width: 40%;
  }

  @keyframes shimmer {
    from {
      background-position: 100% 0;
    }
    to {
      background-position: -100% 0;
    }
  }

  @media (prefers-reduced-motion: reduce) {
    .bar,
    button,
    .link-button {
      animation: none;
      transition: none;
    }
  }
`;

export const styles = [base, dark];
