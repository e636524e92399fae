import { assert, expect, fixture, html, waitUntil } from '@open-wc/testing';
import { BANK_DIRECTORY } from '../../src/element/banks/directory.js';
import { bankLogo, colorFor, contrastRatio, initials, lettermark, logoUrl, textColorFor } from '../../src/element/banks/lettermark.js';

const mount = (content: unknown) => fixture<HTMLElement>(html`<div>${content}</div>`);

describe('banks: lettermark', () => {
  it('computes WCAG contrast', () => {
    assert.closeTo(contrastRatio('#000000', '#ffffff'), 21, 0.01);
    assert.closeTo(contrastRatio('#fff', '#fff'), 1, 0.001);
    assert.closeTo(contrastRatio('#777777', '#ffffff'), 4.48, 0.01);
  });

  it('writes on every directory colour with at least 4.5:1 contrast', () => {
    for (const entry of BANK_DIRECTORY) {
      const ratio = contrastRatio(entry.color!, textColorFor(entry.color!));
      assert.isAtLeast(ratio, 4.5, `${entry.code} ${entry.color}: ${ratio.toFixed(2)}`);
    }
    assert.equal(textColorFor('#ffdd2d'), '#000000', 'dark letters on T-Bank yellow');
    assert.equal(textColorFor('#002882'), '#ffffff', 'white letters on VTB blue');
  });

  it('reaches 4.5:1 on any colour, the generated ones included', () => {
    // Every colour of the 4096 `#rgb` ones.
    for (let value = 0; value < 0x1000; value++) {
      const color = `#${value.toString(16).padStart(3, '0')}`;
      assert.isAtLeast(contrastRatio(color, textColorFor(color)), 4.5, color);
    }
    for (const name of ['Сбербанк', 'New Bank', 'x', '']) {
      const color = colorFor(name);
      assert.match(color, /^#[0-9a-f]{6}$/);
      assert.equal(colorFor(name), color, 'the same name, the same colour');
      assert.isAtLeast(contrastRatio(color, textColorFor(color)), 4.5, color);
    }
  });

  it('takes one or two initials, Cyrillic or Latin, leaving out "bank"', () => {
    const cases: [string, string][] = [
      ['Сбербанк', 'С'],
      ['Т-Банк', 'Т'],
      ['Альфа-Банк', 'А'],
      ['Ак Барс Банк', 'АБ'],
      ['Банк «Санкт-Петербург»', 'СП'],
      ['Ozon Bank', 'O'],
      ['MTS Bank', 'M'],
      ['Russian Standard Bank', 'RS'],
      ['ВТБ', 'В'],
      ['ЮMoney', 'Ю'],
      ['банк', 'Б'],
      ['', ''],
    ];
    for (const [name, expected] of cases) assert.equal(initials(name), expected, name);
  });

  it('renders the initials on the colour, hidden from assistive technology', async () => {
    const el = await mount(html`${lettermark('Ак Барс Банк', '#00a651')}<span>Ак Барс Банк</span>`);
    const svg = el.querySelector('svg')!;
    assert.equal(svg.getAttribute('aria-hidden'), 'true');
    assert.equal(svg.querySelector('text')!.textContent.trim(), 'АБ');
    assert.equal(svg.querySelector('rect')!.getAttribute('fill'), '#00a651');
    assert.equal(svg.querySelector('text')!.getAttribute('fill'), textColorFor('#00a651'));
    assert.equal(svg.getAttribute('width'), '32');
    await expect(el).to.be.accessible();
  });

  it('uses a colour from the name when given none or an invalid one', async () => {
    const el = await mount(html`${lettermark('New Bank')}${lettermark('New Bank', 'red" onload="alert(1)')}`);
    const fills = [...el.querySelectorAll('rect')].map((rect) => rect.getAttribute('fill'));
    assert.deepEqual(fills, [colorFor('New Bank'), colorFor('New Bank')]);
  });
});

describe('banks: logos', () => {
  const page = 'https://shop.example/checkout/pay';

  it("builds the merchant's logo URL with the code URL-encoded", () => {
    assert.equal(logoUrl('https://cdn.shop.example/banks/{code}.svg', 'sberbank', page), 'https://cdn.shop.example/banks/sberbank.svg');
    assert.equal(logoUrl('https://cdn.shop.example/banks/{code}.svg', 'a/b?c#d', page), 'https://cdn.shop.example/banks/a%2Fb%3Fc%23d.svg');
    assert.equal(logoUrl('/banks/{code}.png', 'vtb', page), 'https://shop.example/banks/vtb.png');
    assert.equal(logoUrl('logos/{code}.png', 'vtb', page), 'https://shop.example/checkout/logos/vtb.png');
    assert.equal(
      logoUrl('/banks/{code}.png', 'vtb', 'http://localhost:8000/'),
      'http://localhost:8000/banks/vtb.png',
      'same origin in development',
    );
  });

  it("refuses anything but https: or a path on the page's origin", () => {
    assert.isUndefined(logoUrl('javascript:alert(1)//{code}', 'x', page));
    assert.isUndefined(logoUrl(' JavaScript:alert(1)//{code}', 'x', page));
    assert.isUndefined(logoUrl('http://cdn.example/{code}.svg', 'x', page));
    assert.isUndefined(
      logoUrl('http://localhost:8000/{code}.svg', 'x', 'http://localhost:8000/'),
      'an absolute http: URL, even the same origin',
    );
    assert.isUndefined(logoUrl('data:image/svg+xml,<svg>{code}</svg>', 'x', page));
    assert.isUndefined(logoUrl('//evil.example/{code}.svg', 'x', 'http://localhost:8000/'));
    assert.isUndefined(logoUrl('https://cdn.example/logo.svg', 'x', page), 'a template without {code}');
    assert.isUndefined(logoUrl(undefined, 'x', page));
    assert.isUndefined(logoUrl('/banks/{code}', '..', page));
    assert.isUndefined(logoUrl('/banks/{code}', '', page));
    assert.isUndefined(logoUrl('https://[bad/{code}', 'x', page));
  });

  it('shows the lettermark when the logo does not load', async () => {
    const el = await mount(html`${bankLogo(`${location.origin}/no-such-logo/sberbank.svg`, 'Сбербанк', '#21a038')}<span>Сбербанк</span>`);
    const img = el.querySelector('img')!;
    assert.equal(img.getAttribute('alt'), '');
    await waitUntil(() => img.hidden, 'the broken logo is hidden');
    const fallback = img.nextElementSibling as HTMLElement;
    assert.isFalse(fallback.hidden);
    assert.equal(fallback.querySelector('text')!.textContent.trim(), 'С');
    await expect(el).to.be.accessible();
  });

  it('shows a logo that loads, the lettermark hidden', async () => {
    const svg = encodeURIComponent(
      '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="green"/></svg>',
    );
    const el = await mount(html`${bankLogo(`data:image/svg+xml,${svg}`, 'Сбербанк')}<span>Сбербанк</span>`);
    const img = el.querySelector('img')!;
    await waitUntil(() => img.complete && img.naturalWidth > 0, 'the logo loads');
    assert.isFalse(img.hidden);
    assert.isTrue((img.nextElementSibling as HTMLElement).hidden);
    await expect(el).to.be.accessible();
  });

  it('is a lettermark alone without a logo URL', async () => {
    const el = await mount(bankLogo(undefined, 'ВТБ', '#002882'));
    assert.notExists(el.querySelector('img'));
    assert.exists(el.querySelector('svg[aria-hidden="true"]'));
  });
});
