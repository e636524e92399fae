/**
 * The status by push: the proxy's event stream (`client.watch`, `GET /invoices/{id}/events`)
 * instead of polling while it delivers, polling while it does not, and the same screens,
 * countdown and cancel either way.
 */
import { assert, expect, fixture, html, waitUntil } from '@open-wc/testing';
import { type Clock, withGlobal } from '@sinonjs/fake-timers';
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import { createCheckoutClient } from '../../src/element/protocol-client.js';
import { MAX_STREAM_RETRY, nextStreamDelay, STREAM_RETRY } from '../../src/element/poll-policy.js';
import {
  canceledInvoice,
  INVOICE_ID,
  OTHER_INVOICE_ID,
  part,
  screenOf,
  settle,
  StreamingFakeClient,
  StreamingFetch,
  text,
  untilScreen,
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
    html`<merchant-checkout
      lang="en"
      invoice-id=${INVOICE_ID}
      poll-interval="5000"
      ?no-stream=${options.noStream ?? false}
      .client=${client}
    ></merchant-checkout>`,
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
    el.addEventListener('checkout-status', (event) =>
      sources.push(`${event.detail.previous}→${event.detail.status} ${event.detail.source}`),
    );
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
    assert.deepEqual(
      [1, 2, 3, 4, 5, 9].map(nextStreamDelay),
      [30, 60, 120, 240, 300, 300].map((s) => s * SECOND),
    );
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
    assert.equal(reads(client), 2, 'the deadline is read, stream or not');
    await client.answer('getInvoice', waitingInvoice({ expireAt: new Date(Date.now() - 3100).toISOString() }));
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
    assert.deepEqual(
      client.open().map((stream) => stream.invoiceId),
      [OTHER_INVOICE_ID],
    );
  });

  it('only polls with no-stream', async () => {
    const { client } = await mountStreaming({ noStream: true });
    assert.lengthOf(client.streams, 0);
  });

  describe('a stream proves itself', () => {
    it('takes a stream that goes silent for twice its heartbeat as dead: reads at once and reopens it at once', async () => {
      const clock = install();
      const { el, client } = await mountStreaming();
      client.beat();
      client.push(waitingInvoice());
      await settle(el);
      for (let beat = 0; beat < 8; beat++) {
        await clock.tickAsync(15 * SECOND);
        client.beat();
      }
      assert.equal(reads(client), 1, 'a stream that keeps talking is trusted: no read');
      const [first] = client.open();
      await clock.tickAsync(30 * SECOND - 1);
      assert.isFalse(first!.signal.aborted, 'one missed heartbeat is forgiven');
      await clock.tickAsync(1);
      assert.isTrue(first!.signal.aborted, 'silent for 30 s: dead');
      assert.equal(reads(client), 2, 'read once at once');
      assert.lengthOf(client.open(), 1, 'and reopened at once');
      await client.answer('getInvoice', waitingInvoice({ status: 'paid', deals: [] }));
      await settle(el);
      assert.equal(screenOf(el), 'paid');
      realTimers();
      await expect(el).to.be.accessible();
    });

    it('waits as long as the heartbeat the stream states, and backs off a stream that dies without delivering', async () => {
      const clock = install();
      const { el, client } = await mountStreaming();
      client.beat(60 * SECOND);
      client.push(waitingInvoice());
      await settle(el);
      await clock.tickAsync(119 * SECOND);
      assert.lengthOf(client.open(), 1, 'a 60 s heartbeat may be silent for 2 minutes');
      await clock.tickAsync(SECOND);
      assert.equal(reads(client), 2);
      await client.answer('getInvoice', waitingInvoice());
      // The new connection says it is alive, then says nothing: no state, no heartbeat.
      client.beat();
      await clock.tickAsync(120 * SECOND);
      assert.lengthOf(client.open(), 0, 'dead before delivering (the period stated before still holds)');
      await clock.tickAsync(STREAM_RETRY - SECOND);
      assert.lengthOf(client.open(), 0, 'not reopened in a loop: after 30 s');
      await clock.tickAsync(SECOND);
      assert.lengthOf(client.open(), 1);
      assert.equal(screenOf(el), 'waiting');
    });

    it('trusts a custom client that never reports signs of life as before', async () => {
      const clock = install();
      const { client } = await mountStreaming();
      client.push(waitingInvoice());
      await clock.tickAsync(10 * 60 * SECOND);
      assert.lengthOf(client.open(), 1);
      assert.equal(reads(client), 1);
    });
  });

  describe('the payer comes back', () => {
    const setVisibility = (state: 'hidden' | 'visible') => {
      Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    };
    const setOnline = (online: boolean) => {
      Object.defineProperty(navigator, 'onLine', { value: online, configurable: true });
      window.dispatchEvent(new Event(online ? 'online' : 'offline'));
    };
    afterEach(() => {
      Reflect.deleteProperty(document, 'visibilityState');
      Reflect.deleteProperty(navigator, 'onLine');
    });

    it('reads once at once on return whatever the stream says, however many return events come', async () => {
      const clock = install();
      const { el, client } = await mountStreaming();
      client.push(waitingInvoice());
      await settle(el);
      setVisibility('hidden');
      await clock.tickAsync(10 * 60 * SECOND);
      assert.equal(reads(client), 1, 'nothing is read while away: the stream is held');
      setVisibility('visible');
      document.dispatchEvent(new Event('resume'));
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
      assert.equal(reads(client), 2, 'one read for one return');
      await client.answer('getInvoice', waitingInvoice({ status: 'paid', deals: [] }));
      await settle(el);
      assert.equal(screenOf(el), 'paid');
    });

    it('closes the stream when the page freezes, and reopens it with a read when it resumes', async () => {
      const { el, client } = await mountStreaming();
      client.push(waitingInvoice());
      await settle(el);
      document.dispatchEvent(new Event('freeze'));
      assert.lengthOf(client.open(), 0, 'a frozen page holds no connection');
      document.dispatchEvent(new Event('resume'));
      assert.lengthOf(client.open(), 1);
      assert.equal(reads(client), 2, 'one read: the poll that took over is that read');
      client.push(waitingInvoice({ status: 'paid', deals: [] }));
      await settle(el);
      assert.equal(screenOf(el), 'paid', 'whichever answers first is shown');
    });

    it('says it is offline, reads nothing meanwhile, and recovers with one read when back online', async () => {
      const clock = install();
      const { el, client } = await mountStreaming();
      client.push(waitingInvoice());
      await settle(el);
      setOnline(false);
      await settle(el);
      assert.lengthOf(client.open(), 0);
      assert.include(text(part(el, 'notice')), 'No internet connection');
      await clock.tickAsync(5 * 60 * SECOND);
      assert.equal(reads(client), 1, 'no read, no backoff piling up while offline');
      assert.lengthOf(client.streams, 1);
      setOnline(true);
      assert.equal(reads(client), 2, 'a read at once');
      assert.lengthOf(client.open(), 1, 'and the stream at once, not after a backoff');
      await client.answer('getInvoice', waitingInvoice({ status: 'paid', deals: [] }));
      await settle(el);
      assert.equal(screenOf(el), 'paid');
      assert.isNull(part(el, 'notice'));
      realTimers();
      await expect(el).to.be.accessible();
    });

    it('reads at the deadline although the stream is up, and never shows a paid invoice as expired', async () => {
      const clock = install();
      const { el, client } = await mountStreaming({ invoice: waitingInvoice({ expireAt: new Date(Date.now() + 3000).toISOString() }) });
      client.push(waitingInvoice({ expireAt: new Date(Date.now() + 3000).toISOString() }));
      await settle(el);
      await clock.tickAsync(3100);
      await settle(el);
      assert.equal(reads(client), 2);
      assert.equal(screenOf(el), 'loading');
      await client.answer('getInvoice', waitingInvoice({ status: 'paid', deals: [] }));
      await settle(el);
      assert.equal(screenOf(el), 'paid');
    });
  });

  describe('the default client', () => {
    const watch = (fetcher: StreamingFetch, options: { headers?: Record<string, string> } = {}) => {
      const client = createCheckoutClient({ endpoint: '/shop/checkout/', credentials: 'include', fetch: fetcher.fetch, ...options });
      const seen: string[] = [];
      const abort = new AbortController();
      client.watch!(
        INVOICE_ID,
        {
          data: (value) => seen.push(`data ${JSON.stringify(value)}`),
          error: (error) => seen.push(`error ${(error as Error).message}`),
          alive: (heartbeatMs) => seen.push(`alive${heartbeatMs === undefined ? '' : ` ${heartbeatMs}`}`),
        },
        { signal: abort.signal },
      );
      return { seen, abort };
    };
    const turn = () => new Promise((resolve) => setTimeout(resolve, 10));

    it('reads the stream with fetch: each invoice event, each heartbeat and its period, lines split anywhere', async () => {
      const fetcher = new StreamingFetch();
      const { seen, abort } = watch(fetcher, { headers: { 'x-csrf': 'token' } });
      await waitUntil(() => fetcher.requests.length === 1, 'the reader loads on demand, then fetches');
      const [request] = fetcher.requests;
      assert.equal(request!.url, `/shop/checkout/invoices/${INVOICE_ID}/events`);
      assert.equal(request!.init.credentials, 'include');
      assert.deepInclude(request!.init.headers as Record<string, string>, { accept: 'text/event-stream', 'x-csrf': 'token' });
      request!.write('event: invoice\r\ndata: {"id":');
      request!.write('1}\r');
      request!.write('\nid: 1-0\r\n\r\n: heartbeat 15000\n\nevent: other\ndata: x\n\n');
      await turn();
      assert.deepEqual(
        seen.filter((line) => line !== 'alive'),
        ['data {"id":1}', 'alive 15000'],
      );
      abort.abort();
      await turn();
      assert.notInclude(seen.join(), 'error', 'an abort is no failure');
    });

    for (const [what, make, message] of [
      ['a refusal (a polling-only proxy’s 404)', () => new Response('{}', { status: 404 }), 'HTTP 404'],
      ['an HTML page', () => new Response('<html></html>', { headers: { 'content-type': 'text/html' } }), 'not an event stream'],
      ['a stream that has ended (204)', () => new Response(null, { status: 204 }), 'not an event stream'],
    ] as const) {
      it(`takes ${what} as a failure, once`, async () => {
        const { seen } = watch(new StreamingFetch().answerWith(make));
        await waitUntil(() => seen.length > 0);
        assert.lengthOf(seen, 1);
        assert.include(seen[0], message);
      });
    }

    it('takes a garbled event, an endless line or the end of the stream as a failure, once', async () => {
      for (const [body, message] of [
        ['event: invoice\ndata: <html>\n\nevent: invoice\ndata: {}\n\n', 'not JSON'],
        ['x'.repeat(300 * 1024), 'longer'],
      ] as const) {
        const fetcher = new StreamingFetch();
        const { seen } = watch(fetcher);
        await waitUntil(() => fetcher.requests.length === 1);
        fetcher.requests[0]!.write(body);
        await turn();
        assert.deepEqual(seen.filter((line) => line.startsWith('error') || line.startsWith('data')).length, 1, message);
        assert.include(
          seen.find((line) => line.startsWith('error')),
          message,
        );
      }
      const fetcher = new StreamingFetch();
      const { seen } = watch(fetcher);
      await waitUntil(() => fetcher.requests.length === 1);
      fetcher.requests[0]!.end();
      await turn();
      assert.deepEqual(seen, ['alive', 'error the event stream ended']);
    });

    it('leaves no stream open after the element is removed, and follows a new invoice-id', async () => {
      const fetcher = new StreamingFetch();
      const realFetch = Object.getOwnPropertyDescriptor(window, 'fetch')!;
      window.fetch = (input, init) => {
        const url = input instanceof Request ? input.url : input.toString();
        if (url.endsWith('/events')) return fetcher.fetch(url, init ?? {});
        const body = url.endsWith('/available-payment-variants') ? variants() : waitingInvoice({ id: url.split('/')[3] });
        return Promise.resolve(
          new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json', date: new Date().toUTCString() } }),
        );
      };
      const open = () => fetcher.requests.filter((request) => !request.init.signal?.aborted).map((request) => request.url);
      try {
        const el = await fixture<MerchantCheckoutElement>(
          html`<merchant-checkout lang="en" endpoint="/checkout" invoice-id=${INVOICE_ID}></merchant-checkout>`,
        );
        await waitUntil(() => open().length === 1);
        fetcher.requests[0]!.write(`event: invoice\ndata: ${JSON.stringify(waitingInvoice({ status: 'paid', deals: [] }))}\n\n`);
        await untilScreen(el, 'paid');
        assert.lengthOf(open(), 0, 'closed at a final status');

        el.invoiceId = OTHER_INVOICE_ID;
        await waitUntil(() => open().length === 1);
        assert.deepEqual(open(), [`/checkout/invoices/${OTHER_INVOICE_ID}/events`]);
        el.remove();
        assert.lengthOf(open(), 0, 'closed on removal');
      } finally {
        Object.defineProperty(window, 'fetch', realFetch);
      }
    });
  });
});
