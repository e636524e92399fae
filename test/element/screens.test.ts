import { assert, expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import { CheckoutError } from '../../src/element/protocol-client.js';
import {
  FakeClient,
  INVOICE_ID,
  dealWith,
  newInvoice,
  part,
  parts,
  plain,
  readyClient,
  screenOf,
  text,
  untilScreen,
  waitingInvoice,
  nextEvent,
  mount,
} from './helpers.js';

describe('<merchant-checkout> screens', () => {
  it('shows a busy skeleton while loading, then the deal', async () => {
    const client = new FakeClient();
    const el = await mount(client);
    assert.equal(screenOf(el), 'loading');
    assert.equal(part(el, 'base')!.getAttribute('aria-busy'), 'true');
    expect(part(el, 'skeleton')).to.exist;
    await expect(el).to.be.accessible();

    const ready = nextEvent(el, 'checkout-ready');
    await client.answer('getInvoice', waitingInvoice());
    const event = await ready;
    assert.equal(event.detail.invoice.id, INVOICE_ID);
    assert.equal(screenOf(el), 'waiting');
    assert.equal(part(el, 'base')!.getAttribute('aria-busy'), 'false');
  });

  it('asks for the invoice and the variants in parallel, and shows the requisites before the variants arrive', async () => {
    const client = new FakeClient();
    const el = await mount(client);
    await client.next('getInvoice');
    await client.next('getPaymentVariants');
    assert.equal(client.calls.length, 2, 'both requests are out before either is answered');

    await client.answer('getInvoice', waitingInvoice());
    await untilScreen(el, 'waiting');
    assert.equal(text(part(el, 'requisites')?.querySelector('.value')), '2202 2067 1234 5678');
    assert.equal(client.pending('getPaymentVariants').length, 1, 'the variants are still on their way');
    expect(part(el, 'variants')).to.not.exist;

    await client.answer('getPaymentVariants', [{ option: 'TO_CARD', method: 'sberbank' }]);
    await waitUntil(() => part(el, 'variants'), 'the variants are shown once they arrive');
  });

  it('shows everything a payer needs while waiting for the transfer', async () => {
    const el = await mount(readyClient(), 'ru');
    await untilScreen(el, 'waiting');
    assert.equal(plain(text(part(el, 'amount')?.querySelector('.value'))), '1 500,00 ₽');
    assert.equal(text(part(el, 'bank')?.querySelector('.value')), 'Сбербанк');
    assert.equal(text(part(el, 'requisites')?.querySelector('dt')), 'Номер карты');
    assert.equal(text(part(el, 'requisites')?.querySelector('.value')), '2202 2067 1234 5678');
    assert.equal(text(part(el, 'holder')?.querySelector('.value')), 'Иван Петрович С.');
    assert.include(plain(text(part(el, 'guidance'))), 'ровно 1 500,00 ₽ одним платежом');
    assert.match(text(part(el, 'timer')), /^Осталось времени (29:5\d|30:0[01])$/);
    assert.include(text(part(el, 'status')), 'ожидаем ваш перевод');
    assert.equal(parts(el, 'copy-button').length, 2);
    const svg = part(el, 'qr')!.querySelector('svg')!;
    assert.equal(svg.getAttribute('role'), 'img');
    // The QR encoder loads on demand; the square holds its place meanwhile.
    await waitUntil(() => svg.querySelector('path'), 'the QR code is drawn once its encoder has loaded');
    assert.match(svg.querySelector('path')!.getAttribute('d')!, /^M\d+ \d+h\d+v1h-\d+z/);
    expect(part(el, 'cancel-button')).to.exist;
    expect(part(el, 'payee')).to.exist;
    await expect(el).to.be.accessible();
  });

  it('makes a bank code readable when the deal has no bank name, and shows a phone number grouped', async () => {
    const invoice = waitingInvoice({
      deals: [
        dealWith({ paymentMethodName: undefined, paymentOption: 'SBP', requisites: { requisites: '+79001234567', holder: 'Anna K.' } }),
      ],
    });
    const el = await mount(readyClient(invoice));
    await untilScreen(el, 'waiting');
    // The service's list (none from this client) or the bundled directory names it; never the raw code.
    await waitUntil(() => text(part(el, 'bank')?.querySelector('.value')) === 'Sberbank', 'the directory’s English name');
    assert.equal(text(part(el, 'requisites')?.querySelector('dt')), 'Phone number');
    assert.equal(text(part(el, 'requisites')?.querySelector('.value')), '+7 (900) 123-45-67');
  });

  it('marks the active variant beside the deal, grouped by bank', async () => {
    const el = await mount(readyClient());
    await untilScreen(el, 'waiting');
    await waitUntil(() => part(el, 'variants'));
    await waitUntil(
      () => text(part(el, 'variants')!.querySelectorAll('[role="group"] .label')[1]) === 'T-Bank',
      'the directory names tinkoff',
    );
    const groups = [...part(el, 'variants')!.querySelectorAll('[role="group"]')];
    assert.deepEqual(
      groups.map((group) => text(group.querySelector('.label'))),
      ['Сбербанк', 'T-Bank'],
    );
    const items = parts(el, 'variant');
    assert.equal(items.length, 3);
    assert.deepEqual(
      items.map((item) => item.getAttribute('aria-current')),
      ['true', 'false', 'false'],
    );
    assert.equal(items.filter((item) => item.tagName === 'BUTTON').length, 0, 'beside a deal, variants are not buttons');
  });

  it('shows a pay-out as money on its way to the payer: no requisites to pay, no picker, no cancel', async () => {
    const payout = waitingInvoice({ type: 'out', deals: [dealWith({ type: 'out' })] });
    const el = await mount(readyClient(payout, []));
    await untilScreen(el, 'payout');
    assert.equal(text(part(el, 'title')), 'Payout in progress');
    assert.include(text(part(el, 'status')), 'being paid out to you');
    assert.include(text(part(el, 'explanation')), 'there is nothing to pay');
    assert.equal(plain(text(part(el, 'amount')?.querySelector('.value'))), '₽1,500.00');
    for (const name of ['requisites', 'qr', 'variants', 'cancel-button', 'timer']) expect(part(el, name), name).to.not.exist;
    await expect(el).to.be.accessible();
  });

  it('offers the variants as a picker when there is no active deal', async () => {
    const el = await mount(readyClient(newInvoice()));
    await untilScreen(el, 'picker');
    await waitUntil(() => part(el, 'variants'));
    const buttons = parts(el, 'variant');
    assert.deepEqual(
      buttons.map((button) => [button.tagName, text(button)]),
      [
        ['BUTTON', 'Card transfer'],
        ['BUTTON', 'SBP (Faster Payments)'],
        ['BUTTON', 'Card transfer'],
      ],
    );
    expect(part(el, 'requisites')).to.not.exist;
    expect(part(el, 'cancel-button')).to.not.exist;
    expect(part(el, 'timer')).to.exist;
    await expect(el).to.be.accessible();
  });

  for (const [status, screen, title] of [
    ['paid', 'paid', 'Payment received'],
    ['COMPLETED', 'paid', 'Payment received'],
    ['canceled', 'canceled', 'Payment canceled'],
    ['cancelled', 'canceled', 'Payment canceled'],
    ['expired', 'expired', 'Time to pay is up'],
  ] as const) {
    it(`shows the ${screen} screen for status "${status}"`, async () => {
      const el = await mount(readyClient(waitingInvoice({ status, deals: [] })));
      await untilScreen(el, screen);
      assert.equal(text(part(el, 'title')), title);
      expect(part(el, 'explanation')).to.exist;
      expect(part(el, 'amount')).to.exist;
      // Only the payment's number to quote to the shop is copied here (expired).
      const copies = parts(el, 'copy-button').map((button) => button.closest('[part]:not([part~="copy-button"])')?.getAttribute('part'));
      assert.deepEqual(copies, screen === 'expired' ? ['reference'] : []);
      expect(part(el, 'cancel-button')).to.not.exist;
      expect(part(el, 'timer')).to.not.exist;
      await expect(el).to.be.accessible();
    });
  }

  it('shows an unknown status as written, and keeps the requisites if a deal is still active', async () => {
    const el = await mount(readyClient(waitingInvoice({ status: 'dispute_opened', deals: [] })));
    await untilScreen(el, 'other');
    assert.include(text(part(el, 'status')), 'dispute_opened');
    assert.include(text(part(el, 'explanation')), '“dispute_opened”');
    await expect(el).to.be.accessible();

    const withDeal = await mount(readyClient(waitingInvoice({ status: 'in_review' })));
    await untilScreen(withDeal, 'waiting');
    assert.include(text(part(withDeal, 'status')), 'in_review');
  });

  it('treats an invoice past its expiry as expired even before the service says so', async () => {
    const el = await mount(readyClient(waitingInvoice({ expireAt: new Date(Date.now() - 1000).toISOString() })));
    await untilScreen(el, 'expired');
    expect(part(el, 'requisites')).to.not.exist;
  });

  describe('error screen', () => {
    const cases: [string, Error, string, string][] = [
      [
        'a network failure',
        new CheckoutError('network_error', 'the request failed', { retryable: true }),
        'network_error',
        'No connection',
      ],
      ['a 404 from the proxy', new CheckoutError('not_found', 'unknown invoice', { status: 404 }), 'not_found', 'not found'],
      [
        'a 502 from the proxy',
        new CheckoutError('upstream_error', 'bad gateway', { status: 502, retryable: true }),
        'upstream_error',
        'not available',
      ],
      ['anything a custom client throws', new TypeError('boom'), 'network_error', 'No connection'],
    ];
    for (const [what, error, code, message] of cases) {
      it(`shows an alert with a retry button for ${what}`, async () => {
        const client = new FakeClient();
        const el = await mount(client);
        const failed = nextEvent(el, 'checkout-error');
        await client.fail('getInvoice', error);
        const event = await failed;
        assert.equal(event.detail.code, code);
        await untilScreen(el, 'error');
        assert.equal(part(el, 'error')!.getAttribute('role'), 'alert');
        assert.include(text(part(el, 'error')), message);
        expect(part(el, 'retry-button')).to.exist;
        await expect(el).to.be.accessible();
      });
    }

    it('retries on demand and shows the data', async () => {
      const client = new FakeClient();
      const el = await mount(client);
      await client.fail('getInvoice', new CheckoutError('network_error', 'offline', { retryable: true }));
      await untilScreen(el, 'error');
      part(el, 'retry-button')!.click();
      await untilScreen(el, 'loading');
      await client.answer('getInvoice', waitingInvoice());
      await untilScreen(el, 'waiting');
    });

    it('refuses invalid data as a whole: invalid_response, nothing half-rendered', async () => {
      const client = new FakeClient();
      const el = await mount(client);
      const failed = nextEvent(el, 'checkout-error');
      await client.answer('getInvoice', waitingInvoice({ sum: { amount: 1500, currency: 'RUB', subunit: 2 } }));
      const event = await failed;
      assert.equal(event.detail.code, 'invalid_response');
      assert.include(event.detail.message, 'sum.amount');
      await untilScreen(el, 'error');
      expect(part(el, 'amount')).to.not.exist;
      expect(part(el, 'requisites')).to.not.exist;
    });

    it('refuses an answer about another invoice', async () => {
      const client = new FakeClient();
      const el = await mount(client);
      const failed = nextEvent(el, 'checkout-error');
      await client.answer('getInvoice', waitingInvoice({ id: '11111111-2222-4333-8444-555555555555' }));
      assert.equal((await failed).detail.code, 'invalid_response');
      await untilScreen(el, 'error');
    });

    it('says a malformed invoice-id is not valid without asking anyone', async () => {
      const client = new FakeClient();
      const el = await fixture<MerchantCheckoutElement>(
        html`<merchant-checkout lang="en" invoice-id="../../admin" .client=${client}></merchant-checkout>`,
      );
      await untilScreen(el, 'error');
      assert.include(text(part(el, 'error')), 'not valid');
      assert.equal(client.calls.length, 0);
    });
  });

  it('renders nothing but an empty card until it has an invoice id', async () => {
    const client = new FakeClient();
    const el = await fixture<MerchantCheckoutElement>(html`<merchant-checkout .client=${client}></merchant-checkout>`);
    assert.equal(screenOf(el), 'idle');
    assert.equal(client.calls.length, 0);
    el.invoiceId = INVOICE_ID;
    await el.updateComplete;
    assert.equal(screenOf(el), 'loading');
    assert.equal(client.callsOf('getInvoice').length, 1);
  });
});
