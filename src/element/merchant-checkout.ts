import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { closestLang, intlLocale, translationFor } from './i18n/locale.js';
import type { Translation } from './i18n/translation.js';
import { styles } from './merchant-checkout.styles.js';
import { type CheckoutClient, createCheckoutClient } from './protocol-client.js';
import { DEFAULT_POLL_INTERVAL } from './poll-policy.js';
import { screen, type ScreenModel } from './screen.js';
import { InvoiceSession } from './session/invoice-session.js';
import { VERSION } from './version.js';
import { errorScreen, invoiceScreen, type ScreenActions, type ScreenContext, skeleton } from './views.js';

/**
 * @summary The payer's checkout for one invoice: where to send the money and how much, a QR
 * code, the countdown, the live status, the payment variants and a cancel button.
 *
 * @tagname merchant-checkout
 *
 * @event {CheckoutReadyEvent} checkout-ready - The first data of the invoice is rendered. `detail: { invoice }`.
 * @event {CheckoutStatusEvent} checkout-status - The invoice's status changed. `detail: { status, previous, invoice, source }` (`source`: `push` from the event stream, `poll`, `load`, `deal` or `cancel`).
 * @event {CheckoutCanceledEvent} checkout-canceled - The payer canceled and the service's answer says canceled. `detail: { invoice }` (the cancel operation's invoice).
 * @event {CheckoutExpiredEvent} checkout-expired - The countdown to `expireAt` (server time) reached zero. `detail: { invoice }`.
 * @event {CheckoutVariantSelectEvent} checkout-variant-select - The payer picked a payment variant. Cancelable: `preventDefault()` stops the element from starting a deal. `detail: { option, method }`.
 * @event {CheckoutCopyEvent} checkout-copy - A value was copied to the clipboard. `detail: { field: 'amount' | 'requisites', value }` (the raw value).
 * @event {CheckoutErrorEvent} checkout-error - A request failed or its answer was invalid. `detail: { code, message, retryable }`.
 * @event {CheckoutAmountChangedEvent} checkout-amount-changed - The amount (or currency), requisites or holder changed while the payer was looking, or the first read has `isSumChanged`; one event per field, shown in part `change-notice` too. `detail: { field: 'amount' | 'requisites' | 'holder', previous, current, invoice }` (Money for the amount, `previous` undefined for `isSumChanged`; text otherwise).
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
 * @csspart notice - A short message under a block (copy by hand, connection trouble, a failed or refused cancel, a failed deal).
 * @csspart change-notice - What changed while the payer was looking (amount, requisites, holder), old → new, with a button that closes it (`role="alert"`).
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

  /**
   * Everything of the current invoice (a controller of this element): replaced whole, the old
   * one's work aborted, when `invoice-id`, `endpoint`, `client` or `no-stream` changes.
   */
  #session: InvoiceSession | undefined;

  /** The invoice UUID minted by the merchant's server. */
  @property({ attribute: 'invoice-id' }) invoiceId = '';

  /** Base URL of the merchant's checkout proxy, relative or absolute (default: the site's root). */
  @property() endpoint = '';

  /** `ru` or `en` (any tag: `ru-RU` falls back to `ru`, unknown languages to `en`); defaults to the nearest `lang` around. */
  @property({ reflect: true }) override lang!: string;

  /** Milliseconds between status reads while the status can still change (at least 1000). */
  @property({ type: Number, attribute: 'poll-interval' }) pollInterval = DEFAULT_POLL_INTERVAL;

  /**
   * Follows the status by polling only. By default the element opens the proxy's event stream
   * (`GET {endpoint}/invoices/{id}/events`) after the first read and polls only while the stream
   * is not delivering; a client without `watch` (custom headers, or an own `client`) is polled.
   * Changing it reloads the invoice.
   */
  @property({ type: Boolean, attribute: 'no-stream' }) noStream = false;

  /** Removes the cancel button. */
  @property({ type: Boolean, attribute: 'hide-cancel' }) hideCancel = false;

  /** `light` or `dark`; absent to follow `prefers-color-scheme`. */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  /** The object that speaks the checkout protocol; by default one built from `endpoint` and `fetch`. */
  @property({ attribute: false }) client: CheckoutClient | undefined;

  /** Replacements for any of the built-in strings of the current language. */
  @property({ attribute: false }) strings: Partial<Translation> | undefined;

  @state() private announcement = '';

  #langObserver: MutationObserver | undefined;
  /** The screen this update rendered, and the one the update before did: focus follows a change of screen. */
  #rendered: ScreenModel['screen'] | undefined;
  #screen: ScreenModel['screen'] | undefined;
  #focusWasInside = false;
  #focusAfterUpdate: string | undefined;

  readonly #actions: ScreenActions = {
    copy: (copy) => void this.#session?.copy(copy.field, copy.value, copy.kind, this.renderRoot.querySelector(`#${copy.field}-value`)),
    select: (variant) => this.#session?.selectVariant(variant),
    retryVariants: () => this.#session?.retryVariants(),
    askCancel: () => {
      this.#session?.askCancel();
      this.#focusAfterUpdate = '[part~="keep-button"]';
    },
    confirmCancel: () => this.#session?.confirmCancel(),
    keepPaying: () => {
      if (this.#session?.keepPaying()) this.#focusAfterUpdate = '[part~="cancel-button"]';
    },
    dismissChanges: () => {
      this.#session?.dismissChanges();
      this.#focusAfterUpdate = '[part~="title"]';
    },
    retry: () => this.retry(),
  };

  override connectedCallback(): void {
    super.connectedCallback();
    this.#langObserver = new MutationObserver(() => this.requestUpdate());
    this.#langObserver.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#langObserver?.disconnect();
    this.#langObserver = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!this.#session || changed.has('invoiceId') || changed.has('client') || changed.has('endpoint') || changed.has('noStream')) {
      this.#session?.dispose();
      this.#session = new InvoiceSession(this, {
        client: this.client ?? createCheckoutClient({ endpoint: this.endpoint }),
        invoiceId: this.invoiceId,
        stream: !this.noStream,
        pollInterval: () => this.pollInterval,
        translation: () => this.#translation(),
        announce: (text) => this.#announce(text),
      });
    }
    this.#focusWasInside = this.shadowRoot?.activeElement != null;
  }

  protected override updated(): void {
    const screen = this.#rendered;
    let target = this.#focusAfterUpdate;
    this.#focusAfterUpdate = undefined;
    if (this.#screen !== undefined && screen !== this.#screen && this.#focusWasInside) target ??= '[part~="title"]';
    this.#screen = screen;
    if (target) this.renderRoot.querySelector<HTMLElement>(target)?.focus();
  }

  /** Reads the invoice (and the variants, if they failed) again. */
  retry(): void {
    this.#session?.retry();
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

  override render(): TemplateResult {
    // willUpdate has made the session.
    const model = screen(this.#session!.snapshot, Date.now());
    this.#rendered = model.screen;
    return html`
      <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
      <div part="base" class="base" data-screen=${model.screen} aria-busy=${model.screen === 'loading' ? 'true' : 'false'}>
        ${this.#renderScreen(model)}
      </div>
    `;
  }

  #renderScreen(model: ScreenModel): TemplateResult | typeof nothing {
    const context: ScreenContext = {
      t: this.#translation(),
      locale: intlLocale(this.#lang(), translationFor(this.#lang())),
      hideCancel: this.hideCancel,
      actions: this.#actions,
    };
    switch (model.screen) {
      case 'idle':
        return nothing;
      case 'loading':
        return skeleton(context.t.loading);
      case 'error':
        return errorScreen(model.code, context);
      default:
        return invoiceScreen(model, context);
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'merchant-checkout': MerchantCheckout;
  }
}
