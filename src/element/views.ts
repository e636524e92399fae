/**
 * Pieces of the element's view: plain functions from values to templates. Everything from the
 * service goes into text bindings or attribute values, never into markup.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { PaymentVariant } from '../schemas/invoice.js';
import { QUIET_ZONE, type QrMatrix, qrPath } from './qr.js';

export interface CopyButtonView {
  /** Accessible name (starts with the visible text). */
  label: string;
  text: string;
  onCopy: () => void;
}

export interface FieldView {
  /** The `part` of the whole row. */
  part: string;
  label: string;
  value: string;
  /** `id` of the value node: what the copy fallback selects. */
  valueId: string;
  valueClass?: string;
  copy?: CopyButtonView | undefined;
  /** A note under the value (e.g. "copy it by hand"). */
  note?: string | undefined;
}

/** One row of the details list: label, value, optional copy button and note. */
export const field = (view: FieldView): TemplateResult => html`
  <div part=${view.part} class="field">
    <dt>${view.label}</dt>
    <dd>
      <span id=${view.valueId} class="value ${view.valueClass ?? ''}">${view.value}</span>
      ${view.copy
        ? html`<button
            part="copy-button"
            class="small"
            type="button"
            aria-label=${view.copy.label}
            @click=${view.copy.onCopy}
          >
            ${view.copy.text}
          </button>`
        : nothing}
      ${view.note ? html`<span part="notice" class="notice note" role="status">${view.note}</span>` : nothing}
    </dd>
  </div>
`;

export interface QrView {
  matrix: QrMatrix;
  label: string;
  hint: string;
}

/** The QR code as SVG nodes: a light square and one path of the dark modules. */
export const qrCode = ({ matrix, label, hint }: QrView): TemplateResult => {
  const extent = matrix.size + 2 * QUIET_ZONE;
  return html`
    <figure part="qr" class="qr">
      <svg role="img" aria-label=${label} viewBox="0 0 ${extent} ${extent}" shape-rendering="crispEdges">
        <rect width=${extent} height=${extent} fill="#ffffff"></rect>
        <path d=${qrPath(matrix)} fill="#000000"></path>
      </svg>
      <figcaption>${hint}</figcaption>
    </figure>
  `;
};

export interface TimerView {
  label: string;
  time: string;
}

/** The countdown. `role="timer"` is not live: the element announces the time at steps instead. */
export const timer = ({ label, time }: TimerView): TemplateResult => html`
  <p part="timer" role="timer" aria-live="off">
    <span class="label">${label}</span>
    <span class="time">${time}</span>
  </p>
`;

export interface VariantGroup {
  method: string;
  bankName: string;
  variants: PaymentVariant[];
}

/** Variants grouped by bank (`method`), in the order the service listed them. */
export const groupVariants = (variants: readonly PaymentVariant[], bankName: (method: string) => string): VariantGroup[] => {
  const groups = new Map<string, VariantGroup>();
  for (const variant of variants) {
    let group = groups.get(variant.method);
    if (!group) {
      group = { method: variant.method, bankName: bankName(variant.method), variants: [] };
      groups.set(variant.method, group);
    }
    group.variants.push(variant);
  }
  return [...groups.values()];
};

export interface VariantsView {
  title: string;
  groups: VariantGroup[];
  optionLabel: (option: string) => string;
  /**
   * With `onSelect`, each variant is a button (the picker); without, a list item, the active
   * one marked with `aria-current` and `currentLabel`.
   */
  onSelect?: ((variant: PaymentVariant) => void) | undefined;
  isActive?: (variant: PaymentVariant) => boolean;
  currentLabel?: string;
  /** While a deal is being started: every button is inert, the chosen one says so. */
  pending?: PaymentVariant | undefined;
  pendingLabel?: string;
}

export const variantList = (view: VariantsView): TemplateResult => html`
  <section part="variants" class="variants" aria-labelledby="variants-title" aria-busy=${view.pending ? 'true' : 'false'}>
    <h3 id="variants-title">${view.title}</h3>
    ${view.groups.map(
      (group, index) => html`
        <div class="variant-group" role="group" aria-labelledby="bank-${index}">
          <span id="bank-${index}" class="label">${group.bankName}</span>
          <ul>
            ${group.variants.map((variant) => variantItem(view, variant))}
          </ul>
        </div>
      `,
    )}
  </section>
`;

const variantItem = (view: VariantsView, variant: PaymentVariant): TemplateResult => {
  const label = view.optionLabel(variant.option);
  const { onSelect } = view;
  if (!onSelect) {
    const current = view.isActive?.(variant) ?? false;
    return html`<li part="variant" aria-current=${current ? 'true' : 'false'}>
      ${label}${current ? html`<span class="badge">(${view.currentLabel})</span>` : nothing}
    </li>`;
  }
  const chosen = view.pending === variant;
  return html`<li>
    <button
      part="variant"
      type="button"
      aria-disabled=${view.pending ? 'true' : 'false'}
      @click=${() => onSelect(variant)}
    >
      ${chosen ? view.pendingLabel : label}
    </button>
  </li>`;
};

/** The loading screen's stand-in shapes. */
export const skeleton = (label: string): TemplateResult => html`
  <div part="skeleton" class="skeleton">
    <h2 part="title" class="sr-only" tabindex="-1">${label}</h2>
    <div class="bar short"></div>
    <div class="bar wide"></div>
    <div class="bar"></div>
    <div class="bar"></div>
  </div>
`;
