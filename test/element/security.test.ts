import { aTimeout, assert, expect, fixture, html, oneEvent } from '@open-wc/testing';
import type { CheckoutErrorEvent } from '../../src/element/events.js';
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import type { CspReport } from '../support/csp-page.js';
import { dealWith, INVOICE_ID, part, readyClient, screenOf, text, untilScreen, waitingInvoice } from './helpers.js';

declare global {
  interface Window {
    xssHits: number;
  }
}

/** Each payload, if it ever ran, would bump `window.xssHits`. */
const PAYLOADS = [
  '<script>window.xssHits++</script>',
  '<img src=x onerror="window.xssHits++">',
  '<svg onload="window.xssHits++"></svg>',
  '"><img src=x onerror=window.xssHits++>',
  "'><script>window.xssHits++</script>",
  '<iframe src="javascript:parent.xssHits++"></iframe>',
  'javascript:window.xssHits++',
  '<a href="javascript:window.xssHits++" id="xss">pay</a>',
  "{{constructor.constructor('window.xssHits++')()}}",
  '${window.xssHits++}',
  '<details open ontoggle="window.xssHits++">',
  '<body onload=window.xssHits++>',
  '<math><mtext><table><mglyph><style><img src=x onerror=window.xssHits++>',
  '<object data="javascript:window.xssHits++"></object>',
  '<embed src="javascript:window.xssHits++">',
  '<input autofocus onfocus=window.xssHits++>',
  '<video><source onerror="window.xssHits++"></video>',
  '</span></dd><img src=x onerror=window.xssHits++>',
  '<!--?lit$1234$--><img src=x onerror=window.xssHits++>',
  '&lt;script&gt;window.xssHits++&lt;/script&gt;',
  '<meta http-equiv="refresh" content="0;url=javascript:window.xssHits++">',
  '<form><button formaction="javascript:window.xssHits++">go</button></form>',
  '<style>*{background:url("javascript:window.xssHits++")}</style>',
];

/** Elements no payload may ever create inside the element. */
// The element's own `details` (the folded ways to pay) is `.fold`; any other would be a payload's.
const FOREIGN = 'script, img, iframe, object, embed, input, video, details:not(.fold), form, meta, style, math, a#xss';

const mount = (invoice: unknown) =>
  fixture<MerchantCheckoutElement>(
    html`<merchant-checkout lang="en" invoice-id=${INVOICE_ID} .client=${readyClient(invoice)}></merchant-checkout>`,
  );

/** Gives an injected handler (image error, autofocus, toggle) the time it would need to fire: proves it did not. */
const letHandlersFire = () => aTimeout(50);

describe('<merchant-checkout> security', () => {
  beforeEach(() => {
    window.xssHits = 0;
  });

  it(`shows ${PAYLOADS.length} XSS payloads in holder, requisites and bank name as literal text`, async () => {
    assert.isAtLeast(PAYLOADS.length, 20);
    for (const payload of PAYLOADS) {
      const el = await mount(
        waitingInvoice({
          deals: [dealWith({ paymentMethodName: payload, requisites: { requisites: payload, holder: payload } })],
        }),
      );
      await untilScreen(el, 'waiting');
      assert.equal(part(el, 'holder')!.querySelector('.value')!.textContent, payload);
      assert.equal(part(el, 'requisites')!.querySelector('.value')!.textContent, payload);
      assert.equal(part(el, 'bank')!.querySelector('.value')!.textContent, payload);
      assert.lengthOf(el.shadowRoot!.querySelectorAll(FOREIGN), 0, payload);
      el.remove();
    }
    await letHandlersFire();
    assert.equal(window.xssHits, 0);
  });

  it('shows payloads in the currency and the status as literal text', async () => {
    for (const payload of PAYLOADS) {
      const el = await mount(waitingInvoice({ status: payload, deals: [], sum: { amount: '1500.00', currency: payload, subunit: 2 } }));
      await untilScreen(el, 'other');
      assert.include(part(el, 'amount')!.querySelector('.value')!.textContent, payload);
      assert.include(part(el, 'status')!.textContent, payload);
      assert.include(part(el, 'explanation')!.textContent, payload);
      assert.lengthOf(el.shadowRoot!.querySelectorAll(FOREIGN), 0, payload);
      el.remove();
    }
    await letHandlersFire();
    assert.equal(window.xssHits, 0);
  });

  it('refuses payloads in the amount as invalid data, showing none of it', async () => {
    const codes: string[] = [];
    const onError = (event: CheckoutErrorEvent) => codes.push(event.detail.code);
    document.addEventListener('checkout-error', onError);
    try {
      for (const payload of PAYLOADS) {
        const el = await mount(waitingInvoice({ sum: { amount: payload, currency: 'RUB', subunit: 2 } }));
        await untilScreen(el, 'error');
        assert.notInclude(el.shadowRoot!.textContent, payload);
        el.remove();
      }
    } finally {
      document.removeEventListener('checkout-error', onError);
    }
    assert.deepEqual(
      codes,
      PAYLOADS.map(() => 'invalid_response'),
    );
    await letHandlersFire();
    assert.equal(window.xssHits, 0);
  });

  it('draws no QR code and offers no link for anything but an https link', async () => {
    // A touch device: `(pointer: coarse)` matches.
    const realMatchMedia = Object.getOwnPropertyDescriptor(window, 'matchMedia');
    const touch = (query: string) => ({ matches: query.includes('coarse') }) as MediaQueryList;
    Object.defineProperty(window, 'matchMedia', { value: touch, configurable: true, writable: true });
    try {
      for (const link of [
        'javascript:window.xssHits++',
        'data:text/html,<script>window.xssHits++</script>',
        'http://qr.example/pay',
        '//evil.example',
      ]) {
        const el = await mount(waitingInvoice({ deals: [dealWith({ qrCodeLink: link })] }));
        await untilScreen(el, 'waiting');
        assert.isNull(part(el, 'qr'), link);
        assert.isNull(part(el, 'bank-link'), link);
        assert.notInclude(el.shadowRoot!.innerHTML, 'xssHits');
        el.remove();
      }
      const el = await mount(waitingInvoice({ deals: [dealWith({ qrCodeLink: 'https://bank.example/pay/42' })] }));
      await untilScreen(el, 'waiting');
      expect(part(el, 'qr')).to.exist;
      const link = part(el, 'bank-link') as HTMLAnchorElement;
      assert.equal(link.href, 'https://bank.example/pay/42');
      assert.equal(link.rel, 'noopener noreferrer');
      await expect(el).to.be.accessible();
      el.remove();
      // An SBP link gets the bank picker's button too, beside its link.
      const sbp = await mount(waitingInvoice());
      await untilScreen(sbp, 'waiting');
      assert.equal(part(sbp, 'bank-link')?.parentElement, part(sbp, 'bank-picker-button')?.parentElement, 'side by side');
    } finally {
      if (realMatchMedia) Object.defineProperty(window, 'matchMedia', realMatchMedia);
      else Reflect.deleteProperty(window, 'matchMedia');
    }
  });

  it('offers no bank-app link on a device with a mouse', async () => {
    const el = await mount(waitingInvoice());
    await untilScreen(el, 'waiting');
    expect(part(el, 'qr')).to.exist;
    assert.isNull(part(el, 'bank-link'));
  });

  /** What the CSP page at `src` reports (test/support/csp-page.ts), from a frame. */
  const cspReport = async (src: string): Promise<CspReport> => {
    const frame = document.createElement('iframe');
    frame.src = src;
    frame.title = 'CSP page';
    const reported = new Promise<CspReport>((resolve) => {
      const onMessage = (event: MessageEvent<{ cspReport?: CspReport }>) => {
        if (event.source !== frame.contentWindow || !event.data.cspReport) return;
        window.removeEventListener('message', onMessage);
        resolve(event.data.cspReport);
      };
      window.addEventListener('message', onMessage);
    });
    document.body.append(frame);
    try {
      return await reported;
    } finally {
      frame.remove();
    }
  };

  it('works under a strict CSP with Trusted Types enforced, with no violation', async () => {
    const report = await cspReport('/__csp/page.html');
    assert.isUndefined(report.error);
    assert.isTrue(report.trustedTypesEnforced, 'the page really enforces Trusted Types');
    assert.deepEqual(report.screens, ['waiting', 'canceled']);
    assert.equal(report.qrPaths, 1);
    assert.equal(report.holder, "<img src=x onerror=\"parent.postMessage('xss', '*')\">");
    assert.deepEqual(report.violations, []);
    assert.isTrue(report.styles.adopting);
    assert.equal(report.styles.styleElements, 0, 'every sheet adopted, none needing a nonce');
  });

  it('keeps its styles under a strict CSP in a browser without adoptedStyleSheets, given the page’s nonce', async () => {
    const report = await cspReport('/__csp/legacy.html');
    assert.isUndefined(report.error);
    assert.deepEqual(report.screens, ['waiting', 'canceled']);
    assert.deepEqual(report.violations, []);
    assert.isFalse(report.styles.adopting, 'the page has no adoptedStyleSheets');
    assert.isAtLeast(report.styles.styleElements, 2, "the element's own styles and the screens', as <style> elements");
    assert.equal(report.styles.withNonce, report.styles.styleElements, 'each carries the nonce');
    assert.equal(report.styles.background, 'rgb(255, 255, 255)', "the element's own styles apply");
    assert.equal(report.styles.amountWeight, '700', "the screens' styles, loaded on demand, apply");
  });

  it('is unstyled there without the nonce, and the page hears why', async () => {
    const report = await cspReport('/__csp/legacy.html?nonce=none');
    assert.isUndefined(report.error);
    assert.deepEqual(report.screens, ['waiting', 'canceled'], 'it still works');
    assert.isNotEmpty(report.violations);
    assert.isTrue(
      report.violations.every((violation) => violation.startsWith('style-src')),
      report.violations.join('; '),
    );
    assert.equal(report.styles.background, 'rgba(0, 0, 0, 0)');
  });

  it('works inside another component’s shadow root, taking the lang of its host', async () => {
    const host = await fixture<HTMLDivElement>(html`<div lang="ru"></div>`);
    const root = host.attachShadow({ mode: 'open' });
    const inner = document.createElement('section');
    root.append(inner);
    const el = document.createElement('merchant-checkout');
    el.client = readyClient();
    el.invoiceId = INVOICE_ID;
    const ready = oneEvent(host, 'checkout-ready');
    inner.append(el);
    await ready;
    await untilScreen(el, 'waiting');
    assert.equal(screenOf(el), 'waiting');
    assert.equal(text(part(el, 'title')), 'Переведите деньги', 'the language comes from across the shadow boundary');
  });
});
