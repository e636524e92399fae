/**
 * The payer's journey after the requisites: "I have paid", the receipt, the report of a
 * payment that went missing, the dispute, the way back to the shop, the SBP bank picker on a
 * phone, and requisites of every kind. Each state is checked with axe.
 */
import { assert, expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import { type CheckoutAnswer, CheckoutError } from '../../src/element/protocol-client.js';
import {
  dealWith,
  FakeClient,
  INVOICE_ID,
  liveRegion,
  mount,
  newInvoice,
  nextEvent,
  part,
  parts,
  readyClient,
  screenOf,
  text,
  untilScreen,
  waitingInvoice,
} from './helpers.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const receiptFile = (name = 'receipt.png', type = 'image/png', bytes: BlobPart = PNG) => new File([bytes], name, { type });

/** Puts `files` into the file input `input` as a payer choosing them would. */
const choose = (input: HTMLInputElement, ...files: File[]) => {
  const transfer = new DataTransfer();
  for (const file of files) transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
};

const confirmedDeal = () => dealWith({ status: 'transfer_confirmed' });

/** Mounts a waiting invoice and presses "I have paid". */
const checking = async (client = readyClient()) => {
  const el = await mount(client);
  await untilScreen(el, 'waiting');
  part(el, 'paid-button')!.click();
  await untilScreen(el, 'checking');
  return el;
};

afterEach(() => sessionStorage.clear());

describe('<merchant-checkout> the payer’s journey', () => {
  describe('"I have paid"', () => {
    it('shows the check, sends nothing, tells the page, and says how long it may take', async () => {
      const client = readyClient();
      const el = await mount(client);
      await untilScreen(el, 'waiting');
      const sent = client.calls.length;
      const confirmed = nextEvent(el, 'checkout-payer-confirmed');
      part(el, 'paid-button')!.click();
      const event = await confirmed;
      assert.equal(event.detail.deal.id, event.detail.invoice.deals[0]!.id);
      await untilScreen(el, 'checking');
      assert.equal(text(part(el, 'title')), 'Checking your payment');
      assert.match(text(part(el, 'explanation')), /up to (30|31) minutes/, 'the deadline, rounded up');
      assert.equal(client.calls.filter((call) => call.method !== 'getInvoice').length, sent - 1, 'nothing but reads was sent');
      for (const name of ['cancel-button', 'paid-button', 'requisites', 'copy-button']) expect(part(el, name), name).to.not.exist;
      assert.equal(el.shadowRoot!.activeElement, part(el, 'title'), 'focus moves to the new heading');
      await waitUntil(() => liveRegion(el) === 'Checking your payment', 'announced');
      await expect(el).to.be.accessible();
    });

    it('goes back to the details and returns to the check, and keeps the confirmation over a reload', async () => {
      const el = await checking();
      part(el, 'details-button')!.click();
      await untilScreen(el, 'waiting');
      expect(part(el, 'requisites')).to.exist;
      expect(part(el, 'cancel-button')).to.not.exist;
      part(el, 'paid-button')!.click();
      await untilScreen(el, 'checking');
      el.remove();
      const again = await mount(readyClient());
      await untilScreen(again, 'checking');
    });
  });

  describe('the receipt', () => {
    it('is sent through the proxy once chosen, and the deal then shows as checked', async () => {
      const client = readyClient();
      const el = await checking(client);
      part(el, 'receipt-button')!.click();
      await waitUntil(() => part(el, 'receipt-form'), 'the form loads on demand');
      await el.updateComplete;
      assert.equal(el.shadowRoot!.activeElement?.id, 'receipt-file', 'focus goes to the file field');
      await expect(el).to.be.accessible();
      assert.equal(text(el.shadowRoot!.querySelector('.file-name')), 'No file chosen', 'in the page’s language, not the browser’s');
      choose(el.shadowRoot!.querySelector<HTMLInputElement>('#receipt-file')!, receiptFile());
      assert.equal(text(el.shadowRoot!.querySelector('.file-name')), 'receipt.png');
      const sent = nextEvent(el, 'checkout-receipt');
      part(el, 'submit-button')!.click();
      const call = await client.next('sendReceipt');
      assert.instanceOf(call.body, File);
      assert.equal(call.body.name, 'receipt.png');
      await waitUntil(() => text(part(el, 'submit-button')) === 'Sending…');
      await client.answer('sendReceipt', waitingInvoice({ deals: [confirmedDeal()] }));
      await sent;
      await waitUntil(() => part(el, 'receipt-status'));
      assert.equal(text(part(el, 'receipt-status')), 'Receipt received, the payment is being checked.');
      expect(part(el, 'details-button')).to.not.exist;
      await expect(el).to.be.accessible();
    });

    it('is checked in the browser first: a missing, too large or wrong file is said, nothing is sent', async () => {
      const client = readyClient();
      const el = await checking(client);
      part(el, 'receipt-button')!.click();
      await waitUntil(() => part(el, 'receipt-form'));
      const input = () => el.shadowRoot!.querySelector<HTMLInputElement>('#receipt-file')!;
      const submit = async () => {
        part(el, 'submit-button')!.click();
        await el.updateComplete;
        return text(el.shadowRoot!.querySelector('#receipt-error'));
      };
      assert.equal(await submit(), 'Choose the receipt file.');
      assert.equal(input().getAttribute('aria-invalid'), 'true');
      choose(input(), receiptFile('big.pdf', 'application/pdf', new Uint8Array(10 * 1024 * 1024 + 1)));
      assert.include(await submit(), 'larger than this shop takes (10 MB)');
      choose(input(), receiptFile('note.txt', 'text/plain'));
      assert.include(await submit(), 'not accepted');
      assert.lengthOf(client.callsOf('sendReceipt'), 0);
      await expect(el).to.be.accessible();
    });

    it('promises only what the proxy says it takes, and names each failure of a sending truthfully', async () => {
      const client = readyClient({ ...waitingInvoice(), receiptMaxBytes: 2.5 * 1024 * 1024 });
      const el = await checking(client);
      part(el, 'receipt-button')!.click();
      await waitUntil(() => part(el, 'receipt-form'));
      assert.include(text(el.shadowRoot!.querySelector('#receipt-hint')), 'up to 2.5 MB');
      const input = () => el.shadowRoot!.querySelector<HTMLInputElement>('#receipt-file')!;
      choose(input(), receiptFile('big.png', 'image/png', new Uint8Array(3 * 1024 * 1024)));
      part(el, 'submit-button')!.click();
      await el.updateComplete;
      assert.include(text(el.shadowRoot!.querySelector('#receipt-error')), 'larger than this shop takes (2.5 MB)');
      assert.lengthOf(client.callsOf('sendReceipt'), 0, 'nothing is sent that the proxy would refuse');
      const alert = () => text(el.shadowRoot!.querySelector('[part~="receipt-form"] [role="alert"]'));
      for (const [failure, words] of [
        [new CheckoutError('network_error', 'the request failed', { retryable: true }), 'connection was lost'],
        // The limit that refused it, as the 413 said (a server in front may take less than the proxy says).
        [new CheckoutError('payload_too_large', 'too large', { status: 413, maxBytes: 1024 * 1024 }), 'larger than this shop takes (1 MB)'],
        // A 413 that names no limit: too large, and no figure the payer could trust wrongly.
        [new CheckoutError('payload_too_large', 'too large', { status: 413 }), 'too large for this shop. Send a smaller photo'],
        [new CheckoutError('request_timeout', 'slow', { status: 408 }), 'took too long'],
        [new CheckoutError('upstream_error', 'refused', { status: 502 }), 'payment service did not take'],
      ] as const) {
        choose(input(), receiptFile());
        part(el, 'submit-button')!.click();
        await client.fail('sendReceipt', failure);
        await waitUntil(() => alert().includes(words), `${failure.code}: ${alert()}`);
        if (failure.code === 'payload_too_large') assert.notInclude(alert(), '2.5 MB', 'never the projection’s limit for a refusal');
      }
      await expect(el).to.be.accessible();
    });

    it('says what the proxy refused, and can be sent again', async () => {
      const client = readyClient();
      const el = await checking(client);
      part(el, 'receipt-button')!.click();
      await waitUntil(() => part(el, 'receipt-form'));
      choose(el.shadowRoot!.querySelector<HTMLInputElement>('#receipt-file')!, receiptFile());
      part(el, 'submit-button')!.click();
      await client.fail('sendReceipt', new CheckoutError('unsupported_media_type', 'not a receipt', { status: 415 }));
      await waitUntil(() => text(el.shadowRoot!.querySelector('[part~="receipt-form"] [role="alert"]')).includes('not accepted'));
      choose(el.shadowRoot!.querySelector<HTMLInputElement>('#receipt-file')!, receiptFile());
      part(el, 'submit-button')!.click();
      await client.next('sendReceipt');
    });

    it('is not offered when the proxy takes no receipts, and asked for when it requires one', async () => {
      const off = await checking(readyClient({ ...waitingInvoice(), receipts: 'off' }));
      expect(part(off, 'receipt-button')).to.not.exist;
      off.remove();
      sessionStorage.clear();
      const required = await checking(readyClient({ ...waitingInvoice(), receipts: 'required' }));
      // Required: "I have paid" opens the form at once.
      await waitUntil(() => part(required, 'receipt-form'), 'the receipt form, without another press');
      part(required, 'receipt-form')!.querySelector<HTMLButtonElement>('button[type="button"]')!.click();
      await required.updateComplete;
      assert.equal(text(part(required, 'receipt-button')), 'Attach the receipt (required)');
    });
  });

  describe('reporting a payment', () => {
    it('is offered on the expired screen with the number to quote, and becomes a dispute', async () => {
      const client = readyClient(waitingInvoice({ status: 'expired', deals: [dealWith({ isActive: false, status: 'expired' })] }));
      const el = await mount(client);
      await untilScreen(el, 'expired');
      assert.equal(text(part(el, 'report-button')), 'I have already paid');
      assert.include(text(part(el, 'reference')), 'Payment number');
      assert.notInclude(text(part(el, 'explanation')), 'credited', 'no promise of a credit');
      await expect(el).to.be.accessible();

      part(el, 'report-button')!.click();
      await waitUntil(() => part(el, 'report-form'));
      await expect(el).to.be.accessible();
      const form = part(el, 'report-form')!;
      form.querySelector<HTMLInputElement>('[value="invalid_sum"]')!.click();
      form.querySelector<HTMLInputElement>('#report-amount')!.value = '1 450,5';
      part(el, 'submit-button')!.click();
      await el.updateComplete;
      assert.include(text(form.querySelector('[role="alert"]')), 'Choose the receipt file', 'the receipt is required');
      assert.equal(form.querySelector('#receipt-file')!.getAttribute('aria-invalid'), 'true', 'the field in question is marked');
      assert.equal(form.querySelector('#report-amount')!.getAttribute('aria-invalid'), 'false');
      choose(form.querySelector<HTMLInputElement>('#receipt-file')!, receiptFile());
      const reported = nextEvent(el, 'checkout-report');
      part(el, 'submit-button')!.click();
      const call = await client.next('reportPayment');
      assert.deepInclude(call.body, { reason: 'invalid_sum', amount: '1450.5' }, 'decimal text, never a float');
      const past = new Date(Date.now() - 60_000).toISOString();
      await client.answer('reportPayment', { outcome: 'forwarded', invoice: waitingInvoice({ status: 'dispute', expireAt: past }) });
      assert.equal((await reported).detail.outcome, 'forwarded');
      await untilScreen(el, 'dispute');
      let expired = 0;
      el.addEventListener('checkout-expired', () => expired++);
      assert.equal(text(part(el, 'title')), 'Your payment is being reviewed');
      expect(part(el, 'icon')).to.exist;
      assert.equal(part(el, 'icon')!.getAttribute('aria-hidden'), 'true');
      expect(part(el, 'reference')).to.exist;
      expect(part(el, 'timer')).to.not.exist;
      await expect(el).to.be.accessible();
      await new Promise((resolve) => setTimeout(resolve, 1100));
      assert.equal(expired, 0, 'a dispute past the invoice’s expiry does not expire on screen');
      assert.equal(screenOf(el), 'dispute');
    });

    it('refuses an amount that is not one, and says a report kept by the shop is with the shop', async () => {
      const client = readyClient(waitingInvoice({ status: 'expired', deals: [] }));
      const el = await mount(client);
      await untilScreen(el, 'expired');
      part(el, 'report-button')!.click();
      await waitUntil(() => part(el, 'report-form'));
      const form = part(el, 'report-form')!;
      form.querySelector<HTMLInputElement>('[value="invalid_sum"]')!.click();
      form.querySelector<HTMLInputElement>('#report-amount')!.value = '12.345';
      part(el, 'submit-button')!.click();
      await el.updateComplete;
      assert.include(text(form.querySelector('[role="alert"]')), 'Enter the amount you sent');
      assert.equal(form.querySelector('#report-amount')!.getAttribute('aria-invalid'), 'true');
      form.querySelector<HTMLInputElement>('[value="no_payment"]')!.click();
      choose(form.querySelector<HTMLInputElement>('#receipt-file')!, receiptFile());
      part(el, 'submit-button')!.click();
      const call = await client.next('reportPayment');
      assert.deepInclude(call.body, { reason: 'no_payment', amount: undefined });
      await client.answer('reportPayment', { outcome: 'reported', invoice: waitingInvoice({ status: 'expired', deals: [] }) });
      await waitUntil(() => part(el, 'report-status'));
      assert.equal(text(part(el, 'report-status')), 'Thank you. The shop has your report and will contact you.');
      await expect(el).to.be.accessible();
    });

    it('is offered when the deal the payer paid ended unconfirmed while the invoice is open', async () => {
      const client: FakeClient = new FakeClient()
        .reply('getInvoice', (): CheckoutAnswer => ({
          data: client.callsOf('getInvoice').length > 1 ? expiredDeal : waitingInvoice(),
          date: new Date().toUTCString(),
        }))
        .reply('getPaymentVariants', () => ({ data: [], date: new Date().toUTCString() }));
      const expiredDeal = newInvoice({ deals: [dealWith({ isActive: false, status: 'expired' })] });
      const el = await checking(client);
      el.retry();
      await untilScreen(el, 'picker');
      assert.equal(text(part(el, 'report-button')), 'Report a payment');
    });
  });

  describe('back to the shop', () => {
    const paidAt = (attributes: { returnUrl?: string; autoReturn?: number }, invoice: object) =>
      fixture<MerchantCheckoutElement>(
        html`<merchant-checkout
          lang="en"
          invoice-id=${INVOICE_ID}
          return-url=${attributes.returnUrl ?? ''}
          auto-return=${attributes.autoReturn ?? 0}
          .client=${readyClient(invoice)}
        ></merchant-checkout>`,
      );

    it('links to the invoice’s own URL on paid (before return-url), with an icon and "Amount paid"', async () => {
      const el = await paidAt(
        { returnUrl: '/elsewhere' },
        { ...waitingInvoice({ status: 'paid', deals: [] }), successUrl: 'https://shop.example/success' },
      );
      await untilScreen(el, 'paid');
      const link = part(el, 'return-link') as HTMLAnchorElement;
      assert.equal(link.href, 'https://shop.example/success');
      assert.equal(text(part(el, 'amount')!.querySelector('dt')), 'Amount paid');
      expect(part(el, 'icon')).to.exist;
      await expect(el).to.be.accessible();
    });

    it('lets the page take the return over (checkout-return is cancelable)', async () => {
      const el = await paidAt({}, { ...waitingInvoice({ status: 'canceled', deals: [] }), cancelUrl: 'https://shop.example/cancel' });
      await untilScreen(el, 'canceled');
      el.addEventListener('checkout-return', (event) => event.preventDefault(), { once: true });
      const asked = nextEvent(el, 'checkout-return');
      part(el, 'return-link')!.click();
      const event = await asked;
      assert.deepEqual(event.detail, { url: 'https://shop.example/cancel', status: 'canceled', automatic: false });
      assert.isTrue(event.defaultPrevented);
      assert.equal(screenOf(el), 'canceled', 'still here');
    });

    it('counts an automatic return down, announced, and stays when the payer asks', async () => {
      const el = await paidAt({ autoReturn: 30, returnUrl: '/thanks' }, waitingInvoice({ status: 'paid', deals: [] }));
      await untilScreen(el, 'paid');
      await waitUntil(() => part(el, 'auto-return'));
      assert.match(text(part(el, 'auto-return')), /^Returning to the shop in (29|30) s$/);
      await waitUntil(() => liveRegion(el).startsWith('Returning to the shop in'), 'announced once');
      await expect(el).to.be.accessible();
      part(el, 'stay-button')!.click();
      await el.updateComplete;
      expect(part(el, 'auto-return')).to.not.exist;
      expect(part(el, 'return-link')).to.exist;
    });

    it('returns by itself at zero unless the page says no', async () => {
      const el = await paidAt({ autoReturn: 1, returnUrl: '/thanks' }, waitingInvoice({ status: 'paid', deals: [] }));
      el.addEventListener('checkout-return', (event) => event.preventDefault());
      const asked = nextEvent(el, 'checkout-return');
      await untilScreen(el, 'paid');
      const event = await asked;
      assert.isTrue(event.detail.automatic);
      await el.updateComplete;
      expect(part(el, 'auto-return')).to.not.exist;
    });
  });

  describe('requisites by kind', () => {
    it('opens a payment page instead of copying a URL', async () => {
      const deal = dealWith({
        paymentOption: 'TO_BANK_DETAILS',
        requisites: { requisites: 'https://pay.bank.example/p/42', holder: null },
      });
      const el = await mount(readyClient({ ...waitingInvoice(), deals: [{ ...deal, requisitesKind: 'url' }] }));
      await untilScreen(el, 'waiting');
      const link = part(el, 'pay-link') as HTMLAnchorElement;
      assert.equal(link.href, 'https://pay.bank.example/p/42');
      assert.equal(text(link), 'Open payment page');
      assert.lengthOf(parts(el, 'copy-button'), 1, 'only the amount is copied');
      await expect(el).to.be.accessible();
    });

    it('shows a cross-border transfer’s currency and the card’s country', async () => {
      const invoice = { ...waitingInvoice({ deals: [dealWith({ paymentOption: 'CROSS_BORDER' })] }), crossBorderCurrency: 'TJS' };
      const el = await mount(readyClient(invoice));
      await untilScreen(el, 'waiting');
      assert.equal(text(part(el, 'cross-border')), 'The bank sends TJS, card of Tajikistan');
    });

    it('shows a lettermark beside the bank, hidden from screen readers', async () => {
      const el = await mount(readyClient());
      await untilScreen(el, 'waiting');
      await waitUntil(() => part(el, 'bank')!.querySelector('svg'), 'the lettermark arrives with its module');
      assert.equal(part(el, 'bank')!.querySelector('svg')!.getAttribute('aria-hidden'), 'true');
      assert.equal(text(part(el, 'bank')!.querySelector('.value')), 'Сбербанк');
    });
  });

  describe('the SBP bank picker on a phone', () => {
    let realMatchMedia: PropertyDescriptor | undefined;
    beforeEach(() => {
      realMatchMedia = Object.getOwnPropertyDescriptor(window, 'matchMedia');
      const touch = (query: string) => ({ matches: query.includes('coarse') }) as MediaQueryList;
      Object.defineProperty(window, 'matchMedia', { value: touch, configurable: true, writable: true });
    });
    afterEach(() => {
      if (realMatchMedia) Object.defineProperty(window, 'matchMedia', realMatchMedia);
      else Reflect.deleteProperty(window, 'matchMedia');
    });

    it('lists bank apps with a search, opens each with the payment link, and closes to the QR code', async () => {
      const el = await mount(readyClient());
      await untilScreen(el, 'waiting');
      part(el, 'bank-picker-button')!.click();
      await waitUntil(() => part(el, 'bank-picker'), 'the picker loads on demand');
      await el.updateComplete;
      assert.equal(el.shadowRoot!.activeElement?.id, 'bank-picker-title');
      const any = part(el, 'bank-any-link') as HTMLAnchorElement;
      assert.equal(any.href, 'https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=01&bank=100000000111');
      assert.isAtLeast(parts(el, 'bank-option').length, 30);
      await expect(el).to.be.accessible();
      const search = part(el, 'bank-search') as HTMLInputElement;
      search.value = 'сбер';
      search.dispatchEvent(new Event('input'));
      await el.updateComplete;
      const options = parts(el, 'bank-option');
      assert.lengthOf(options, 1);
      assert.include(text(options[0]), 'Sberbank', 'a Russian search finds the English name');
      part(el, 'bank-picker-close')!.click();
      await el.updateComplete;
      expect(part(el, 'bank-picker')).to.not.exist;
      assert.equal(el.shadowRoot!.activeElement, part(el, 'bank-picker-button'));
    });

    it('takes the merchant’s bank list as an object', async () => {
      const client = readyClient();
      const el = await fixture<MerchantCheckoutElement>(
        html`<merchant-checkout lang="en" invoice-id=${INVOICE_ID} .client=${client}></merchant-checkout>`,
      );
      el.sbpBanks = { version: '1.0', dictionary: [{ bankName: 'Мой банк', schema: 'bank100000000999', package_name: 'ru.my.bank' }] };
      await untilScreen(el, 'waiting');
      part(el, 'bank-picker-button')!.click();
      await waitUntil(() => parts(el, 'bank-option').length === 1, 'only the merchant’s bank');
      assert.include(text(parts(el, 'bank-option')[0]), 'Мой банк');
    });
  });
});
