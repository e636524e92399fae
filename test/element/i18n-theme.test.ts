import { assert, expect, fixture, fixtureSync, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import {
  FakeClient,
  INVOICE_ID,
  canceledInvoice,
  dealWith,
  liveRegion,
  nextEvent,
  part,
  plain,
  readyClient,
  screenOf,
  text,
  untilScreen,
  waitingInvoice,
} from './helpers.js';
import { forceMedia } from './media.js';

const background = (el: MerchantCheckoutElement) => getComputedStyle(part(el, 'base')!).backgroundColor;
const WHITE = 'rgb(255, 255, 255)';
const DARK = 'rgb(21, 24, 29)';

describe('<merchant-checkout> language', () => {
  afterEach(() => document.documentElement.setAttribute('lang', 'en'));

  it('takes its own lang, falling back along the tag', async () => {
    const el = await fixture<MerchantCheckoutElement>(
      html`<merchant-checkout lang="ru-RU" invoice-id=${INVOICE_ID} .client=${readyClient()}></merchant-checkout>`,
    );
    await untilScreen(el, 'waiting');
    assert.equal(text(part(el, 'title')), 'Переведите деньги');
    assert.equal(text(part(el, 'cancel-button')), 'Отменить платёж');
    assert.equal(plain(text(part(el, 'amount')!.querySelector('.value'))), '1 500,00 ₽');
    el.lang = 'de';
    // English loads on demand: the element shows its loading screen until the strings are here.
    await waitUntil(() => text(part(el, 'title')) === 'Transfer the money', 'English after lang="de"');
    assert.equal(el.getAttribute('lang'), 'de', 'a lang set as a property reaches the attribute, for screen readers');
  });

  it('takes the nearest ancestor’s lang, then <html lang>, and follows a change of <html lang>', async () => {
    const wrapper = await fixture<HTMLDivElement>(
      html`<div lang="ru">
        <p><merchant-checkout invoice-id=${INVOICE_ID} .client=${readyClient()}></merchant-checkout></p>
      </div>`,
    );
    const el = wrapper.querySelector('merchant-checkout')!;
    await untilScreen(el, 'waiting');
    assert.equal(text(part(el, 'title')), 'Переведите деньги');

    const bare = await fixture<MerchantCheckoutElement>(
      html`<merchant-checkout invoice-id=${INVOICE_ID} .client=${readyClient()}></merchant-checkout>`,
    );
    await untilScreen(bare, 'waiting');
    assert.equal(text(part(bare, 'title')), 'Transfer the money');
    document.documentElement.setAttribute('lang', 'ru');
    await waitUntil(() => text(part(bare, 'title')) === 'Переведите деньги', 'the element follows <html lang>');
  });

  it('is ready (checkout-ready) once the screen is in the payer’s language, not while its strings load', async () => {
    // The first Tajik element of this page: its strings and the screens' templates load now.
    const el = fixtureSync<MerchantCheckoutElement>(
      html`<merchant-checkout lang="tg" invoice-id=${INVOICE_ID} .client=${readyClient()}></merchant-checkout>`,
    );
    await nextEvent(el, 'checkout-ready');
    assert.equal(screenOf(el), 'waiting');
    assert.equal(text(part(el, 'title')), 'Пулро интиқол диҳед');
  });

  it('sets the lang of the language it shows on its text, for screen readers', async () => {
    const el = await fixture<MerchantCheckoutElement>(
      html`<merchant-checkout lang="kk-KZ" invoice-id=${INVOICE_ID} .client=${readyClient()}></merchant-checkout>`,
    );
    await untilScreen(el, 'waiting');
    assert.equal(text(part(el, 'title')), 'Ақшаны аударыңыз');
    assert.equal(part(el, 'base')!.getAttribute('lang'), 'kk');
    await expect(el).to.be.accessible();
    // A language the element does not ship: the text is English, and says so.
    el.lang = 'de';
    await waitUntil(() => text(part(el, 'title')) === 'Transfer the money');
    assert.equal(part(el, 'base')!.getAttribute('lang'), 'en');
  });

  it('with lang="auto", follows the page’s lang, then the browser’s languages', async () => {
    const wrapper = await fixture<HTMLDivElement>(
      html`<div lang="uz"><merchant-checkout lang="auto" invoice-id=${INVOICE_ID} .client=${readyClient()}></merchant-checkout></div>`,
    );
    const el = wrapper.querySelector('merchant-checkout')!;
    await untilScreen(el, 'waiting');
    assert.equal(text(part(el, 'title')), 'Pulni oʻtkazing');
    const languages = Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages');
    try {
      Object.defineProperty(navigator, 'languages', { configurable: true, get: () => ['fr-FR', 'ky-KG'] });
      wrapper.removeAttribute('lang');
      document.documentElement.removeAttribute('lang');
      el.requestUpdate();
      await waitUntil(() => text(part(el, 'title')) === 'Акчаны которуңуз', 'the browser’s first shipped language');
      assert.equal(part(el, 'base')!.getAttribute('lang'), 'ky');
    } finally {
      delete (navigator as { languages?: unknown }).languages;
      assert.deepEqual(Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages'), languages);
    }
  });

  it('lets the page replace the loading heading and the strings of new kinds of requisites too', async () => {
    const client = new FakeClient();
    // The property takes the bank picker's, the forms' and the boot strings' keys as well (a type error otherwise).
    const strings: MerchantCheckoutElement['strings'] = {
      loading: 'One moment…',
      ifscLabel: 'IFSC code',
      pickerTitle: 'Your bank',
      chooseFile: 'Pick a file',
      reload: 'Reload',
    };
    const el = await fixture<MerchantCheckoutElement>(
      html`<merchant-checkout lang="en" invoice-id=${INVOICE_ID} .client=${client} .strings=${strings}></merchant-checkout>`,
    );
    assert.equal(text(part(el, 'title')), 'One moment…');
    const imps = dealWith({ paymentOption: 'IMPS', requisites: { requisites: '50100248163579 IFSC HDFC0001234', holder: 'Payee' } });
    await client.answer('getInvoice', waitingInvoice({ deals: [imps] }));
    await untilScreen(el, 'waiting');
    assert.equal(text(part(el, 'ifsc')?.querySelector('dt')), 'IFSC code');
  });

  it('lets the page replace any string', async () => {
    const el = await fixture<MerchantCheckoutElement>(
      html`<merchant-checkout
        lang="en"
        invoice-id=${INVOICE_ID}
        .client=${readyClient()}
        .strings=${{ cancel: 'Abort', guidance: (amount: string) => `Pay ${amount} at once` }}
      ></merchant-checkout>`,
    );
    await untilScreen(el, 'waiting');
    assert.equal(text(part(el, 'cancel-button')), 'Abort');
    assert.equal(text(part(el, 'guidance')), 'Pay ₽1,500.00 at once');
  });

  it('announces status changes in the page language', async () => {
    const client = readyClient();
    const el = await fixture<MerchantCheckoutElement>(
      html`<merchant-checkout lang="ru" invoice-id=${INVOICE_ID} .client=${client}></merchant-checkout>`,
    );
    await untilScreen(el, 'waiting');
    part(el, 'cancel-button')!.click();
    await el.updateComplete;
    client.reply('cancelInvoice', () => ({ data: canceledInvoice() }));
    part(el, 'confirm-button')!.click();
    await untilScreen(el, 'canceled');
    assert.equal(liveRegion(el), 'Статус: отменено');
  });
});

describe('<merchant-checkout> theme', () => {
  let restoreMedia = () => undefined as void;
  afterEach(() => {
    restoreMedia();
    restoreMedia = () => undefined;
  });

  it('is light by default and dark with theme="dark"', async () => {
    const el = await fixture<MerchantCheckoutElement>(
      html`<merchant-checkout invoice-id=${INVOICE_ID} .client=${readyClient()}></merchant-checkout>`,
    );
    await untilScreen(el, 'waiting');
    assert.equal(background(el), WHITE);
    el.theme = 'dark';
    await el.updateComplete;
    assert.equal(el.getAttribute('theme'), 'dark');
    assert.equal(background(el), DARK);
    await expect(el).to.be.accessible();
  });

  it('follows prefers-color-scheme unless theme="light"', async () => {
    const el = await fixture<MerchantCheckoutElement>(
      html`<merchant-checkout invoice-id=${INVOICE_ID} .client=${readyClient()}></merchant-checkout>`,
    );
    await untilScreen(el, 'waiting');
    assert.equal(background(el), WHITE);
    restoreMedia = forceMedia(el, 'prefers-color-scheme', 'dark');
    assert.equal(background(el), DARK);
    await expect(el).to.be.accessible();
    el.theme = 'light';
    await el.updateComplete;
    assert.equal(background(el), WHITE);
  });

  it('lets --merchant-checkout-* properties win in both themes', async () => {
    // A button after the element keeps Tab inside the page (Firefox would move it to its own UI).
    const box = await fixture<HTMLDivElement>(
      html`<div>
        <merchant-checkout
          style="--merchant-checkout-background: rgb(1, 2, 3); --merchant-checkout-radius: 3px; --merchant-checkout-accent: rgb(200, 0, 100)"
          invoice-id=${INVOICE_ID}
          .client=${readyClient()}
        ></merchant-checkout>
        <button>after</button>
      </div>`,
    );
    const el = box.querySelector('merchant-checkout')!;
    await untilScreen(el, 'waiting');
    assert.equal(background(el), 'rgb(1, 2, 3)');
    assert.equal(getComputedStyle(part(el, 'base')!).borderTopLeftRadius, '3px');
    el.theme = 'dark';
    await el.updateComplete;
    assert.equal(background(el), 'rgb(1, 2, 3)');
    part(el, 'cancel-button')!.focus();
    await sendKeys({ press: 'Tab' });
    await sendKeys({ down: 'Shift' });
    await sendKeys({ press: 'Tab' });
    await sendKeys({ up: 'Shift' });
    const focused = el.shadowRoot!.activeElement!;
    assert.equal(focused, part(el, 'cancel-button'));
    assert.equal(getComputedStyle(focused).outlineColor, 'rgb(200, 0, 100)', 'a visible focus ring in the accent colour');
    assert.equal(getComputedStyle(focused).outlineStyle, 'solid');
  });

  it('draws the screens with their own styles, adopted once after the element’s, whatever re-renders', async () => {
    const el = await fixture<MerchantCheckoutElement>(
      html`<merchant-checkout invoice-id=${INVOICE_ID} .client=${readyClient()}></merchant-checkout>`,
    );
    await untilScreen(el, 'waiting');
    // The amount's size and the stacks come with the screens' templates, not the first render.
    assert.equal(getComputedStyle(part(el, 'amount')!.querySelector('.value')!).fontWeight, '700');
    assert.equal(getComputedStyle(part(el, 'details')!).display, 'grid');
    const sheets = el.shadowRoot!.adoptedStyleSheets.length;
    assert.ok(sheets >= 2, `the element's own sheets and the screens' (${sheets})`);
    el.lang = 'ru';
    await waitUntil(() => text(part(el, 'title')) === 'Переведите деньги');
    el.theme = 'dark';
    el.requestUpdate();
    await el.updateComplete;
    assert.equal(el.shadowRoot!.adoptedStyleSheets.length, sheets, 'no sheet adopted twice');
    assert.equal(getComputedStyle(part(el, 'amount')!.querySelector('.value')!).fontWeight, '700');
  });

  it('stills the loading shimmer for prefers-reduced-motion', async () => {
    const el = await fixture<MerchantCheckoutElement>(
      html`<merchant-checkout invoice-id=${INVOICE_ID} .client=${new FakeClient()}></merchant-checkout>`,
    );
    const bar = el.shadowRoot!.querySelector('.bar')!;
    assert.equal(getComputedStyle(bar).animationName, 'shimmer');
    restoreMedia = forceMedia(el, 'prefers-reduced-motion', 'reduce');
    assert.equal(getComputedStyle(bar).animationName, 'none');
  });
});
