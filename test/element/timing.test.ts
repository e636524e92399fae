/**
 * `checkout-timing`: the moments a shop forwards to its real-user monitoring. `ready` and
 * `requisites` once per invoice, after they are rendered, `error` with its code every time.
 */
import { assert, fixtureSync, html, waitUntil } from '@open-wc/testing';
import { CheckoutError } from '../../src/element/protocol-client.js';
import type { CheckoutTimingDetail } from '../../src/element/events.js';
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import { FakeClient, INVOICE_ID, newInvoice, part, readyClient, untilScreen } from './helpers.js';

/** The element, listened to before its first render. */
const mount = (client: FakeClient) =>
  fixtureSync<MerchantCheckoutElement>(html`<merchant-checkout lang="en" invoice-id=${INVOICE_ID} .client=${client}></merchant-checkout>`);

const collect = (el: MerchantCheckoutElement) => {
  const seen: CheckoutTimingDetail[] = [];
  el.addEventListener('checkout-timing', (event) => seen.push(event.detail));
  return seen;
};

describe('<merchant-checkout> checkout-timing', () => {
  it('times the first screen and the requisites once, after they are on screen', async () => {
    const client = readyClient();
    const el = mount(client);
    const seen = collect(el);
    const rendered: boolean[] = [];
    el.addEventListener('checkout-timing', (event) => {
      if (event.detail.name === 'requisites') rendered.push(part(el, 'requisites') !== null);
    });
    await untilScreen(el, 'waiting');
    await waitUntil(() => seen.length >= 2, 'ready and requisites');
    assert.deepEqual(
      seen.map(({ name }) => name),
      ['ready', 'requisites'],
    );
    assert.deepEqual(rendered, [true], 'the requisites were on screen when it was told');
    for (const { ms } of seen) assert.ok(Number.isInteger(ms) && ms >= 0 && ms < 10_000, String(ms));
    // Read again (a return to the page): nothing is timed twice.
    el.retry();
    await waitUntil(() => client.callsOf('getInvoice').length >= 2);
    await el.updateComplete;
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(
      seen.map(({ name }) => name),
      ['ready', 'requisites'],
    );
  });

  it('times an invoice without requisites as ready only, and every failed request with its code', async () => {
    const client = new FakeClient().reply(
      'getInvoice',
      () => new CheckoutError('upstream_timeout', 'slow', { status: 504, retryable: true }),
    );
    const el = mount(client);
    const seen = collect(el);
    await waitUntil(() => seen.some(({ name }) => name === 'error'), 'the failed read is timed');
    assert.deepEqual(seen.find(({ name }) => name === 'error')?.code, 'upstream_timeout');
    client.reply('getInvoice', () => ({ data: newInvoice() }));
    el.retry();
    await waitUntil(() => seen.some(({ name }) => name === 'ready'), 'ready after the retry');
    assert.notOk(
      seen.some(({ name }) => name === 'requisites'),
      'no deal yet: no requisites',
    );
  });
});
