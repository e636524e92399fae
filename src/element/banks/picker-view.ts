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
import { type BankEntry, type BankOverrides, entryName, mergeBankOverrides, searchBanks } from './directory.js';
import { bankLogo, logoUrl } from './lettermark.js';
import { bankAppLink, type InAppBrowser, inAppBrowser, orderForPicker, platform, type Platform } from './sbp.js';
import type { Language } from '../i18n/lang.js';

/** Every string of the picker, per language. */
export interface BankPickerStrings {
  /** The picker's heading. */
  readonly pickerTitle: string;
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

/** The form of a count's words by the CLDR plural rules of `language` (`other` for the categories it leaves out). */
const plural = (language: string, count: number, forms: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }): string =>
  forms[new Intl.PluralRules(language).select(count)] ?? forms.other;

/**
 * The picker's strings in every language of the element (the element picks by its language).
 * All but English and Russian machine-translated, not yet reviewed by native speakers
 * (docs/element.md, "Languages"). In Turkic languages, Tajik, Bengali and Korean a noun after a number keeps one form.
 */
export const PICKER_STRINGS: Readonly<Record<Language, BankPickerStrings>> = {
  en: {
    pickerTitle: 'Choose your bank',
    searchLabel: 'Find your bank',
    anyBank: 'Open in any bank app',
    listLabel: 'Banks',
    found: (count) => (count === 0 ? 'No banks found' : `${count} ${plural('en', count, { one: 'bank', other: 'banks' })} found`),
    noBank: 'No bank found. Check the name, or open the link in any bank app.',
    inAppHint: (app) => `${APP_NAMES[app]}'s browser cannot open bank apps. Open this page in your browser to pay from a bank app.`,
    showQr: 'Show the QR code instead',
  },
  ru: {
    pickerTitle: 'Выберите банк',
    searchLabel: 'Найти банк',
    anyBank: 'Открыть в приложении любого банка',
    listLabel: 'Банки',
    found: (count) =>
      count === 0
        ? 'Банков не найдено'
        : `${plural('ru', count, { one: 'Найден', other: 'Найдено' })} ${count} ${plural('ru', count, { one: 'банк', few: 'банка', other: 'банков' })}`,
    noBank: 'Банк не найден. Проверьте название или откройте ссылку в приложении любого банка.',
    inAppHint: (app) =>
      `Браузер ${APP_NAMES[app]} не открывает приложения банков. Откройте эту страницу в браузере, чтобы оплатить из приложения банка.`,
    showQr: 'Показать QR-код',
  },
  bn: {
    pickerTitle: 'আপনার ব্যাংক বেছে নিন',
    searchLabel: 'ব্যাংক খুঁজুন',
    anyBank: 'যেকোনো ব্যাংক অ্যাপে খুলুন',
    listLabel: 'ব্যাংক',
    found: (count) => (count === 0 ? 'কোনো ব্যাংক পাওয়া যায়নি' : `${count.toLocaleString('bn')}টি ব্যাংক পাওয়া গেছে`),
    noBank: 'ব্যাংক পাওয়া যায়নি। নামটি দেখে নিন বা যেকোনো ব্যাংক অ্যাপে লিংকটি খুলুন।',
    inAppHint: (app) => `${APP_NAMES[app]}-এর ব্রাউজার ব্যাংক অ্যাপ খুলতে পারে না। ব্যাংক অ্যাপ থেকে পেমেন্ট করতে পেজটি আপনার ব্রাউজারে খুলুন।`,
    showQr: 'QR কোড দেখান',
  },
  uz: {
    pickerTitle: 'Bankingizni tanlang',
    searchLabel: 'Bankni qidirish',
    anyBank: 'Istalgan bank ilovasida ochish',
    listLabel: 'Banklar',
    found: (count) => (count === 0 ? 'Bank topilmadi' : `${count} ta bank topildi`),
    noBank: 'Bank topilmadi. Nomini tekshiring yoki havolani istalgan bank ilovasida oching.',
    inAppHint: (app) =>
      `${APP_NAMES[app]} brauzeri bank ilovalarini ocha olmaydi. Bank ilovasidan toʻlash uchun bu sahifani brauzerda oching.`,
    showQr: 'QR-kodni koʻrsatish',
  },
  az: {
    pickerTitle: 'Bankınızı seçin',
    searchLabel: 'Bankı axtarın',
    anyBank: 'İstənilən bank tətbiqində aç',
    listLabel: 'Banklar',
    found: (count) => (count === 0 ? 'Bank tapılmadı' : `${count} bank tapıldı`),
    noBank: 'Bank tapılmadı. Adı yoxlayın və ya keçidi istənilən bank tətbiqində açın.',
    inAppHint: (app) => `${APP_NAMES[app]} brauzeri bank tətbiqlərini aça bilmir. Bank tətbiqindən ödəmək üçün bu səhifəni brauzerdə açın.`,
    showQr: 'QR-kodu göstər',
  },
  es: {
    pickerTitle: 'Elija su banco',
    searchLabel: 'Buscar su banco',
    anyBank: 'Abrir en cualquier app bancaria',
    listLabel: 'Bancos',
    found: (count) =>
      count === 0
        ? 'No se encontró ningún banco'
        : `${plural('es', count, { one: 'Se encontró', other: 'Se encontraron' })} ${count} ${plural('es', count, { one: 'banco', other: 'bancos' })}`,
    noBank: 'No se encontró el banco. Revise el nombre o abra el enlace en cualquier app bancaria.',
    inAppHint: (app) =>
      `El navegador de ${APP_NAMES[app]} no abre apps bancarias. Abra esta página en su navegador para pagar desde la app del banco.`,
    showQr: 'Mostrar el código QR',
  },
  ko: {
    pickerTitle: '은행 선택',
    searchLabel: '은행 검색',
    anyBank: '아무 은행 앱에서 열기',
    listLabel: '은행',
    found: (count) => (count === 0 ? '은행을 찾지 못했습니다' : `은행 ${count}곳을 찾았습니다`),
    noBank: '은행을 찾을 수 없습니다. 이름을 확인하거나 아무 은행 앱에서 링크를 여세요.',
    inAppHint: (app) =>
      `${APP_NAMES[app]} 브라우저에서는 은행 앱을 열 수 없습니다. 은행 앱으로 결제하려면 이 페이지를 브라우저에서 여세요.`,
    showQr: 'QR 코드 보기',
  },
  kk: {
    pickerTitle: 'Банкті таңдаңыз',
    searchLabel: 'Банкті іздеу',
    anyBank: 'Кез келген банк қосымшасында ашу',
    listLabel: 'Банктер',
    found: (count) => (count === 0 ? 'Банк табылмады' : `${count} банк табылды`),
    noBank: 'Банк табылмады. Атауын тексеріңіз немесе сілтемені кез келген банк қосымшасында ашыңыз.',
    inAppHint: (app) =>
      `${APP_NAMES[app]} браузері банк қосымшаларын аша алмайды. Банк қосымшасынан төлеу үшін бұл бетті браузерде ашыңыз.`,
    showQr: 'QR-кодты көрсету',
  },
  tg: {
    pickerTitle: 'Бонки худро интихоб кунед',
    searchLabel: 'Ҷустуҷӯи бонк',
    anyBank: 'Дар ҳар барномаи бонк кушодан',
    listLabel: 'Бонкҳо',
    found: (count) => (count === 0 ? 'Бонк ёфт нашуд' : `${count} бонк ёфт шуд`),
    noBank: 'Бонк ёфт нашуд. Номро санҷед ё пайвандро дар ҳар барномаи бонк кушоед.',
    inAppHint: (app) =>
      `Браузери ${APP_NAMES[app]} барномаҳои бонкро кушода наметавонад. Барои пардохт аз барномаи бонк ин саҳифаро дар браузер кушоед.`,
    showQr: 'Нишон додани QR-код',
  },
  ky: {
    pickerTitle: 'Банкты тандаңыз',
    searchLabel: 'Банкты издөө',
    anyBank: 'Каалаган банк колдонмосунда ачуу',
    listLabel: 'Банктар',
    found: (count) => (count === 0 ? 'Банк табылган жок' : `${count} банк табылды`),
    noBank: 'Банк табылган жок. Аталышын текшериңиз же шилтемени каалаган банк колдонмосунда ачыңыз.',
    inAppHint: (app) =>
      `${APP_NAMES[app]} браузери банк колдонмолорун ача албайт. Банк колдонмосунан төлөө үчүн бул баракты браузерде ачыңыз.`,
    showQr: 'QR-кодду көрсөтүү',
  },
};

/** The strings for a language tag (`ru-RU` → Russian); English for a language the element does not ship. */
export const pickerStrings = (lang: string): BankPickerStrings => {
  const primary = lang.toLowerCase().split(/[-_]/)[0] ?? '';
  return Object.hasOwn(PICKER_STRINGS, primary) ? PICKER_STRINGS[primary as Language] : PICKER_STRINGS.en;
};

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
        <h3 id="bank-picker-title" tabindex="-1">${strings.pickerTitle}</h3>
        <button part="bank-picker-close" type="button" @click=${view.onClose}>${strings.showQr}</button>
      </div>
      ${view.inApp ? html`<p part="notice" class="notice bank-picker-hint">${strings.inAppHint(view.inApp)}</p>` : nothing}
      ${
        plain
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
              ${
                found.length
                  ? html`<ul class="bank-list" aria-label=${strings.listLabel}>
                      ${found.map((bank) => bankItem(view, bank, plain))}
                    </ul>`
                  : html`<p part="notice" class="notice">${strings.noBank}</p>`
              }
            `
          : nothing
      }
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

/** What the element gives the picker: the page's banks and the picker's state. */
export interface PickerPartInput extends Pick<SbpPickerView, 'lang' | 'link' | 'query' | 'logoTemplate' | 'onQuery' | 'onClose'> {
  /** The merchant's replacements (the `strings` property) over the picker's strings. */
  readonly localize: (base: BankPickerStrings) => BankPickerStrings;
  /** The merchant's names and colours (`banks`) over the directory. */
  readonly banks: BankOverrides | undefined;
  /** The merchant's SBP bank list (`sbp-banks`) once read; the directory without it. */
  readonly members: readonly BankEntry[] | undefined;
}

/** The picker on this device, over the directory, the merchant's banks and bank list. */
export const pickerPart = ({ localize, banks, members, ...view }: PickerPartInput): TemplateResult => {
  const merged = mergeBankOverrides(banks);
  return sbpPicker({
    ...view,
    strings: localize(pickerStrings(view.lang)),
    banks: orderForPicker(members ?? merged, merged, view.lang),
    platform: platform(navigator.userAgent, navigator.maxTouchPoints),
    inApp: inAppBrowser(navigator.userAgent),
  });
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
