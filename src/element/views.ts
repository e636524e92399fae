/**
 * The element's view: plain functions from values (the screen model of screen.ts, strings,
 * actions) to templates. Everything from the service goes into text bindings or attribute
 * values, never into markup. Loaded on demand with the payer's language (view-loader.ts): no
 * invoice screen shows before both are here.
 */
import { html, nothing, svg, type TemplateResult } from 'lit';
import type { PaymentVariant } from '../schemas/invoice.js';
import { formatDuration, formatMoney, formatRequisites, plainText } from './format.js';
import type { Translation } from './i18n/translation.js';
import { QUIET_ZONE, type QrMatrix, type QrModule } from './qr.js';
import {
  type CancelState,
  type Change,
  type CopyModel,
  type DealModel,
  type DealNotice,
  type InvoiceScreenModel,
  type PickerModel,
  type ReturnModel,
  statusText,
  type VariantGroup,
} from './screen.js';

export { screenStyles } from './screen.styles.js';

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
      ${image
        ? html`<img src=${image} alt=${label} width="200" height="200" referrerpolicy="no-referrer" />`
        : html`<svg role="img" aria-label=${label} aria-busy=${drawn ? 'false' : 'true'} viewBox="0 0 ${extent} ${extent}" shape-rendering="crispEdges">
            <rect width=${extent} height=${extent} fill="#ffffff"></rect>
            ${drawn ? svg`<path d=${drawn.path} fill="#000000"></path>` : nothing}
          </svg>`}
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
          <div class="bank-name">${view.mark?.(group.method, group.bankName) ?? nothing}<span id="bank-${index}" class="label">${group.bankName}</span></div>
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
  confirmPaid: () => void;
  showDetails: (show: boolean) => void;
  receiptForm: (open: boolean) => void;
  reportForm: (open: boolean) => void;
  /** The payer pressed the way back to the shop; the element asks the page (`checkout-return`) first. */
  returnToShop: (event: Event, to: ReturnModel) => void;
  stopAutoReturn: () => void;
  bankPicker: (open: boolean) => void;
}

/** What is drawn by a module that loads on demand: each renders when it has arrived (the element re-renders then). */
export interface LazyParts {
  /** The QR encoder, or undefined while it loads. */
  qr: QrModule | undefined;
  /** The receipt and report forms, or a placeholder while they load. */
  receiptForm: () => TemplateResult;
  reportForm: () => TemplateResult;
  /** The SBP bank picker for `link`. */
  bankPicker: (link: string) => TemplateResult;
}

export interface ScreenContext {
  t: Translation;
  /** The `Intl` locale for money. */
  locale: string;
  hideCancel: boolean;
  actions: ScreenActions;
  lazy: LazyParts;
  /**
   * A bank's lettermark on its colour, or the merchant's logo (`bank-logos`): nothing until
   * the module that draws them has loaded (it comes with the bank directory, after the invoice).
   */
  bankMark: (code: string, name: string) => TemplateResult | typeof nothing;
}

/** The error screen: what failed, in words, and a retry. */
export const errorScreen = (code: string, { t, actions }: ScreenContext): TemplateResult => html`
  <div part="error" role="alert">
    <h2 part="title" tabindex="-1">${icon('error')}${t.title('error')}</h2>
    <p>${t.errorMessage(code)}</p>
    <button part="retry-button" class="primary" type="button" @click=${actions.retry}>${t.retry}</button>
  </div>
`;

/** Each final or review state's picture: inline SVG, decorative (the heading says it). */
const ICONS = {
  paid: 'M7 12.5l3 3 7-7',
  canceled: 'M8 8l8 8M16 8l-8 8',
  expired: 'M12 7v5l3 2',
  dispute: 'M11 11m-4 0a4 4 0 1 0 8 0a4 4 0 1 0-8 0M14 14l4 4',
  error: 'M12 7v6M12 16.5v.5',
} as const;
const icon = (name: string) => {
  const path = (ICONS as Record<string, string | undefined>)[name];
  return path
    ? html`<svg part="icon" class="icon ${name}" aria-hidden="true" focusable="false" viewBox="0 0 24 24">
        <circle cx="12" cy="12" r="10.5"></circle>
        <path d=${path}></path>
      </svg>`
    : nothing;
};

/** The amount as its own row; on the waiting and checking screens with its copy button and the countdown next to it. */
const amountField = (model: InvoiceScreenModel, amount: string, context: ScreenContext): TemplateResult => {
  const { t } = context;
  const copy = model.deal?.amount;
  return html`<div class="amount-row">
    <dl part="details" class="summary">
      ${field({
        part: 'amount',
        label: model.amountLabel === 'paid' ? t.amountPaidLabel : model.amountLabel === 'send' ? t.amountLabel : t.amountSumLabel,
        value: amount,
        valueId: 'amount-value',
        valueClass: 'amount',
        copy: copy && model.screen === 'waiting' ? copyButton(copy, context) : undefined,
        note: copy?.byHand ? t.copyManually : model.asked ? (model.amountLabel === 'paid' ? t.amountSettledNote : t.amountDueNote)(formatMoney(model.asked, context.locale)) : undefined,
      })}
    </dl>
    ${model.remaining === undefined ? nothing : timer({ label: t.timeLeftLabel, time: formatDuration(model.remaining, context.locale) })}
  </div>`;
};

/** Every screen about a loaded invoice. */
export const invoiceScreen = (model: InvoiceScreenModel, context: ScreenContext): TemplateResult => {
  const { t, hideCancel, actions } = context;
  const { variants } = model;
  const amount = formatMoney(model.sum, context.locale);
  const explanation = html`<p part="explanation">${t.explanation(model.screen, model.status.raw)}</p>`;
  return html`
    <header>
      ${model.payee ? html`<p part="payee" class="payee">${t.payee(model.payee)}</p>` : nothing}
      <h2 part="title" tabindex="-1">${icon(model.screen)}${t.title(model.screen)}</h2>
      <p part="status">
        <span class="label">${t.statusLabel}:</span>
        <span class="status-value">${statusText(model.status, t)}</span>
      </p>
    </header>
    ${model.changes.length ? changeNotice(model.changes, context) : nothing}
    ${model.explanation === 'above' && !model.checking ? explanation : nothing}
    ${amountField(model, amount, context)}
    ${model.checking ? checkingBlock(model, context) : model.deal ? dealDetails(model.deal, amount, context) : nothing}
    ${model.explanation === 'below' ? explanation : nothing}
    ${model.confirmOffered
      ? html`<div class="actions">
          <button part="paid-button" class="primary" type="button" @click=${actions.confirmPaid}>${t.confirmPaid}</button>
        </div>`
      : nothing}
    ${model.checking ? nothing : secondaryQr(model.deal, context)}
    ${model.report ? reportBlock(model, context) : nothing}
    ${model.picker ? picker(model.picker, context) : nothing}
    ${model.reference ? referenceField(model.reference, context) : nothing}
    ${model.connectionLost ? html`<p part="notice" class="notice" role="status">${t.connectionTrouble}</p>` : nothing}
    ${model.offline ? html`<p part="notice" class="notice" role="status">${t.offline}</p>` : nothing}
    ${variants
      ? html`<details class="fold">
          <summary part="change-bank">${t.changeBank}</summary>
          ${variantList({
            title: t.variantsLabel,
            groups: variants.groups,
            optionLabel: t.option,
            isActive: ({ method, option }) => method === variants.current.method && option === variants.current.option,
            currentLabel: t.currentVariant,
            mark: context.bankMark,
          })}
        </details>`
      : nothing}
    ${model.cancel && !hideCancel ? cancelBlock(model.cancel, context) : nothing}
    ${model.returnTo ? returnBlock(model.returnTo, context) : nothing}
  `;
};

/** After "I have paid" (or once the receipt is in): how long the check takes, the receipt, and the way back to the details. */
const checkingBlock = (model: InvoiceScreenModel, context: ScreenContext): TemplateResult => {
  const { t, actions } = context;
  const checking = model.checking!;
  const deal = model.deal;
  return html`
    <p part="explanation">${t.checkingExplanation(checking.minutes)}</p>
    ${deal ? html`<dl part="details">${field({ part: 'bank', label: t.bankLabel, value: deal.bank, valueId: 'bank-value', mark: context.bankMark(deal.bankCode, deal.bank) })}</dl>` : nothing}
    ${checking.transferConfirmed
      ? html`<p part="receipt-status" class="notice success" role="status">${t.receiptReceived}</p>`
      : checking.receipts === 'off'
        ? nothing
        : checking.receipt.state === 'closed'
          ? html`<div class="actions">
              <button part="receipt-button" class=${checking.receipts === 'required' ? 'primary' : ''} type="button" @click=${() => actions.receiptForm(true)}>
                ${t.attachReceipt(checking.receipts)}
              </button>
            </div>`
          : context.lazy.receiptForm()}
    ${checking.transferConfirmed
      ? nothing
      : html`<div class="actions">
          <button part="details-button" type="button" @click=${() => actions.showDetails(true)}>${t.showDetails}</button>
        </div>`}
  `;
};

/** "Report a payment" / "I have already paid": why, the button, or the form (loaded on demand), or the outcome. */
const reportBlock = (model: InvoiceScreenModel, context: ScreenContext): TemplateResult => {
  const { t, actions } = context;
  const report = model.report!;
  if (report.state === 'done') return html`<p part="report-status" class="notice success" role="status">${t.reportReported}</p>`;
  if (report.state !== 'closed') return context.lazy.reportForm();
  return html`
    <div part="report" class="report">
      <p>${t.reportIntro(report.prompt)}</p>
      <div class="actions">
        <button part="report-button" type="button" @click=${() => actions.reportForm(true)}>${t.reportPayment(report.prompt)}</button>
      </div>
    </div>
  `;
};

/** The payment's number to quote to the shop, with its copy button. */
const referenceField = (reference: CopyModel, context: ScreenContext): TemplateResult => html`
  <dl part="details">
    ${field({
      part: 'reference',
      label: context.t.referenceLabel,
      value: reference.value,
      valueId: 'reference-value',
      valueClass: 'reference',
      copy: copyButton(reference, context),
      note: reference.byHand ? context.t.copyManually : undefined,
    })}
  </dl>
`;

/** Back to the shop: a link (the page may take it over, `checkout-return`), and the automatic return's seconds with a way to stay. */
const returnBlock = (to: ReturnModel, { t, actions }: ScreenContext): TemplateResult => html`
  <div class="actions">
    <a part="return-link" class=${to.kind === 'success' ? 'primary' : ''} href=${to.url} @click=${(event: Event) => actions.returnToShop(event, to)}
      >${t.returnToShop}</a
    >
    ${to.autoIn === undefined
      ? nothing
      : html`<p part="auto-return" class="notice">${t.autoReturn(to.autoIn)}</p>
          <button part="stay-button" class="small" type="button" @click=${actions.stopAutoReturn}>${t.stayHere}</button>`}
  </div>
`;

const copyButton = (copy: CopyModel, { t, actions }: ScreenContext): CopyButtonView => ({
  label: copy.copied ? t.copied : t.copyLabel(copy.field, copy.kind),
  text: copy.copied ? t.copied : t.copy,
  onCopy: () => actions.copy(copy),
});


/** Kinds read in groups that never break inside (`4444 4444`, `+7 (996) 777-99-77`). */
const GROUPED: ReadonlySet<string> = new Set(['card', 'phone', 'account', 'imps', 'cvu', 'topup']);

/**
 * The requisites as they read: a card, phone or account in unbreakable groups, a link to a
 * payment page, a Telegram bot's name and its link.
 */
const requisitesValue = (deal: DealModel, { t }: ScreenContext): string | readonly TemplateResult[] => {
  const { requisites } = deal;
  const { href, kind, text } = requisites;
  if (href) {
    const open = (label: string) => html`<a part="pay-link" class="primary" href=${href} target="_blank" rel="noopener noreferrer">${label}</a>`;
    return kind === 'telegram' ? [html`${text} `, open(t.openTelegram)] : [open(t.openPaymentPage)];
  }
  return GROUPED.has(kind) ? text.split(' ').map((group, index) => html`${index ? ' ' : ''}<span class="group">${group}</span>`) : text;
};

/**
 * Where to send the money: the details with copy buttons, the way into a bank app (touch
 * devices: the bank link and the bank picker's button side by side), the guidance, and the QR
 * code, unless a bank app can be opened from here: then it comes after "I have paid" (see
 * {@link secondaryQr}), so that the details, the amount and that button fit a phone's first screen.
 */
const dealDetails = (deal: DealModel, amount: string, context: ScreenContext): TemplateResult => {
  const { t } = context;
  const { kind, ifsc } = deal.requisites;
  const showRequisites = (kind !== 'qr' && kind !== 'qr-image') || !deal.qr;
  return html`
    <dl part="details">
      ${field({ part: 'bank', label: t.bankLabel, value: deal.bank, valueId: 'bank-value', mark: context.bankMark(deal.bankCode, deal.bank) })}
      ${showRequisites
        ? field({
            part: 'requisites',
            label: t.requisitesLabel(deal.requisites.kind),
            value: requisitesValue(deal, context),
            valueId: 'requisites-value',
            valueClass: deal.requisites.href ? '' : 'requisites',
            copy: deal.requisites.copy && copyButton(deal.requisites.copy, context),
            note: deal.requisites.copy?.byHand ? t.copyManually : undefined,
          })
        : nothing}
      ${ifsc
        ? field({
            part: 'ifsc',
            label: t.ifscLabel,
            value: ifsc.value,
            valueId: 'ifsc-value',
            valueClass: 'requisites',
            copy: copyButton(ifsc, context),
            note: ifsc.byHand ? t.copyManually : undefined,
          })
        : nothing}
      ${deal.holder ? field({ part: 'holder', label: t.holderLabel, value: deal.holder, valueId: 'holder-value' }) : nothing}
    </dl>
    ${deal.crossBorder
      ? html`<p part="cross-border" class="guidance">
          ${t.crossBorder(deal.crossBorder.currency, deal.crossBorder.country && regionName(deal.crossBorder.country, t.language))}
        </p>`
      : nothing}
    ${bankApps(deal, context)}
    <p part="guidance" class="guidance">${t.guidance(amount)}</p>
    ${deal.sbpLink || deal.bankLink ? nothing : qrView(deal, context)}
  `;
};

/** On a touch device: the bank picker (or its button) beside "Open in bank app". */
const bankApps = (deal: DealModel, context: ScreenContext): TemplateResult | typeof nothing => {
  const { t, actions } = context;
  if (deal.sbpLink && deal.pickerOpen) return context.lazy.bankPicker(deal.sbpLink);
  if (!deal.sbpLink && !deal.bankLink) return nothing;
  return html`<div class="actions bank-apps">
    ${deal.sbpLink
      ? html`<button part="bank-picker-button" class="primary" type="button" @click=${() => actions.bankPicker(true)}>${t.chooseBank}</button>`
      : nothing}
    ${deal.bankLink
      ? html`<a part="bank-link" class=${deal.sbpLink ? '' : 'primary'} href=${deal.bankLink} target="_blank" rel="noopener noreferrer">${t.openInBankApp}</a>`
      : nothing}
  </div>`;
};

/** The QR code where a bank app opens from here: after "I have paid", for paying from another device. */
export const secondaryQr = (deal: DealModel | undefined, context: ScreenContext): TemplateResult | typeof nothing =>
  deal && (deal.sbpLink || deal.bankLink) && !deal.pickerOpen ? qrView(deal, context) : nothing;

const qrView = (deal: DealModel, context: ScreenContext): TemplateResult | typeof nothing => {
  const qrModule = context.lazy.qr;
  if (!deal.qr) return nothing;
  return qrCode({
    drawn: !deal.qr.image && qrModule ? qrFor(qrModule, deal.qr.text) : undefined,
    image: deal.qr.image ? deal.qr.text : undefined,
    label: context.t.qrLabel,
    hint: context.t.qrHint,
  });
};

/**
 * A country's name in the payer's language (`TJ` → Таджикистан), or undefined where `Intl`
 * cannot name it in that language (a browser without its data would name it in another).
 */
const regionName = (code: string, language: string): string | undefined => {
  try {
    const names = new Intl.DisplayNames([language], { type: 'region' });
    return names.resolvedOptions().locale.split('-')[0] === language ? names.of(code) : undefined;
  } catch {
    return undefined;
  }
};

let lastQr: { text: string; drawn: { matrix: QrMatrix; path: string } | undefined } | undefined;
/** The QR code of `text`, computed once while it stays the same (the view renders every second). */
const qrFor = (module: QrModule, text: string) => {
  if (lastQr?.text !== text) {
    const matrix = module.qrMatrix(text);
    lastQr = { text, drawn: matrix && { matrix, path: module.qrPath(matrix) } };
  }
  return lastQr.drawn;
};

const DEAL_NOTICE_TEXT: Record<Exclude<DealNotice, 'unsupported'>, (t: Translation) => string> = {
  failed: (t) => t.dealFailed,
  no_requisites: (t) => t.dealNoRequisites,
  not_allowed: (t) => t.dealNotAllowed,
};

/** Without an active deal: the variants as buttons that start one. */
const picker = (model: PickerModel, { t, actions, bankMark }: ScreenContext): TemplateResult => {
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
      mark: bankMark,
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
