/**
 * Engines that lack what the element uses where present (docs/element.md, "Browsers"): no
 * `BroadcastChannel`, `EventSource`, `AbortSignal.any` or Clipboard API, a clipboard that
 * throws, a page whose timers are held back. The element still shows the requisites, copies by
 * selection where it cannot write and says so, and nothing throws into the page. Runs in every
 * engine of the browser suite. (`adoptedStyleSheets` is decided when Lit loads: its absence is
 * tested on a page of its own, test/element/security.test.ts.)
 */
import { assert, fixture, html, waitUntil } from '@open-wc/testing';
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import type { Invoice } from '../../src/schemas/invoice.js';
import { INVOICE_ID, part, plain, readyClient, recordingClipboard, screenOf, stubClipboard, text, untilScreen, mount } from './helpers.js';

/** Everything thrown into the page, or rejected with no one to catch it, while a test runs. */
const pageErrors = () => {
  const seen: string[] = [];
  const onError = (event: ErrorEvent) => seen.push(`error: ${event.message}`);
  const onRejection = (event: PromiseRejectionEvent) => seen.push(`unhandled rejection: ${String(event.reason)}`);
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  return {
    seen,
    stop: () => {
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onRejection);
    },
  };
};

/** Removes `name` from `owner` until the returned function puts it back. */
const without = (owner: object, name: string): (() => void) => {
  const descriptor = Object.getOwnPropertyDescriptor(owner, name);
  assert.ok(descriptor, `${name} is there to take away`);
  Reflect.deleteProperty(owner, name);
  assert.notProperty(owner, name);
  return () => Object.defineProperty(owner, name, descriptor);
};

const selected = () => document.getSelection()?.toString() ?? '';
const copyButton = (el: MerchantCheckoutElement, field: string) =>
  part(el, field)!.querySelector<HTMLButtonElement>('[part~="copy-button"]')!;
const byHandNote = (el: MerchantCheckoutElement, field: string) => text(part(el, field)!.querySelector('[part~="notice"]'));

describe('<merchant-checkout> in an engine without what it uses where present', () => {
  let restore: (() => void)[] = [];
  let errors: ReturnType<typeof pageErrors>;
  beforeEach(() => {
    errors = pageErrors();
  });
  afterEach(async () => {
    for (const undo of restore.reverse()) undo();
    restore = [];
    errors.stop();
    document.getSelection()?.removeAllRanges();
    await fetch('/__mock/reset', { method: 'POST' });
  });

  it('without BroadcastChannel, EventSource, AbortSignal.any and the Clipboard API: shows, copies by hand, follows the invoice to paid', async () => {
    restore.push(without(globalThis, 'BroadcastChannel'), without(globalThis, 'EventSource'), without(AbortSignal, 'any'));
    restore.push(without(Navigator.prototype, 'clipboard'));
    assert.isUndefined(navigator.clipboard);
    const created = await fetch('/__test/invoices', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '1990.00', paymentOption: 'TO_CARD', paymentMethod: 'sberbank' }),
    });
    assert.isTrue(created.ok, `POST /__test/invoices: HTTP ${created.status} ${await created.clone().text()}`);
    const invoice = (await created.json()) as Invoice;
    const el = await fixture<MerchantCheckoutElement>(
      html`<merchant-checkout
        lang="en"
        endpoint="/checkout-api"
        no-stream
        poll-interval="1000"
        invoice-id=${invoice.id}
      ></merchant-checkout>`,
    );
    await waitUntil(() => screenOf(el) === 'waiting', `screen is ${screenOf(el)}`, { timeout: 8000 });
    assert.equal(plain(text(part(el, 'amount')!.querySelector('.value'))), '₽1,990.00');
    const requisites = text(part(el, 'requisites')!.querySelector('.value'));
    assert.match(requisites, /\d/);

    copyButton(el, 'requisites').click();
    await waitUntil(() => byHandNote(el, 'requisites'), 'the element says to copy by hand');
    assert.include(byHandNote(el, 'requisites'), 'copy it with your device');
    assert.equal(selected(), requisites, 'the requisites are selected for the device’s own copy');

    // The mock is paid behind the proxy's back, which only a read sees (test/element/integration.test.ts).
    const status = new Promise<string>((resolve) =>
      el.addEventListener('checkout-status', (event) => resolve(event.detail.status), { once: true }),
    );
    await fetch(`/__mock/invoices/${invoice.id}/paid`, { method: 'POST' });
    assert.equal(await status, 'paid');
    await waitUntil(() => screenOf(el) === 'paid', `screen is ${screenOf(el)}`, { timeout: 8000 });
    assert.deepEqual(errors.seen, []);
  });

  it('with a clipboard whose writeText throws at once: selects and says so', async () => {
    restore.push(
      stubClipboard(() => {
        throw new TypeError('writeText is not allowed here');
      }),
    );
    const el = await mount(readyClient());
    await untilScreen(el, 'waiting');
    copyButton(el, 'amount').click();
    await waitUntil(() => byHandNote(el, 'amount'), 'the element says to copy by hand');
    assert.match(plain(selected()), /^₽1,500\.00$/);
    assert.deepEqual(errors.seen, []);
  });

  it('with its timers held back (a throttled page): shows the requisites and copies all the same', async () => {
    const { written, restore: restoreClipboard } = recordingClipboard();
    restore.push(restoreClipboard);
    // Every timer the element sets from now on waits until the test ends (the way a page in
    // the background or in a power saver has them fire late or not at all).
    const timers = { setTimeout: window.setTimeout.bind(window), setInterval: window.setInterval.bind(window) };
    const hold = (() => 0) as unknown as typeof window.setTimeout;
    window.setTimeout = hold;
    window.setInterval = hold as typeof window.setInterval;
    restore.push(() => Object.assign(window, timers));
    const el = document.createElement('merchant-checkout');
    el.lang = 'en';
    el.client = readyClient();
    el.invoiceId = INVOICE_ID;
    document.body.append(el);
    restore.push(() => el.remove());
    // No timers to wait with: turns of the event loop, counted, through a message channel.
    const channel = new MessageChannel();
    const turn = () => new Promise<void>((resolve) => ((channel.port2.onmessage = () => resolve()), channel.port1.postMessage(0)));
    for (let turns = 0; turns < 5000 && !part(el, 'requisites'); turns++) await turn();
    channel.port1.close();
    assert.equal(screenOf(el), 'waiting', 'the requisites on screen without a single timer');
    assert.equal(text(part(el, 'requisites')!.querySelector('.value')), '2202 2067 1234 5678');
    copyButton(el, 'requisites').click();
    assert.deepEqual(written, ['2202206712345678']);
    assert.deepEqual(errors.seen, []);
  });
});
