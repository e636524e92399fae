/**
 * Money safety under a hostile network (docs/security.md, "The element"): a cancel is sent
 * once per confirmation and the screen shows what the service says; text from the service
 * cannot reorder digits or widen the page; a changed amount or place to pay is never swapped
 * silently.
 */
import { aTimeout, assert, expect, fixture, fixtureSync, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { CheckoutAmountChangedEvent } from '../../src/element/events.js';
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import { CheckoutError } from '../../src/element/protocol-client.js';
import {
  type FakeClient,
  INVOICE_ID,
  canceledInvoice,
  dealWith,
  nextEvent,
  part,
  parts,
  plain,
  readyClient,
  screenOf,
  text,
  untilScreen,
  waitingInvoice,
  mount,
  SPACE,
  recordingClipboard,
} from './helpers.js';
import { type Viewport, mountInViewport } from './viewport.js';

/** Every later `getInvoice` waits for the test to answer it. */
const holdReads = (client: FakeClient) => client.reply('getInvoice', () => undefined);

/** The page comes back into view: the element reads the invoice at once. */
const readAgain = () => {
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
};

/** Every event of `name` the element dispatches from now on. */
const record = <K extends keyof GlobalEventHandlersEventMap>(el: MerchantCheckoutElement, name: K) => {
  const seen: GlobalEventHandlersEventMap[K][] = [];
  el.addEventListener(name, (event) => seen.push(event));
  return seen;
};

const confirmCancel = async (el: MerchantCheckoutElement) => {
  part(el, 'cancel-button')!.click();
  await el.updateComplete;
  part(el, 'confirm-button')!.click();
};

const date = () => new Date().toUTCString();

afterEach(() => {
  Reflect.deleteProperty(document, 'visibilityState');
});

describe('<merchant-checkout> money safety: cancel is exactly once, and the screen tells the truth', () => {
  it('sends one POST for a triple click, Enter and Space on the confirmation', async () => {
    const client = readyClient();
    const el = await mount(client);
    await untilScreen(el, 'waiting');
    await confirmCancel(el);
    part(el, 'confirm-button')!.click();
    part(el, 'confirm-button')!.click();
    await el.updateComplete;
    part(el, 'confirm-button')!.focus();
    await sendKeys({ press: 'Enter' });
    await sendKeys({ press: SPACE });
    part(el, 'confirm-button')!.click();
    assert.equal(client.callsOf('cancelInvoice').length, 1);
    await expect(el).to.be.accessible();
  });

  it('after a connection reset mid-request: no POST until the invoice was read again and the payer confirmed again', async () => {
    const client = readyClient();
    const el = await mount(client);
    await untilScreen(el, 'waiting');
    holdReads(client);
    await confirmCancel(el);
    const failed = nextEvent(el, 'checkout-error');
    await client.fail('cancelInvoice', new TypeError('Failed to fetch'));
    assert.equal((await failed).detail.code, 'network_error');

    const reread = await client.next('getInvoice');
    await el.updateComplete;
    assert.equal(screenOf(el), 'waiting', 'the deal stays on screen');
    assert.isNull(part(el, 'cancel-button'), 'no cancel offered while the invoice is read again');
    assert.isNull(part(el, 'confirm-button'));
    assert.include(text(el.shadowRoot!.querySelector('[part~="notice"][role="alert"]')), 'Could not cancel');
    await expect(el).to.be.accessible();
    // Proves that nothing is sent again by itself.
    await aTimeout(100);
    assert.equal(client.callsOf('cancelInvoice').length, 1);

    reread.resolve({ data: waitingInvoice(), date: date() });
    await waitUntil(() => part(el, 'cancel-button'), 'cancel is offered again once the invoice is read');
    assert.equal(client.callsOf('cancelInvoice').length, 1);
    assert.isNull(part(el, 'confirm-button'), 'the failed confirmation is over');
    await expect(el).to.be.accessible();

    await confirmCancel(el);
    assert.equal(client.callsOf('cancelInvoice').length, 2);
    await client.answer('cancelInvoice', canceledInvoice());
    await untilScreen(el, 'canceled');
  });

  it('adopts a cancel answer that says paid: the paid screen and checkout-status, no checkout-canceled', async () => {
    const client = readyClient();
    const el = await mount(client);
    await untilScreen(el, 'waiting');
    const canceled = record(el, 'checkout-canceled');
    await confirmCancel(el);
    const status = nextEvent(el, 'checkout-status');
    await client.answer('cancelInvoice', canceledInvoice({ status: 'paid' }));
    assert.deepEqual([(await status).detail.previous, (await status).detail.status], ['new', 'paid']);
    await untilScreen(el, 'paid');
    await aTimeout(50);
    assert.lengthOf(canceled, 0);
    await expect(el).to.be.accessible();
  });

  for (const [lang, notice] of [
    ['en', 'The payment could not be canceled: its state has changed.'],
    ['ru', 'Платёж не удалось отменить: его состояние изменилось.'],
  ] as const) {
    it(`answers a 409 cancel_refused by reading the invoice again and saying so politely (${lang})`, async () => {
      const client = readyClient();
      const el = await mount(client, lang);
      await untilScreen(el, 'waiting');
      holdReads(client);
      await confirmCancel(el);
      const failed = nextEvent(el, 'checkout-error');
      await client.fail('cancelInvoice', new CheckoutError('cancel_refused', 'refused', { status: 409 }));
      assert.equal((await failed).detail.code, 'cancel_refused');
      await client.answer('getInvoice', waitingInvoice());
      await waitUntil(() => part(el, 'cancel-button'));
      const polite = el.shadowRoot!.querySelector('[part~="notice"][role="status"]');
      assert.equal(text(polite), notice);
      assert.isNull(el.shadowRoot!.querySelector('[part~="notice"][role="alert"]'));
      assert.equal(client.callsOf('cancelInvoice').length, 1);
      await expect(el).to.be.accessible();
    });
  }

  it('shows the paid screen when the invoice read after a refused cancel (any 4xx) is paid', async () => {
    const client = readyClient();
    const el = await mount(client);
    await untilScreen(el, 'waiting');
    holdReads(client);
    const canceled = record(el, 'checkout-canceled');
    await confirmCancel(el);
    await client.fail('cancelInvoice', new CheckoutError('http_error', 'HTTP 422', { status: 422 }));
    const status = nextEvent(el, 'checkout-status');
    await client.answer('getInvoice', waitingInvoice({ status: 'paid' }));
    assert.equal((await status).detail.status, 'paid');
    await untilScreen(el, 'paid');
    assert.lengthOf(canceled, 0);
    assert.equal(client.callsOf('cancelInvoice').length, 1);
    await expect(el).to.be.accessible();
  });
});

/** The text node of `node`'s value (Lit adds comment markers beside it). */
const textNodeOf = (node: Element): Text => [...node.childNodes].find((child): child is Text => child.nodeType === Node.TEXT_NODE)!;

/** Each group of a card or phone number is drawn on one line. */
const assertGroupsUnbroken = (value: Element) => {
  const groups = [...value.querySelectorAll('.group')];
  assert.isAtLeast(groups.length, 3, value.textContent);
  for (const group of groups) assert.lengthOf(group.getClientRects(), 1, `"${group.textContent}" of "${value.textContent}" on one line`);
};

/** A 40-letter status, a 100 KB holder, bidi controls around every digit group. */
const HOSTILE_STATUS = '\u202eAWAITING_CONFIRMATION_BY_THE_RECEIVING_BANK'.slice(0, 41);
const HOSTILE_HOLDER = 'W'.repeat(100_000);
const HOSTILE_CARD = '\u202e2202\u2066 2067\u2069 \u200f1234\u202c \u202d5678\u200e';

describe('<merchant-checkout> money safety: displayed text cannot lie or break the page', () => {
  let viewport: Viewport | undefined;
  afterEach(() => viewport?.remove());

  for (const width of [320, 360, 768, 1280]) {
    it(`keeps a 40-letter status, a 100 KB holder and bidi-laden requisites inside ${width} px`, async () => {
      const invoice = waitingInvoice({
        status: HOSTILE_STATUS,
        deals: [dealWith({ paymentMethodName: '\u202bБанк\u202c', requisites: { requisites: HOSTILE_CARD, holder: HOSTILE_HOLDER } })],
      });
      viewport = await mountInViewport(readyClient(invoice), { width, height: 800 });
      const { el } = viewport;
      await untilScreen(el, 'waiting');
      assert.equal(viewport.window.innerWidth, width, 'the viewport is as wide as asked');
      assert.equal(
        viewport.window.matchMedia('(max-width: 480px)').matches,
        width <= 480,
        "the phone's layout where the width asks for it",
      );
      assert.isAtMost(viewport.document.documentElement.scrollWidth, width, 'the page is no wider than the viewport');
      assert.isAtMost(el.scrollWidth, el.clientWidth, 'nothing sticks out of the element');
      const base = part(el, 'base')!;
      assert.isAtMost(base.scrollWidth, base.clientWidth, 'nothing sticks out of the card');

      const requisites = part(el, 'requisites')!.querySelector('.value')!;
      assert.equal(requisites.textContent, '2202 2067 1234 5678', 'the digits in the order they are typed, no controls');
      assertGroupsUnbroken(requisites);
      assert.lengthOf(part(el, 'amount')!.querySelector('.value')!.getClientRects(), 1, 'the amount on one line');
      assert.equal(text(part(el, 'status')), `Status: ${HOSTILE_STATUS.slice(1)}`);
      assert.equal(HOSTILE_STATUS.slice(1).length, 40);
      assert.equal(part(el, 'bank')!.querySelector('.value')!.textContent, 'Банк');
      assert.lengthOf(part(el, 'holder')!.querySelector('.value')!.textContent, 100_000);
      if (width === 320) assert.deepEqual(await viewport.violations(), [], 'accessible at the narrowest width');
    });
  }

  it('keeps each group of a card or phone number on one line, even in a 180 px box', async () => {
    for (const requisites of ['2202206712345678901', '+79001234567', '+44 20 7946 0958']) {
      const box = await fixture<HTMLDivElement>(html`<div style="width: 180px"></div>`);
      const el = document.createElement('merchant-checkout');
      el.lang = 'en';
      el.client = readyClient(waitingInvoice({ deals: [dealWith({ requisites: { requisites, holder: 'A' } })] }));
      el.invoiceId = INVOICE_ID;
      box.append(el);
      await untilScreen(el, 'waiting');
      assertGroupsUnbroken(part(el, 'requisites')!.querySelector('.value')!);
      assert.isAtMost(el.scrollWidth, el.clientWidth, requisites);
      box.remove();
    }
  });

  it('copies the requisites without their controls', async () => {
    const { written, restore } = recordingClipboard();
    try {
      const el = await mount(readyClient(waitingInvoice({ deals: [dealWith({ requisites: { requisites: HOSTILE_CARD, holder: 'A' } })] })));
      await untilScreen(el, 'waiting');
      const copied = nextEvent(el, 'checkout-copy');
      part(el, 'requisites')!.querySelector<HTMLButtonElement>('[part~="copy-button"]')!.click();
      assert.equal((await copied).detail.value, '2202 2067 1234 5678');
      assert.deepEqual(written, ['2202 2067 1234 5678']);
    } finally {
      restore();
    }
  });

  it('shows the digits of requisites among right-to-left letters left to right, in typed order', async () => {
    const account = '\u202bACC \u05d0 40817 810\u202c \u2067099\u2069 1234';
    const el = await mount(readyClient(waitingInvoice({ deals: [dealWith({ requisites: { requisites: account, holder: 'A' } })] })));
    await untilScreen(el, 'waiting');
    const value = part(el, 'requisites')!.querySelector('.value')!;
    const shown = value.textContent;
    assert.equal(shown, 'ACC \u05d0 40817 810 099 1234');
    // Where each digit is drawn: left to right in the order of the text.
    const node = textNodeOf(value);
    const range = document.createRange();
    const lefts: number[] = [];
    for (let index = 0; index < shown.length; index++) {
      if (!/\d/.test(shown[index]!)) continue;
      range.setStart(node, index);
      range.setEnd(node, index + 1);
      lefts.push(range.getBoundingClientRect().left);
    }
    assert.deepEqual(
      lefts,
      [...lefts].sort((a, b) => a - b),
    );
    await expect(el).to.be.accessible();
  });
});

const amountOf = (amount: string) => ({ amount, currency: 'RUB', subunit: 2 });

describe('<merchant-checkout> money safety: a changed amount or place to pay is announced', () => {
  it('shows and announces a new amount read by polling, old → new, and fires checkout-amount-changed', async () => {
    const client = readyClient();
    const el = await mount(client, 'ru');
    await untilScreen(el, 'waiting');
    client.reply('getInvoice', () => ({ data: waitingInvoice({ sum: amountOf('1750.00') }), date: date() }));
    const changed = nextEvent(el, 'checkout-amount-changed');
    readAgain();
    const { detail } = await changed;
    assert.equal(detail.field, 'amount');
    assert.deepEqual([detail.previous, detail.current], [amountOf('1500.00'), amountOf('1750.00')]);
    assert.equal(detail.invoice.sum.amount, '1750.00');
    await el.updateComplete;
    const notice = part(el, 'change-notice')!;
    assert.equal(notice.getAttribute('role'), 'alert', 'a live region: screen readers say it at once');
    assert.deepEqual(
      [...notice.querySelectorAll('p')].map((line) => plain(text(line))),
      ['Данные платежа изменились. Проверьте их перед оплатой.', 'Сумма перевода: 1 500,00 ₽ → 1 750,00 ₽'],
    );
    assert.equal(plain(text(part(el, 'amount')!.querySelector('.value'))), '1 750,00 ₽');
    await expect(el).to.be.accessible();

    notice.querySelector('button')!.click();
    await el.updateComplete;
    assert.isNull(part(el, 'change-notice'), 'closed by the payer');
    assert.equal(el.shadowRoot!.activeElement, part(el, 'title'));
  });

  it('shows new requisites and holder of the deal on screen, one event per field', async () => {
    const client = readyClient();
    const el = await mount(client);
    await untilScreen(el, 'waiting');
    const events = record(el, 'checkout-amount-changed');
    client.reply('getInvoice', () => ({
      data: waitingInvoice({ deals: [dealWith({ requisites: { requisites: '2202206799990000', holder: 'Mallory M.' } })] }),
      date: date(),
    }));
    readAgain();
    await waitUntil(() => events.length === 2, 'two changes');
    assert.deepEqual(
      events.map(({ detail }: CheckoutAmountChangedEvent) => [detail.field, detail.previous, detail.current]),
      [
        ['requisites', '2202206712345678', '2202206799990000'],
        ['holder', 'Иван Петрович С.', 'Mallory M.'],
      ],
    );
    await el.updateComplete;
    assert.deepEqual(
      [...part(el, 'change-notice')!.querySelectorAll('p')].map((line) => text(line)),
      [
        'The payment details changed. Check them before you pay.',
        'Card number: 2202 2067 1234 5678 → 2202 2067 9999 0000',
        'Recipient: Иван Петрович С. → Mallory M.',
      ],
    );
    await expect(el).to.be.accessible();
  });

  it('shows the notice on the first read when the service says the amount was changed (isSumChanged)', async () => {
    const el = fixtureSync<MerchantCheckoutElement>(
      html`<merchant-checkout
        lang="en"
        invoice-id=${INVOICE_ID}
        .client=${readyClient(waitingInvoice({ isSumChanged: true }))}
      ></merchant-checkout>`,
    );
    const { detail } = await nextEvent(el, 'checkout-amount-changed');
    assert.equal(detail.field, 'amount');
    assert.isUndefined(detail.previous);
    await untilScreen(el, 'waiting');
    assert.equal(
      text(part(el, 'change-notice')),
      'The payment details changed. Check them before you pay. Amount to send: ₽1,500.00 Got it',
    );
    await expect(el).to.be.accessible();
  });

  it('shows no notice and fires nothing when a read changes nothing', async () => {
    const client = readyClient();
    const el = await mount(client);
    await untilScreen(el, 'waiting');
    const events = record(el, 'checkout-amount-changed');
    readAgain();
    await waitUntil(() => client.callsOf('getInvoice').length === 2 && client.pending('getInvoice').length === 0);
    await aTimeout(50);
    assert.isNull(part(el, 'change-notice'));
    assert.lengthOf(events, 0);
    assert.lengthOf(parts(el, 'notice'), 0);
  });
});

describe('<merchant-checkout> money safety: the amount the service expects and the amount it settled', () => {
  it("shows and copies the unique amount the service expects, and says it differs from the order's", async () => {
    const copied: string[] = [];
    Object.defineProperty(navigator.clipboard, 'writeText', {
      value: (value: string) => {
        copied.push(value);
        return Promise.resolve();
      },
      configurable: true,
    });
    try {
      const el = await mount(readyClient(waitingInvoice({ amountDue: { amount: '1503.17', currency: 'RUB', subunit: 2 } })));
      await untilScreen(el, 'waiting');
      const amount = part(el, 'amount')!;
      assert.include(plain(text(amount)), '1,503.17');
      assert.include(text(amount), 'Send exactly this amount');
      assert.include(plain(text(amount)), 'The order is for ₽1,500.00');
      await expect(el).to.be.accessible();
      amount.querySelector<HTMLButtonElement>('[part~="copy-button"]')!.click();
      await waitUntil(() => copied.length === 1);
      assert.deepEqual(copied, ['1503.17']);
    } finally {
      Reflect.deleteProperty(navigator.clipboard, 'writeText');
    }
  });

  it('on the paid screen, the amount settled after a dispute beside the amount asked', async () => {
    const el = await mount(
      readyClient(waitingInvoice({ status: 'paid', deals: [], amountPaid: { amount: '100.00', currency: 'RUB', subunit: 2 } })),
    );
    await untilScreen(el, 'paid');
    const amount = part(el, 'amount')!;
    assert.include(text(amount), 'Amount paid');
    assert.include(plain(text(amount)), '100.00');
    assert.include(plain(text(amount)), 'the order was for ₽1,500.00');
    await expect(el).to.be.accessible();
  });
});
