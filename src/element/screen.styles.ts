import { css } from 'lit';

/**
 * The invoice screens' styles: they come with the screens' templates (views.ts), so the
 * first-render file carries only what the loading skeleton and the boot error draw
 * (merchant-checkout.styles.ts), and the element adopts these after those. (Comments live
 * here, not in the CSS: the CSS text ships as it is written.)
 *
 * - Stacks (`header`, `dl`, `.field`, …) are grids: each block below the previous, at its own
 *   `--_gap`.
 * - A card or phone number breaks only between its groups (`.group`, each `nowrap`).
 * - Requisites are drawn strictly left to right in typed order (`bidi-override`), whatever
 *   letters of a right-to-left script are among them.
 */
export const screenStyles = css`
  header,
  dl,
  .field,
  .qr,
  .variants,
  .variant-group,
  .change {
    display: grid;
    gap: var(--_gap, var(--_half));
  }

  header,
  .field {
    --_gap: 2px;
  }

  dl {
    --_gap: calc(var(--_spacing) * 0.75);
  }

  .change {
    justify-items: start;
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

  [aria-disabled='true'] {
    cursor: progress;
    opacity: 0.7;
  }

  .small {
    min-height: 36px;
    padding: 0 var(--_half);
    font-size: 0.875rem;
  }

  .danger {
    border-color: var(--_danger);
    background: var(--_background);
    color: var(--_danger);
  }

  .alert {
    color: var(--_danger);
  }
`;
