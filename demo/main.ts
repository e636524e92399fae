/**
 * The demo shop's checkout page: the payer's side (the order and the live `<merchant-checkout>`)
 * beside the merchant's side (create an invoice, the invoice list, the mock service's controls,
 * the element's events, the QA deep links). Rendered with lit-html into the light DOM.
 */
import 'merchant-checkout/define';
import { formatMoney, LANGUAGES, type Language, statusMeaning } from 'merchant-checkout';
import { positiveDecimalString, safeParse } from 'merchant-checkout/schemas';
import { html, nothing, render, type TemplateResult } from 'lit';
import { isLang, LANGUAGE_NAMES, TEXT, type Lang, type PageText } from './i18n.js';
import {
  demoApi,
  DemoApiError,
  type CreateOrderInput,
  type DemoOrder,
  type Fault,
  type InvoiceAction,
  type ServiceReference,
  type ServiceState,
  type ServiceSwitch,
} from './shared/demo-api.js';
import { listenToCheckout, logEntry, type LoggedEvent } from './shared/events.js';
import {
  type DemoScenario,
  isOptionScenario,
  isScenario,
  OPTION_SCENARIOS,
  type OptionScenarioName,
  SCENARIOS,
} from './shared/scenarios.js';

type Theme = 'auto' | 'light' | 'dark';
const isCheckoutLang = (value: unknown): value is Language => (LANGUAGES as readonly unknown[]).includes(value);
const isTheme = (value: unknown): value is Theme => value === 'auto' || value === 'light' || value === 'dark';

/**
 * Banks the create form offers until the service's own list (`listPaymentMethods('RUB')`) has
 * been read; its codes and names are the service's (see src/mock/banks.ts).
 */
const FALLBACK_BANKS: readonly ServiceReference['methods'][number][] = [
  { code: 'sberbank', name: 'Сбербанк' },
  { code: 'tinkoff', name: 'Т-Банк' },
  { code: 'alfabank', name: 'Альфа-Банк' },
  { code: 'vtb', name: 'ВТБ' },
  { code: 'raiffeisenbank', name: 'Райффайзенбанк' },
  { code: 'gazprombank', name: 'Газпромбанк' },
  { code: 'ozonbank', name: 'Озон Банк' },
];
const OPTIONS = ['TO_CARD', 'SBP'] as const;
const CURRENCIES = ['RUB', 'KZT', 'USD', 'EUR', 'USDT'] as const;
const ORDERS_REFRESH_MS = 4000;
/** Faster than the element's default (5 s), so the mock's controls show quickly. */
const POLL_INTERVAL_MS = 2000;
/** The documented interval of the service's notification retries. */
const CLOCK_STEP_MS = 60_000;
const HOUR_MS = 60 * 60_000;
/** Longer than the service's retries of one notification (three attempts, 60 s apart): what reconciliation is for. */
const SHOP_OUTAGE_MS = 3 * 60_000;
const DISPUTE_REASONS = ['no_payment', 'invalid_sum'] as const;
type DisputeReason = (typeof DISPUTE_REASONS)[number];

interface LogLine extends LoggedEvent {
  orderId: string | undefined;
}

interface Notice {
  text: string;
  error: boolean;
}

class DemoPage {
  readonly #root: HTMLElement;
  /** The checkout's language (any of the element's); the page's own text is English or Russian ({@link DemoPage.#pageLang}). */
  #lang: Language = 'en';
  #theme: Theme = 'auto';
  /** `?auto-return=N`: the element's `auto-return` (seconds), to try the automatic return to the shop. */
  #autoReturn = 0;
  #orders: DemoOrder[] = [];
  #selected: string | undefined;
  /** The selected order as last seen, so a list that does not hold it (yet) keeps the checkout on screen. */
  #selectedOrder: DemoOrder | undefined;
  /** Only the answer of the latest list request is used: an older one may miss a new order. */
  #refreshTicket = 0;
  #preparing = false;
  #events: LogLine[] = [];
  #formType: 'in' | 'out' = 'in';
  #formError: { message: string; field: string | undefined; serviceCode: string | undefined } | undefined;
  #creating = false;
  #busy = false;
  #notice: Notice | undefined;
  #service: ServiceState | undefined;
  #reference: ServiceReference | undefined;
  #referenceError: string | undefined;
  #disputeReason: DisputeReason = 'no_payment';

  constructor(root: HTMLElement) {
    this.#root = root;
  }

  get #pageLang(): Lang {
    return isLang(this.#lang) ? this.#lang : 'en';
  }

  get #t(): PageText {
    return TEXT[this.#pageLang];
  }

  get #order(): DemoOrder | undefined {
    const listed = this.#orders.find((order) => order.invoiceId === this.#selected);
    if (listed) this.#selectedOrder = listed;
    return this.#selectedOrder?.invoiceId === this.#selected ? this.#selectedOrder : undefined;
  }

  async start(): Promise<void> {
    const params = new URLSearchParams(location.search);
    const lang = params.get('lang');
    const theme = params.get('theme');
    const scenario = params.get('scenario');
    if (isCheckoutLang(lang)) this.#lang = lang;
    else if (isOptionScenario(scenario)) this.#lang = OPTION_SCENARIOS[scenario].lang;
    else if (navigator.language.toLowerCase().startsWith('ru')) this.#lang = 'ru';
    if (isTheme(theme)) this.#theme = theme;
    this.#autoReturn = Math.max(0, Math.min(60, Number(params.get('auto-return')) || 0));
    this.#applyLangAndTheme();
    // "Return to the shop" leads back here, to the same order.
    if (params.has('returned')) this.#say(this.#t.returned);
    // Before a scenario sets its faults: the backend keeps the lists, so later loads spend none.
    await this.#loadReference();

    listenToCheckout(this.#root, (event) => {
      this.#events = [{ ...logEntry(event), orderId: this.#order?.orderId }, ...this.#events].slice(0, 200);
      if (event.type !== 'checkout-copy' && event.type !== 'checkout-variant-select') void this.#refreshOrders();
      this.update();
    });
    setInterval(() => {
      if (!document.hidden) void this.#refreshOrders();
    }, ORDERS_REFRESH_MS);

    if (isScenario(scenario) || isOptionScenario(scenario)) {
      await this.#runScenario(scenario);
      return;
    }
    await this.#refreshOrders();
    const wanted = params.get('invoice');
    const order = this.#orders.find((each) => each.invoiceId === wanted) ?? this.#orders[0];
    if (order) this.#select(order);
    else await this.#runScenario('waiting');
  }

  // ── State changes ──────────────────────────────────────────────────────────────

  async #runScenario(scenario: DemoScenario): Promise<void> {
    this.#preparing = true;
    this.#selected = undefined;
    this.update();
    try {
      const order = await demoApi.scenario(scenario);
      this.#preparing = false;
      this.#select(order);
      if (scenario === 'checking') this.#pressPaidWhenReady();
      await this.#refreshOrders();
    } catch (error) {
      this.#preparing = false;
      this.#say(this.#messageOf(error), true);
    }
  }

  /**
   * A payment option's link opens its deal in this page, in its language (no new document: going
   * through twenty options stays quick); a modified click opens the link as links do.
   */
  #openOptionScenario(event: MouseEvent, scenario: OptionScenarioName): void {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    this.#lang = OPTION_SCENARIOS[scenario].lang;
    this.#applyLangAndTheme();
    void this.#runScenario(scenario);
  }

  /** The `checking` scenario: the page presses the element's "I have paid" once the requisites are on screen. */
  #pressPaidWhenReady(): void {
    this.#root.addEventListener(
      'checkout-ready',
      (event) => {
        const element = event.target as HTMLElement;
        void (element as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete.then(() =>
          element.shadowRoot?.querySelector<HTMLButtonElement>('[part~="paid-button"]')?.click(),
        );
      },
      { once: true },
    );
  }

  #select(order: DemoOrder): void {
    this.#selected = order.invoiceId;
    this.#selectedOrder = order;
    this.#writeUrl();
    this.update();
  }

  async #refreshOrders(): Promise<void> {
    const ticket = ++this.#refreshTicket;
    try {
      const [orders, service] = await Promise.all([demoApi.listOrders(), demoApi.service()]);
      if (ticket !== this.#refreshTicket) return;
      this.#orders = orders;
      this.#service = service;
      this.update();
    } catch {
      // The server went away (Ctrl-C); the next refresh tries again.
    }
  }

  async #loadReference(): Promise<void> {
    try {
      this.#reference = await demoApi.reference();
      this.#referenceError = undefined;
    } catch (error) {
      this.#referenceError = this.#messageOf(error);
    }
    this.update();
  }

  #applyLangAndTheme(): void {
    document.documentElement.lang = this.#pageLang;
    document.title = `Samovar Tea · ${this.#t.payerHeading}`;
    if (this.#theme === 'auto') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = this.#theme;
  }

  /** Where the element's "Return to the shop" leads: this page, the same order, saying the payer is back. */
  #returnUrl(invoiceId: string): string {
    return `?${new URLSearchParams({ invoice: invoiceId, lang: this.#lang, returned: '1' }).toString()}`;
  }

  #writeUrl(): void {
    const params = new URLSearchParams();
    if (this.#selected) params.set('invoice', this.#selected);
    params.set('lang', this.#lang);
    if (this.#theme !== 'auto') params.set('theme', this.#theme);
    history.replaceState(null, '', `?${params.toString()}`);
  }

  #setLang(value: string): void {
    if (!isCheckoutLang(value)) return;
    this.#lang = value;
    this.#applyLangAndTheme();
    this.#writeUrl();
    this.update();
  }

  #setTheme(value: string): void {
    if (!isTheme(value)) return;
    this.#theme = value;
    this.#applyLangAndTheme();
    this.#writeUrl();
    this.update();
  }

  #say(text: string, error = false): void {
    this.#notice = { text, error };
    this.update();
  }

  #messageOf(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
  }

  async #create(form: HTMLFormElement): Promise<void> {
    const data = new FormData(form);
    const text = (name: string) => {
      const value = data.get(name);
      return typeof value === 'string' ? value : '';
    };
    const input: CreateOrderInput = {
      type: this.#formType,
      amount: text('amount'),
      currency: text('currency'),
      paymentMethod: text('paymentMethod'),
      paymentOption: text('paymentOption'),
    };
    if (this.#formType === 'in') input.startDeal = data.get('startDeal') === 'on';
    else Object.assign(input, { requisites: text('requisites'), holder: text('holder') });
    for (const field of ['successUrl', 'cancelUrl', 'maxAmount'] as const) {
      if (text(field).trim()) input[field] = text(field).trim();
    }
    // The shared schema, the same the server's MerchantClient checks again: no round trip for a typo.
    for (const field of ['amount', 'maxAmount'] as const) {
      const value = input[field];
      if (value === undefined) continue;
      const parsed = safeParse(positiveDecimalString(), value.trim());
      if (!parsed.success) {
        this.#formError = { message: `${field}: ${parsed.issues[0]?.message ?? parsed.message}`, field, serviceCode: undefined };
        this.update();
        return;
      }
    }
    this.#creating = true;
    this.#formError = undefined;
    this.update();
    try {
      const order = await demoApi.createOrder(input);
      this.#select(order);
      await this.#refreshOrders();
      this.#say(this.#t.orderCreated(order.orderId));
    } catch (error) {
      this.#formError =
        error instanceof DemoApiError
          ? { message: error.message, field: error.field, serviceCode: error.fromService ? error.code : undefined }
          : { message: this.#messageOf(error), field: undefined, serviceCode: undefined };
    } finally {
      this.#creating = false;
      this.update();
    }
  }

  async #act(action: InvoiceAction, body: Record<string, string> = {}): Promise<void> {
    const invoiceId = this.#selected;
    if (!invoiceId || this.#busy) return;
    this.#busy = true;
    this.update();
    try {
      await demoApi.invoiceAction(invoiceId, action, body);
      this.#say(action === 'resolve' ? this.#t.resolved(body.outcome ?? '') : this.#t.done[action]);
      await this.#refreshOrders();
    } catch (error) {
      this.#say(this.#messageOf(error), true);
    } finally {
      this.#busy = false;
      this.update();
    }
  }

  async #setSwitch(name: ServiceSwitch, on: boolean): Promise<void> {
    try {
      this.#service = await demoApi.setSwitch(name, on);
      this.#say(this.#t.switched[name](on));
    } catch (error) {
      this.#say(this.#messageOf(error), true);
    }
  }

  async #advanceClock(ms: number): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    this.update();
    try {
      const { now } = await demoApi.advanceClock(ms);
      await this.#refreshOrders();
      this.#say(this.#t.clockMoved(this.#time(now, 'medium')));
    } catch (error) {
      this.#say(this.#messageOf(error), true);
    } finally {
      this.#busy = false;
      this.update();
    }
  }

  /** The shop's server down for three minutes of the mock's time: longer than the service's retries last. */
  async #shopOutage(): Promise<void> {
    try {
      const { until } = await demoApi.notificationOutage(SHOP_OUTAGE_MS);
      this.#say(this.#t.shopOutageOn(this.#time(until, 'medium')));
    } catch (error) {
      this.#say(this.#messageOf(error), true);
    }
  }

  #disputeFrom(event: SubmitEvent): void {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const amount = data.get('amount');
    const body: Record<string, string> = { reason: this.#disputeReason };
    if (this.#disputeReason === 'invalid_sum' && typeof amount === 'string') body.amount = amount.trim();
    void this.#act('dispute', body);
  }

  async #fault(fault: Fault): Promise<void> {
    try {
      await demoApi.fault(fault);
      this.#say(this.#t.done[fault.kind]);
    } catch (error) {
      this.#say(this.#messageOf(error), true);
    }
  }

  #faultFrom(event: SubmitEvent, kind: Fault['kind']): void {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const count = Number(data.get('count') ?? 1);
    switch (kind) {
      case 'latency':
        void this.#fault({ kind, ms: Number(data.get('ms') ?? 0) });
        break;
      case 'fail':
        void this.#fault({ kind, count, status: Number(data.get('status') ?? 500) });
        break;
      case 'hang':
      case 'malform':
        void this.#fault({ kind, count });
        break;
      case 'reset':
        void this.#fault({ kind });
        break;
    }
  }

  #scenarioHref(scenario: DemoScenario, lang: Language = this.#lang): string {
    const params = new URLSearchParams({ scenario, lang });
    if (this.#theme !== 'auto') params.set('theme', this.#theme);
    return `/?${params.toString()}`;
  }

  #pageHref(page: 'react' | 'vue'): string {
    const params = new URLSearchParams({ lang: this.#lang });
    if (this.#selected) params.set('invoice', this.#selected);
    if (this.#theme !== 'auto') params.set('theme', this.#theme);
    return `/${page}/?${params.toString()}`;
  }

  // ── Rendering ─────────────────────────────────────────────────────────────────

  update(): void {
    render(this.#render(), this.#root);
  }

  #money(order: DemoOrder): string {
    return formatMoney(order.sum, this.#t.locale);
  }

  #time(iso: string, timeStyle: 'short' | 'medium' = 'short'): string {
    return new Intl.DateTimeFormat(this.#t.locale, { dateStyle: 'short', timeStyle }).format(new Date(iso));
  }

  #statusPill(status: string): TemplateResult {
    return html`<span class="pill" data-meaning=${statusMeaning(status)}>${status}</span>`;
  }

  #render(): TemplateResult {
    const t = this.#t;
    return html`
      <header>
        <div class="topbar">
          <a class="brand" href="/">
            <img src="/favicon.svg" alt="" width="32" height="32" />
            <span class="brand-name">Samovar Tea</span>
            <span class="brand-tagline">${t.tagline}</span>
          </a>
          <div class="switches">
            <label>
              <span>${t.language}</span>
              <select id="lang-switch" @change=${(event: Event) => this.#setLang((event.target as HTMLSelectElement).value)}>
                ${LANGUAGES.map((lang) => html`<option value=${lang} lang=${lang} ?selected=${this.#lang === lang}>${LANGUAGE_NAMES[lang]}</option>`)}
              </select>
            </label>
            <label>
              <span>${t.theme}</span>
              <select id="theme-switch" @change=${(event: Event) => this.#setTheme((event.target as HTMLSelectElement).value)}>
                ${(['auto', 'light', 'dark'] as const).map(
                  (theme) => html`<option value=${theme} ?selected=${this.#theme === theme}>${t.themes[theme]}</option>`,
                )}
              </select>
            </label>
          </div>
        </div>
        <p class="demo-badge">${t.demoBadge}</p>
      </header>
      <main class="layout">
        ${this.#renderPayer(t)}
        <section class="merchant" aria-labelledby="merchant-heading">
          <div class="merchant-head">
            <h2 id="merchant-heading">${t.merchantHeading}</h2>
            <p>${t.merchantIntro}</p>
          </div>
          ${this.#renderCreate(t)} ${this.#renderOrders(t)} ${this.#renderMock(t)} ${this.#renderReference(t)} ${this.#renderEvents(t)}
          ${this.#renderScenarios(t)}
        </section>
      </main>
      <footer class="footer"><p>${t.footer}</p></footer>
    `;
  }

  #renderPayer(t: PageText): TemplateResult {
    const order = this.#order;
    return html`
      <section class="payer" aria-labelledby="payer-heading">
        <ol class="steps">
          ${t.steps.map(
            (step, index) => html`<li class=${index < 2 ? 'done' : 'current'} aria-current=${index === 2 ? 'step' : nothing}>${step}</li>`,
          )}
        </ol>
        <h1 id="payer-heading">${t.payerHeading}</h1>
        ${
          order
            ? html`
                <div class="order-card" id="order-summary">
                  <p class="order-title">${t.orderLabel(order.orderId)}</p>
                  <dl>
                    <div>
                      <dt>${t.amount}</dt>
                      <dd class="order-amount">${this.#money(order)}</dd>
                    </div>
                    <div>
                      <dt>${t.created}</dt>
                      <dd>${this.#time(order.createdAt)}</dd>
                    </div>
                    <div>
                      <dt>${t.shopStatus} <span class="hint">${t.shopStatusHint}</span></dt>
                      <dd>${this.#statusPill(order.status)}</dd>
                    </div>
                    ${
                      order.service
                        ? html`<div>
                            <dt>${t.dealStatus} <span class="hint">${t.dealStatusHint}</span></dt>
                            <dd id="order-deal-status">${order.service.dealStatus ?? t.noDeal}</dd>
                          </div>`
                        : nothing
                    }
                  </dl>
                </div>
                ${order.type === 'out' ? html`<p class="payout-note" role="note">${t.payoutNote}</p>` : nothing}
                <merchant-checkout
                  lang=${this.#lang}
                  invoice-id=${order.invoiceId}
                  endpoint="/checkout-api"
                  return-url=${this.#returnUrl(order.invoiceId)}
                  auto-return=${this.#autoReturn || nothing}
                  poll-interval=${POLL_INTERVAL_MS}
                  theme=${this.#theme === 'auto' ? nothing : this.#theme}
                ></merchant-checkout>
              `
            : html`<p class="placeholder" aria-busy=${this.#preparing ? 'true' : 'false'}>${this.#preparing ? t.preparing : t.noOrder}</p>`
        }
      </section>
    `;
  }

  #renderCreate(t: PageText): TemplateResult {
    const error = this.#formError;
    const invalid = (field: string) => (error?.field?.startsWith(field) ? 'true' : 'false');
    return html`
      <section class="panel" aria-labelledby="create-heading">
        <h3 id="create-heading">${t.createHeading}</h3>
        <form
          id="create-form"
          class="form-grid"
          @submit=${(event: SubmitEvent) => {
            event.preventDefault();
            void this.#create(event.currentTarget as HTMLFormElement);
          }}
        >
          <fieldset class="segmented full">
            <legend>${t.direction}</legend>
            ${(['in', 'out'] as const).map(
              (type) => html`
                <label>
                  <input
                    type="radio"
                    name="type"
                    value=${type}
                    .checked=${this.#formType === type}
                    @change=${() => {
                      this.#formType = type;
                      this.update();
                    }}
                  />
                  <span>${type === 'in' ? t.payIn : t.payOut}</span>
                </label>
              `,
            )}
          </fieldset>
          <label class="field">
            <span>${t.amount}</span>
            <input
              name="amount"
              inputmode="decimal"
              autocomplete="off"
              required
              value="1500.00"
              aria-describedby="amount-hint"
              aria-invalid=${invalid('amount')}
            />
            <small id="amount-hint">${t.amountHint}</small>
          </label>
          <label class="field">
            <span>${t.currency}</span>
            <select name="currency" aria-invalid=${invalid('currency')}>
              ${CURRENCIES.map((currency) => html`<option value=${currency}>${currency}</option>`)}
            </select>
          </label>
          <label class="field">
            <span>${t.bank}</span>
            <select name="paymentMethod" aria-invalid=${invalid('paymentMethod')}>
              <option value="">${t.anyChoice}</option>
              ${(this.#reference?.methods ?? FALLBACK_BANKS).map(({ code, name }) => html`<option value=${code}>${name}</option>`)}
            </select>
          </label>
          <label class="field">
            <span>${t.option}</span>
            <select name="paymentOption" aria-invalid=${invalid('paymentOption')}>
              <option value="">${t.anyChoice}</option>
              ${OPTIONS.map((option) => html`<option value=${option}>${t.options[option]}</option>`)}
            </select>
          </label>
          ${
            this.#formType === 'in'
              ? html`
                  <label class="check full">
                    <input type="checkbox" name="startDeal" checked />
                    <span>${t.startDeal} <small>${t.startDealHint}</small></span>
                  </label>
                `
              : html`
                  <label class="field">
                    <span>${t.payeeRequisites}</span>
                    <input name="requisites" autocomplete="off" required aria-invalid=${invalid('paymentRequisites')} />
                  </label>
                  <label class="field">
                    <span>${t.payeeHolder}</span>
                    <input name="holder" autocomplete="off" required />
                  </label>
                `
          }
          <details class="full advanced" ?open=${error?.field === 'maxAmount' || error?.field?.endsWith('Url') === true}>
            <summary>${t.advanced}</summary>
            <div class="form-grid">
              <label class="field">
                <span>${t.maxAmount}</span>
                <input
                  name="maxAmount"
                  inputmode="decimal"
                  autocomplete="off"
                  aria-describedby="max-amount-hint"
                  aria-invalid=${invalid('maxAmount')}
                />
                <small id="max-amount-hint">${t.maxAmountHint}</small>
              </label>
              <label class="field">
                <span>${t.successUrl}</span>
                <input name="successUrl" type="url" autocomplete="off" placeholder="https://" aria-invalid=${invalid('successUrl')} />
              </label>
              <label class="field">
                <span>${t.cancelUrl}</span>
                <input name="cancelUrl" type="url" autocomplete="off" placeholder="https://" aria-invalid=${invalid('cancelUrl')} />
              </label>
            </div>
            <p class="muted">${t.advancedHint}</p>
          </details>
          <div class="full form-actions">
            <button class="primary" type="submit" ?disabled=${this.#creating}>${this.#creating ? t.creating : t.create}</button>
          </div>
          ${
            error
              ? html`<p class="form-error full" role="alert" data-code=${error.serviceCode ?? nothing}>
                  ${error.serviceCode ? html`${t.serviceRefused} ` : nothing}<span class="form-error-message">${error.message}</span>
                  ${error.serviceCode ? html` <code>${error.serviceCode}</code>` : nothing}
                </p>`
              : nothing
          }
        </form>
      </section>
    `;
  }

  #renderOrders(t: PageText): TemplateResult {
    return html`
      <section class="panel" aria-labelledby="orders-heading">
        <h3 id="orders-heading">${t.ordersHeading}</h3>
        ${
          this.#orders.length === 0
            ? html`<p class="muted">${t.noOrders}</p>`
            : html`
                <ul class="orders" id="orders">
                  ${this.#orders.map(
                    (order) => html`
                      <li>
                        <button
                          type="button"
                          class="order"
                          aria-pressed=${order.invoiceId === this.#selected ? 'true' : 'false'}
                          data-invoice-id=${order.invoiceId}
                          @click=${() => this.#select(order)}
                        >
                          <span class="order-id">${order.orderId}</span>
                          <span class="order-sum">${this.#money(order)}</span>
                          ${this.#statusPill(order.status)}
                          <span class="order-meta"
                            >${t.directions[order.type]} ·
                            ${this.#time(order.createdAt)}${
                              order.service?.dealStatus
                                ? html` · ${t.deal}
                                    <code class="order-deal" data-deal-status=${order.service.dealStatus}
                                      >${order.service.dealStatus}</code
                                    >`
                                : nothing
                            }</span
                          >
                        </button>
                      </li>
                    `,
                  )}
                </ul>
              `
        }
      </section>
    `;
  }

  #renderMock(t: PageText): TemplateResult {
    const order = this.#order;
    const disabled = !order || this.#busy;
    const notice = this.#notice;
    return html`
      <section class="panel" aria-labelledby="mock-heading" id="mock-controls">
        <h3 id="mock-heading">${t.mockHeading}</h3>
        <p class="muted">${t.mockIntro}</p>
        <p class="selected">${order ? t.selected(order.orderId) : t.nothingSelected}</p>
        <div class="button-row">
          <button type="button" data-action="paid" ?disabled=${disabled} @click=${() => void this.#act('paid')}>${t.markPaid}</button>
          <button type="button" data-action="expire" ?disabled=${disabled} @click=${() => void this.#act('expire')}>${t.expire}</button>
          <span class="joined">
            <select id="deal-option" aria-label=${t.option}>
              <option value="">${t.anyChoice}</option>
              ${OPTIONS.map((option) => html`<option value=${option}>${t.options[option]}</option>`)}
            </select>
            <button
              type="button"
              data-action="deal"
              ?disabled=${disabled}
              @click=${() => {
                const option = this.#root.querySelector<HTMLSelectElement>('#deal-option')?.value ?? '';
                void this.#act('deal', option ? { option } : {});
              }}
            >
              ${t.startDealNow}
            </button>
          </span>
          <button type="button" data-action="unknown-status" ?disabled=${disabled} @click=${() => void this.#act('unknown-status')}>
            ${t.unknownStatus}
          </button>
        </div>
        <h4>${t.transferHeading}</h4>
        <div class="button-row">
          <button type="button" data-action="confirm" ?disabled=${disabled} @click=${() => void this.#act('confirm')}>
            ${t.confirmTransfer}
          </button>
        </div>
        <form class="fault" data-form="dispute" @submit=${(event: SubmitEvent) => this.#disputeFrom(event)}>
          <label>
            ${t.disputeReason}
            <select
              name="reason"
              @change=${(event: Event) => {
                const value = (event.target as HTMLSelectElement).value;
                this.#disputeReason = value === 'invalid_sum' ? value : 'no_payment';
                this.update();
              }}
            >
              ${DISPUTE_REASONS.map(
                (reason) => html`<option value=${reason} ?selected=${this.#disputeReason === reason}>${t.disputeReasons[reason]}</option>`,
              )}
            </select>
          </label>
          <label>
            ${t.disputeAmount}
            <input
              name="amount"
              inputmode="decimal"
              autocomplete="off"
              size="9"
              value=${order ? order.sum.amount : ''}
              ?disabled=${this.#disputeReason !== 'invalid_sum'}
              ?required=${this.#disputeReason === 'invalid_sum'}
            />
          </label>
          <button type="submit" data-action="dispute" ?disabled=${disabled}>${t.openDispute}</button>
        </form>
        <div class="button-row">
          ${(['paid', 'canceled'] as const).map(
            (outcome) => html`
              <button
                type="button"
                data-action="resolve-${outcome}"
                ?disabled=${disabled}
                @click=${() => void this.#act('resolve', { outcome })}
              >
                ${t.resolveAs[outcome]}
              </button>
            `,
          )}
        </div>
        <h4>${t.serviceHeading}</h4>
        <div class="switch-list">
          ${(['noRequisites', 'receiverDown'] as const).map(
            (name) => html`
              <label class="check">
                <input
                  type="checkbox"
                  data-switch=${name}
                  .checked=${this.#service?.[name] ?? false}
                  ?disabled=${!this.#service}
                  @change=${(event: Event) => void this.#setSwitch(name, (event.target as HTMLInputElement).checked)}
                />
                <span>${t.switches[name]} <small>${t.switchHints[name]}</small></span>
              </label>
            `,
          )}
        </div>
        <p>
          ${t.serviceClock}:
          <time id="service-clock" datetime=${this.#service?.now ?? nothing}
            >${this.#service ? this.#time(this.#service.now, 'medium') : '…'}</time
          >
        </p>
        <div class="button-row">
          <button type="button" data-action="clock-minute" ?disabled=${this.#busy} @click=${() => void this.#advanceClock(CLOCK_STEP_MS)}>
            ${t.advanceMinute}
          </button>
          <button type="button" data-action="clock-hour" ?disabled=${this.#busy} @click=${() => void this.#advanceClock(HOUR_MS)}>
            ${t.advanceHour}
          </button>
          <button type="button" data-action="shop-outage" @click=${() => void this.#shopOutage()}>${t.shopOutage}</button>
        </div>
        ${order?.service ? this.#renderServiceView(t, order) : nothing}
        <h4>${t.networkHeading}</h4>
        <div class="faults">
          <form class="fault" data-fault="latency" @submit=${(event: SubmitEvent) => this.#faultFrom(event, 'latency')}>
            <label>${t.latency} <input name="ms" type="number" min="0" max="600000" step="100" value="0" /></label>
            <button type="submit">${t.setLatency}</button>
          </form>
          <form class="fault" data-fault="fail" @submit=${(event: SubmitEvent) => this.#faultFrom(event, 'fail')}>
            <label>${t.failNext} <input name="count" type="number" min="1" max="100" value="1" /></label>
            <label>${t.withStatus} <input name="status" type="number" min="400" max="599" value="500" /></label>
            <button type="submit">${t.fail}</button>
          </form>
          <form class="fault" data-fault="hang" @submit=${(event: SubmitEvent) => this.#faultFrom(event, 'hang')}>
            <label>${t.hangNext} <input name="count" type="number" min="1" max="100" value="1" /> ${t.requests}</label>
            <button type="submit">${t.hang}</button>
          </form>
          <form class="fault" data-fault="malform" @submit=${(event: SubmitEvent) => this.#faultFrom(event, 'malform')}>
            <label>${t.malformNext} <input name="count" type="number" min="1" max="100" value="1" /> ${t.requests}</label>
            <button type="submit">${t.malform}</button>
          </form>
          <form class="fault" data-fault="reset" @submit=${(event: SubmitEvent) => this.#faultFrom(event, 'reset')}>
            <button type="submit">${t.reset}</button>
          </form>
        </div>
        <p class="notice ${notice?.error ? 'error' : ''}" role="status" id="mock-notice">${notice?.text ?? ''}</p>
      </section>
    `;
  }

  /** The selected invoice as the mock holds it: deal status, expiry and each notification's attempts. */
  #renderServiceView(t: PageText, order: DemoOrder): TemplateResult | typeof nothing {
    const service = order.service;
    if (!service) return nothing;
    return html`
      <dl class="service-view" id="service-view">
        <div>
          <dt>${t.dealStatus}</dt>
          <dd data-deal-status=${service.dealStatus ?? nothing}>${service.dealStatus ?? t.noDeal}</dd>
        </div>
        <div>
          <dt>${t.expiresAt}</dt>
          <dd><time datetime=${service.expireAt}>${this.#time(service.expireAt, 'medium')}</time></dd>
        </div>
        <div>
          <dt>${t.notificationsLabel}</dt>
          <dd>
            ${
              service.notifications.length === 0
                ? t.noNotifications
                : html`<ol class="notifications" id="notifications">
                    ${service.notifications.map(
                      (note) =>
                        html`<li data-state=${note.state}>
                          <code>${note.change}</code> · ${t.notificationStates[note.state]} ·
                          ${t.attempts(note.attempts.map((status) => (status === null ? '—' : String(status))))}
                        </li>`,
                    )}
                  </ol>`
            }
          </dd>
        </div>
      </dl>
    `;
  }

  #renderReference(t: PageText): TemplateResult {
    const reference = this.#reference;
    const rate = (side: 'in' | 'out') => {
      const value = reference?.rates[side];
      return value ? html`<code>${value.rate}</code> ${value.pair ? html`<span class="muted">${value.pair}</span>` : nothing}` : '—';
    };
    return html`
      <section class="panel" aria-labelledby="reference-heading" id="reference">
        <h3 id="reference-heading">${t.referenceHeading}</h3>
        <p class="muted">${t.referenceIntro}</p>
        ${
          reference
            ? html`
                <dl class="rates" id="rates">
                  <div>
                    <dt>${t.rates.in}</dt>
                    <dd data-side="in">${rate('in')}</dd>
                  </div>
                  <div>
                    <dt>${t.rates.out}</dt>
                    <dd data-side="out">${rate('out')}</dd>
                  </div>
                </dl>
                <h4 id="banks-heading">${t.banksHeading(reference.methods.length)}</h4>
                <ul class="bank-list" id="bank-list" aria-labelledby="banks-heading">
                  ${reference.methods.map((method) => html`<li data-code=${method.code}>${method.name} <code>${method.code}</code></li>`)}
                </ul>
              `
            : html`<p class=${this.#referenceError ? 'notice error' : 'muted'} role="status">${this.#referenceError ?? t.loading}</p>`
        }
        ${
          this.#referenceError
            ? html`<p><button type="button" class="small" @click=${() => void this.#loadReference()}>${t.retry}</button></p>`
            : nothing
        }
      </section>
    `;
  }

  #renderEvents(t: PageText): TemplateResult {
    return html`
      <section class="panel" aria-labelledby="events-heading">
        <div class="panel-head">
          <h3 id="events-heading">${t.eventsHeading}</h3>
          <button
            type="button"
            class="small"
            ?disabled=${this.#events.length === 0}
            @click=${() => {
              this.#events = [];
              this.update();
            }}
          >
            ${t.clear}
          </button>
        </div>
        ${
          this.#events.length === 0
            ? html`<p class="muted">${t.noEvents}</p>`
            : html`
                <ol class="event-log" id="event-log">
                  ${this.#events.map(
                    (entry) => html`
                      <li data-event=${entry.name}>
                        <time>${entry.time}</time>
                        <code>${entry.name}</code>
                        <span class="event-order">${entry.orderId ?? ''}</span>
                        <span class="event-detail"
                          >${entry.summary}${
                            entry.source
                              ? html` <span class="event-source" data-source=${entry.source}>${t.eventSource[entry.source]}</span>`
                              : nothing
                          }</span
                        >
                      </li>
                    `,
                  )}
                </ol>
              `
        }
      </section>
    `;
  }

  #renderScenarios(t: PageText): TemplateResult {
    return html`
      <section class="panel" aria-labelledby="scenarios-heading">
        <h3 id="scenarios-heading">${t.scenariosHeading}</h3>
        <p class="muted">${t.scenariosIntro}</p>
        <ul class="scenarios" id="scenarios">
          ${SCENARIOS.map(
            (scenario) => html`
              <li>
                <a href=${this.#scenarioHref(scenario)} data-scenario=${scenario}><code>?scenario=${scenario}</code></a>
                <span>${t.scenarios[scenario]}</span>
              </li>
            `,
          )}
        </ul>
        <h4 id="option-scenarios-heading">${t.optionScenariosHeading}</h4>
        <ul class="scenarios" id="option-scenarios" aria-labelledby="option-scenarios-heading">
          ${(Object.keys(OPTION_SCENARIOS) as OptionScenarioName[]).map((scenario) => {
            const { option, currency, method, lang } = OPTION_SCENARIOS[scenario];
            return html`
              <li>
                <a
                  href=${this.#scenarioHref(scenario, lang)}
                  data-scenario=${scenario}
                  @click=${(event: MouseEvent) => this.#openOptionScenario(event, scenario)}
                  ><code>?scenario=${scenario}</code></a
                >
                <span>${t.optionScenario(option, currency, method)} (<span lang=${lang}>${LANGUAGE_NAMES[lang]}</span>)</span>
              </li>
            `;
          })}
        </ul>
        <h4>${t.pagesHeading}</h4>
        <p class="button-row">
          <a class="link-button" href=${this.#pageHref('react')} id="react-link">${t.reactPage}</a>
          <a class="link-button" href=${this.#pageHref('vue')} id="vue-link">${t.vuePage}</a>
        </p>
      </section>
    `;
  }
}

const root = document.querySelector<HTMLElement>('#app');
if (root) void new DemoPage(root).start();
