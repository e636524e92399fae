import { assert, expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import { CheckoutError } from '../../src/element/protocol-client.js';
import {
  type FakeClient,
  INVOICE_ID,
  canceledInvoice,
  liveRegion,
  newInvoice,
  part,
  parts,
  readyClient,
  screenOf,
  text,
  untilScreen,
  waitingInvoice,
  nextEvent,
  SPACE,
  recordingClipboard,
  stubClipboard,
} from './helpers.js';

const mount = async (client: FakeClient, attributes: { hideCancel?: boolean } = {}) => {
  const el = await fixture<MerchantCheckoutElement>(
    html`<merchant-checkout
      lang="en"
      invoice-id=${INVOICE_ID}
      ?hide-cancel=${attributes.hideCancel}
      .client=${client}
    ></merchant-checkout>`,
  );
  return el;
};

/**
 * The text the payer has selected, read as every engine can: the document's selection reaches
 * into the shadow root in Chromium, Firefox and WebKit alike.
 */
const selectionIn = () => document.getSelection()?.toString() ?? '';

describe('<merchant-checkout> interactions', () => {
  describe('copy', () => {
    let restore: () => void = () => undefined;
    afterEach(() => restore());
    /** A clipboard that accepts every write and keeps it. */
    const recordClipboard = () => {
      const clipboard = recordingClipboard();
      restore = clipboard.restore;
      return clipboard.written;
    };

    it('copies the exact amount, says so visibly and aloud, and fires checkout-copy', async () => {
      const written = recordClipboard();
      const el = await mount(readyClient(waitingInvoice({ sum: { amount: '1500.50', currency: 'RUB', subunit: 2 } })));
      await untilScreen(el, 'waiting');
      const button = part(el, 'amount')!.querySelector<HTMLButtonElement>('[part~="copy-button"]')!;
      assert.equal(button.getAttribute('aria-label'), 'Copy amount');
      const copied = nextEvent(el, 'checkout-copy');
      button.click();
      const event = await copied;
      assert.deepEqual(event.detail, { field: 'amount', value: '1500.50' });
      assert.deepEqual(written, ['1500.50']);
      await el.updateComplete;
      assert.equal(text(button), 'Copied');
      assert.equal(liveRegion(el), 'Amount copied');
      await expect(el).to.be.accessible();
    });

    it('writes to the clipboard within the click itself, before anything is awaited', async () => {
      const written = recordClipboard();
      const el = await mount(readyClient());
      await untilScreen(el, 'waiting');
      part(el, 'requisites')!.querySelector<HTMLButtonElement>('[part~="copy-button"]')!.click();
      // Synchronously after the click: a write after an `await` loses the click's activation in WebKit.
      assert.deepEqual(written, ['2202206712345678']);
    });

    it('copies the raw card number, not the grouped one', async () => {
      const written = recordClipboard();
      const el = await mount(readyClient());
      await untilScreen(el, 'waiting');
      const copied = nextEvent(el, 'checkout-copy');
      part(el, 'requisites')!.querySelector<HTMLButtonElement>('[part~="copy-button"]')!.click();
      assert.deepEqual((await copied).detail, { field: 'requisites', value: '2202206712345678' });
      assert.deepEqual(written, ['2202206712345678']);
      await el.updateComplete;
      assert.equal(liveRegion(el), 'Card number copied');
    });

    it('selects the text for copying by hand when the clipboard refuses', async () => {
      restore = stubClipboard(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
      const el = await mount(readyClient());
      await untilScreen(el, 'waiting');
      let events = 0;
      el.addEventListener('checkout-copy', () => events++);
      part(el, 'requisites')!.querySelector<HTMLButtonElement>('[part~="copy-button"]')!.click();
      await waitUntil(() => part(el, 'requisites')!.querySelector('[part~="notice"]'), 'a copy-by-hand note');
      assert.equal(selectionIn(), '2202 2067 1234 5678');
      assert.include(text(part(el, 'requisites')!.querySelector('[part~="notice"]')), 'copy it with your device');
      assert.equal(events, 0, 'nothing was copied, so no checkout-copy');
      await expect(el).to.be.accessible();
    });

    it('selects the text when there is no Clipboard API at all', async () => {
      restore = stubClipboard(undefined);
      const el = await mount(readyClient());
      await untilScreen(el, 'waiting');
      part(el, 'amount')!.querySelector<HTMLButtonElement>('[part~="copy-button"]')!.click();
      await waitUntil(() => part(el, 'amount')!.querySelector('[part~="notice"]'));
      assert.match(selectionIn(), /^₽1,500\.00$/);
    });
  });

  describe('cancel', () => {
    it('asks for confirmation, then sends exactly one POST however often it is clicked', async () => {
      const client = readyClient();
      const el = await mount(client);
      await untilScreen(el, 'waiting');
      part(el, 'cancel-button')!.click();
      await el.updateComplete;
      const confirm = part(el, 'confirm-button')!;
      assert.equal(el.shadowRoot!.activeElement, part(el, 'keep-button'), 'focus lands on the safe choice');
      await expect(el).to.be.accessible();

      confirm.click();
      confirm.click();
      confirm.click();
      await el.updateComplete;
      assert.equal(client.callsOf('cancelInvoice').length, 1);
      assert.equal(part(el, 'confirm-button')!.getAttribute('aria-disabled'), 'true');
      assert.equal(text(part(el, 'confirm-button')), 'Canceling…');
      part(el, 'confirm-button')!.click();
      assert.equal(client.callsOf('cancelInvoice').length, 1);

      const statusChanged = nextEvent(el, 'checkout-status');
      const canceled = nextEvent(el, 'checkout-canceled');
      await client.answer('cancelInvoice', canceledInvoice());
      const status = await statusChanged;
      assert.deepEqual([status.detail.previous, status.detail.status], ['new', 'canceled']);
      assert.equal((await canceled).detail.invoice.status, 'canceled');
      await untilScreen(el, 'canceled');
      assert.equal(el.shadowRoot!.activeElement, part(el, 'title'), 'focus follows to the new screen');
      assert.equal(liveRegion(el), 'Status: canceled');
      assert.equal(client.callsOf('cancelInvoice').length, 1);
      await expect(el).to.be.accessible();
    });

    it('goes back without a request, by button or by Escape', async () => {
      const client = readyClient();
      const el = await mount(client);
      await untilScreen(el, 'waiting');
      part(el, 'cancel-button')!.click();
      await el.updateComplete;
      part(el, 'keep-button')!.click();
      await el.updateComplete;
      expect(part(el, 'confirm-button')).to.not.exist;
      assert.equal(el.shadowRoot!.activeElement, part(el, 'cancel-button'));

      part(el, 'cancel-button')!.click();
      await el.updateComplete;
      await sendKeys({ press: 'Escape' });
      await el.updateComplete;
      expect(part(el, 'confirm-button')).to.not.exist;
      assert.equal(el.shadowRoot!.activeElement, part(el, 'cancel-button'));
      assert.equal(client.callsOf('cancelInvoice').length, 0);
    });

    it('keeps the deal on screen when the cancel fails, reads the invoice again, then lets the payer try again', async () => {
      const client = readyClient();
      const el = await mount(client);
      await untilScreen(el, 'waiting');
      part(el, 'cancel-button')!.click();
      await el.updateComplete;
      part(el, 'confirm-button')!.click();
      const failed = nextEvent(el, 'checkout-error');
      await client.fail('cancelInvoice', new CheckoutError('upstream_error', 'bad gateway', { status: 502, retryable: true }));
      assert.equal((await failed).detail.code, 'upstream_error');
      await waitUntil(() => part(el, 'cancel-button'), 'cancel is offered again after the invoice was read');
      assert.equal(client.callsOf('getInvoice').length, 2, 'read again');
      assert.equal(screenOf(el), 'waiting');
      expect(part(el, 'requisites')).to.exist;
      const notice = el.shadowRoot!.querySelector('[part~="notice"][role="alert"]');
      assert.include(text(notice), 'Could not cancel');
      await expect(el).to.be.accessible();

      part(el, 'cancel-button')!.click();
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[part~="notice"]')).to.not.exist;
      part(el, 'confirm-button')!.click();
      await client.answer('cancelInvoice', canceledInvoice());
      await untilScreen(el, 'canceled');
      assert.equal(client.callsOf('cancelInvoice').length, 2);
    });

    it('has no cancel button with hide-cancel', async () => {
      const el = await mount(readyClient(), { hideCancel: true });
      await untilScreen(el, 'waiting');
      expect(part(el, 'cancel-button')).to.not.exist;
    });
  });

  describe('variant picker', () => {
    it('fires a cancelable checkout-variant-select, and sends nothing when it is prevented', async () => {
      const client = readyClient(newInvoice());
      const el = await mount(client);
      await untilScreen(el, 'picker');
      await waitUntil(() => parts(el, 'variant').length === 3);
      el.addEventListener('checkout-variant-select', (event) => event.preventDefault(), { once: true });
      const selected = nextEvent(el, 'checkout-variant-select');
      parts(el, 'variant')[1]!.click();
      const event = await selected;
      assert.deepEqual(event.detail, { option: 'SBP', method: 'sberbank' });
      assert.isTrue(event.cancelable);
      assert.isTrue(event.defaultPrevented);
      await el.updateComplete;
      assert.equal(client.callsOf('startDeal').length, 0);
    });

    it('starts a deal with the chosen variant and shows its requisites', async () => {
      const client = readyClient(newInvoice());
      const el = await mount(client);
      await untilScreen(el, 'picker');
      await waitUntil(() => parts(el, 'variant').length === 3);
      parts(el, 'variant')[2]!.focus();
      parts(el, 'variant')[2]!.click();
      parts(el, 'variant')[0]!.click();
      const call = await client.next('startDeal');
      assert.deepEqual(call.variant, { option: 'TO_CARD', method: 'tinkoff' });
      await el.updateComplete;
      assert.equal(text(parts(el, 'variant')[2]), 'Preparing the payment details…');
      assert.isTrue(parts(el, 'variant').every((button) => button.getAttribute('aria-disabled') === 'true'));
      assert.equal(client.callsOf('startDeal').length, 1, 'a second choice while one is pending is ignored');

      call.resolve({ data: waitingInvoice({ deals: [waitingInvoice().deals[0]] }), date: null });
      await untilScreen(el, 'waiting');
      expect(part(el, 'requisites')).to.exist;
      assert.equal(el.shadowRoot!.activeElement, part(el, 'title'));
    });

    it('says politely that the shop has no such hook (501) and keeps the picker', async () => {
      const client = readyClient(newInvoice());
      const el = await mount(client);
      await untilScreen(el, 'picker');
      await waitUntil(() => parts(el, 'variant').length === 3);
      parts(el, 'variant')[0]!.click();
      const failed = nextEvent(el, 'checkout-error');
      await client.fail('startDeal', new CheckoutError('not_implemented', 'no startDeal hook', { status: 501 }));
      assert.equal((await failed).detail.code, 'not_implemented');
      await waitUntil(() => el.shadowRoot!.querySelector('[part~="notice"]'));
      const notice = el.shadowRoot!.querySelector('[part~="notice"]')!;
      assert.equal(notice.getAttribute('role'), 'status');
      assert.include(text(notice), 'does not let you choose');
      assert.equal(screenOf(el), 'picker');
      assert.equal(parts(el, 'variant').length, 3);
      assert.isTrue(parts(el, 'variant').every((button) => button.getAttribute('aria-disabled') === 'false'));
      await expect(el).to.be.accessible();
    });

    for (const [code, status, words] of [
      ['no_requisites', 409, 'no free requisites right now'],
      ['bank_not_allowed', 422, 'not available for this payment'],
      ['option_not_allowed', 422, 'not available for this payment'],
    ] as const) {
      it(`says in the payer's words when the service answers ${code}, and keeps the picker`, async () => {
        const client = readyClient(newInvoice());
        const el = await mount(client);
        await untilScreen(el, 'picker');
        await waitUntil(() => parts(el, 'variant').length === 3);
        parts(el, 'variant')[1]!.click();
        const failed = nextEvent(el, 'checkout-error');
        await client.fail('startDeal', new CheckoutError(code, 'refused', { status }));
        assert.equal((await failed).detail.code, code);
        await waitUntil(() => el.shadowRoot!.querySelector('[part~="notice"]'));
        const notice = el.shadowRoot!.querySelector('[part~="notice"]')!;
        assert.equal(notice.getAttribute('role'), 'alert');
        assert.include(text(notice), words);
        assert.equal(screenOf(el), 'picker');
        assert.isTrue(parts(el, 'variant').every((button) => button.getAttribute('aria-disabled') === 'false'));
        await expect(el).to.be.accessible();
      });
    }

    it('offers a retry when the variants cannot be loaded', async () => {
      const client = readyClient(newInvoice()).reply(
        'getPaymentVariants',
        () => new CheckoutError('upstream_timeout', 'slow', { status: 504, retryable: true }),
      );
      const el = await mount(client);
      await untilScreen(el, 'picker');
      await waitUntil(() => part(el, 'retry-button'));
      assert.include(text(el.shadowRoot!.querySelector('[part~="notice"]')), 'Could not load the ways to pay');
      client.reply('getPaymentVariants', () => ({ data: [{ option: 'SBP', method: 'alfa' }] }));
      part(el, 'retry-button')!.click();
      await waitUntil(() => parts(el, 'variant').length === 1);
      assert.equal(text(parts(el, 'variant')[0]), 'SBP (Faster Payments)');
    });
  });

  describe('keyboard', () => {
    it('reaches every control with Tab and works them with Enter, Space and Escape', async () => {
      let copies = 0;
      const restore = stubClipboard(() => {
        copies++;
        return Promise.resolve();
      });
      try {
        const client = readyClient();
        const el = await mount(client);
        await untilScreen(el, 'waiting');
        await waitUntil(() => part(el, 'variants'));
        const focused = () => el.shadowRoot!.activeElement;
        await sendKeys({ press: 'Tab' });
        assert.equal(focused(), part(el, 'amount')!.querySelector('button'));
        await sendKeys({ press: 'Enter' });
        await waitUntil(() => copies === 1, 'Enter copies');
        await sendKeys({ press: 'Tab' });
        assert.equal(focused(), part(el, 'requisites')!.querySelector('button'));
        await sendKeys({ press: SPACE });
        await waitUntil(() => copies === 2, 'Space copies');
        await sendKeys({ press: 'Tab' });
        assert.equal(focused(), part(el, 'paid-button'), '"I have paid" after the details');
        await sendKeys({ press: 'Tab' });
        assert.equal(focused(), part(el, 'change-bank'), 'the ways to pay, folded');
        assert.isFalse(part(el, 'variants')!.checkVisibility());
        await sendKeys({ press: 'Enter' });
        await waitUntil(() => part(el, 'variants')!.checkVisibility(), 'Enter unfolds them');
        await sendKeys({ press: 'Tab' });
        assert.equal(focused(), part(el, 'cancel-button'));
        await sendKeys({ press: 'Enter' });
        await el.updateComplete;
        assert.equal(focused(), part(el, 'keep-button'));
        await sendKeys({ press: 'Escape' });
        await el.updateComplete;
        assert.equal(focused(), part(el, 'cancel-button'));
        await sendKeys({ press: SPACE });
        await el.updateComplete;
        await sendKeys({ down: 'Shift' });
        await sendKeys({ press: 'Tab' });
        await sendKeys({ up: 'Shift' });
        assert.equal(focused(), part(el, 'confirm-button'));
        await sendKeys({ press: 'Enter' });
        await waitUntil(() => client.callsOf('cancelInvoice').length === 1, 'Enter confirms');
      } finally {
        restore();
      }
    });
  });
});
