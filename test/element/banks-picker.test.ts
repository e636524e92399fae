import { assert, expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { LitElement } from 'lit';
import { BANK_DIRECTORY } from '../../src/element/banks/directory.js';
import { PICKER_STRINGS, pickerStrings, pickerStyles, sbpPicker } from '../../src/element/banks/picker-view.js';
import { type InAppBrowser, orderForPicker, type Platform } from '../../src/element/banks/sbp.js';

const LINK = 'https://qr.nspk.ru/AS10003P3RH0LJ2A9ROO038L6NT5RU1M?type=01&bank=100000000111&sum=10000&cur=RUB&crc=C08B';

/** Holds what the element would: the query, the open state; renders the picker in a shadow root with its styles. */
class PickerHost extends LitElement {
  static override styles = [pickerStyles];
  static override properties = {
    lang: {},
    platform: { attribute: false },
    inApp: { attribute: false },
    logoTemplate: { attribute: false },
    query: { state: true },
    open: { state: true },
  };

  declare platform: Platform;
  declare inApp: InAppBrowser | undefined;
  declare logoTemplate: string | undefined;
  declare query: string;
  declare open: boolean;
  opened: (string | undefined)[] = [];

  constructor() {
    super();
    this.lang = 'ru';
    this.platform = 'android';
    this.query = '';
    this.open = true;
  }

  override render() {
    if (!this.open) return html`<p>QR</p>`;
    return sbpPicker({
      strings: pickerStrings(this.lang),
      lang: this.lang,
      link: LINK,
      banks: orderForPicker(BANK_DIRECTORY, BANK_DIRECTORY, this.lang),
      query: this.query,
      platform: this.platform,
      inApp: this.inApp,
      logoTemplate: this.logoTemplate,
      onQuery: (query) => (this.query = query),
      onClose: () => (this.open = false),
      onOpen: (bank) => this.opened.push(bank?.code),
    });
  }
}
customElements.define('test-bank-picker', PickerHost);

const mount = (template = html`<test-bank-picker></test-bank-picker>`) => fixture<PickerHost>(template);
const $ = <T extends Element = HTMLElement>(el: PickerHost, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const $$ = <T extends Element = HTMLElement>(el: PickerHost, selector: string) => [...el.shadowRoot!.querySelectorAll<T>(selector)];
const text = (node: Element | null | undefined) => (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
const names = (el: PickerHost) => $$(el, '.bank-list .bank-name').map((name) => text(name));
const liveRegion = (el: PickerHost) => text($(el, '[role="status"]'));

const type = async (el: PickerHost, query: string) => {
  const input = $<HTMLInputElement>(el, 'input[type="search"]')!;
  input.value = query;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  await el.updateComplete;
};

describe('banks: the SBP bank picker', () => {
  it('renders a heading, "any bank", a labelled search and a list of bank links', async () => {
    const el = await mount();
    assert.equal(text($(el, 'h3')), 'Выберите банк');
    const section = $(el, '[part~="bank-picker"]')!;
    assert.equal(section.getAttribute('aria-labelledby'), $(el, 'h3')!.id);
    const any = $<HTMLAnchorElement>(el, '[part~="bank-any-link"]')!;
    assert.equal(text(any), 'Открыть в приложении любого банка');
    assert.equal(any.href, LINK);
    const input = $<HTMLInputElement>(el, 'input')!;
    assert.equal(input.type, 'search');
    assert.equal(text($(el, `label[for="${input.id}"]`)), 'Найти банк');
    assert.equal($(el, '.bank-list')!.tagName, 'UL');
    assert.equal($(el, '.bank-list')!.getAttribute('aria-label'), 'Банки');
    assert.lengthOf(names(el), BANK_DIRECTORY.length);
    assert.deepEqual(names(el).slice(0, 3), ['Сбербанк', 'Т-Банк', 'ВТБ']);
    for (const svg of $$(el, '.bank-list svg')) assert.equal(svg.getAttribute('aria-hidden'), 'true');
    assert.notExists($(el, '.bank-picker-hint'));
    await expect(el).to.be.accessible();
  });

  it("links each bank to its app for the payer's platform", async () => {
    const el = await mount();
    const sber = $$<HTMLAnchorElement>(el, '.bank-list a')[0]!;
    assert.match(
      sber.getAttribute('href')!,
      /^intent:\/\/qr\.nspk\.ru\/AS10003P3RH0LJ2A9ROO038L6NT5RU1M\?.*#Intent;scheme=bank100000000111;package=ru\.sberbankmobile;S\.browser_fallback_url=https%3A%2F%2Fqr\.nspk\.ru%2F.*;end$/,
    );
    el.platform = 'ios';
    await el.updateComplete;
    assert.match(sber.getAttribute('href')!, /^bank100000000111:\/\/qr\.nspk\.ru\/AS10003P3RH0LJ2A9ROO038L6NT5RU1M\?type=01/);
    const rosbank = $$<HTMLAnchorElement>(el, '.bank-list a').find((a) => text(a.querySelector('.bank-name')) === 'Росбанк')!;
    assert.equal(rosbank.getAttribute('href'), LINK, 'a bank without a member id gets the plain link');
    sber.addEventListener('click', (event) => event.preventDefault(), { once: true });
    sber.click();
    assert.deepEqual(el.opened, ['sberbank']);
  });

  it('filters as the payer types, and announces how many banks match', async () => {
    const el = await mount();
    await type(el, 'сбер');
    assert.deepEqual(names(el), ['Сбербанк']);
    assert.equal(liveRegion(el), 'Найден 1 банк');
    assert.equal($(el, '[role="status"]')!.getAttribute('aria-live'), 'polite');
    await type(el, 'Т-банк');
    assert.equal(names(el)[0], 'Т-Банк');
    await type(el, 'tinkoff');
    assert.deepEqual(names(el), ['Т-Банк']);
    await type(el, 'альфа');
    assert.deepEqual(names(el), ['Альфа-Банк']);
    await type(el, 'банк');
    assert.match(liveRegion(el), /^Найдено \d+ банк(а|ов)?$/);
    await expect(el).to.be.accessible();
  });

  it('says so when no bank matches', async () => {
    const el = await mount(html`<test-bank-picker lang="en"></test-bank-picker>`);
    await type(el, 'zzzz');
    assert.notExists($(el, '.bank-list'));
    assert.equal(text($(el, '.notice')), PICKER_STRINGS.en.noBank);
    assert.equal(liveRegion(el), 'No banks found');
    assert.exists($(el, '[part~="bank-any-link"]'), '"any bank app" stays');
    await expect(el).to.be.accessible();
    await type(el, 'sber');
    assert.deepEqual(names(el), ['Sberbank']);
    assert.equal(liveRegion(el), '1 bank found');
  });

  it('asks to open the page in a browser inside an app', async () => {
    const el = await mount();
    el.inApp = 'telegram';
    await el.updateComplete;
    assert.include(text($(el, '.bank-picker-hint')), 'Откройте эту страницу в браузере');
    assert.include(text($(el, '.bank-picker-hint')), 'Telegram');
    assert.include(PICKER_STRINGS.en.inAppHint('vk'), 'Open this page in your browser to pay from a bank app');
    await expect(el).to.be.accessible();
  });

  it('closes from its button, and with Escape once the search is empty', async () => {
    const el = await mount();
    $<HTMLButtonElement>(el, '[part~="bank-picker-close"]')!.click();
    await el.updateComplete;
    assert.notExists($(el, '.bank-picker'));

    el.open = true;
    await el.updateComplete;
    await type(el, 'сбер');
    $(el, 'input')!.focus();
    await sendKeys({ press: 'Escape' });
    await el.updateComplete;
    assert.exists($(el, '.bank-picker'), 'Escape clears the search first');
    assert.equal(el.query, '', 'the browser cleared it');
    await sendKeys({ press: 'Escape' });
    await el.updateComplete;
    assert.notExists($(el, '.bank-picker'));
  });

  it('has touch targets of at least 44×44 px and a visible focus', async () => {
    const el = await mount();
    for (const node of [...$$(el, 'a'), ...$$(el, 'button'), $(el, 'input')!]) {
      const box = node.getBoundingClientRect();
      assert.isAtLeast(Math.round(box.height), 44, text(node) || node.tagName);
      assert.isAtLeast(Math.round(box.width), 44, text(node) || node.tagName);
    }
    $(el, 'h3')!.focus();
    await sendKeys({ press: 'Tab' });
    const focused = el.shadowRoot!.activeElement!;
    assert.equal(focused.getAttribute('part'), 'bank-picker-close');
    const style = getComputedStyle(focused);
    assert.equal(style.outlineStyle, 'solid');
    assert.isAtLeast(parseInt(style.outlineWidth, 10), 2);
  });

  it("shows the merchant's logos, the lettermark where one fails", async () => {
    const el = await mount();
    el.logoTemplate = '/no-such-logos/{code}.svg';
    await el.updateComplete;
    const img = $<HTMLImageElement>(el, '.bank-list img')!;
    assert.equal(img.getAttribute('src'), `${location.origin}/no-such-logos/sberbank.svg`);
    assert.equal(img.alt, '');
    el.logoTemplate = 'http://cdn.example/{code}.svg';
    await el.updateComplete;
    assert.notExists($(el, '.bank-list img'), 'an http: template is refused');
  });

  it('counts in Russian with the right plural forms', () => {
    const { found } = PICKER_STRINGS.ru;
    assert.deepEqual([0, 1, 3, 5, 11, 21, 22].map(found), [
      'Банков не найдено',
      'Найден 1 банк',
      'Найдено 3 банка',
      'Найдено 5 банков',
      'Найдено 11 банков',
      'Найден 21 банк',
      'Найдено 22 банка',
    ]);
    assert.equal(pickerStrings('ru-RU'), PICKER_STRINGS.ru);
    assert.equal(pickerStrings('de'), PICKER_STRINGS.en);
  });
});
