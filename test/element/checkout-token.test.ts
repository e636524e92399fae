/**
 * `checkout-token`: the gateway's way in (docs/gateway.md). The default client sends it as
 * `X-Checkout-Token` with every request (reads, the event stream, writes, uploads), and a
 * renewed token from the next request on, without reloading the invoice.
 */
import { assert, fixture, html, waitUntil } from '@open-wc/testing';
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import { createCheckoutClient } from '../../src/element/protocol-client.js';
import { INVOICE_ID, StreamingFetch, untilScreen, variants, waitingInvoice } from './helpers.js';

interface Seen {
  method: string;
  path: string;
  token: string | undefined;
}

const tokenOf = (init: RequestInit | undefined): string | undefined =>
  (init?.headers as Record<string, string> | undefined)?.['x-checkout-token'];

describe('checkout-token', () => {
  it('is sent with every read and the event stream; a renewed token is sent from the next request on, the invoice not reloaded', async () => {
    const seen: Seen[] = [];
    const streams = new StreamingFetch();
    const realFetch = Object.getOwnPropertyDescriptor(window, 'fetch')!;
    window.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input.toString(), location.href);
      seen.push({ method: init?.method ?? 'GET', path: url.pathname, token: tokenOf(init) });
      if (url.pathname.endsWith('/events')) return streams.fetch(url.pathname, init ?? {});
      const body = url.pathname.endsWith('/available-payment-variants') ? variants() : waitingInvoice();
      return Promise.resolve(
        new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json', date: new Date().toUTCString() } }),
      );
    };
    try {
      const el = await fixture<MerchantCheckoutElement>(
        html`<merchant-checkout lang="en" endpoint="/gateway" checkout-token="token-one" invoice-id=${INVOICE_ID}></merchant-checkout>`,
      );
      await untilScreen(el, 'waiting');
      await waitUntil(() => seen.some((request) => request.path.endsWith('/events')), 'the event stream is opened');
      assert.isNotEmpty(seen);
      assert.deepEqual(
        seen.filter((request) => request.token !== 'token-one'),
        [],
        'every request so far carried the token',
      );
      assert.includeMembers(
        seen.map((request) => request.path),
        [`/gateway/invoices/${INVOICE_ID}`, `/gateway/invoices/${INVOICE_ID}/events`],
      );

      // The shop renews the token before it expires; the stream ends, and the read that
      // follows at once carries the new one.
      const before = seen.length;
      const ready = { fired: 0 };
      el.addEventListener('checkout-ready', () => ready.fired++);
      el.checkoutToken = 'token-two';
      await el.updateComplete;
      streams.requests[0]!.end();
      await waitUntil(
        () => seen.slice(before).some((request) => request.path === `/gateway/invoices/${INVOICE_ID}`),
        'a read after the stream ended',
        { timeout: 5000 },
      );
      const after = seen.slice(before);
      assert.deepEqual(
        after.filter((request) => request.token !== 'token-two'),
        [],
        'every later request carried the renewed token',
      );
      assert.equal(ready.fired, 0, 'the invoice was not reloaded');
      assert.equal(el.shadowRoot!.querySelector('[part~="base"]')?.getAttribute('data-screen'), 'waiting');
    } finally {
      Object.defineProperty(window, 'fetch', realFetch);
    }
  });

  it('is sent with writes and uploads of the default client', async () => {
    const tokens: [string, string | undefined][] = [];
    const client = createCheckoutClient({
      endpoint: '/gateway',
      headers: () => ({ 'x-checkout-token': 'token-three' }),
      fetch: (input, init) => {
        tokens.push([`${init.method} ${input}`, tokenOf(init)]);
        return Promise.resolve(new Response(JSON.stringify({ ok: true }), { headers: { 'content-type': 'application/json' } }));
      },
    });
    await client.cancelInvoice(INVOICE_ID).catch(() => undefined);
    await client.sendReceipt!(INVOICE_ID, new Blob(['%PDF-1.4'], { type: 'application/pdf' })).catch(() => undefined);
    await client.reportPayment!(INVOICE_ID, { reason: 'no_payment' }).catch(() => undefined);
    assert.deepEqual(tokens, [
      [`POST /gateway/invoices/${INVOICE_ID}/cancel`, 'token-three'],
      [`POST /gateway/invoices/${INVOICE_ID}/receipt`, 'token-three'],
      [`POST /gateway/invoices/${INVOICE_ID}/dispute`, 'token-three'],
    ]);
  });
});
