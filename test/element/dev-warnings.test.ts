/**
 * Lit in dev mode warns about inefficient or wrong use (an update scheduled after an update,
 * class fields shadowing reactive properties, …). This file listens from before the element is
 * loaded and walks it through every screen: any such warning fails it.
 */
import { assert, fixture, html, waitUntil } from '@open-wc/testing';
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import type * as Helpers from './helpers.js';

const warnings: string[] = [];
const warn = console.warn;
console.warn = (...args: unknown[]) => {
  warnings.push(args.map(String).join(' '));
  warn.apply(console, args);
};
/** The one notice Lit always gives in dev mode, not a warning about this element. */
const DEV_MODE_NOTICE = /^Lit is in dev mode\./;

describe('Lit dev-mode warnings', () => {
  let h: typeof Helpers;
  before(async () => {
    h = await import('./helpers.js');
  });
  after(() => {
    console.warn = warn;
  });

  it('are never given while the element goes through its screens', async () => {
    const client = h.readyClient(h.newInvoice());
    const el = await fixture<MerchantCheckoutElement>(
      html`<merchant-checkout lang="en" invoice-id=${h.INVOICE_ID} poll-interval="1000" .client=${client}></merchant-checkout>`,
    );
    await h.untilScreen(el, 'picker');
    await waitUntil(() => h.parts(el, 'variant').length === 3);
    client.reply('startDeal', () => ({ data: h.waitingInvoice() }));
    h.parts(el, 'variant')[0]!.click();
    await h.untilScreen(el, 'waiting');
    h.part(el, 'cancel-button')!.click();
    await el.updateComplete;
    h.part(el, 'keep-button')!.click();
    await el.updateComplete;
    el.lang = 'ru';
    el.theme = 'dark';
    await el.updateComplete;
    client.reply('getInvoice', () => new Error('offline'));
    el.invoiceId = h.OTHER_INVOICE_ID;
    await h.untilScreen(el, 'error');
    client.reply('getInvoice', () => ({ data: h.waitingInvoice({ id: h.OTHER_INVOICE_ID, status: 'paid', deals: [] }) }));
    h.part(el, 'retry-button')!.click();
    await h.untilScreen(el, 'paid');
    el.remove();
    assert.deepEqual(
      warnings.filter((warning) => !DEV_MODE_NOTICE.test(warning)),
      [],
    );
  });
});
