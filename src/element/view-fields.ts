/**
 * The small pieces every screen is made of: a row of the details with its copy button, the QR
 * code, the countdown, the list of payment variants. Plain functions from values to
 * templates; part of the lazy `views` chunk (imported by views.ts and view-deal.ts only).
 */
import { html, nothing, svg, type TemplateResult } from 'lit';
import type { PaymentVariant } from '../schemas/invoice.js';
import { plainText } from './format.js';
import { QUIET_ZONE, type QrMatrix } from './qr.js';
import type { CopyModel, VariantGroup } from './screen-model.js';
import type { ScreenContext } from './view-context.js';

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
  /** Text, or the groups of a card or phone number (each kept on one line). */
  value: string | readonly unknown[];
  /** `id` of the value node: what the copy fallback selects. */
  valueId: string;
  valueClass?: string;
  copy?: CopyButtonView | undefined;
  /** A note under the value (e.g. "copy it by hand"). */
  note?: string | undefined;
  /** A picture before the value (the bank's lettermark), outside the value's text. */
  mark?: unknown;
}

/** One row of the details list: label, value, optional copy button and note. */
export const field = (view: FieldView): TemplateResult => html`
  <div part=${view.part} class="field">
    <dt>${view.label}</dt>
    <dd>
      ${view.mark ?? nothing}<span id=${view.valueId} class="value ${view.valueClass ?? ''}">${view.value}</span>
      ${
        view.copy
          ? html`<button part="copy-button" class="small" type="button" aria-label=${view.copy.label} @click=${view.copy.onCopy}>
              ${view.copy.text}
            </button>`
          : nothing
      }
      ${view.note ? html`<span part="notice" class="notice note" role="status">${view.note}</span>` : nothing}
    </dd>
  </div>
`;

export interface QrView {
  /** The symbol's modules and its SVG path; undefined while the encoder loads (a blank square holds the place). */
  drawn: { matrix: QrMatrix; path: string } | undefined;
  /** The service's own picture of the QR code (image-QR options), instead of drawing it. */
  image?: string | undefined;
  label: string;
  hint: string;
}

/** The QR code as SVG nodes: a light square and one path of the dark modules (or the service's picture). */
export const qrCode = ({ drawn, image, label, hint }: QrView): TemplateResult => {
  const extent = drawn ? drawn.matrix.size + 2 * QUIET_ZONE : 1;
  return html`
    <figure part="qr" class="qr">
      ${
        image
          ? html`<img src=${image} alt=${label} width="200" height="200" referrerpolicy="no-referrer" />`
          : html`<svg
              role="img"
              aria-label=${label}
              aria-busy=${drawn ? 'false' : 'true'}
              viewBox="0 0 ${extent} ${extent}"
              shape-rendering="crispEdges"
            >
              <rect width=${extent} height=${extent} fill="#ffffff"></rect>
              ${drawn ? svg`<path d=${drawn.path} fill="#000000"></path>` : nothing}
            </svg>`
      }
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

export interface VariantsView {
  title: string;
  groups: readonly VariantGroup[];
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
  /** A bank's lettermark (or logo) before its name, once the module that draws them has loaded. */
  mark?: ((code: string, name: string) => TemplateResult | typeof nothing) | undefined;
}

export const variantList = (view: VariantsView): TemplateResult => html`
  <section part="variants" class="variants" aria-labelledby="variants-title" aria-busy=${view.pending ? 'true' : 'false'}>
    <h3 id="variants-title">${view.title}</h3>
    ${view.groups.map(
      (group, index) => html`
        <div class="variant-group" role="group" aria-labelledby="bank-${index}">
          <div class="bank-name">
            ${view.mark?.(group.method, group.bankName) ?? nothing}<span id="bank-${index}" class="label">${group.bankName}</span>
          </div>
          <ul>
            ${group.variants.map((variant) => variantItem(view, variant))}
          </ul>
        </div>
      `,
    )}
  </section>
`;

const variantItem = (view: VariantsView, variant: PaymentVariant): TemplateResult => {
  const label = view.optionLabel(plainText(variant.option));
  const { onSelect } = view;
  if (!onSelect) {
    const current = view.isActive?.(variant) ?? false;
    return html`<li part="variant" aria-current=${current ? 'true' : 'false'}>
      ${label}${current ? html`<span class="badge">(${view.currentLabel})</span>` : nothing}
    </li>`;
  }
  const chosen = view.pending === variant;
  return html`<li>
    <button part="variant" type="button" aria-disabled=${view.pending ? 'true' : 'false'} @click=${() => onSelect(variant)}>
      ${chosen ? view.pendingLabel : label}
    </button>
  </li>`;
};

/** A copy button's words and action for a value of the model. */
export const copyButton = (copy: CopyModel, { t, actions }: ScreenContext): CopyButtonView => ({
  label: copy.copied ? t.copied : t.copyLabel(copy.field, copy.kind),
  text: copy.copied ? t.copied : t.copy,
  onCopy: () => actions.copy(copy),
});
