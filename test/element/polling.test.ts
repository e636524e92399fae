import { assert, expect, fixture, html } from '@open-wc/testing';
import { type Clock, withGlobal } from '@sinonjs/fake-timers';
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import { CheckoutError } from '../../src/element/protocol-client.js';
import {
  FakeClient,
  INVOICE_ID,
  OTHER_INVOICE_ID,
  liveRegion,
  painted,
  part,
  screenOf,
  settle,
  text,
  waitingInvoice,
  variants,
} from './helpers.js';

const MINUTE = 60_000;
/** The device's real clock when a test starts; fake clocks start from it (or off it, for skew). */
let realNow: number;
let clock: Clock | undefined;

const install = (offset = 0) => {
  clock = withGlobal(window).install({
    now: realNow + offset,
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
  return clock;
};

/** Back to real timers: axe-core (the accessibility check) waits on them. */
const realTimers = () => {
  clock?.uninstall();
  clock = undefined;
};

/** Sets `document.visibilityState` as a browser does when the payer switches apps. */
const setVisibility = (state: 'hidden' | 'visible') => {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
};

/** A mounted element whose first load is answered: the server's clock is the real one. */
const mountWaiting = async (options: { pollInterval?: number; invoice?: unknown; serverNow?: number } = {}) => {
  const client = new FakeClient();
  const el = await fixture<MerchantCheckoutElement>(
    html`<merchant-checkout
      lang="en"
      invoice-id=${INVOICE_ID}
      poll-interval=${options.pollInterval ?? 5000}
      .client=${client}
    ></merchant-checkout>`,
  );
  const serverDate = new Date(options.serverNow ?? realNow).toUTCString();
  await client.answer('getInvoice', options.invoice ?? waitingInvoice(), serverDate);
  await client.answer('getPaymentVariants', variants(), serverDate);
  await settle(el);
  return { el, client };
};

/** An invoice expiring `ms` after the real now. */
const expiringIn = (ms: number, overrides: Record<string, unknown> = {}) =>
  waitingInvoice({ expireAt: new Date(realNow + ms).toISOString(), ...overrides });

describe('<merchant-checkout> polling and time', () => {
  beforeEach(() => {
    // Half a second past a whole second: the `Date` header (whole seconds) then reads exactly.
    realNow = Math.floor(Date.now() / 1000) * 1000 + 500;
  });
  afterEach(() => {
    clock?.uninstall();
    clock = undefined;
    Reflect.deleteProperty(document, 'visibilityState');
  });

  it('re-reads the invoice every poll-interval, never two reads at once', async () => {
    const clock = install();
    const { el, client } = await mountWaiting({ pollInterval: 3000 });
    assert.equal(client.callsOf('getInvoice').length, 1);
    await clock.tickAsync(2999);
    assert.equal(client.callsOf('getInvoice').length, 1);
    await clock.tickAsync(1);
    assert.equal(client.callsOf('getInvoice').length, 2);
    await clock.tickAsync(30_000);
    assert.equal(client.callsOf('getInvoice').length, 2, 'no new read while one is in flight');
    await client.answer('getInvoice', waitingInvoice());
    await clock.tickAsync(3000);
    assert.equal(client.callsOf('getInvoice').length, 3);
    assert.equal(screenOf(el), 'waiting');
  });

  it('backs off exponentially after failures, says the connection is lost, and recovers', async () => {
    const clock = install();
    const { el, client } = await mountWaiting({ pollInterval: 2000 });
    const errors: string[] = [];
    el.addEventListener('checkout-error', (event) => errors.push(`${event.detail.code}:${event.detail.retryable}`));
    await clock.tickAsync(2000);
    // Equal jitter: after n failures the wait is somewhere in [interval·2ⁿ/2, interval·2ⁿ].
    for (const [low, high] of [
      [2000, 4000],
      [4000, 8000],
      [8000, 16_000],
      [16_000, 32_000],
    ] as const) {
      await client.fail('getInvoice', new CheckoutError('network_error', 'offline', { retryable: true }));
      await settle(el);
      const reads = client.callsOf('getInvoice').length;
      await clock.tickAsync(low - 1);
      assert.equal(client.callsOf('getInvoice').length, reads, `no read sooner than ${low} ms`);
      await clock.tickAsync(high - low + 1);
      assert.equal(client.callsOf('getInvoice').length, reads + 1, `a read by ${high} ms`);
    }
    assert.deepEqual(errors, ['network_error:true', 'network_error:true', 'network_error:true', 'network_error:true']);
    await client.fail('getInvoice', new CheckoutError('network_error', 'offline', { retryable: true }));
    await settle(el);
    assert.equal(screenOf(el), 'waiting', 'the requisites stay on screen');
    assert.include(text(el.shadowRoot!.querySelector('[part~="notice"]')), 'Connection lost');

    await clock.tickAsync(MINUTE);
    await client.answer('getInvoice', waitingInvoice(), new Date().toUTCString());
    await settle(el);
    expect(el.shadowRoot!.querySelector('[part~="notice"]')).to.not.exist;
    const before = client.callsOf('getInvoice').length;
    await clock.tickAsync(2000);
    assert.equal(client.callsOf('getInvoice').length, before + 1, 'back to the plain interval');
    await client.fail('getInvoice', new CheckoutError('upstream_timeout', 'slow', { status: 504, retryable: true }));
    await settle(el);
    realTimers();
    assert.include(text(el.shadowRoot!.querySelector('[part~="notice"]')), 'Connection lost');
    await expect(el).to.be.accessible();
  });

  it('shows the paid screen when a read says paid, announces it, and stops polling', async () => {
    const clock = install();
    const { el, client } = await mountWaiting();
    const statuses: string[] = [];
    el.addEventListener('checkout-status', (event) => statuses.push(`${event.detail.previous}→${event.detail.status}`));
    await clock.tickAsync(5000);
    await client.answer('getInvoice', waitingInvoice({ status: 'paid', deals: [] }));
    await settle(el);
    assert.equal(screenOf(el), 'paid');
    assert.deepEqual(statuses, ['new→paid']);
    assert.equal(liveRegion(el), 'Status: paid');
    const reads = client.callsOf('getInvoice').length;
    await clock.tickAsync(10 * MINUTE);
    assert.equal(client.callsOf('getInvoice').length, reads);
    assert.equal(clock.countTimers(), 0, 'no timer is left once the status is final');
  });

  it('pauses while the page is hidden and reads at once when it is shown again', async () => {
    const clock = install();
    const { client } = await mountWaiting();
    setVisibility('hidden');
    await clock.tickAsync(10 * MINUTE);
    assert.equal(client.callsOf('getInvoice').length, 1, 'no read while hidden');
    setVisibility('visible');
    assert.equal(client.callsOf('getInvoice').length, 2, 'an immediate read on return');
    await client.answer('getInvoice', waitingInvoice());
    await clock.tickAsync(5000);
    assert.equal(client.callsOf('getInvoice').length, 3, 'and the interval resumes');
  });

  it('leaves no timer, listener or request behind after removal', async () => {
    const clock = install();
    const { el, client } = await mountWaiting();
    await clock.tickAsync(5000);
    const inFlight = await client.next('getInvoice');
    el.remove();
    assert.isTrue(inFlight.signal?.aborted, 'the read in flight is aborted');
    assert.equal(clock.countTimers(), 0);
    const calls = client.calls.length;
    setVisibility('hidden');
    setVisibility('visible');
    await clock.tickAsync(60 * MINUTE);
    assert.equal(client.calls.length, calls, 'no request after removal');
  });

  it('reads at once and polls again when put back on the page', async () => {
    const clock = install();
    const { el, client } = await mountWaiting();
    const parent = el.parentElement!;
    el.remove();
    await clock.tickAsync(10 * MINUTE);
    assert.equal(client.callsOf('getInvoice').length, 1);
    parent.append(el);
    assert.equal(client.callsOf('getInvoice').length, 2, 'an immediate read: the screen may be stale');
    await client.answer('getInvoice', waitingInvoice({ status: 'paid', deals: [] }));
    await settle(el);
    assert.equal(screenOf(el), 'paid');
  });

  it('aborts everything of the old invoice when invoice-id changes', async () => {
    const client = new FakeClient();
    const el = await fixture<MerchantCheckoutElement>(
      html`<merchant-checkout invoice-id=${INVOICE_ID} .client=${client}></merchant-checkout>`,
    );
    const [oldInvoice, oldVariants] = [await client.next('getInvoice'), await client.next('getPaymentVariants')];
    el.invoiceId = OTHER_INVOICE_ID;
    await el.updateComplete;
    assert.isTrue(oldInvoice.signal?.aborted);
    assert.isTrue(oldVariants.signal?.aborted);
    const fresh = await client.next('getInvoice');
    assert.equal(fresh.invoiceId, OTHER_INVOICE_ID);
    let errors = 0;
    el.addEventListener('checkout-error', () => errors++);
    await client.answer('getInvoice', waitingInvoice({ id: OTHER_INVOICE_ID }));
    await settle(el);
    assert.equal(screenOf(el), 'waiting');
    assert.equal(errors, 0, 'the aborted reads are not reported as errors');
  });

  describe('countdown', () => {
    for (const [clockError, label] of [
      [60 * MINUTE, 'an hour fast'],
      [-60 * MINUTE, 'an hour slow'],
    ] as const) {
      it(`follows the server's clock when the device's is ${label}`, async () => {
        install(clockError);
        const { el } = await mountWaiting({ invoice: expiringIn(30 * MINUTE) });
        assert.equal(screenOf(el), 'waiting');
        assert.match(text(part(el, 'timer')), /^Time left (29:5\d|30:0[01])$/);
      });
    }

    it('trusts the device clock when an answer has no Date header', async () => {
      install(60 * MINUTE);
      const client = new FakeClient();
      const el = await fixture<MerchantCheckoutElement>(
        html`<merchant-checkout invoice-id=${INVOICE_ID} .client=${client}></merchant-checkout>`,
      );
      await client.answer('getInvoice', expiringIn(30 * MINUTE), null);
      await settle(el);
      assert.equal(screenOf(el), 'expired', 'an hour-fast clock without correction sees the deal as expired');
    });

    it('ticks every second, reads at zero, then shows the expired screen and fires checkout-expired', async () => {
      const clock = install();
      const { el, client } = await mountWaiting({ invoice: expiringIn(3000) });
      assert.equal(text(part(el, 'timer')), 'Time left 0:03');
      await clock.tickAsync(1000);
      await el.updateComplete;
      assert.equal(text(part(el, 'timer')), 'Time left 0:02', 'the display changes right on the second');
      const expired: string[] = [];
      el.addEventListener('checkout-expired', (event) => expired.push(event.detail.invoice.id));
      await clock.tickAsync(2100);
      await settle(el);
      assert.equal(client.callsOf('getInvoice').length, 2, 'the deadline is read at once, before the poll is due');
      assert.equal(screenOf(el), 'loading', 'nothing says expired before the read answers');
      assert.isNull(part(el, 'requisites'), 'nor are the requisites offered meanwhile');
      assert.deepEqual(expired, []);
      await client.answer('getInvoice', expiringIn(3000));
      await settle(el);
      assert.equal(screenOf(el), 'expired');
      assert.deepEqual(expired, [INVOICE_ID]);
      assert.equal(liveRegion(el), 'Time to pay is up');
      realTimers();
      await expect(el).to.be.accessible();
    });

    it('never shows a paid invoice as expired: the read at the deadline decides', async () => {
      const clock = install();
      const { el, client } = await mountWaiting({ invoice: expiringIn(2000) });
      const expired: unknown[] = [];
      el.addEventListener('checkout-expired', (event) => expired.push(event));
      await clock.tickAsync(2100);
      await settle(el);
      assert.equal(screenOf(el), 'loading');
      await client.answer('getInvoice', expiringIn(2000, { status: 'paid', deals: [] }));
      await settle(el);
      assert.equal(screenOf(el), 'paid');
      assert.deepEqual(expired, [], 'no checkout-expired for a paid invoice');
    });

    it('says so honestly when the deadline cannot be read, and reads again on “Try again”', async () => {
      const clock = install();
      const { el, client } = await mountWaiting({ invoice: expiringIn(2000) });
      await clock.tickAsync(2100);
      await client.fail('getInvoice', new CheckoutError('network_error', 'offline', { retryable: true }));
      await settle(el);
      assert.equal(screenOf(el), 'error');
      assert.include(text(part(el, 'error')), 'No connection');
      await painted(el);
      realTimers();
      await expect(el).to.be.accessible();
      part(el, 'retry-button')!.click();
      await client.answer('getInvoice', expiringIn(2000, { status: 'paid', deals: [] }));
      await settle(el);
      assert.equal(screenOf(el), 'paid');
    });

    it('still re-reads for a while after expiry: a late payment shows as paid', async () => {
      const clock = install();
      const { el, client } = await mountWaiting({ invoice: expiringIn(2000) });
      await clock.tickAsync(2100);
      await client.answer('getInvoice', expiringIn(2000));
      await settle(el);
      assert.equal(screenOf(el), 'expired');
      await clock.tickAsync(5000);
      await client.answer('getInvoice', expiringIn(2000, { status: 'paid', deals: [] }));
      await settle(el);
      assert.equal(screenOf(el), 'paid');
    });

    it('stops re-reading once the grace period after expiry is over', async () => {
      const clock = install();
      const { client } = await mountWaiting({ invoice: expiringIn(1000) });
      for (let read = 0; read < 40; read++) {
        await clock.tickAsync(5000);
        const pending = client.pending('getInvoice')[0];
        if (!pending) break;
        pending.resolve({ data: expiringIn(1000), date: new Date().toUTCString() });
        await clock.tickAsync(0);
      }
      const reads = client.callsOf('getInvoice').length;
      assert.isAtMost(reads, 2 + 120_000 / 5000);
      await clock.tickAsync(10 * MINUTE);
      assert.equal(client.callsOf('getInvoice').length, reads);
    });

    it('announces the time left at steps, not every second', async () => {
      const clock = install();
      const { el } = await mountWaiting({ invoice: expiringIn(11 * MINUTE + 500) });
      const heard: string[] = [];
      const observer = new MutationObserver(() => heard.push(liveRegion(el)));
      observer.observe(el.shadowRoot!.querySelector('[aria-live]')!, { childList: true, characterData: true, subtree: true });
      await clock.tickAsync(11 * MINUTE);
      await settle(el);
      observer.disconnect();
      assert.deepEqual([...new Set(heard)].filter(Boolean), [
        '10 minutes left to pay',
        '9 minutes left to pay',
        '8 minutes left to pay',
        '7 minutes left to pay',
        '6 minutes left to pay',
        '5 minutes left to pay',
        '4 minutes left to pay',
        '3 minutes left to pay',
        '2 minutes left to pay',
        '1 minute left to pay',
        '30 seconds left to pay',
      ]);
    });
  });
});
