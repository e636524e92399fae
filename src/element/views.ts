/**
 * The element's view: plain functions from values (the screen model of screen.ts, strings,
 * actions) to templates. Everything from the service goes into text bindings or attribute
 * values, never into markup.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { PaymentVariant } from '../schemas/invoice.js';
import { formatDuration, formatMoney, formatRequisites, plainText } from './format.js';
import type { Translation } from './i18n/translation.js';
import { QUIET_ZONE, type QrMatrix, qrMatrix, qrPath } from './qr.js';
import {
  type CancelState,
  type Change,
  type CopyModel,
  type DealModel,
  type DealNotice,
  type InvoiceScreenModel,
  type PickerModel,
  statusText,
  type VariantGroup,
} from './screen.js';

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
  value: string | TemplateResult[];
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

/** What the payer can do on a screen; the element wires each to its session. */
export interface ScreenActions {
  copy: (copy: CopyModel) => void;
  select: (variant: PaymentVariant) => void;
  retryVariants: () => void;
  askCancel: () => void;
  confirmCancel: () => void;
  keepPaying: () => void;
  dismissChanges: () => void;
  retry: () => void;
}

export interface ScreenContext {
  t: Translation;
  /** The `Intl` locale for money. */
  locale: string;
  hideCancel: boolean;
  actions: ScreenActions;
}

/** The error screen: what failed, in words, and a retry. */
export const errorScreen = (code: string, { t, actions }: ScreenContext): TemplateResult => html`
  <div part="error" role="alert">
    <h2 part="title" tabindex="-1">${t.title('error')}</h2>
    <p>${t.errorMessage(code)}</p>
    <button part="retry-button" class="primary" type="button" @click=${actions.retry}>${t.retry}</button>
  </div>
`;

/** Every screen about a loaded invoice. */
export const invoiceScreen = (model: InvoiceScreenModel, context: ScreenContext): TemplateResult => {
  const { t, hideCancel } = context;
  const { variants } = model;
  const amount = formatMoney(model.sum, context.locale);
  const explanation = html`<p part="explanation">${t.explanation(model.screen, model.status.raw)}</p>`;
  return html`
    <header>
      ${model.payee ? html`<p part="payee" class="payee">${t.payee(model.payee)}</p>` : nothing}
      <h2 part="title" tabindex="-1">${t.title(model.screen)}</h2>
      <p part="status">
        <span class="label">${t.statusLabel}:</span>
        <span class="status-value">${statusText(model.status, t)}</span>
      </p>
    </header>
    ${model.changes.length ? changeNotice(model.changes, context) : nothing}
    ${model.deal
      ? dealDetails(model.deal, amount, context)
      : html`
          ${model.explanation === 'above' ? explanation : nothing}
          <dl part="details">
            ${field({ part: 'amount', label: t.amountLabel, value: amount, valueId: 'amount-value', valueClass: 'amount' })}
          </dl>
          ${model.explanation === 'below' ? explanation : nothing}
          ${model.picker ? picker(model.picker, context) : nothing}
        `}
    ${model.connectionLost ? html`<p part="notice" class="notice" role="status">${t.connectionTrouble}</p>` : nothing}
    ${model.remaining === undefined ? nothing : timer({ label: t.timeLeftLabel, time: formatDuration(model.remaining) })}
    ${variants
      ? variantList({
          title: t.variantsLabel,
          groups: variants.groups,
          optionLabel: t.option,
          isActive: ({ method, option }) => method === variants.current.method && option === variants.current.option,
          currentLabel: t.currentVariant,
        })
      : nothing}
    ${model.cancel && !hideCancel ? cancelBlock(model.cancel, context) : nothing}
  `;
};

let lastQr: { link: string; matrix: QrMatrix | undefined } | undefined;
/** The QR matrix of `link`, computed once while the link stays the same (the view renders every second). */
const qrFor = (link: string): QrMatrix | undefined => {
  if (lastQr?.link !== link) lastQr = { link, matrix: qrMatrix(link) };
  return lastQr.matrix;
};

const copyButton = (copy: CopyModel, { t, actions }: ScreenContext): CopyButtonView => ({
  label: copy.copied ? t.copied : t.copyLabel(copy.field, copy.kind),
  text: copy.copied ? t.copied : t.copy,
  onCopy: () => actions.copy(copy),
});

/** Where and how much to send: the details with copy buttons, the guidance, the QR code and the bank link. */
const dealDetails = (deal: DealModel, amount: string, context: ScreenContext): TemplateResult => {
  const { t } = context;
  const matrix = deal.link ? qrFor(deal.link) : undefined;
  const touch = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
  return html`
    <dl part="details">
      ${field({
        part: 'amount',
        label: t.amountLabel,
        value: amount,
        valueId: 'amount-value',
        valueClass: 'amount',
        copy: copyButton(deal.amount, context),
        note: deal.amount.byHand ? t.copyManually : undefined,
      })}
      ${field({ part: 'bank', label: t.bankLabel, value: deal.bank, valueId: 'bank-value' })}
      ${field({
        part: 'requisites',
        label: t.requisitesLabel(deal.requisites.kind),
        value:
          deal.requisites.kind === 'account'
            ? deal.requisites.text
            : deal.requisites.text.split(' ').map((group, index) => html`${index ? ' ' : ''}<span class="group">${group}</span>`),
        valueId: 'requisites-value',
        valueClass: 'requisites',
        copy: copyButton(deal.requisites.copy, context),
        note: deal.requisites.copy.byHand ? t.copyManually : undefined,
      })}
      ${field({ part: 'holder', label: t.holderLabel, value: deal.holder, valueId: 'holder-value' })}
    </dl>
    <p part="guidance" class="guidance">${t.guidance(amount)}</p>
    ${matrix ? qrCode({ matrix, label: t.qrLabel, hint: t.qrHint }) : nothing}
    ${deal.link && touch
      ? html`<a part="bank-link" class="primary" href=${deal.link} target="_blank" rel="noopener noreferrer"
          >${t.openInBankApp}</a
        >`
      : nothing}
  `;
};

const DEAL_NOTICE_TEXT: Record<Exclude<DealNotice, 'unsupported'>, (t: Translation) => string> = {
  failed: (t) => t.dealFailed,
  no_requisites: (t) => t.dealNoRequisites,
  not_allowed: (t) => t.dealNotAllowed,
};

/** Without an active deal: the variants as buttons that start one. */
const picker = (model: PickerModel, { t, actions }: ScreenContext): TemplateResult => {
  if (model.state === 'failed') {
    return html`
      <div class="actions">
        <p part="notice" class="notice alert" role="alert">${t.variantsFailed}</p>
        <button part="retry-button" type="button" @click=${actions.retryVariants}>${t.retry}</button>
      </div>
    `;
  }
  if (model.state === 'loading') return html`<div class="bar"></div>`;
  return html`
    ${variantList({
      title: t.variantsLabel,
      groups: model.groups,
      optionLabel: t.option,
      onSelect: actions.select,
      pending: model.pending,
      pendingLabel: t.startingDeal,
    })}
    ${model.notice === 'unsupported'
      ? html`<p part="notice" class="notice" role="status">${t.dealUnsupported}</p>`
      : model.notice
        ? html`<p part="notice" class="notice alert" role="alert">${DEAL_NOTICE_TEXT[model.notice](t)}</p>`
        : nothing}
  `;
};

/** The cancel button, or the confirmation it asks for (Escape steps back); nothing while a failed cancel is checked. */
const cancelBlock = ({ confirming, pending, checking, notice }: CancelState, { t, actions }: ScreenContext): TemplateResult => {
  const note =
    notice === 'refused'
      ? html`<p part="notice" class="notice" role="status">${t.errorMessage('cancel_refused')}</p>`
      : notice
        ? html`<p part="notice" class="notice alert" role="alert">${t.cancelFailed}</p>`
        : nothing;
  if (checking) return html`${note}`;
  if (!confirming) {
    return html`
      ${note}
      <div class="actions">
        <button part="cancel-button" type="button" @click=${actions.askCancel}>${t.cancel}</button>
      </div>
    `;
  }
  const onKeydown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    actions.keepPaying();
  };
  return html`
    <div class="actions" role="group" aria-labelledby="cancel-question" @keydown=${onKeydown}>
      <p id="cancel-question">${t.cancelQuestion}</p>
      <button
        part="confirm-button"
        class="danger"
        type="button"
        aria-disabled=${pending ? 'true' : 'false'}
        @click=${actions.confirmCancel}
      >
        ${pending ? t.canceling : t.confirmCancel}
      </button>
      <button part="keep-button" type="button" aria-disabled=${pending ? 'true' : 'false'} @click=${actions.keepPaying}>
        ${t.keepPaying}
      </button>
    </div>
  `;
};

/** What changed under the payer's eyes, each `label: old → new`, until the payer dismisses it. */
const changeNotice = (changes: readonly Change[], { t, locale, actions }: ScreenContext): TemplateResult => html`
  <div part="change-notice" class="change" role="alert">
    <p>${t.changed}</p>
    ${changes.map(({ field, previous, current }) => {
      // Money like the amount, requisites like the requisites, the holder as it is.
      const shown = (value: Change['current']) =>
        typeof value === 'object' ? formatMoney(value, locale) : field === 'requisites' ? formatRequisites(value).text : value;
      const label =
        field === 'amount' ? t.amountLabel : field === 'holder' ? t.holderLabel : t.requisitesLabel(formatRequisites(current).kind);
      return html`<p>${label}: ${previous === undefined ? '' : `${shown(previous)} → `}${shown(current)}</p>`;
    })}
    <button class="small" type="button" @click=${actions.dismissChanges}>${t.changeSeen}</button>
  </div>
`;
