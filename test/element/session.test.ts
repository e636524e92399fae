/**
 * One invoice, one session: a new `invoice-id` starts from nothing and aborts everything of the
 * old invoice. Regression tests for state that once carried over from one invoice to the next.
 */
import { assert, expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import type { CheckoutAnswer, CheckoutClient } from '../../src/element/protocol-client.js';
import {
  FakeClient,
  INVOICE_ID,
  OTHER_INVOICE_ID,
  newInvoice,
  nextEvent,
  part,
  parts,
  screenOf,
  settle,
  text,
  untilScreen,
  variants,
  waitingInvoice,
} from './helpers.js';

/** Answers every read at once, with an invoice of the id asked for. */
const answeringClient = (invoice: (id: string) => unknown = (id) => waitingInvoice({ id })) =>
  new FakeClient()
    .reply('getInvoice', (call) => ({ data: invoice(call.invoiceId), date: new Date().toUTCString() }))
    .reply('getPaymentVariants', () => ({ data: variants(), date: new Date().toUTCString() }));

const mount = (client: CheckoutClient) =>
  fixture<MerchantCheckoutElement>(html`<merchant-checkout lang="en" invoice-id=${INVOICE_ID} .client=${client}></merchant-checkout>`);

const copyButtonOf = (el: MerchantCheckoutElement, name: 'amount' | 'requisites') =>
  part(el, name)!.querySelector<HTMLButtonElement>('[part~="copy-button"]')!;

describe('<merchant-checkout> one session per invoice', () => {
  let restoreClipboard: () => void = () => undefined;
  afterEach(() => restoreClipboard());

  it('does not carry "Copied" over to the next invoice', async () => {
    Object.defineProperty(navigator.clipboard, 'writeText', { value: () => Promise.resolve(), configurable: true });
    restoreClipboard = () => Reflect.deleteProperty(navigator.clipboard, 'writeText');
    const client = answeringClient();
    const el = await mount(client);
    await untilScreen(el, 'waiting');
    const copied = nextEvent(el, 'checkout-copy');
    copyButtonOf(el, 'amount').click();
    await copied;
    await el.updateComplete;
    assert.equal(text(copyButtonOf(el, 'amount')), 'Copied', 'invoice A says Copied');

    el.invoiceId = OTHER_INVOICE_ID;
    await el.updateComplete;
    await waitUntil(() => client.callsOf('getInvoice').some((call) => call.invoiceId === OTHER_INVOICE_ID && call.settled));
    await untilScreen(el, 'waiting');
    assert.equal(text(copyButtonOf(el, 'amount')), 'Copy');
    assert.equal(copyButtonOf(el, 'amount').getAttribute('aria-label'), 'Copy amount');
    assert.equal(text(copyButtonOf(el, 'requisites')), 'Copy');
    assert.equal(copyButtonOf(el, 'requisites').getAttribute('aria-label'), 'Copy card number');
    expect(el.shadowRoot!.querySelector('[part~="notice"]')).to.not.exist;
    await expect(el).to.be.accessible();
  });

  it('aborts the old invoice’s pending deal when invoice-id changes, and keeps none of its state', async () => {
    const client = answeringClient((id) => newInvoice({ id }));
    const el = await mount(client);
    await untilScreen(el, 'picker');
    await waitUntil(() => parts(el, 'variant').length === 3);
    parts(el, 'variant')[0]!.click();
    const deal = await client.next('startDeal');
    assert.equal(deal.invoiceId, INVOICE_ID);
    await el.updateComplete;
    assert.equal(text(parts(el, 'variant')[0]), 'Preparing the payment details…');

    const events: string[] = [];
    el.addEventListener('checkout-error', (event) => events.push(`error ${event.detail.code}`));
    el.addEventListener('checkout-status', (event) => events.push(`status ${event.detail.invoice.id}`));
    el.addEventListener('checkout-ready', (event) => events.push(`ready ${event.detail.invoice.id}`));
    el.invoiceId = OTHER_INVOICE_ID;
    await el.updateComplete;
    assert.isTrue(deal.signal?.aborted, 'the old invoice’s request is aborted');
    await untilScreen(el, 'picker');
    await waitUntil(() => parts(el, 'variant').length === 3);
    assert.deepEqual(
      parts(el, 'variant').map((button) => [text(button), button.getAttribute('aria-disabled')]),
      [
        ['Card transfer', 'false'],
        ['SBP (Faster Payments)', 'false'],
        ['Card transfer', 'false'],
      ],
      'no deal is pending on the new invoice',
    );
    assert.deepEqual(events, [`ready ${OTHER_INVOICE_ID}`], 'nothing of the old invoice is reported, not even its abort');
  });

  it('aborts the old invoice’s pending cancel and starts the new one without a confirmation', async () => {
    const client = answeringClient();
    const el = await mount(client);
    await untilScreen(el, 'waiting');
    part(el, 'cancel-button')!.click();
    await el.updateComplete;
    part(el, 'confirm-button')!.click();
    const cancel = await client.next('cancelInvoice');
    el.invoiceId = OTHER_INVOICE_ID;
    await el.updateComplete;
    assert.isTrue(cancel.signal?.aborted);
    await waitUntil(() => client.callsOf('getInvoice').some((call) => call.invoiceId === OTHER_INVOICE_ID && call.settled));
    await untilScreen(el, 'waiting');
    expect(part(el, 'confirm-button')).to.not.exist;
    expect(part(el, 'cancel-button')).to.exist;
  });

  it('drops an answer about the old invoice that comes after the switch, even from a client that ignores the signal', async () => {
    const answers = new Map<string, (answer: CheckoutAnswer) => void>();
    const client: CheckoutClient = {
      getInvoice: (id) => new Promise((resolve) => answers.set(id, resolve)),
      getPaymentVariants: () => Promise.resolve({ data: variants() }),
      cancelInvoice: () => new Promise(() => undefined),
      startDeal: () => new Promise(() => undefined),
    };
    const el = await mount(client);
    const ready: string[] = [];
    el.addEventListener('checkout-ready', (event) => ready.push(event.detail.invoice.id));
    el.invoiceId = OTHER_INVOICE_ID;
    await el.updateComplete;
    answers.get(INVOICE_ID)!({ data: waitingInvoice({ status: 'paid', deals: [] }) });
    await settle(el);
    assert.equal(screenOf(el), 'loading', 'the old invoice is not shown');
    answers.get(OTHER_INVOICE_ID)!({ data: waitingInvoice({ id: OTHER_INVOICE_ID }) });
    await untilScreen(el, 'waiting');
    await settle(el);
    assert.deepEqual(ready, [OTHER_INVOICE_ID]);
  });
});
