import { html, LitElement, nothing, type CSSResultGroup, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { afterPaint } from './controllers/after-paint.js';
import { FocusController } from './controllers/focus-controller.js';
import { LazyModule } from './controllers/lazy-module.js';
import { LazyPartsController } from './controllers/lazy-parts-controller.js';
import {
  BOOT_STRINGS,
  type BootStrings,
  closestLang,
  intlLocale,
  type Language,
  LANGUAGES,
  languageOf,
  loadTranslation,
} from './i18n/lang.js';
import { type Translation, withStrings } from './i18n/translation.js';
import type { JourneyStrings } from './journey/strings.js';
import { numberFormat } from './format.js';
import { styles } from './merchant-checkout.styles.js';
import { CHECKOUT_TOKEN_HEADER, type CheckoutClient, createCheckoutClient } from './protocol-client.js';
import { DEFAULT_POLL_INTERVAL } from './poll-policy.js';
import { screenName } from './screen-state.js';
import type { ScreenModel } from './screen-model.js';
import type { BankOverrides } from './session/bank-names.js';
import { InvoiceSession } from './session/invoice-session.js';
import { VERSION } from './version.js';
import { errorScreen, invoiceScreen, lazyContext, loadViews, screenModel, screenStyles, skeleton } from './view-loader.js';
import type { ScreenActions, ScreenContext } from './view-context.js';
import type { BankPickerStrings } from './banks/picker-view.js';

/**
 * @summary The payer's checkout for one invoice: where to send the money and how much, a QR
 * code, the countdown, the live status, the payment variants and a cancel button.
 *
 * @tagname merchant-checkout
 *
 * @event {CheckoutReadyEvent} checkout-ready - The first data of the invoice is rendered. `detail: { invoice }`.
 * @event {CheckoutStatusEvent} checkout-status - The invoice's status changed. `detail: { status, previous, invoice, source }` (`source`: `push` from the event stream, `poll`, `load`, `deal` or `cancel`).
 * @event {CheckoutCanceledEvent} checkout-canceled - The payer canceled and the service's answer says canceled. `detail: { invoice }` (the cancel operation's invoice).
 * @event {CheckoutExpiredEvent} checkout-expired - The time to pay ran out while the payer watched: the countdown to `expireAt` (server time) reached zero and the read made then found the invoice unpaid (or the service says expired). Never for an invoice paid in its last seconds. `detail: { invoice }`.
 * @event {CheckoutVariantSelectEvent} checkout-variant-select - The payer picked a payment variant. Cancelable: `preventDefault()` stops the element from starting a deal. `detail: { option, method }`.
 * @event {CheckoutCopyEvent} checkout-copy - A value was copied to the clipboard. `detail: { field: 'amount' | 'requisites' | 'ifsc' | 'reference', value }` (the raw value).
 * @event {CheckoutErrorEvent} checkout-error - A request failed or its answer was invalid. `detail: { code, message, retryable }`.
 * @event {CheckoutPayerConfirmedEvent} checkout-payer-confirmed - The payer pressed "I have paid" (nothing is sent by it; the element shows the check and keeps following the status). `detail: { invoice, deal }`.
 * @event {CheckoutReceiptEvent} checkout-receipt - The payer's receipt reached the service through the proxy; the deal is `transfer_confirmed`. `detail: { invoice }`.
 * @event {CheckoutReportEvent} checkout-report - The payer reported a payment that went missing and the proxy took it. `detail: { outcome: 'forwarded' | 'reported', invoice }` (`forwarded`: a dispute was opened with the service; `reported`: the merchant's hook kept it).
 * @event {CheckoutReturnEvent} checkout-return - The payer is going back to the shop (the link on a final screen, or `auto-return`). Cancelable: `preventDefault()` keeps the payer on the page. `detail: { url, status, automatic }`.
 * @event {CheckoutTimingEvent} checkout-timing - A moment of the checkout timed for the shop's real-user monitoring: `ready` (the first screen of the invoice rendered), `requisites` (where to send the money rendered, once), `error` (a request failed, each time, with its `code`). `detail: { name, ms, code? }` (`ms` since the element started loading the invoice).
 * @event {CheckoutAmountChangedEvent} checkout-amount-changed - The amount (or currency), requisites or holder changed while the payer was looking, or the first read has `isSumChanged`; one event per field, shown in part `change-notice` too. `detail: { field: 'amount' | 'requisites' | 'holder', previous, current, invoice }` (Money for the amount, `previous` undefined for `isSumChanged`; text otherwise).
 *
 * @csspart base - The card around every screen; `data-screen` names the screen (`idle`, `loading`, `waiting`, `checking`, `picker`, `payout`, `paid`, `canceled`, `expired`, `dispute`, `other`, `error`).
 * @csspart icon - The picture of a final, review or error screen (decorative, hidden from screen readers).
 * @csspart skeleton - The loading screen's placeholder.
 * @csspart payee - Who is being paid (the store name).
 * @csspart title - The heading of each screen (focused when the screen changes under the payer's focus).
 * @csspart status - The status line.
 * @csspart details - The list of amount, bank, requisites and holder.
 * @csspart amount - The amount to send, or paid (formatted; its copy button copies the exact amount).
 * @csspart reference - The payment's number to quote to the shop, with a copy button (expired and dispute screens).
 * @csspart bank - The bank's name.
 * @csspart requisites - Where to send the money, formatted for reading: a card, phone or account number, a UPI ID, a CVU, a Telegram bot.
 * @csspart ifsc - The IFSC of an Indian account (IMPS), with its own copy button.
 * @csspart holder - The recipient's name.
 * @csspart copy-button - A button that copies a raw value.
 * @csspart notice - A short message under a block (copy by hand, connection trouble, offline, a failed or refused cancel, a failed deal).
 * @csspart change-notice - What changed while the payer was looking (amount, requisites, holder), old → new, with a button that closes it (`role="alert"`).
 * @csspart guidance - What a P2P payer must know ("send exactly this amount in one payment").
 * @csspart qr - The QR code of the deal's link or QR data (only `https:` links), or the service's picture of it.
 * @csspart bank-link - "Open in bank app", the same `https:` link, on touch devices (beside the bank picker's button for an SBP link); the QR code then comes after "I have paid".
 * @csspart pay-link - "Open payment page" or "Open in Telegram": requisites that are a payment page's or a Telegram bot's link.
 * @csspart cross-border - The currency and country of a cross-border transfer.
 * @csspart bank-picker-button - "Choose your bank": opens the SBP bank picker (touch devices, SBP links).
 * @csspart bank-picker - The SBP bank picker: a search and the list of bank apps (loaded on demand).
 * @csspart bank-picker-close - "Show the QR code instead": closes the bank picker.
 * @csspart bank-any-link - "Open in any bank app": the plain SBP link.
 * @csspart bank-search - The bank picker's search box.
 * @csspart bank-option - One bank app's link in the picker (its lettermark or logo, and its name).
 * @csspart lettermark - A bank's initials on its colour (decorative, hidden from screen readers).
 * @csspart bank-logo - A bank's logo from `bank-logos` (decorative; the lettermark shows when it fails to load).
 * @csspart paid-button - "I have paid": shows the check (sends nothing by itself).
 * @csspart receipt-button - Opens the receipt form.
 * @csspart receipt-form - The receipt form (loaded on demand).
 * @csspart receipt-status - "Receipt received, the payment is being checked".
 * @csspart details-button - Back from the check to the payment details.
 * @csspart report - Why reporting a payment is offered, and its button.
 * @csspart report-button - "Report a payment" / "I have already paid": opens the report form.
 * @csspart report-form - The report form (loaded on demand).
 * @csspart report-status - The report was kept for the shop.
 * @csspart submit-button - Sends a form.
 * @csspart return-link - Back to the shop on a final screen.
 * @csspart auto-return - The seconds to the automatic return to the shop.
 * @csspart stay-button - Stops the automatic return.
 * @csspart timer - The countdown to expiry.
 * @csspart variants - The payment variants, grouped by bank.
 * @csspart change-bank - "Change bank": unfolds the payment variants beside a running deal (folded, so the deal and "I have paid" fit a phone's first screen).
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
export class MerchantCheckoutElement extends LitElement {
  // Getters, not static fields: with legacy decorators a static field compiles to a class
  // static block, which Safari parses only from 16.4 (docs/element.md, "Browsers").

  /** The package version, so a second registration of another copy can say which one it is. */
  static get version(): string {
    return VERSION;
  }

  /** The element's own styles (merchant-checkout.styles.ts). */
  static override get styles(): CSSResultGroup {
    return styles;
  }

  /**
   * Everything of the current invoice (a controller of this element): replaced whole, the old
   * one's work aborted, when `invoice-id`, `endpoint`, `client` or `no-stream` changes.
   */
  #session: InvoiceSession | undefined;

  /** The invoice UUID minted by the merchant's server. */
  @property({ attribute: 'invoice-id' }) invoiceId = '';

  /** Base URL of the merchant's checkout proxy, relative or absolute (default: the site's root). */
  @property() endpoint = '';

  /**
   * The checkout token the shop's server minted for this invoice (`merchant-checkout serve`, or
   * `checkoutTokenAuthorizer`): sent as `X-Checkout-Token` with every request of the default
   * client, the event stream's and uploads included. A new value is sent from the next request
   * on, without reloading the invoice.
   */
  @property({ attribute: 'checkout-token' }) checkoutToken = '';

  /**
   * The payer's language: `en`, `ru`, `bn`, `uz`, `az`, `es`, `ko`, `kk`, `tg` or `ky`, any tag
   * of them (`kk-KZ` → `kk`), or `auto`. Absent or `auto`: the nearest `lang` around the element,
   * then `<html lang>`, then the browser's languages; a tag the element does not ship falls
   * back along its chain (`be` → `ru`), else to the next of those, English last.
   */
  @property({ reflect: true }) override lang!: string;

  /** Milliseconds between status reads while the status can still change (at least 1000). */
  @property({ type: Number, attribute: 'poll-interval' }) pollInterval = DEFAULT_POLL_INTERVAL;

  /**
   * Follows the status by polling only. By default the element reads the proxy's event stream
   * (`GET {endpoint}/invoices/{id}/events`, with `fetch`) after the first read, trusts it while
   * it keeps talking (events or heartbeats) and polls only while it is not delivering; a
   * client without `watch` (an own `client`) is polled. Changing it reloads the invoice.
   */
  @property({ type: Boolean, attribute: 'no-stream' }) noStream = false;

  /** Where "Return to the shop" leads after paying, when the invoice has no `successUrl` (absolute or relative to the page). */
  @property({ attribute: 'return-url' }) returnUrl = '';

  /** Where "Return to the shop" leads after a cancel or expiry, when the invoice has no `cancelUrl` (default: `return-url`). */
  @property({ attribute: 'cancel-url' }) cancelUrl = '';

  /**
   * Seconds from paid to going back to the shop by itself (announced, with a button to stay);
   * 0 (the default) is off. `checkout-return` is dispatched first and may be canceled.
   */
  @property({ type: Number, attribute: 'auto-return' }) autoReturn = 0;

  /** Bank names (and lettermark colours, search aliases) by the service's bank code, over the bundled directory: `{ sberbank: { ru: 'Сбер', en: 'Sber', color: '#21a038' } }`. */
  @property({ attribute: false }) banks: BankOverrides | undefined;

  /**
   * Real bank logos instead of lettermarks: a URL template with `{code}` (the service's bank
   * code), e.g. `https://cdn.shop.example/banks/{code}.svg` (`https:` or the page's own origin).
   * The page's CSP must list that origin in `img-src`. Off by default: nothing is loaded from a
   * third party unless the merchant says so.
   */
  @property({ attribute: 'bank-logos' }) bankLogos = '';

  /**
   * The SBP bank picker's list: a URL of a JSON list (the NSPK member list format or an array
   * of entries, see src/element/banks/README.md), or the list itself as a property. Default:
   * the bundled directory of the largest SBP banks.
   */
  @property({ attribute: 'sbp-banks' }) sbpBanks: string | object | undefined;

  /** Removes the cancel button. */
  @property({ type: Boolean, attribute: 'hide-cancel' }) hideCancel = false;

  /** `light` or `dark`; absent to follow `prefers-color-scheme`. */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  /** The object that speaks the checkout protocol; by default one built from `endpoint` and `fetch`. */
  @property({ attribute: false }) client: CheckoutClient | undefined;

  /** Replacements for any of the built-in strings of the current language (the forms', the bank picker's and the boot strings too). */
  @property({ attribute: false }) strings: Partial<Translation & JourneyStrings & BankPickerStrings & BootStrings> | undefined;

  @state() private announcement = '';

  #langObserver: MutationObserver | undefined;
  readonly #focus = new FocusController(this);
  /** The QR code, the forms, the lettermarks and the bank picker: loaded when a screen may need them. */
  readonly #lazy = new LazyPartsController(this);

  /** What the payer can do, wired to the session; focus goes where the payer's next step is. */
  readonly #actions: ScreenActions = {
    copy: (copy) => void this.#session?.copy(copy.field, copy.value, copy.kind, this.renderRoot.querySelector(`#${copy.field}-value`)),
    select: (variant) => this.#session?.selectVariant(variant),
    retryVariants: () => this.#session?.retryVariants(),
    askCancel: () => {
      this.#session?.cancel.ask();
      this.#focus.after('[part~="keep-button"]');
    },
    confirmCancel: () => this.#session?.cancel.confirm(),
    keepPaying: () => {
      if (this.#session?.cancel.keep()) this.#focus.after('[part~="cancel-button"]');
    },
    dismissChanges: () => {
      this.#session?.dismissChanges();
      this.#focus.after('[part~="title"]');
    },
    retry: () => this.retry(),
    confirmPaid: () => {
      this.#session?.confirmPaid();
      this.#focus.after('[part~="title"]');
    },
    showDetails: (show) => {
      this.#session?.toggleDetails(show);
      this.#focus.after('[part~="title"]');
    },
    receiptForm: (open) => {
      this.#session?.forms.toggle('receipt', open);
      this.#focus.after(open ? '#receipt-file' : '[part~="receipt-button"]');
    },
    reportForm: (open) => {
      this.#session?.forms.toggle('report', open);
      this.#focus.after(open ? '[part~="report-form"] input' : '[part~="report-button"]');
    },
    returnToShop: (event, to) => {
      if (!this.#session?.leave(to, false)) event.preventDefault();
    },
    stopAutoReturn: () => {
      this.#session?.stopAutoReturn();
      this.#focus.after('[part~="return-link"]');
    },
    bankPicker: (open) => {
      this.#session?.bankPicker(open);
      this.#lazy.clearSearch();
      this.#focus.after(open ? '#bank-picker-title' : '[part~="bank-picker-button"]');
    },
  };

  override connectedCallback(): void {
    // The payer's strings and the screens' templates are what the first invoice screen waits
    // for longest on a slow network: asked for first, before the styles and the first reads.
    if (this.invoiceId) this.#languages[languageOf(this.#lang())].get();
    super.connectedCallback();
    this.#langObserver = new MutationObserver(() => this.requestUpdate());
    this.#langObserver.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#langObserver?.disconnect();
    this.#langObserver = undefined;
  }

  /** The checkout token as a request header, if there is one. */
  #tokenHeader(): Record<string, string> {
    return this.checkoutToken ? { [CHECKOUT_TOKEN_HEADER]: this.checkoutToken } : {};
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!this.#session || changed.has('invoiceId') || changed.has('client') || changed.has('endpoint') || changed.has('noStream')) {
      this.#session?.dispose();
      this.#session = new InvoiceSession(this, {
        client: this.client ?? createCheckoutClient({ endpoint: this.endpoint, headers: () => this.#tokenHeader() }),
        invoiceId: this.invoiceId,
        stream: !this.noStream,
        pollInterval: () => this.pollInterval,
        language: () => languageOf(this.#lang()),
        announce: (text) => {
          const t = this.#translation();
          if (t) this.#announce(text(t));
        },
        autoReturn: () => (this.autoReturn > 0 && Number.isFinite(this.autoReturn) ? Math.ceil(this.autoReturn) : 0),
        banks: () => this.banks,
      });
      // The first `Intl.NumberFormat` of a page sets up the browser's number data: 60–200 ms on
      // a phone's CPU (BENCHMARKS.md, section 12). Made while the invoice is read, once the
      // loading screen is drawn, it is not paid again when the amount is formatted.
      if (this.invoiceId) afterPaint(() => numberFormat(intlLocale(this.#lang(), { language: languageOf(this.#lang()) })));
    }
  }

  protected override updated(): void {
    // The automatic return's time is up: the page may still keep the payer (`checkout-return`).
    const to = this.#model && 'returnTo' in this.#model ? this.#model.returnTo : undefined;
    if (to?.autoIn === 0 && this.#session?.leave(to, true)) location.assign(to.url);
  }

  /**
   * An update is complete once the language's strings and the screens' templates are here (or
   * could not be loaded): `checkout-ready` and the other events dispatched after a render then
   * follow the screen the payer sees, not the loading skeleton shown meanwhile.
   */
  protected override async getUpdateComplete(): Promise<boolean> {
    const done = await super.getUpdateComplete();
    const strings = this.#languages[languageOf(this.#lang())];
    if (strings.get() || strings.failed) return done;
    await strings.settled();
    return super.getUpdateComplete();
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
    return this.lang && this.lang !== 'auto' ? this.lang : closestLang(this.parentNode);
  }

  /** The strings of the page's language, with the merchant's replacements; undefined while they load. */
  #translation(): Translation | undefined {
    const base = this.#languages[languageOf(this.#lang())].get();
    return base && this.strings ? { ...base, ...this.strings } : base;
  }

  /** What the element says before its strings are here, with the merchant's replacements. */
  #bootStrings(language: Language): BootStrings {
    return withStrings(BOOT_STRINGS[language], this.strings);
  }

  /** Each language's strings, loaded when the page first needs them, with the screens' templates. */
  readonly #languages = Object.fromEntries(
    LANGUAGES.map((language) => [
      language,
      new LazyModule(this, language, () => Promise.all([loadTranslation(language), loadViews()]).then(([t]) => t)),
    ]),
  ) as Record<Language, LazyModule<Translation>>;

  #model: ScreenModel | undefined;

  override render(): TemplateResult {
    // willUpdate has made the session.
    const snapshot = this.#session!.snapshot;
    const t = this.#translation();
    // Until the language's strings are here (the screens' model and templates come with them),
    // an invoice is still loading for the payer.
    const model: ScreenModel = t
      ? screenModel(snapshot, Date.now(), {
          returnUrl: this.returnUrl || undefined,
          cancelUrl: this.cancelUrl || undefined,
          baseUrl: document.baseURI,
          touch: typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches,
        })
      : screenName(snapshot, Date.now()) === 'idle'
        ? { screen: 'idle' }
        : { screen: 'loading' };
    const language = languageOf(this.#lang());
    const failed = !t && this.#languages[language].failed;
    this.#model = model;
    const shown = failed ? 'error' : model.screen;
    return html`
      <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
      <div part="base" class="base" lang=${language} data-screen=${shown} aria-busy=${shown === 'loading' ? 'true' : 'false'}>
        ${failed ? bootError(this.#bootStrings(language)) : t ? this.#renderScreen(model, t) : model.screen === 'idle' ? nothing : skeleton(this.#bootStrings(language).loading)}
      </div>
    `;
  }

  #renderScreen(model: ScreenModel, t: Translation): TemplateResult | typeof nothing {
    // The strings came with the templates and their styles: those go before any part's.
    this.#lazy.adoptStyles(screenStyles());
    const locale = intlLocale(this.#lang(), t);
    const context: ScreenContext = {
      t,
      locale,
      hideCancel: this.hideCancel,
      actions: this.#actions,
      ...lazyContext(this.#lazy, model, t, locale, this.#session!, this.#actions),
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

/** The strings of the page's language could not be loaded (offline): the error screen, and a reload as the way out. */
const bootError = (text: BootStrings): TemplateResult => {
  return html`
    <div part="error" role="alert">
      <h2 part="title" tabindex="-1">${text.loadFailed}</h2>
      <p>${text.loadFailedReason}</p>
      <button part="retry-button" class="primary" type="button" @click=${() => location.reload()}>${text.reload}</button>
    </div>
  `;
};

declare global {
  interface HTMLElementTagNameMap {
    'merchant-checkout': MerchantCheckoutElement;
  }
}
