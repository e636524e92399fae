/**
 * Every documented payment option shown as what it is: the requisites of UPI, IMPS, CVU, a
 * mobile top-up, a Telegram bot and a QR picture each with their label, their formatting and
 * their copy button, and the amount in the currency's own format, in the payer's language.
 */
import { assert, expect, waitUntil } from '@open-wc/testing';
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import { dealWith, liveRegion, mount, nextEvent, part, parts, plain, readyClient, text, untilScreen, waitingInvoice } from './helpers.js';

/** Replaces `navigator.clipboard.writeText` for one test. */
const stubClipboard = (written: string[]) => {
  Object.defineProperty(navigator.clipboard, 'writeText', {
    value: (value: string) => written.push(value) && Promise.resolve(),
    configurable: true,
  });
  return () => Reflect.deleteProperty(navigator.clipboard, 'writeText');
};

/** A waiting invoice in `currency` whose deal is `requisites` under `option`, as an older proxy sends it (no `requisitesKind`). */
const invoiceFor = (
  option: string,
  requisites: string,
  sum: { amount: string; currency: string; subunit: number },
  more: Record<string, unknown> = {},
) =>
  waitingInvoice({
    sum,
    paymentOption: option,
    deals: [
      dealWith({
        paymentOption: option,
        paymentMethod: 'somebank',
        paymentMethodName: 'Some Bank',
        requisites: { requisites, holder: 'Payee' },
        qrCodeLink: null,
        ...more,
      }),
    ],
  });

const value = (el: MerchantCheckoutElement, name: string) => text(part(el, name)?.querySelector('.value'));
const label = (el: MerchantCheckoutElement, name: string) => text(part(el, name)?.querySelector('dt'));
const copyButton = (el: MerchantCheckoutElement, name: string) =>
  part(el, name)!.querySelector<HTMLButtonElement>('[part~="copy-button"]')!;

describe('<merchant-checkout> payment options', () => {
  let restore: () => void = () => undefined;
  afterEach(() => restore());

  it('a UPI ID in rupees: labelled, copied as written', async () => {
    const written: string[] = [];
    restore = stubClipboard(written);
    const el = await mount(readyClient(invoiceFor('UPI', 'samovar.tea@okaxis', { amount: '1499.00', currency: 'INR', subunit: 2 })), 'en');
    await untilScreen(el, 'waiting');
    assert.equal(label(el, 'requisites'), 'UPI ID');
    assert.equal(value(el, 'requisites'), 'samovar.tea@okaxis');
    assert.equal(plain(value(el, 'amount')), '₹1,499.00');
    assert.equal(copyButton(el, 'requisites').getAttribute('aria-label'), 'Copy UPI ID');
    const copied = nextEvent(el, 'checkout-copy');
    copyButton(el, 'requisites').click();
    assert.deepEqual((await copied).detail, { field: 'requisites', value: 'samovar.tea@okaxis' });
    assert.deepEqual(written, ['samovar.tea@okaxis']);
    await el.updateComplete;
    assert.equal(liveRegion(el), 'UPI ID copied');
    await expect(el).to.be.accessible();
  });

  it('an IMPS account and its IFSC, each with its own copy button, in Bengali', async () => {
    const written: string[] = [];
    restore = stubClipboard(written);
    const el = await mount(
      readyClient(invoiceFor('IMPS', '50100248163579 IFSC HDFC0001234', { amount: '1500.00', currency: 'INR', subunit: 2 })),
      'bn',
    );
    await untilScreen(el, 'waiting');
    assert.equal(label(el, 'requisites'), 'অ্যাকাউন্ট নম্বর');
    assert.equal(value(el, 'requisites'), '5010 0248 1635 79');
    assert.equal(label(el, 'ifsc'), 'IFSC');
    assert.equal(value(el, 'ifsc'), 'HDFC0001234');
    assert.equal(plain(value(el, 'amount')), '১,৫০০.০০₹');
    copyButton(el, 'requisites').click();
    await waitUntil(() => written.length === 1);
    const ifsc = nextEvent(el, 'checkout-copy');
    copyButton(el, 'ifsc').click();
    assert.deepEqual((await ifsc).detail, { field: 'ifsc', value: 'HDFC0001234' });
    assert.deepEqual(written, ['50100248163579', 'HDFC0001234']);
    await el.updateComplete;
    assert.equal(liveRegion(el), 'IFSC কপি হয়েছে');
    assert.equal(text(copyButton(el, 'ifsc')), 'কপি হয়েছে', 'the IFSC’s button says so');
    assert.notEqual(text(copyButton(el, 'requisites')), 'কপি হয়েছে', 'the account’s does not');
    await expect(el).to.be.accessible();
  });

  it('a CVU in its two blocks, in Argentine pesos, in Spanish', async () => {
    const el = await mount(
      readyClient(invoiceFor('CVU', '0000003100012345678901', { amount: '25000.00', currency: 'ARS', subunit: 2 })),
      'es',
    );
    await untilScreen(el, 'waiting');
    assert.equal(label(el, 'requisites'), 'CVU');
    assert.equal(value(el, 'requisites'), '00000031 00012345678901');
    assert.equal(plain(value(el, 'amount')), '25.000,00 ARS');
    assert.equal(copyButton(el, 'requisites').getAttribute('aria-label'), 'Copiar CVU');
    await expect(el).to.be.accessible();
  });

  it('a mobile number to top up, in Russian', async () => {
    const el = await mount(
      readyClient(invoiceFor('MOBILE_TOP_UP', '+7(916)555-01-23', { amount: '500.00', currency: 'RUB', subunit: 2 })),
      'ru',
    );
    await untilScreen(el, 'waiting');
    assert.equal(label(el, 'requisites'), 'Номер для пополнения');
    assert.equal(value(el, 'requisites'), '+7 (916) 555-01-23');
    assert.equal(copyButton(el, 'requisites').getAttribute('aria-label'), 'Скопировать номер для пополнения');
    await expect(el).to.be.accessible();
  });

  it('a Telegram bot: its name, a link that opens it, its link copied', async () => {
    const written: string[] = [];
    restore = stubClipboard(written);
    const link = 'https://t.me/SamovarPayBot?start=inv_42';
    const el = await mount(readyClient(invoiceFor('TG_BOT', link, { amount: '1500.00', currency: 'RUB', subunit: 2 })), 'kk');
    await untilScreen(el, 'waiting');
    assert.equal(label(el, 'requisites'), 'Telegram-бот');
    const open = part(el, 'pay-link') as HTMLAnchorElement;
    assert.equal(open.href, link);
    assert.equal(open.rel, 'noopener noreferrer');
    assert.equal(text(open), 'Telegram-да ашу');
    assert.include(value(el, 'requisites'), '@SamovarPayBot');
    copyButton(el, 'requisites').click();
    await waitUntil(() => written.length === 1);
    assert.deepEqual(written, [link]);
    await waitUntil(() => text(copyButton(el, 'requisites')) === 'Көшірілді', 'the button says it copied');
    await el.updateComplete;
    await expect(el).to.be.accessible();
  });

  it('the service’s picture of a QR code, shown as a picture (never fetched as a script), in dong', async () => {
    const picture = 'https://service.example/qr/7f3a.png';
    const el = await mount(readyClient(invoiceFor('VIET_QR', picture, { amount: '250000', currency: 'VND', subunit: 0 })), 'en');
    await untilScreen(el, 'waiting');
    const image = part(el, 'qr')!.querySelector('img')!;
    assert.equal(image.src, picture);
    assert.equal(image.alt, 'QR code for paying from your bank app');
    assert.equal(image.referrerPolicy, 'no-referrer');
    assert.isEmpty(el.shadowRoot!.querySelectorAll('script'));
    expect(part(el, 'requisites'), 'the link itself is nothing to read or copy').to.not.exist;
    assert.equal(plain(value(el, 'amount')), '₫250,000');
    assert.lengthOf(parts(el, 'copy-button'), 1, 'the amount only');
  });

  it('the amount in each currency’s own format and decimals', async () => {
    const cases: [string, { amount: string; currency: string; subunit: number }, string][] = [
      ['kk', { amount: '15000.00', currency: 'KZT', subunit: 2 }, '15 000,00 ₸'],
      ['tg', { amount: '150.00', currency: 'TJS', subunit: 2 }, '150,00'],
      ['uz', { amount: '150000.00', currency: 'UZS', subunit: 2 }, '150 000,00'],
      ['bn', { amount: '1500.00', currency: 'BDT', subunit: 2 }, '১,৫০০.০০৳'],
      ['ko', { amount: '15000', currency: 'KRW', subunit: 0 }, '₩15,000'],
      ['az', { amount: '50.00', currency: 'AZN', subunit: 2 }, '50,00'],
    ];
    for (const [lang, sum, shown] of cases) {
      const el = await mount(readyClient(invoiceFor('TO_CARD', '2202206712345678', sum)), lang);
      await untilScreen(el, 'waiting');
      assert.include(plain(value(el, 'amount')), shown, `${sum.currency} in ${lang}`);
      assert.include(plain(text(part(el, 'guidance'))), shown, 'the guidance quotes the same amount');
    }
  });
});
