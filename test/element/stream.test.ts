/**
 * The status by push: the proxy's event stream (`client.watch`, `GET /invoices/{id}/events`)
 * instead of polling while it delivers, polling while it does not, and the same screens,
 * countdown and cancel either way.
 */
import { assert, expect, fixture, html } from '@open-wc/testing';
import { type Clock, withGlobal } from '@sinonjs/fake-timers';
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import { createCheckoutClient } from '../../src/element/protocol-client.js';
import { MAX_STREAM_RETRY, nextStreamDelay, STREAM_RETRY } from '../../src/element/poll-policy.js';
import {
  canceledInvoice,
  FakeEventSource,
  INVOICE_ID,
  installFakeEventSource,
  OTHER_INVOICE_ID,
  part,
  screenOf,
  settle,
  StreamingFakeClient,
  text,
  variants,
  waitingInvoice,
} from './helpers.js';

const SECOND = 1000;
let clock: Clock | undefined;

const install = () => {
  clock = withGlobal(window).install({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  return clock;
};

/** Back to real timers: axe-core (the accessibility check) waits on them. */
const realTimers = () => {
  clock?.uninstall();
  clock = undefined;
};

/** A mounted element whose first load is answered; its stream is open (not yet delivering). */
const mountStreaming = async (options: { invoice?: unknown; noStream?: boolean } = {}) => {
  const client = new StreamingFakeClient();
  const el = await fixture<MerchantCheckoutElement>(
    html`<merchant-checkout lang="en" invoice-id=${INVOICE_ID} poll-interval="5000" ?no-stream=${options.noStream ?? false} .client=${client}></merchant-checkout>`,
  );
  await client.answer('getInvoice', options.invoice ?? waitingInvoice());
  await client.answer('getPaymentVariants', variants());
  await settle(el);
  return { el, client };
};

const reads = (client: StreamingFakeClient) => client.callsOf('getInvoice').length;

describe('<merchant-checkout> event stream', () => {
  afterEach(() => realTimers());

  it('takes the status from the stream, without a single poll, and closes it at a final status', async () => {
    const clock = install();
    const { el, client } = await mountStreaming();
    assert.lengthOf(client.open(), 1, 'the stream opens after the first read');
    assert.equal(client.open()[0]!.invoiceId, INVOICE_ID);
    client.push(waitingInvoice());
    await settle(el);
    await clock.tickAsync(10 * 60 * SECOND);
    assert.equal(reads(client), 1, 'no poll while the stream delivers');

    const sources: string[] = [];
    el.addEventListener('checkout-status', (event) => sources.push(`${event.detail.previous}→${event.detail.status} ${event.detail.source}`));
    client.push(waitingInvoice({ status: 'paid', deals: [] }));
    await settle(el);
    assert.equal(screenOf(el), 'paid');
    assert.deepEqual(sources, ['new→paid push']);
    assert.lengthOf(client.open(), 0, 'a final status closes the stream');
    await clock.tickAsync(60 * 60 * SECOND);
    assert.equal(reads(client), 1);
    assert.equal(client.streams.length, 1, 'and it is not opened again');
    assert.equal(clock.countTimers(), 0);
    realTimers();
    await expect(el).to.be.accessible();
  });

  it('shows a pushed change of the amount like a polled one', async () => {
    const { el, client } = await mountStreaming();
    const changed: string[] = [];
    el.addEventListener('checkout-amount-changed', (event) => changed.push(event.detail.field));
    client.push(waitingInvoice({ sum: { amount: '1700.00', currency: 'RUB', subunit: 2 } }));
    await settle(el);
    assert.deepEqual(changed, ['amount']);
    assert.exists(part(el, 'change-notice'));
    await expect(el).to.be.accessible();
  });

  it('falls back to polling at once when a delivering stream fails, and tries the stream again later', async () => {
    const clock = install();
    const { el, client } = await mountStreaming();
    client.push(waitingInvoice());
    await settle(el);
    client.failStream();
    assert.lengthOf(client.open(), 0);
    assert.equal(reads(client), 2, 'a read at once: an update may have been missed');
    await client.answer('getInvoice', waitingInvoice());
    await settle(el);
    assert.isNull(part(el, 'notice'), 'no connection trouble is shown: polling works');
    await clock.tickAsync(5 * SECOND);
    assert.equal(reads(client), 3, 'then every poll-interval');
    await client.answer('getInvoice', waitingInvoice());
    await clock.tickAsync(STREAM_RETRY - 5 * SECOND);
    assert.lengthOf(client.open(), 1, 'the stream is tried again after 30 s');
    client.push(waitingInvoice());
    await settle(el);
    const before = reads(client);
    await clock.tickAsync(60 * SECOND);
    assert.equal(reads(client), before, 'polling rests again once the stream delivers');

    client.failStream();
    await client.answer('getInvoice', waitingInvoice({ status: 'paid', deals: [] }));
    await settle(el);
    assert.equal(screenOf(el), 'paid', 'a status read by the fallback is shown as ever');
    assert.equal(clock.countTimers(), 0, 'the stream is not tried again after a final status');
  });

  it('polls exactly as before when the stream is refused (a polling-only proxy’s 404), retrying it with backoff', async () => {
    const clock = install();
    const { el, client } = await mountStreaming();
    client.failStream();
    assert.equal(reads(client), 1, 'no extra read: polling was never resting');
    for (let poll = 2; poll <= 6; poll++) {
      await clock.tickAsync(5 * SECOND);
      assert.equal(reads(client), poll, `poll ${poll} on time`);
      await client.answer('getInvoice', waitingInvoice());
    }
    assert.lengthOf(client.streams, 1);
    await clock.tickAsync(5 * SECOND);
    assert.lengthOf(client.streams, 2, 'tried again after 30 s');
    client.failStream();
    assert.deepEqual([1, 2, 3, 4, 5, 9].map(nextStreamDelay), [30, 60, 120, 240, 300, 300].map((s) => s * SECOND));
    assert.equal(nextStreamDelay(20), MAX_STREAM_RETRY);
    await settle(el);
    assert.equal(screenOf(el), 'waiting');
  });

  it('takes an invalid event (another invoice) as a failure of the stream', async () => {
    const { el, client } = await mountStreaming();
    client.push(waitingInvoice());
    await settle(el);
    client.push(waitingInvoice({ id: OTHER_INVOICE_ID, status: 'paid' }));
    await settle(el);
    assert.lengthOf(client.open(), 0);
    assert.equal(screenOf(el), 'waiting', 'nothing of the other invoice is shown');
    assert.equal(reads(client), 2, 'polling takes over at once');
  });

  it('counts down and expires the same while the stream is open', async () => {
    const clock = install();
    const { el, client } = await mountStreaming({ invoice: waitingInvoice({ expireAt: new Date(Date.now() + 3000).toISOString() }) });
    client.push(waitingInvoice({ expireAt: new Date(Date.now() + 3000).toISOString() }));
    await settle(el);
    assert.match(text(part(el, 'timer')), /^Time left 0:0[23]$/);
    const expired = new Promise((resolve) => el.addEventListener('checkout-expired', resolve, { once: true }));
    await clock.tickAsync(3100);
    await settle(el);
    await expired;
    assert.equal(screenOf(el), 'expired');
    client.push(waitingInvoice({ expireAt: new Date(Date.now() - 100).toISOString(), status: 'expired', deals: [] }));
    await settle(el);
    assert.lengthOf(client.open(), 0);
    realTimers();
    await expect(el).to.be.accessible();
  });

  it('closes the stream while a cancel is on its way, and cancels with one POST as ever', async () => {
    const { el, client } = await mountStreaming();
    client.push(waitingInvoice());
    await settle(el);
    part(el, 'cancel-button')!.click();
    await el.updateComplete;
    part(el, 'confirm-button')!.click();
    await el.updateComplete;
    assert.lengthOf(client.open(), 0, 'no pushed state races the cancel’s answer');
    const sources: string[] = [];
    el.addEventListener('checkout-status', (event) => sources.push(event.detail.source));
    await client.answer('cancelInvoice', canceledInvoice());
    await settle(el);
    assert.equal(screenOf(el), 'canceled');
    assert.deepEqual(sources, ['cancel']);
    assert.lengthOf(client.callsOf('cancelInvoice'), 1);
    assert.lengthOf(client.open(), 0);
    assert.equal(reads(client), 1);
    await expect(el).to.be.accessible();
  });

  it('reopens the stream after a failed cancel, and the push ends the check', async () => {
    const { el, client } = await mountStreaming();
    client.push(waitingInvoice());
    await settle(el);
    part(el, 'cancel-button')!.click();
    await el.updateComplete;
    part(el, 'confirm-button')!.click();
    await client.fail('cancelInvoice', new Error('offline'));
    await settle(el);
    assert.lengthOf(client.open(), 1);
    client.push(waitingInvoice());
    await settle(el);
    assert.exists(part(el, 'cancel-button'), 'cancel is offered again');
    await expect(el).to.be.accessible();
  });

  it('leaves no stream, timer or request behind after removal, and reopens it when put back', async () => {
    const clock = install();
    const { el, client } = await mountStreaming();
    client.push(waitingInvoice());
    await settle(el);
    const parent = el.parentElement!;
    el.remove();
    assert.lengthOf(client.open(), 0);
    assert.equal(clock.countTimers(), 0);
    await clock.tickAsync(60 * 60 * SECOND);
    assert.equal(reads(client), 1);
    assert.lengthOf(client.streams, 1);

    parent.append(el);
    assert.lengthOf(client.open(), 1, 'the stream reopens');
    assert.equal(reads(client), 2, 'and a read at once, in case it does not deliver');
    client.push(waitingInvoice({ status: 'paid', deals: [] }));
    await settle(el);
    assert.equal(screenOf(el), 'paid');
  });

  it('closes the old invoice’s stream when invoice-id changes', async () => {
    const { el, client } = await mountStreaming();
    const [old] = client.open();
    el.invoiceId = OTHER_INVOICE_ID;
    await el.updateComplete;
    assert.isTrue(old!.signal.aborted);
    await client.answer('getInvoice', waitingInvoice({ id: OTHER_INVOICE_ID }));
    await settle(el);
    assert.deepEqual(client.open().map((stream) => stream.invoiceId), [OTHER_INVOICE_ID]);
  });

  it('only polls with no-stream', async () => {
    const { client } = await mountStreaming({ noStream: true });
    assert.lengthOf(client.streams, 0);
  });

  describe('the default client', () => {
    let restore: () => void = () => undefined;
    beforeEach(() => {
      restore = installFakeEventSource();
    });
    afterEach(() => restore());

    it('opens an EventSource on /events, validates each event like getInvoice, and closes it on abort', () => {
      const client = createCheckoutClient({ endpoint: '/shop/checkout/', credentials: 'include' });
      const data: unknown[] = [];
      const errors: unknown[] = [];
      const abort = new AbortController();
      client.watch!(INVOICE_ID, { data: (value) => data.push(value), error: (error) => errors.push(error) }, { signal: abort.signal });
      const [source] = FakeEventSource.instances;
      assert.equal(source!.url, `/shop/checkout/invoices/${INVOICE_ID}/events`);
      assert.isTrue(source!.withCredentials);
      source!.emit({ id: INVOICE_ID });
      assert.deepEqual(data, [{ id: INVOICE_ID }]);
      abort.abort();
      assert.lengthOf(FakeEventSource.live(), 0);
      assert.lengthOf(errors, 0);
    });

    it('closes the EventSource on its first error instead of letting it reconnect', () => {
      const client = createCheckoutClient({ endpoint: '/checkout' });
      const errors: unknown[] = [];
      client.watch!(INVOICE_ID, { data: () => undefined, error: (error) => errors.push(error) }, { signal: new AbortController().signal });
      const [source] = FakeEventSource.instances;
      assert.isFalse(source!.withCredentials);
      source!.readyState = 0;
      source!.onerror?.(new Event('error'));
      assert.equal(source!.readyState, FakeEventSource.CLOSED);
      assert.lengthOf(errors, 1);
    });

    it('has no stream with custom headers (EventSource cannot send them)', () => {
      assert.notProperty(createCheckoutClient({ endpoint: '/checkout', headers: { 'x-csrf': 'token' } }), 'watch');
      assert.property(createCheckoutClient({ endpoint: '/checkout' }), 'watch');
    });

    it('leaves no EventSource open after the element is removed', async () => {
      const fetchAnswers = (url: string) =>
        new Response(JSON.stringify(url.endsWith('/available-payment-variants') ? variants() : waitingInvoice({ id: url.split('/')[3] })), {
          headers: { 'content-type': 'application/json', date: new Date().toUTCString() },
        });
      const realFetch = Object.getOwnPropertyDescriptor(window, 'fetch')!;
      window.fetch = (input) => Promise.resolve(fetchAnswers(input instanceof Request ? input.url : input.toString()));
      try {
        const el = await fixture<MerchantCheckoutElement>(html`<merchant-checkout lang="en" endpoint="/checkout" invoice-id=${INVOICE_ID}></merchant-checkout>`);
        await new Promise((resolve) => setTimeout(resolve, 50));
        await settle(el);
        assert.lengthOf(FakeEventSource.live(), 1);
        FakeEventSource.live()[0]!.emit(waitingInvoice({ status: 'paid', deals: [] }));
        await settle(el);
        assert.equal(screenOf(el), 'paid');
        assert.lengthOf(FakeEventSource.live(), 0, 'closed at a final status');

        el.invoiceId = OTHER_INVOICE_ID;
        await new Promise((resolve) => setTimeout(resolve, 50));
        await settle(el);
        assert.deepEqual(FakeEventSource.live().map((source) => source.url), [`/checkout/invoices/${OTHER_INVOICE_ID}/events`]);
        el.remove();
        assert.lengthOf(FakeEventSource.live(), 0, 'closed on removal');
      } finally {
        Object.defineProperty(window, 'fetch', realFetch);
      }
    });
  });
});
