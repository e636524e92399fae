/**
 * "Choose your bank": the SBP bank picker for phones. A search over the banks' names and
 * aliases, a link per bank that opens its app with the payment link, a link for any bank app,
 * and a way back to the QR code. Lazy, with its strings and styles: the element imports this
 * module when the payer opens the picker, and adopts `pickerStyles` then.
 *
 * A plain template function: the element keeps the query and the open state, and renders the
 * picker again on each `onQuery`.
 */
import { css, html, nothing, type TemplateResult } from 'lit';
import { type BankEntry, entryName, searchBanks } from './directory.js';
import { bankLogo, logoUrl } from './lettermark.js';
import { bankAppLink, type InAppBrowser, type Platform } from './sbp.js';

/** Every string of the picker, per language. */
export interface BankPickerStrings {
  /** The picker's heading. */
  readonly title: string;
  /** The search field's label. */
  readonly searchLabel: string;
  /** The link that opens the payment link as it is, in whichever bank app the phone picks. */
  readonly anyBank: string;
  /** The accessible name of the list of banks. */
  readonly listLabel: string;
  /** Announced (politely) as the payer types: how many banks match. */
  readonly found: (count: number) => string;
  /** Shown when the search matches no bank. */
  readonly noBank: string;
  /** Shown in an app's built-in browser, which usually cannot open bank apps. */
  readonly inAppHint: (app: InAppBrowser) => string;
  /** Closes the picker: back to the QR code. */
  readonly showQr: string;
}

const APP_NAMES: Readonly<Record<InAppBrowser, string>> = { telegram: 'Telegram', vk: 'VK', instagram: 'Instagram', facebook: 'Facebook' };

/** Russian plural forms: one (1, 21), few (2–4, 22–24), many. */
const ruPlural = (count: number, one: string, few: string, many: string): string => {
  const form = new Intl.PluralRules('ru').select(count);
  return form === 'one' ? one : form === 'few' ? few : many;
};

/** The picker's strings in Russian and English (the element picks by its language, English otherwise). */
export const PICKER_STRINGS: Readonly<Record<'ru' | 'en', BankPickerStrings>> = {
  ru: {
    title: 'Выберите банк',
    searchLabel: 'Найти банк',
    anyBank: 'Открыть в приложении любого банка',
    listLabel: 'Банки',
    found: (count) =>
      count === 0 ? 'Банков не найдено' : `${ruPlural(count, 'Найден', 'Найдено', 'Найдено')} ${count} ${ruPlural(count, 'банк', 'банка', 'банков')}`,
    noBank: 'Банк не найден. Проверьте название или откройте ссылку в приложении любого банка.',
    inAppHint: (app) => `Браузер ${APP_NAMES[app]} не открывает приложения банков. Откройте эту страницу в браузере, чтобы оплатить из приложения банка.`,
    showQr: 'Показать QR-код',
  },
  en: {
    title: 'Choose your bank',
    searchLabel: 'Find your bank',
    anyBank: 'Open in any bank app',
    listLabel: 'Banks',
    found: (count) => (count === 0 ? 'No banks found' : count === 1 ? '1 bank found' : `${count} banks found`),
    noBank: 'No bank found. Check the name, or open the link in any bank app.',
    inAppHint: (app) => `${APP_NAMES[app]}'s browser cannot open bank apps. Open this page in your browser to pay from a bank app.`,
    showQr: 'Show the QR code instead',
  },
};

/** The strings for a language tag: Russian for `ru…`, English otherwise. */
export const pickerStrings = (lang: string): BankPickerStrings => (/^ru\b/i.test(lang) ? PICKER_STRINGS.ru : PICKER_STRINGS.en);

/** What the picker shows and what it can do. */
export interface SbpPickerView {
  readonly strings: BankPickerStrings;
  /** The payer's language: names and the alphabetical order follow it. */
  readonly lang: string;
  /** The deal's SBP payment link (`https://qr.nspk.ru/…`). */
  readonly link: string;
  /** The banks, in the order to show them (`orderForPicker`). */
  readonly banks: readonly BankEntry[];
  /** What the payer typed in the search. */
  readonly query: string;
  readonly platform: Platform;
  /** The app whose built-in browser shows the page (`inAppBrowser`): a hint to open a real browser. */
  readonly inApp?: InAppBrowser | undefined;
  /** The merchant's logo URL template (`https://cdn.shop.example/banks/{code}.svg`); lettermarks without it. */
  readonly logoTemplate?: string | undefined;
  /** The payer typed in the search. */
  readonly onQuery: (query: string) => void;
  /** "Show the QR code instead", or Escape on an empty search. */
  readonly onClose: () => void;
  /** A bank's link (undefined: "any bank app") was followed; the navigation is not stopped. */
  readonly onOpen?: ((bank: BankEntry | undefined) => void) | undefined;
}

/**
 * The bank picker: its heading (`tabindex="-1"`, for the element to focus when it opens), a
 * close button, the in-app browser hint, "Open in any bank app", a labelled search whose result
 * count is announced politely, and the list of bank links (lettermark or logo, and name), or
 * "No bank found".
 */
export const sbpPicker = (view: SbpPickerView): TemplateResult => {
  const { strings } = view;
  const plain = bankAppLink(undefined, view.link, 'desktop');
  const found = searchBanks(view.banks, view.query);
  const onKeydown = (event: KeyboardEvent) => {
    const target = event.target as HTMLInputElement;
    // Escape first clears a search with text in it (the browser does), then closes.
    if (event.key !== 'Escape' || (target.type === 'search' && target.value)) return;
    event.stopPropagation();
    view.onClose();
  };
  return html`
    <section part="bank-picker" class="bank-picker" aria-labelledby="bank-picker-title" @keydown=${onKeydown}>
      <div class="bank-picker-head">
        <h3 id="bank-picker-title" tabindex="-1">${strings.title}</h3>
        <button part="bank-picker-close" type="button" @click=${view.onClose}>${strings.showQr}</button>
      </div>
      ${view.inApp ? html`<p part="notice" class="notice bank-picker-hint">${strings.inAppHint(view.inApp)}</p>` : nothing}
      ${plain
        ? html`
            <a part="bank-any-link" class="primary" href=${plain} @click=${() => view.onOpen?.(undefined)}>${strings.anyBank}</a>
            <div class="bank-search">
              <label for="bank-search-input">${strings.searchLabel}</label>
              <input
                id="bank-search-input"
                part="bank-search"
                type="search"
                autocomplete="off"
                spellcheck="false"
                .value=${view.query}
                @input=${(event: Event) => view.onQuery((event.target as HTMLInputElement).value)}
              />
            </div>
            <p class="sr-only" role="status" aria-live="polite" aria-atomic="true">${strings.found(found.length)}</p>
            ${found.length
              ? html`<ul class="bank-list" aria-label=${strings.listLabel}>
                  ${found.map((bank) => bankItem(view, bank, plain))}
                </ul>`
              : html`<p part="notice" class="notice">${strings.noBank}</p>`}
          `
        : nothing}
    </section>
  `;
};

const bankItem = (view: SbpPickerView, bank: BankEntry, plain: string): TemplateResult => {
  const name = entryName(bank, view.lang);
  return html`<li>
    <a part="bank-option" href=${bankAppLink(bank, view.link, view.platform) ?? plain} @click=${() => view.onOpen?.(bank)}>
      ${bankLogo(logoUrl(view.logoTemplate, bank.code), name, bank.color)}
      <span class="bank-name">${name}</span>
    </a>
  </li>`;
};

/**
 * The picker's styles, for the element to adopt when the picker loads. They read the element's
 * private values (`--_accent`, …, which follow its theme) and fall back to the public
 * `--merchant-checkout-*` tokens and light defaults elsewhere. `.sr-only` is the element's.
 */
export const pickerStyles = css`
  .bank-picker {
    --_bp-accent: var(--_accent, var(--merchant-checkout-accent, #1d4ed8));
    --_bp-accent-text: var(--_accent-text, var(--merchant-checkout-accent-text, #ffffff));
    --_bp-text: var(--_text, var(--merchant-checkout-text, #1f2328));
    --_bp-muted: var(--_muted, var(--merchant-checkout-muted, #57606a));
    --_bp-background: var(--_background, var(--merchant-checkout-background, #ffffff));
    --_bp-surface: var(--_surface, var(--merchant-checkout-surface, #f3f5f7));
    --_bp-border: var(--_border, var(--merchant-checkout-border, #d0d7de));
    --_bp-spacing: var(--_spacing, var(--merchant-checkout-spacing, 16px));
    --_bp-radius: var(--_inner-radius, calc(var(--merchant-checkout-radius, 12px) / 1.5));
    display: grid;
    gap: calc(var(--_bp-spacing) * 0.75);
    color: var(--_bp-text);
  }

  .bank-picker-head {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: calc(var(--_bp-spacing) / 2);
  }

  .bank-picker h3 {
    margin: 0;
    font-size: 1rem;
    outline: none;
  }

  .bank-picker a,
  .bank-picker button {
    display: flex;
    align-items: center;
    gap: 0.75em;
    min-width: 44px;
    min-height: 44px;
    margin: 0;
    padding: 0 calc(var(--_bp-spacing) * 0.75);
    border: 1px solid var(--_bp-border);
    border-radius: var(--_bp-radius);
    background: var(--_bp-surface);
    color: var(--_bp-text);
    font: inherit;
    text-decoration: none;
    cursor: pointer;
  }

  .bank-picker button {
    display: inline-flex;
    font-weight: 600;
  }

  .bank-picker .primary {
    justify-content: center;
    border-color: var(--_bp-accent);
    background: var(--_bp-accent);
    color: var(--_bp-accent-text);
    font-weight: 600;
  }

  .bank-picker a:hover,
  .bank-picker button:hover {
    border-color: var(--_bp-accent);
  }

  .bank-picker :focus-visible {
    outline: 3px solid var(--_bp-accent);
    outline-offset: 2px;
  }

  .bank-search {
    display: grid;
    gap: 4px;
  }

  .bank-search label,
  .bank-picker .notice {
    margin: 0;
    color: var(--_bp-muted);
    font-size: 0.875rem;
  }

  .bank-search input {
    width: 100%;
    min-height: 44px;
    padding: 0 12px;
    border: 1px solid var(--_bp-border);
    border-radius: var(--_bp-radius);
    background: var(--_bp-background);
    color: var(--_bp-text);
    font: inherit;
  }

  .bank-picker-hint {
    padding: calc(var(--_bp-spacing) * 0.75);
    border-radius: var(--_bp-radius);
    background: var(--_bp-surface);
  }

  .bank-list {
    display: grid;
    gap: 4px;
    max-height: min(60vh, 26rem);
    margin: 0;
    padding: 2px;
    overflow-y: auto;
    overscroll-behavior: contain;
    list-style: none;
  }

  .bank-list a {
    width: 100%;
    padding-inline: calc(var(--_bp-spacing) / 2);
  }

  .bank-list a:focus-visible {
    outline-offset: -3px;
  }

  .bank-name {
    min-width: 0;
  }

  .bank-picker .lettermark,
  .bank-logo,
  .bank-logo img {
    flex: none;
    width: 32px;
    height: 32px;
    border-radius: 10px;
  }

  .bank-logo [hidden] {
    display: none;
  }
`;
