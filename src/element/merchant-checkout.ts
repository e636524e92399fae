import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { initialState, Task, TaskStatus } from '@lit/task';
import type { CheckoutCanceledInvoice, CheckoutDeal, CheckoutInvoice, StartDealRequest } from '../schemas/checkout.js';
import type { PaymentVariant } from '../schemas/invoice.js';
import { UUID_PATTERN } from '../schemas/patterns.js';
import { CountdownController } from './controllers/countdown-controller.js';
import { PollController } from './controllers/poll-controller.js';
import { copyText } from './copy.js';
import {
  CheckoutCanceledEvent,
  CheckoutCopyEvent,
  CheckoutErrorEvent,
  CheckoutExpiredEvent,
  CheckoutReadyEvent,
  CheckoutStatusEvent,
  CheckoutVariantSelectEvent,
} from './events.js';
import { formatDuration, formatMoney, formatRequisites, type RequisitesKind } from './format.js';
import { intlLocale, translationFor } from './i18n/locale.js';
import type { CopyField, Screen, Translation } from './i18n/translation.js';
import { styles } from './merchant-checkout.styles.js';
import {
  anySignal,
  type CheckoutClient,
  CheckoutError,
  cancelInvoice,
  createCheckoutClient,
  isAbortError,
  readInvoice,
  readVariants,
  startDeal,
  toCheckoutError,
} from './protocol-client.js';
import { announcementStep, clockOffset, DEFAULT_POLL_INTERVAL, EXPIRY_GRACE } from './poll-policy.js';
import { type QrMatrix, qrMatrix, safeQrLink } from './qr.js';
import { isFinalStatus, statusMeaning } from './status.js';
import { VERSION } from './version.js';
import { field, groupVariants, qrCode, skeleton, timer, variantList } from './views.js';

/** How long a copy button says "Copied". */
const COPIED_FOR = 2000;

/** What the picker says when a deal did not start, by the protocol's error code. */
const dealNoticeFor = (code: string, status: number | undefined) =>
  status === 501 || code === 'not_implemented'
    ? ('unsupported' as const)
    : code === 'no_requisites'
      ? ('no_requisites' as const)
      : code === 'option_not_allowed' || code === 'bank_not_allowed'
        ? ('not_allowed' as const)
        : ('failed' as const);
const DEAL_NOTICE_TEXT: Record<'failed' | 'no_requisites' | 'not_allowed', (t: Translation) => string> = {
  failed: (t) => t.dealFailed,
  no_requisites: (t) => t.dealNoRequisites,
  not_allowed: (t) => t.dealNotAllowed,
};

const activeDeal = (invoice: CheckoutInvoice): CheckoutDeal | undefined => invoice.deals.find((deal) => deal.isActive);

/**
 * The screen an invoice calls for: a final status first (a late payment beats the local
 * countdown), then expiry, a pay-out (its deal's requisites are the receiver's own: nothing to
 * send, nothing to pick), a deal waiting for the transfer, the picker, or an unknown status.
 */
const screenFor = (invoice: CheckoutInvoice, expiredLocally: boolean): Screen => {
  const meaning = statusMeaning(invoice.status);
  if (meaning === 'paid' || meaning === 'canceled' || meaning === 'expired') return meaning;
  if (expiredLocally) return 'expired';
  if (invoice.type === 'out' && meaning === 'open') return 'payout';
  if (activeDeal(invoice)) return 'waiting';
  return meaning === 'open' ? 'picker' : 'other';
};

/** The `lang` of the element or its nearest ancestor, crossing shadow roots; `<html lang>` last. */
const closestLang = (start: Element): string | undefined => {
  let node: Node | null = start;
  while (node) {
    if (node instanceof Element) {
      const lang = node.getAttribute('lang');
      if (lang) return lang;
    }
    node = node instanceof ShadowRoot ? node.host : node.parentNode;
  }
  return undefined;
};

/**
 * @summary The payer's checkout for one invoice: where to send the money and how much, a QR
 * code, the countdown, the live status, the payment variants and a cancel button.
 *
 * @tagname merchant-checkout
 *
 * @event {CheckoutReadyEvent} checkout-ready - The first data of the invoice is rendered. `detail: { invoice }`.
 * @event {CheckoutStatusEvent} checkout-status - The invoice's status changed. `detail: { status, previous, invoice }`.
 * @event {CheckoutCanceledEvent} checkout-canceled - The payer canceled and the service confirmed it. `detail: { invoice }` (the cancel operation's invoice).
 * @event {CheckoutExpiredEvent} checkout-expired - The countdown to `expireAt` (server time) reached zero. `detail: { invoice }`.
 * @event {CheckoutVariantSelectEvent} checkout-variant-select - The payer picked a payment variant. Cancelable: `preventDefault()` stops the element from starting a deal. `detail: { option, method }`.
 * @event {CheckoutCopyEvent} checkout-copy - A value was copied to the clipboard. `detail: { field: 'amount' | 'requisites', value }` (the raw value).
 * @event {CheckoutErrorEvent} checkout-error - A request failed or its answer was invalid. `detail: { code, message, retryable }`.
 *
 * @csspart base - The card around every screen; `data-screen` names the screen (`idle`, `loading`, `waiting`, `picker`, `payout`, `paid`, `canceled`, `expired`, `other`, `error`).
 * @csspart skeleton - The loading screen's placeholder.
 * @csspart payee - Who is being paid (the store name).
 * @csspart title - The heading of each screen (focused when the screen changes under the payer's focus).
 * @csspart status - The status line.
 * @csspart details - The list of amount, bank, requisites and holder.
 * @csspart amount - The amount to send (formatted; its copy button copies the exact amount).
 * @csspart bank - The bank's name.
 * @csspart requisites - Card or phone number or account, formatted for reading.
 * @csspart holder - The recipient's name.
 * @csspart copy-button - A button that copies a raw value.
 * @csspart notice - A short message under a block (copy by hand, connection trouble, a failed cancel or deal).
 * @csspart guidance - What a P2P payer must know ("send exactly this amount in one payment").
 * @csspart qr - The QR code of the deal's link (only `https:` links).
 * @csspart bank-link - "Open in bank app", the same `https:` link, on touch devices.
 * @csspart timer - The countdown to expiry.
 * @csspart variants - The payment variants, grouped by bank.
 * @csspart variant - One variant: a button in the picker, a list item (the active one `aria-current`) beside a deal.
 * @csspart cancel-button - Starts canceling (asks for confirmation first).
 * @csspart confirm-button - Confirms the cancel.
 * @csspart keep-button - Steps back from the cancel confirmation.
 * @csspart explanation - The paragraph of the final and other-status screens.
 * @csspart error - The error screen (`role="alert"`).
 * @csspart retry-button - Tries the failed request again.
 *
 * @cssproperty --merchant-checkout-accent - Buttons, focus rings, the active variant.
 * @cssproperty --merchant-checkout-accent-text - Text on the accent colour.
 * @cssproperty --merchant-checkout-text - Main text colour.
 * @cssproperty --merchant-checkout-muted - Labels and secondary text.
 * @cssproperty --merchant-checkout-background - Background of the card.
 * @cssproperty --merchant-checkout-surface - Background of buttons, guidance and placeholders.
 * @cssproperty --merchant-checkout-border - Borders.
 * @cssproperty --merchant-checkout-danger - Errors and the confirm-cancel button.
 * @cssproperty --merchant-checkout-success - The paid status.
 * @cssproperty --merchant-checkout-radius - Corner radius of the card (inner corners follow).
 * @cssproperty --merchant-checkout-font - Font family.
 * @cssproperty --merchant-checkout-spacing - The base spacing unit.
 */
export class MerchantCheckout extends LitElement {
  /** The package version, so a second registration of another copy can say which one it is. */
  static readonly version = VERSION;

  static override styles = styles;

  /** The invoice UUID minted by the merchant's server. */
  @property({ attribute: 'invoice-id' }) invoiceId = '';

  /** Base URL of the merchant's checkout proxy, relative or absolute (default: the site's root). */
  @property() endpoint = '';

  /** `ru` or `en` (any tag: `ru-RU` falls back to `ru`, unknown languages to `en`); defaults to the nearest `lang` around. */
  @property({ reflect: true }) override lang!: string;

  /** Milliseconds between status reads while the status can still change (at least 1000). */
  @property({ type: Number, attribute: 'poll-interval' }) pollInterval = DEFAULT_POLL_INTERVAL;

  /** Removes the cancel button. */
  @property({ type: Boolean, attribute: 'hide-cancel' }) hideCancel = false;

  /** `light` or `dark`; absent to follow `prefers-color-scheme`. */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  /** The object that speaks the checkout protocol; by default one built from `endpoint` and `fetch`. */
  @property({ attribute: false }) client: CheckoutClient | undefined;

  /** Replacements for any of the built-in strings of the current language. */
  @property({ attribute: false }) strings: Partial<Translation> | undefined;

  /** The latest valid invoice: from the first read, polling, a new deal or a cancel. */
  @state() private invoice: CheckoutInvoice | undefined;
  @state() private confirming = false;
  @state() private cancelFailed = false;
  @state() private dealNotice: 'unsupported' | 'failed' | 'no_requisites' | 'not_allowed' | undefined;
  @state() private connectionLost = false;
  @state() private copied: CopyField | undefined;
  @state() private copyByHand: CopyField | undefined;
  @state() private pendingVariant: PaymentVariant | undefined;
  @state() private announcement = '';

  /** Aborted when the invoice changes or the element leaves the page: ends every request of it. */
  #session = new AbortController();
  #defaultClient: { endpoint: string; client: CheckoutClient } | undefined;
  /** Server clock − device clock, from the `Date` headers. */
  #clockOffset: number | undefined;
  #lastAnnouncementStep: number | undefined;
  #copiedTimer: ReturnType<typeof setTimeout> | undefined;
  #langObserver: MutationObserver | undefined;
  #qr: { link: string; matrix: QrMatrix | undefined } | undefined;
  #screen: Screen | undefined;
  #focusWasInside = false;
  #focusAfterUpdate: string | undefined;

  readonly #invoiceTask = new Task(this, {
    args: () => [this.#client(), this.invoiceId] as const,
    task: async ([client, invoiceId], { signal }) => {
      if (!invoiceId) return initialState;
      if (!UUID_PATTERN.test(invoiceId)) throw new CheckoutError('bad_request', 'invoice-id must be a UUID');
      const { value, date } = await readInvoice(client, invoiceId, this.#signal(signal));
      this.#noteServerDate(date);
      return value;
    },
    onComplete: (invoice) => this.#adopt(invoice, 'load'),
    onError: (error) => this.#report(error),
  });

  readonly #variantsTask = new Task(this, {
    args: () => [this.#client(), this.invoiceId] as const,
    task: async ([client, invoiceId], { signal }) => {
      // The invoice task reports a missing or malformed id; there is nothing to ask for here.
      if (!UUID_PATTERN.test(invoiceId)) return initialState;
      return (await readVariants(client, invoiceId, this.#signal(signal))).value;
    },
    onError: (error) => this.#report(error),
  });

  readonly #cancelTask = new Task<readonly [CheckoutClient, string], CheckoutCanceledInvoice>(this, {
    autoRun: false,
    task: async ([client, invoiceId], { signal }) => {
      const { value, date } = await cancelInvoice(client, invoiceId, this.#signal(signal));
      this.#noteServerDate(date);
      return value;
    },
    onComplete: (canceled) => {
      this.confirming = false;
      if (this.invoice) this.#adopt({ ...this.invoice, status: canceled.status, deals: canceled.deals }, 'cancel');
      this.#dispatchAfterRender(new CheckoutCanceledEvent({ invoice: canceled }));
    },
    onError: (error) => {
      if (isAbortError(error)) return;
      this.cancelFailed = true;
      this.#report(error);
      this.#poll.start();
    },
  });

  readonly #dealTask = new Task<readonly [CheckoutClient, string, StartDealRequest], CheckoutInvoice>(this, {
    autoRun: false,
    task: async ([client, invoiceId, variant], { signal }) => {
      const { value, date } = await startDeal(client, invoiceId, variant, this.#signal(signal));
      this.#noteServerDate(date);
      return value;
    },
    onComplete: (invoice) => {
      this.pendingVariant = undefined;
      this.#adopt(invoice, 'deal');
    },
    onError: (error) => {
      this.pendingVariant = undefined;
      if (isAbortError(error)) return;
      const failure = toCheckoutError(error);
      this.dealNotice = dealNoticeFor(failure.code, failure.status);
      this.#report(failure);
      this.#poll.start();
    },
  });

  readonly #poll = new PollController(this, {
    interval: () => this.pollInterval,
    read: async (signal) => {
      try {
        const { value, date } = await readInvoice(this.#client(), this.invoiceId, this.#signal(signal));
        this.#noteServerDate(date);
        this.connectionLost = false;
        this.#adopt(value, 'poll');
        return !isFinalStatus(value.status) && this.#serverNow() < Date.parse(value.expireAt) + EXPIRY_GRACE;
      } catch (error) {
        if (!isAbortError(error)) {
          this.connectionLost = true;
          this.#report(error);
        }
        throw error;
      }
    },
  });

  readonly #countdown = new CountdownController(this, {
    onTick: (remaining) => {
      const step = announcementStep(remaining);
      if (this.#lastAnnouncementStep !== undefined && step !== this.#lastAnnouncementStep && remaining > 0) {
        this.#announce(this.#translation().timeLeftAnnouncement(remaining));
      }
      this.#lastAnnouncementStep = step;
      this.requestUpdate();
    },
    onZero: () => {
      const invoice = this.invoice;
      if (!invoice) return;
      this.confirming = false;
      this.#announce(this.#translation().title('expired'));
      this.#dispatchAfterRender(new CheckoutExpiredEvent({ invoice }));
    },
  });

  override connectedCallback(): void {
    // Back on the page after being removed: a fresh session before the controllers resume.
    const returning = this.#session.signal.aborted;
    if (returning) this.#session = new AbortController();
    super.connectedCallback();
    this.#langObserver = new MutationObserver(() => this.requestUpdate());
    this.#langObserver.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
    if (returning) {
      for (const task of [this.#invoiceTask, this.#variantsTask]) {
        if (task.status === TaskStatus.ERROR && isAbortError(task.error)) void task.run();
      }
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#session.abort();
    this.#langObserver?.disconnect();
    this.#langObserver = undefined;
    clearTimeout(this.#copiedTimer);
    this.copied = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('invoiceId') || changed.has('client') || changed.has('endpoint')) this.#startSession();
    this.#focusWasInside = this.shadowRoot?.activeElement != null;
  }

  protected override updated(): void {
    const screen = this.#currentScreen();
    let target = this.#focusAfterUpdate;
    this.#focusAfterUpdate = undefined;
    if (this.#screen !== undefined && screen !== this.#screen && this.#focusWasInside) target ??= '[part~="title"]';
    this.#screen = screen;
    if (target) this.renderRoot.querySelector<HTMLElement>(target)?.focus();
  }

  /** Reads the invoice (and the variants, if they failed) again. */
  retry(): void {
    void this.#invoiceTask.run();
    if (this.#variantsTask.status === TaskStatus.ERROR) void this.#variantsTask.run();
  }

  #client(): CheckoutClient {
    if (this.client) return this.client;
    if (this.#defaultClient?.endpoint !== this.endpoint) {
      this.#defaultClient = { endpoint: this.endpoint, client: createCheckoutClient({ endpoint: this.endpoint }) };
    }
    return this.#defaultClient.client;
  }

  #signal(signal: AbortSignal): AbortSignal {
    return anySignal([signal, this.#session.signal]);
  }

  /** Forgets everything about the previous invoice and aborts all its requests. */
  #startSession(): void {
    this.#session.abort();
    this.#session = new AbortController();
    this.#poll.stop();
    this.#countdown.stop();
    this.invoice = undefined;
    this.confirming = false;
    this.cancelFailed = false;
    this.dealNotice = undefined;
    this.connectionLost = false;
    this.copyByHand = undefined;
    this.pendingVariant = undefined;
    this.#clockOffset = undefined;
    this.#lastAnnouncementStep = undefined;
  }

  #noteServerDate(date: string | null | undefined): void {
    this.#clockOffset = clockOffset(date, Date.now(), this.#clockOffset);
  }

  #serverNow(): number {
    return Date.now() + (this.#clockOffset ?? 0);
  }

  /** Takes a new state of the invoice: events, announcements, countdown and polling follow. */
  #adopt(invoice: CheckoutInvoice, source: 'load' | 'poll' | 'deal' | 'cancel'): void {
    const previous = this.invoice;
    this.invoice = invoice;
    if (source === 'load') this.#dispatchAfterRender(new CheckoutReadyEvent({ invoice }));
    if (previous && previous.status !== invoice.status) {
      const t = this.#translation();
      this.#announce(`${t.statusLabel}: ${this.#statusText(invoice, t)}`);
      this.#dispatchAfterRender(new CheckoutStatusEvent({ status: invoice.status, previous: previous.status, invoice }));
    }
    if (isFinalStatus(invoice.status)) {
      this.#poll.stop();
      this.#countdown.stop();
      this.confirming = false;
      return;
    }
    this.#countdown.set(Date.parse(invoice.expireAt), this.#clockOffset ?? 0);
    if (source !== 'poll') this.#poll.start();
  }

  #dispatchAfterRender(event: Event): void {
    const session = this.#session;
    void this.updateComplete.then(() => {
      if (!session.signal.aborted) this.dispatchEvent(event);
    });
  }

  #report(error: unknown): void {
    if (isAbortError(error)) return;
    const failure = toCheckoutError(error);
    this.#dispatchAfterRender(
      new CheckoutErrorEvent({ code: failure.code, message: failure.message, retryable: failure.retryable }),
    );
  }

  /** Says `text` through the live region (a second identical message is still announced). */
  #announce(text: string): void {
    this.announcement = this.announcement === text ? `${text}\u00a0` : text;
  }

  #lang(): string | undefined {
    // The property first: a `lang` just set is reflected to the attribute only after render.
    return this.lang || closestLang(this);
  }

  #translation(): Translation {
    const base = translationFor(this.#lang());
    return this.strings ? { ...base, ...this.strings } : base;
  }

  get #expiredLocally(): boolean {
    const remaining = this.#countdown.remaining;
    return remaining !== undefined && remaining <= 0;
  }

  #currentScreen(): Screen {
    switch (this.#invoiceTask.status) {
      case TaskStatus.INITIAL:
        return 'idle';
      case TaskStatus.PENDING:
        return 'loading';
      case TaskStatus.ERROR:
        return isAbortError(this.#invoiceTask.error) ? 'loading' : 'error';
    }
    return this.invoice ? screenFor(this.invoice, this.#expiredLocally) : 'loading';
  }

  /** The status line: the screen in words, or the service's own word for a status unknown here. */
  #statusText(invoice: CheckoutInvoice, t: Translation): string {
    return statusMeaning(invoice.status) === 'other' ? invoice.status : t.status(screenFor(invoice, false), invoice.status);
  }

  #qrFor(link: string): QrMatrix | undefined {
    if (this.#qr?.link !== link) this.#qr = { link, matrix: qrMatrix(link) };
    return this.#qr.matrix;
  }

  async #copy(field: CopyField, value: string, t: Translation, kind: RequisitesKind): Promise<void> {
    const outcome = await copyText(value, this.renderRoot.querySelector(`#${field}-value`));
    if (!this.isConnected) return;
    if (outcome !== 'copied') {
      this.copyByHand = field;
      return;
    }
    this.copyByHand = undefined;
    this.copied = field;
    clearTimeout(this.#copiedTimer);
    this.#copiedTimer = setTimeout(() => (this.copied = undefined), COPIED_FOR);
    this.#announce(t.copiedAnnouncement(field, kind));
    this.dispatchEvent(new CheckoutCopyEvent({ field, value }));
  }

  #askCancel(): void {
    this.confirming = true;
    this.cancelFailed = false;
    this.#focusAfterUpdate = '[part~="keep-button"]';
  }

  #keepPaying(): void {
    if (this.#cancelTask.status === TaskStatus.PENDING) return;
    this.confirming = false;
    this.cancelFailed = false;
    this.#focusAfterUpdate = '[part~="cancel-button"]';
  }

  #confirmCancel(): void {
    // However many clicks or key presses arrive, one POST: the task turns pending synchronously.
    if (this.#cancelTask.status === TaskStatus.PENDING || !this.invoice) return;
    this.cancelFailed = false;
    this.#poll.stop();
    void this.#cancelTask.run([this.#client(), this.invoiceId]);
  }

  #onCancelKeydown(event: KeyboardEvent): void {
    if (event.key === 'Escape' && this.confirming) {
      event.stopPropagation();
      this.#keepPaying();
    }
  }

  #selectVariant(variant: PaymentVariant): void {
    if (this.#dealTask.status === TaskStatus.PENDING || !this.invoice) return;
    const request = new CheckoutVariantSelectEvent({ option: variant.option, method: variant.method });
    this.dispatchEvent(request);
    if (request.defaultPrevented) return;
    this.dealNotice = undefined;
    this.pendingVariant = variant;
    this.#poll.stop();
    void this.#dealTask.run([this.#client(), this.invoiceId, { option: variant.option, method: variant.method }]);
  }

  override render(): TemplateResult {
    const t = this.#translation();
    const screen = this.#currentScreen();
    return html`
      <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
      <div part="base" class="base" data-screen=${screen} aria-busy=${screen === 'loading' ? 'true' : 'false'}>
        ${this.#renderScreen(screen, t)}
      </div>
    `;
  }

  #renderScreen(screen: Screen, t: Translation): TemplateResult | typeof nothing {
    const invoice = this.invoice;
    if (screen === 'idle') return nothing;
    if (screen === 'loading') return skeleton(t.loading);
    if (screen === 'error' || !invoice) return this.#renderError(t);
    const locale = intlLocale(this.#lang(), translationFor(this.#lang()));
    const amount = formatMoney(invoice.sum, locale);
    const deal = activeDeal(invoice);
    return html`
      <header>
        ${invoice.storeName ? html`<p part="payee" class="payee">${t.payee(invoice.storeName)}</p>` : nothing}
        <h2 part="title" tabindex="-1">${t.title(screen)}</h2>
        <p part="status">
          <span class="label">${t.statusLabel}:</span>
          <span class="status-value">${this.#statusText(invoice, t)}</span>
        </p>
      </header>
      ${screen === 'waiting' && deal
        ? this.#renderDeal(invoice, deal, amount, t)
        : html`
            ${screen === 'picker' || screen === 'other'
              ? nothing
              : html`<p part="explanation">${t.explanation(screen, invoice.status)}</p>`}
            <dl part="details">
              ${field({ part: 'amount', label: t.amountLabel, value: amount, valueId: 'amount-value', valueClass: 'amount' })}
            </dl>
            ${screen === 'other' ? html`<p part="explanation">${t.explanation(screen, invoice.status)}</p>` : nothing}
            ${screen === 'picker' ? this.#renderPicker(invoice, t) : nothing}
          `}
      ${this.connectionLost && screen !== 'paid' && screen !== 'canceled'
        ? html`<p part="notice" class="notice" role="status">${t.connectionTrouble}</p>`
        : nothing}
      ${(screen === 'waiting' || screen === 'picker') && this.#countdown.remaining !== undefined
        ? timer({ label: t.timeLeftLabel, time: formatDuration(this.#countdown.remaining) })
        : nothing}
      ${screen === 'waiting' ? this.#renderVariants(invoice, deal, t) : nothing}
      ${screen === 'waiting' && !this.hideCancel ? this.#renderCancel(t) : nothing}
    `;
  }

  #renderDeal(invoice: CheckoutInvoice, deal: CheckoutDeal, amount: string, t: Translation): TemplateResult {
    const raw = deal.requisites?.requisites ?? '';
    const holder = deal.requisites?.holder ?? '';
    const requisites = formatRequisites(raw);
    const link = safeQrLink(deal.qrCodeLink);
    const matrix = link ? this.#qrFor(link) : undefined;
    const touch = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
    const copyButton = (copyField: CopyField, value: string) => ({
      label: this.copied === copyField ? t.copied : t.copyLabel(copyField, requisites.kind),
      text: this.copied === copyField ? t.copied : t.copy,
      onCopy: () => void this.#copy(copyField, value, t, requisites.kind),
    });
    return html`
      <dl part="details">
        ${field({
          part: 'amount',
          label: t.amountLabel,
          value: amount,
          valueId: 'amount-value',
          valueClass: 'amount',
          copy: copyButton('amount', invoice.sum.amount),
          note: this.copyByHand === 'amount' ? t.copyManually : undefined,
        })}
        ${field({ part: 'bank', label: t.bankLabel, value: deal.paymentMethodName ?? deal.paymentMethod ?? '', valueId: 'bank-value' })}
        ${field({
          part: 'requisites',
          label: t.requisitesLabel(requisites.kind),
          value: requisites.text,
          valueId: 'requisites-value',
          valueClass: 'requisites',
          copy: copyButton('requisites', raw),
          note: this.copyByHand === 'requisites' ? t.copyManually : undefined,
        })}
        ${field({ part: 'holder', label: t.holderLabel, value: holder, valueId: 'holder-value' })}
      </dl>
      <p part="guidance" class="guidance">${t.guidance(amount)}</p>
      ${matrix ? qrCode({ matrix, label: t.qrLabel, hint: t.qrHint }) : nothing}
      ${link && touch
        ? html`<a part="bank-link" class="primary" href=${link} target="_blank" rel="noopener noreferrer"
            >${t.openInBankApp}</a
          >`
        : nothing}
    `;
  }

  #bankName(invoice: CheckoutInvoice): (method: string) => string {
    return (method) => invoice.deals.find((deal) => deal.paymentMethod === method && deal.paymentMethodName)?.paymentMethodName ?? method;
  }

  /** Beside an active deal: the variants as a list, the deal's own marked. */
  #renderVariants(invoice: CheckoutInvoice, deal: CheckoutDeal | undefined, t: Translation): TemplateResult | typeof nothing {
    const variants = this.#variantsTask.value;
    if (this.#variantsTask.status !== TaskStatus.COMPLETE || !variants?.length) return nothing;
    return variantList({
      title: t.variantsLabel,
      groups: groupVariants(variants, this.#bankName(invoice)),
      optionLabel: t.option,
      isActive: (variant) => variant.method === deal?.paymentMethod && variant.option === deal.paymentOption,
      currentLabel: t.currentVariant,
    });
  }

  /** Without an active deal: the variants as buttons that start one. */
  #renderPicker(invoice: CheckoutInvoice, t: Translation): TemplateResult {
    const status = this.#variantsTask.status;
    const variants = this.#variantsTask.value ?? [];
    const notice =
      this.dealNotice === 'unsupported'
        ? html`<p part="notice" class="notice" role="status">${t.dealUnsupported}</p>`
        : this.dealNotice
          ? html`<p part="notice" class="notice alert" role="alert">${DEAL_NOTICE_TEXT[this.dealNotice](t)}</p>`
          : nothing;
    if (status === TaskStatus.ERROR || (status === TaskStatus.COMPLETE && variants.length === 0)) {
      return html`
        <div class="actions">
          <p part="notice" class="notice alert" role="alert">${t.variantsFailed}</p>
          <button part="retry-button" type="button" @click=${() => void this.#variantsTask.run()}>${t.retry}</button>
        </div>
      `;
    }
    if (status !== TaskStatus.COMPLETE) return html`<div class="bar"></div>`;
    return html`
      ${variantList({
        title: t.variantsLabel,
        groups: groupVariants(variants, this.#bankName(invoice)),
        optionLabel: t.option,
        onSelect: (variant) => this.#selectVariant(variant),
        pending: this.pendingVariant,
        pendingLabel: t.startingDeal,
      })}
      ${notice}
    `;
  }

  #renderCancel(t: Translation): TemplateResult {
    const pending = this.#cancelTask.status === TaskStatus.PENDING;
    const failure = this.cancelFailed
      ? html`<p part="notice" class="notice alert" role="alert">${t.cancelFailed}</p>`
      : nothing;
    if (!this.confirming) {
      return html`
        <div class="actions">
          <button part="cancel-button" type="button" @click=${() => this.#askCancel()}>${t.cancel}</button>
        </div>
      `;
    }
    return html`
      <div class="actions" role="group" aria-labelledby="cancel-question" @keydown=${(event: KeyboardEvent) => this.#onCancelKeydown(event)}>
        <p id="cancel-question">${t.cancelQuestion}</p>
        <button
          part="confirm-button"
          class="danger"
          type="button"
          aria-disabled=${pending ? 'true' : 'false'}
          @click=${() => this.#confirmCancel()}
        >
          ${pending ? t.canceling : t.confirmCancel}
        </button>
        <button
          part="keep-button"
          type="button"
          aria-disabled=${pending ? 'true' : 'false'}
          @click=${() => this.#keepPaying()}
        >
          ${t.keepPaying}
        </button>
      </div>
      ${failure}
    `;
  }

  #renderError(t: Translation): TemplateResult {
    const error = this.#invoiceTask.error;
    const code = error instanceof CheckoutError ? error.code : 'network_error';
    return html`
      <div part="error" role="alert">
        <h2 part="title" tabindex="-1">${t.title('error')}</h2>
        <p>${t.errorMessage(code)}</p>
        <button part="retry-button" class="primary" type="button" @click=${() => this.retry()}>${t.retry}</button>
      </div>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'merchant-checkout': MerchantCheckout;
  }
}
