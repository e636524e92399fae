/**
 * The element's view: plain functions from values (the screen model of screen.ts, strings,
 * actions) to templates. Everything from the service goes into text bindings or attribute
 * values, never into markup. Loaded on demand with the payer's language (view-loader.ts): no
 * invoice screen shows before both are here.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { formatDuration, formatMoney, formatRequisites } from './format.js';
import type { Translation } from './i18n/translation.js';
import { statusText } from './screen-state.js';
import type { CancelState, Change, CopyModel, DealNotice, InvoiceScreenModel, PickerModel, ReturnModel } from './screen-model.js';
import type { ScreenContext } from './view-context.js';
import { dealDetails, secondaryQr } from './view-deal.js';
import { copyButton, field, timer, variantList } from './view-fields.js';

export { screen } from './screen.js';
export { screenStyles } from './screen.styles.js';
export type { LazyParts, ScreenActions, ScreenContext } from './view-context.js';
export { secondaryQr } from './view-deal.js';
export { lazyContext } from './view-parts.js';
export {
  type CopyButtonView,
  type FieldView,
  type QrView,
  type TimerView,
  type VariantsView,
  field,
  qrCode,
  timer,
  variantList,
} from './view-fields.js';

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
        note: copy?.byHand
          ? t.copyManually
          : model.asked
            ? (model.amountLabel === 'paid' ? t.amountSettledNote : t.amountDueNote)(formatMoney(model.asked, context.locale))
            : undefined,
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
    ${model.explanation === 'above' && !model.checking ? explanation : nothing} ${amountField(model, amount, context)}
    ${model.checking ? checkingBlock(model, context) : model.deal ? dealDetails(model.deal, amount, context) : nothing}
    ${model.explanation === 'below' ? explanation : nothing}
    ${
      model.confirmOffered
        ? html`<div class="actions">
            <button part="paid-button" class="primary" type="button" @click=${actions.confirmPaid}>${t.confirmPaid}</button>
          </div>`
        : nothing
    }
    ${model.checking ? nothing : secondaryQr(model.deal, context)} ${model.report ? reportBlock(model, context) : nothing}
    ${model.picker ? picker(model.picker, context) : nothing} ${model.reference ? referenceField(model.reference, context) : nothing}
    ${model.connectionLost ? html`<p part="notice" class="notice" role="status">${t.connectionTrouble}</p>` : nothing}
    ${model.offline ? html`<p part="notice" class="notice" role="status">${t.offline}</p>` : nothing}
    ${
      variants
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
        : nothing
    }
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
    ${
      checking.transferConfirmed
        ? html`<p part="receipt-status" class="notice success" role="status">${t.receiptReceived}</p>`
        : checking.receipts === 'off'
          ? nothing
          : checking.receipt.state === 'closed'
            ? html`<div class="actions">
                <button
                  part="receipt-button"
                  class=${checking.receipts === 'required' ? 'primary' : ''}
                  type="button"
                  @click=${() => actions.receiptForm(true)}
                >
                  ${t.attachReceipt(checking.receipts)}
                </button>
              </div>`
            : context.lazy.receiptForm()
    }
    ${
      checking.transferConfirmed
        ? nothing
        : html`<div class="actions">
            <button part="details-button" type="button" @click=${() => actions.showDetails(true)}>${t.showDetails}</button>
          </div>`
    }
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
    <a
      part="return-link"
      class=${to.kind === 'success' ? 'primary' : ''}
      href=${to.url}
      @click=${(event: Event) => actions.returnToShop(event, to)}
      >${t.returnToShop}</a
    >
    ${
      to.autoIn === undefined
        ? nothing
        : html`<p part="auto-return" class="notice">${t.autoReturn(to.autoIn)}</p>
            <button part="stay-button" class="small" type="button" @click=${actions.stopAutoReturn}>${t.stayHere}</button>`
    }
  </div>
`;

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
    ${
      model.notice === 'unsupported'
        ? html`<p part="notice" class="notice" role="status">${t.dealUnsupported}</p>`
        : model.notice
          ? html`<p part="notice" class="notice alert" role="alert">${DEAL_NOTICE_TEXT[model.notice](t)}</p>`
          : nothing
    }
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
