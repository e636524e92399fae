/**
 * The element against the real checkout proxy and the real mock service, mounted in the test
 * server (test/support/middleware.js): invoices are created with the real `MerchantClient`,
 * the browser speaks HTTP to `/checkout-api`, and the mock's controls play the bank.
 */
import { assert, expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import type { Invoice, InvoiceLookup } from '../../src/schemas/invoice.js';
import { nextEvent, part, parts, plain, screenOf, text } from './helpers.js';

const post = async (path: string, body: unknown = {}) => {
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.isTrue(response.ok, `${path}: HTTP ${response.status} ${await response.clone().text()}`);
  return response;
};

/** What a merchant's server does: creates the invoice with the client and remembers it. */
const createInvoice = async (options: { startDeal?: boolean; amount?: string; paymentOption?: string; paymentMethod?: string } = {}) =>
  (await (await post('/__test/invoices', options)).json()) as Invoice;

const mockInvoice = async (id: string) => (await (await fetch(`/__mock/invoices/${id}`)).json()) as InvoiceLookup;

/**
 * The proxy's event stream is on (the default); `no-stream` for the tests where the mock
 * changes the invoice behind the proxy's back: the stream hears of that only through the
 * notifications or its minutely refresh, which the test server does not wire.
 */
const mount = (invoiceId: string, { noStream = false, pollInterval = 1000 } = {}) =>
  fixture<MerchantCheckoutElement>(
    html`<merchant-checkout
      lang="en"
      endpoint="/checkout-api"
      poll-interval=${pollInterval}
      ?no-stream=${noStream}
      invoice-id=${invoiceId}
    ></merchant-checkout>`,
  );

/** The network is real here: give it more than waitUntil's default second. */
const untilScreen = async (el: MerchantCheckoutElement, screen: string) => {
  await waitUntil(() => screenOf(el) === screen, `screen is ${screenOf(el)}, expected ${screen}`, { timeout: 8000 });
  await el.updateComplete;
};

describe('<merchant-checkout> with the real proxy and mock service', () => {
  afterEach(() => post('/__mock/reset'));

  it('shows an invoice created through the client, and the paid screen once the mock is paid', async () => {
    // A card deal: the requisites are a number to read (a QR option's are drawn as its QR code).
    const invoice = await createInvoice({ amount: '2750.50', paymentOption: 'TO_CARD', paymentMethod: 'sberbank' });
    const deal = invoice.deals[0]!;
    const el = await mount(invoice.id, { noStream: true });
    await untilScreen(el, 'waiting');
    assert.equal(plain(text(part(el, 'amount')!.querySelector('.value'))), '₽2,750.50');
    assert.equal(text(part(el, 'bank')!.querySelector('.value')), deal.paymentMethodName);
    assert.equal(text(part(el, 'holder')!.querySelector('.value')), deal.requisites!.holder!);
    assert.equal(
      text(part(el, 'requisites')!.querySelector('.value')).replace(/[\s()-]/g, ''),
      deal.requisites!.requisites!.replace(/[\s()-]/g, '').replace(/^8/, '+7'),
    );
    await expect(el).to.be.accessible();

    const status = nextEvent(el, 'checkout-status');
    await post(`/__mock/invoices/${invoice.id}/paid`);
    assert.deepInclude((await status).detail, { previous: 'new', status: 'paid' });
    await untilScreen(el, 'paid');
    assert.equal(text(part(el, 'title')), 'Payment received');
    await expect(el).to.be.accessible();
  });

  it('cancels through the proxy: one POST, and the mock’s invoice is canceled', async () => {
    const invoice = await createInvoice();
    const el = await mount(invoice.id);
    await untilScreen(el, 'waiting');
    part(el, 'cancel-button')!.click();
    await el.updateComplete;
    const canceled = nextEvent(el, 'checkout-canceled');
    part(el, 'confirm-button')!.click();
    part(el, 'confirm-button')!.click();
    assert.equal((await canceled).detail.invoice.status, 'canceled');
    await untilScreen(el, 'canceled');
    assert.equal((await mockInvoice(invoice.id)).status, 'canceled');
    const requests = (await (await fetch('/__mock/requests')).json()) as { method: string; path: string }[];
    assert.lengthOf(
      requests.filter((request) => request.method === 'POST' && request.path === `/api/merchant/invoices/${invoice.id}/cancel`),
      1,
    );
  });

  it('starts a deal from the picker through the merchant’s startDeal hook', async () => {
    const invoice = await createInvoice({ startDeal: false });
    const el = await mount(invoice.id);
    await untilScreen(el, 'picker');
    await waitUntil(() => parts(el, 'variant').length > 0, 'the variants of the mock', { timeout: 8000 });
    await expect(el).to.be.accessible();
    const chosen = nextEvent(el, 'checkout-variant-select');
    parts(el, 'variant')[0]!.click();
    const { option, method } = (await chosen).detail;
    await untilScreen(el, 'waiting');
    const deal = (await mockInvoice(invoice.id)).deals.find((candidate) => candidate.isActive)!;
    assert.deepEqual([deal.paymentOption, deal.paymentMethod], [option, method]);
    assert.equal(text(part(el, 'holder')!.querySelector('.value')), deal.requisites!.holder!);
  });

  it('shows the error screen while the service fails, and recovers on retry', async () => {
    const invoice = await createInvoice();
    await post('/__mock/fail', { count: 100, status: 503 });
    const el = await mount(invoice.id);
    const failed = nextEvent(el, 'checkout-error');
    assert.deepInclude((await failed).detail, { code: 'upstream_error', retryable: true });
    await untilScreen(el, 'error');
    await post('/__mock/reset');
    part(el, 'retry-button')!.click();
    await untilScreen(el, 'waiting');
  });

  it('shows the expired screen when the mock expires the invoice', async () => {
    const invoice = await createInvoice();
    const el = await mount(invoice.id, { noStream: true });
    await untilScreen(el, 'waiting');
    await post(`/__mock/invoices/${invoice.id}/expire`);
    await untilScreen(el, 'expired');
  });

  it('takes a status the proxy pushes on its event stream, without polling', async () => {
    const invoice = await createInvoice();
    // Polling could not be the source here: its first read would come after a minute.
    const el = await mount(invoice.id, { pollInterval: 60_000 });
    await untilScreen(el, 'waiting');
    const status = nextEvent(el, 'checkout-status');
    await post(`/__mock/invoices/${invoice.id}/paid`);
    // What a notification does in a wired proxy: the proxy learns the new state (here from a
    // read by another payer) and pushes it to every stream of the invoice.
    await fetch(`/checkout-api/invoices/${invoice.id}`);
    assert.deepInclude((await status).detail, { previous: 'new', status: 'paid', source: 'push' });
    await untilScreen(el, 'paid');
    await expect(el).to.be.accessible();
  });

  it('is told 404 for an invoice the merchant does not know', async () => {
    const el = await mount('00000000-0000-4000-8000-000000000000');
    await untilScreen(el, 'error');
    assert.include(text(part(el, 'error')), 'not found');
  });
});
