/**
 * Where to send the money: the deal's details (bank, requisites, IFSC, holder), the ways into
 * a bank app on a touch device, and the QR code. Part of the lazy `views` chunk.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { QUIET_ZONE, type QrMatrix, type QrModule } from './qr.js';
import type { DealModel } from './screen-model.js';
import type { ScreenContext } from './view-context.js';
import { copyButton, field, qrCode } from './view-fields.js';

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
    const open = (label: string) =>
      html`<a part="pay-link" class="primary" href=${href} target="_blank" rel="noopener noreferrer">${label}</a>`;
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
export const dealDetails = (deal: DealModel, amount: string, context: ScreenContext): TemplateResult => {
  const { t } = context;
  const { kind, ifsc } = deal.requisites;
  const showRequisites = (kind !== 'qr' && kind !== 'qr-image') || !deal.qr;
  return html`
    <dl part="details">
      ${field({ part: 'bank', label: t.bankLabel, value: deal.bank, valueId: 'bank-value', mark: context.bankMark(deal.bankCode, deal.bank) })}
      ${
        showRequisites
          ? field({
              part: 'requisites',
              label: t.requisitesLabel(deal.requisites.kind),
              value: requisitesValue(deal, context),
              valueId: 'requisites-value',
              valueClass: deal.requisites.href ? '' : 'requisites',
              copy: deal.requisites.copy && copyButton(deal.requisites.copy, context),
              note: deal.requisites.copy?.byHand ? t.copyManually : undefined,
            })
          : nothing
      }
      ${
        ifsc
          ? field({
              part: 'ifsc',
              label: t.ifscLabel,
              value: ifsc.value,
              valueId: 'ifsc-value',
              valueClass: 'requisites',
              copy: copyButton(ifsc, context),
              note: ifsc.byHand ? t.copyManually : undefined,
            })
          : nothing
      }
      ${deal.holder ? field({ part: 'holder', label: t.holderLabel, value: deal.holder, valueId: 'holder-value' }) : nothing}
    </dl>
    ${
      deal.crossBorder
        ? html`<p part="cross-border" class="guidance">
            ${t.crossBorder(deal.crossBorder.currency, deal.crossBorder.country && regionName(deal.crossBorder.country, t.language))}
          </p>`
        : nothing
    }
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
    ${
      deal.sbpLink
        ? html`<button part="bank-picker-button" class="primary" type="button" @click=${() => actions.bankPicker(true)}>
            ${t.chooseBank}
          </button>`
        : nothing
    }
    ${
      deal.bankLink
        ? html`<a part="bank-link" class=${deal.sbpLink ? '' : 'primary'} href=${deal.bankLink} target="_blank" rel="noopener noreferrer"
            >${t.openInBankApp}</a
          >`
        : nothing
    }
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
    lastQr = { text, drawn: matrix && { matrix, path: module.qrPath(matrix, QUIET_ZONE) } };
  }
  return lastQr.drawn;
};
