/**
 * Receipts on any mount (issue 37, point 7), in the browser against the real proxy and mock
 * (test/support/middleware.js): the proxy behind a shop's own function takes a 3 MB receipt
 * from the element; behind a server that caps bodies at 1 MiB by hand, the payer is told that
 * limit, the one that refused the upload, not the 10 MB the proxy takes.
 */
import { assert, expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import type { Invoice } from '../../src/schemas/invoice.js';
import { part, screenOf, text } from './helpers.js';

/** What a merchant's server does: creates the invoice with the client and remembers it. */
const createInvoice = async () => {
  const response = await fetch('/__test/invoices', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.isTrue(response.ok, `HTTP ${response.status}`);
  return (await response.json()) as Invoice;
};

/** A PNG receipt of `size` bytes. */
const png = (size: number) => {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new File([bytes], 'photo.png', { type: 'image/png' });
};

/** The element on `endpoint`, "I have paid" pressed, the receipt form open with `file` chosen and sent. */
const sendReceipt = async (endpoint: string, file: File) => {
  const invoice = await createInvoice();
  const el = await fixture<MerchantCheckoutElement>(
    html`<merchant-checkout lang="en" no-stream endpoint=${endpoint} invoice-id=${invoice.id}></merchant-checkout>`,
  );
  await waitUntil(() => screenOf(el) === 'waiting', `screen is ${screenOf(el)}`, { timeout: 8000 });
  part(el, 'paid-button')!.click();
  await waitUntil(() => part(el, 'receipt-button'), 'the receipt button', { timeout: 8000 });
  part(el, 'receipt-button')!.click();
  await waitUntil(() => part(el, 'receipt-form'), 'the receipt form', { timeout: 8000 });
  const input = el.shadowRoot!.querySelector<HTMLInputElement>('#receipt-file')!;
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
  part(el, 'submit-button')!.click();
  return el;
};

afterEach(async () => {
  await fetch('/__mock/reset', { method: 'POST' });
  sessionStorage.clear();
});

describe('<merchant-checkout> receipts on any mount', () => {
  it('behind the shop’s own function in front of the proxy: a 3 MB receipt is taken', async () => {
    const el = await sendReceipt('/shop-api', png(3_000_000));
    await waitUntil(() => part(el, 'receipt-status'), 'the receipt taken', { timeout: 8000 });
    assert.equal(text(part(el, 'receipt-status')), 'Receipt received, the payment is being checked.');
    await expect(el).to.be.accessible();
  });

  it('behind a server that takes 1 MiB: the payer is told 1 MB, the limit that refused the receipt, not the proxy’s 10 MB', async () => {
    const el = await sendReceipt('/capped-api', png(3_000_000));
    // The form promised what the proxy takes…
    assert.include(text(el.shadowRoot!.querySelector('#receipt-hint')), 'up to 10 MB');
    const alert = () => text(el.shadowRoot!.querySelector('[part~="receipt-form"] [role="alert"]'));
    await waitUntil(() => alert() !== '', 'the refusal', { timeout: 8000 });
    // …the refusal names the limit that refused it.
    assert.include(alert(), 'larger than this shop takes (1 MB)');
    assert.notInclude(alert(), '10 MB');
    await expect(el).to.be.accessible();
  });
});
