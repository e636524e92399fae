/**
 * The payer's forms, loaded on demand (they are not in the first-render file): the receipt
 * after "I have paid", and the report of a payment that went missing. Plain template
 * functions like views.ts, with their own strings (strings.ts, every language) and styles. The file
 * and the amount are checked here, in the browser, before anything is sent; the proxy checks
 * them again.
 */
import { css, html, nothing, type TemplateResult } from 'lit';
import type { CheckoutInvoice } from '../../schemas/checkout.js';
import { formatMoney } from '../format.js';
import type { Translation } from '../i18n/translation.js';
import type { FormState } from '../screen-model.js';
import type { PayerForm, PayerForms } from '../session/payer-forms.js';
import type { PaymentReport } from '../session/session-types.js';
import { sendReceipt, sendReport } from './form-requests.js';
import { journeyStrings, type JourneyStrings } from './strings.js';

/** The service's limit for a receipt: 10 MB (a proxy that takes less says so: `receiptMaxBytes`). */
export const MAX_RECEIPT_BYTES = 10 * 1024 * 1024;

/** A size limit in the payer's words (`10 MB`, `2,5 МБ`). */
export const formatSize = (bytes: number, locale: string): string => {
  const megabytes = bytes / (1024 * 1024);
  try {
    return new Intl.NumberFormat(locale, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 }).format(megabytes);
  } catch {
    return `${Math.round(megabytes * 10) / 10} MB`;
  }
};

/** Receipts the service takes: photos and PDF. */
export const RECEIPT_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif', 'application/pdf'];
/** Phones may give a HEIC photo no type at all: its extension decides then. */
const RECEIPT_EXTENSIONS = /\.(jpe?g|png|webp|heic|heif|pdf)$/i;

/** Why a receipt file cannot be sent to a proxy taking at most `maxBytes`, or undefined when it can. */
export const checkReceipt = (
  file: File | null | undefined,
  maxBytes = MAX_RECEIPT_BYTES,
): 'receipt_missing' | 'receipt_too_large' | 'receipt_type' | undefined => {
  if (!file || file.size === 0) return 'receipt_missing';
  if (file.size > maxBytes) return 'receipt_too_large';
  const typed = file.type ? RECEIPT_TYPES.includes(file.type.toLowerCase()) : RECEIPT_EXTENSIONS.test(file.name);
  return typed ? undefined : 'receipt_type';
};

/**
 * An amount as the payer typed it (`1 500,50`, `1500.5`, `১৫০০.৫০` on a Bengali keyboard) as
 * decimal text with at most `decimals` fraction digits (`1500.50`), or undefined when it is
 * not a positive amount. Text in, text out: never a float.
 */
export const checkAmount = (typed: string, decimals: number): string | undefined => {
  const compact = typed
    .replace(/[\u09e6-\u09ef]/g, (digit) => String(digit.charCodeAt(0) - 0x9e6))
    .replace(/[\s\u00a0\u202f']/g, '')
    .replace(',', '.');
  const match = /^(\d{1,15})(?:\.(\d+))?$/.exec(compact);
  if (!match) return undefined;
  const [, whole = '', fraction = ''] = match;
  if (fraction.length > decimals) return undefined;
  const amount = fraction ? `${whole.replace(/^0+(?=\d)/, '')}.${fraction}` : whole.replace(/^0+(?=\d)/, '');
  return /[1-9]/.test(amount) ? amount : undefined;
};

export { journeyStrings, type JourneyStrings } from './strings.js';

const ACCEPT = [...RECEIPT_TYPES, '.heic', '.heif'].join(',');

/** Writes the chosen file's name beside the button (the native input is see-through, over them). */
const showFileName = (t: JourneyStrings) => (event: Event) => {
  const input = event.target as HTMLInputElement;
  const shown = input.parentElement?.querySelector('.file-name');
  if (shown) shown.textContent = input.files?.[0]?.name ?? t.noFile;
};

/**
 * The receipt's file field in the page's language: the native input lies see-through over a
 * button and the chosen file's name, so it keeps its keyboard, screen-reader and drop
 * behaviour; its name is the label and the button's text.
 */
const fileField = (t: JourneyStrings, label: string, describedBy: string, invalid: boolean): TemplateResult => html`
  <label id="receipt-label" for="receipt-file">${label}</label>
  <div class="file">
    <input
      id="receipt-file"
      class="file-input"
      name="attachment"
      type="file"
      accept=${ACCEPT}
      aria-labelledby="receipt-label receipt-choose"
      aria-describedby=${describedBy}
      aria-invalid=${invalid ? 'true' : 'false'}
      @change=${showFileName(t)}
    />
    <span id="receipt-choose" class="file-button" aria-hidden="true">${t.chooseFile}</span>
    <span class="file-name" aria-hidden="true" .textContent=${t.noFile}></span>
  </div>
`;

/** What the receipt form shows and does. */
export interface ReceiptFormView {
  t: JourneyStrings;
  state: FormState;
  /** The largest receipt the proxy takes, in bytes, and in the payer's words. */
  maxBytes: number;
  size: string;
  /** The failure in words (the form's own check or the proxy's answer). */
  error: string | undefined;
  onSubmit: (file: File) => void;
  /** The form's own check failed (a `formErrors` code). */
  onInvalid: (code: string) => void;
  onClose: () => void;
}

const fileOf = (form: HTMLFormElement): File | undefined =>
  (form.elements.namedItem('attachment') as HTMLInputElement | null)?.files?.[0] ?? undefined;

const submitButton = (sending: boolean, label: string, t: JourneyStrings) =>
  html`<button part="submit-button" class="primary" type="submit" aria-disabled=${sending ? 'true' : 'false'}>
    ${sending ? t.sending : label}
  </button>`;

/** The receipt: one file, checked before it is sent. */
export const receiptForm = ({ t, state, error, maxBytes, size, onSubmit, onInvalid, onClose }: ReceiptFormView): TemplateResult => {
  const sending = state.state === 'sending';
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    if (sending) return;
    const file = fileOf(event.currentTarget as HTMLFormElement);
    const problem = checkReceipt(file, maxBytes);
    if (problem) onInvalid(problem);
    else onSubmit(file!);
  };
  return html`
    <form part="receipt-form" class="form" novalidate @submit=${submit} aria-busy=${sending ? 'true' : 'false'}>
      ${fileField(t, t.receiptLabel, `receipt-hint${error ? ' receipt-error' : ''}`, error !== undefined)}
      <p id="receipt-hint" class="notice">${t.receiptHint(size)}</p>
      ${error ? html`<p id="receipt-error" part="notice" class="notice alert" role="alert">${error}</p>` : nothing}
      <div class="actions">
        ${submitButton(sending, t.sendReceipt, t)}
        <button type="button" aria-disabled=${sending ? 'true' : 'false'} @click=${onClose}>${t.close}</button>
      </div>
    </form>
  `;
};

/** What the report form shows and does. */
export interface ReportFormView {
  t: JourneyStrings;
  state: FormState;
  /** The largest receipt the proxy takes, in bytes, and in the payer's words. */
  maxBytes: number;
  size: string;
  error: string | undefined;
  /** The code of the failed check, to mark the field it is about (`amount_invalid`, `receipt_…`). */
  problem: string | undefined;
  /** The invoice's amount, formatted. */
  amount: string;
  /** Fraction digits of the invoice's currency (from its amount). */
  decimals: number;
  /** Whether the service needs the receipt with a report. */
  attachmentRequired: boolean;
  onSubmit: (report: PaymentReport) => void;
  onInvalid: (code: string) => void;
  onClose: () => void;
}

/** The report: what was sent (exactly the amount, or another one), and the receipt. */
export const reportForm = (view: ReportFormView): TemplateResult => {
  const { t, state, error } = view;
  const sending = state.state === 'sending';
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    if (sending) return;
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const reason = data.get('reason') === 'invalid_sum' ? 'invalid_sum' : 'no_payment';
    const file = fileOf(form);
    let amount: string | undefined;
    if (reason === 'invalid_sum') {
      const typed = data.get('amount');
      amount = checkAmount(typeof typed === 'string' ? typed : '', view.decimals);
      if (!amount) return view.onInvalid('amount_invalid');
    }
    const problem = file || view.attachmentRequired ? checkReceipt(file, view.maxBytes) : undefined;
    if (problem) return view.onInvalid(problem);
    view.onSubmit({ reason, amount, attachment: file });
  };
  return html`
    <form
      part="report-form"
      class="form"
      novalidate
      @submit=${submit}
      aria-busy=${sending ? 'true' : 'false'}
      aria-labelledby="report-title"
    >
      <h3 id="report-title">${t.reportTitle}</h3>
      <fieldset>
        <legend>${t.reasonLabel}</legend>
        <label><input type="radio" name="reason" value="no_payment" checked /> ${t.reasonExact(view.amount)}</label>
        <label><input type="radio" name="reason" value="invalid_sum" /> ${t.reasonDifferent}</label>
      </fieldset>
      <div class="sent-amount">
        <label for="report-amount">${t.amountSentLabel}</label>
        <input
          id="report-amount"
          name="amount"
          type="text"
          inputmode="decimal"
          autocomplete="transaction-amount"
          aria-describedby="report-amount-hint"
          aria-invalid=${view.problem === 'amount_invalid' ? 'true' : 'false'}
        />
        <p id="report-amount-hint" class="notice">${t.amountHint(view.decimals)}</p>
      </div>
      ${fileField(t, t.attachmentLabel(view.attachmentRequired), 'receipt-hint', view.problem?.startsWith('receipt_') === true)}
      <p id="receipt-hint" class="notice">${t.receiptHint(view.size)}</p>
      ${error ? html`<p part="notice" class="notice alert" role="alert">${error}</p>` : nothing}
      <div class="actions">
        ${submitButton(sending, t.sendReport, t)}
        <button type="button" aria-disabled=${sending ? 'true' : 'false'} @click=${view.onClose}>${t.close}</button>
      </div>
    </form>
  `;
};

/** What the element gives the forms of a screen. */
export interface FormPartsInput {
  /** The element's strings, and the `Intl` locale of its numbers. */
  t: Translation;
  locale: string;
  /** The merchant's replacements (the `strings` property) over a table of strings. */
  localize: <T extends object>(base: T) => T;
  /** The session's forms: their state and their requests. */
  forms: PayerForms;
  invoice: CheckoutInvoice | undefined;
  /** A form's close button. */
  close: (form: PayerForm) => void;
}

/** The receipt and report forms of a screen, wired to the session's forms. */
export const formParts = ({
  t,
  locale,
  localize,
  forms,
  invoice,
  close,
}: FormPartsInput): { receiptForm: () => TemplateResult; reportForm: () => TemplateResult } => {
  // What this proxy takes (older proxies do not say: the service's 10 MB, never more).
  const said = invoice?.receiptMaxBytes;
  const maxBytes = Math.min(MAX_RECEIPT_BYTES, typeof said === 'number' && said >= 1 ? Math.floor(said) : MAX_RECEIPT_BYTES);
  const size = formatSize(maxBytes, locale);
  const strings = localize(journeyStrings(t.language));
  // Too large: the form's own check names the proxy's limit; a refusal names the limit that
  // refused it, as the answer said it (an adapter or a server in front may take less), or none.
  const errorText = (state: FormState) =>
    state.state !== 'failed' || state.code === undefined
      ? undefined
      : state.code === 'receipt_too_large'
        ? strings.receiptTooLarge(size)
        : state.code === 'payload_too_large' && state.maxBytes !== undefined
          ? strings.receiptTooLarge(formatSize(state.maxBytes, locale))
          : ((strings.formErrors as Record<string, string | undefined>)[state.code] ?? t.errorMessage(state.code));
  const sum = invoice?.sum ?? { amount: '0', currency: '' };
  return {
    receiptForm: () =>
      receiptForm({
        t: strings,
        state: forms.receipt,
        maxBytes,
        size,
        error: errorText(forms.receipt),
        onSubmit: (file) => void sendReceipt(forms, file),
        onInvalid: (code) => forms.formProblem('receipt', code),
        onClose: () => close('receipt'),
      }),
    reportForm: () =>
      reportForm({
        t: strings,
        state: forms.report,
        maxBytes,
        size,
        error: errorText(forms.report),
        problem: forms.report.state === 'failed' ? forms.report.code : undefined,
        amount: formatMoney(sum, locale),
        decimals: sum.amount.split('.')[1]?.length ?? 0,
        // The proxy needs the receipt with a report (the service's dispute takes one).
        attachmentRequired: true,
        onSubmit: (report) => void sendReport(forms, report),
        onInvalid: (code) => forms.formProblem('report', code),
        onClose: () => close('report'),
      }),
  };
};

/** The forms' styles, adopted by the element when this module arrives. */
export const formStyles = css`
  .form,
  .form fieldset,
  .sent-amount {
    display: grid;
    gap: var(--_half);
  }
  .form fieldset {
    margin: 0;
    padding: var(--_half) var(--_spacing);
    border: 1px solid var(--_border);
    border-radius: var(--_inner-radius);
  }
  .form fieldset label {
    display: flex;
    gap: var(--_half);
    align-items: center;
    min-height: 44px;
  }
  .form input[type='text'] {
    width: 100%;
    min-width: 0;
    min-height: 44px;
    padding: 0 var(--_half);
    border: 1px solid var(--_border);
    border-radius: var(--_inner-radius);
    background: var(--_background);
    color: inherit;
    font: inherit;
  }
  .form input:focus-visible,
  .file:focus-within .file-button {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }
  .file {
    position: relative;
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--_half);
  }
  .file-input {
    position: absolute;
    inset: 0;
    width: 100%;
    height: 100%;
    opacity: 0;
    cursor: pointer;
  }
  .file-name {
    min-width: 0;
    color: var(--_muted);
    font-size: 0.875rem;
  }
  .form:has([value='no_payment']:checked) .sent-amount {
    display: none;
  }
`;
