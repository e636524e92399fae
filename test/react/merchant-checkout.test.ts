/**
 * `merchant-checkout/react` in Chromium with React's development build: importing it registers
 * the tag, props reach the element, every `onCheckout…` prop gets its event, and under
 * `React.StrictMode` (effects mounted twice) there is one live request per read, no error, and
 * nothing left running after unmount. The element's network is a fake `client` that records
 * every call and its signal.
 */
import { assert, waitUntil } from '@open-wc/testing';
import { createElement, StrictMode, useMemo, useState, type ReactElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { MerchantCheckout, type MerchantCheckoutProps } from '../../src/react/index.js';
import { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import {
  CheckoutCanceledEvent,
  CheckoutCopyEvent,
  CheckoutErrorEvent,
  CheckoutExpiredEvent,
  CheckoutReadyEvent,
  CheckoutStatusEvent,
  CheckoutVariantSelectEvent,
} from '../../src/element/events.js';
import type { CheckoutAnswer, CheckoutClient, CheckoutRequestOptions } from '../../src/element/protocol-client.js';
import { exampleCanceledInvoice, exampleLookupInvoice, exampleVariants, INVOICE_ID } from '../fixtures/dto.js';

type Method = 'getInvoice' | 'getPaymentVariants' | 'cancelInvoice' | 'startDeal';

interface Call {
  method: Method;
  invoiceId: string;
  signal: AbortSignal | undefined;
  /** Answered (or failed by its abort). */
  settled: boolean;
}

/** An invoice that is still waiting for the transfer, whatever the test machine's clock says. */
const waitingInvoice = () =>
  exampleLookupInvoice({
    createdAt: new Date(Date.now() - 60_000).toISOString(),
    updatedAt: new Date(Date.now() - 60_000).toISOString(),
    expireAt: new Date(Date.now() + 30 * 60_000).toISOString(),
  });

/**
 * A `CheckoutClient` that records every call (into `log`, which several instances may share)
 * and answers a method at once when it has an answer for it, or never (until aborted).
 */
class RecordingClient implements CheckoutClient {
  constructor(
    readonly log: Call[],
    readonly answers: Partial<Record<Method, () => unknown>>,
  ) {}

  getInvoice(invoiceId: string, options?: CheckoutRequestOptions) {
    return this.#call('getInvoice', invoiceId, options);
  }
  getPaymentVariants(invoiceId: string, options?: CheckoutRequestOptions) {
    return this.#call('getPaymentVariants', invoiceId, options);
  }
  cancelInvoice(invoiceId: string, options?: CheckoutRequestOptions) {
    return this.#call('cancelInvoice', invoiceId, options);
  }
  startDeal(invoiceId: string, _variant: unknown, options?: CheckoutRequestOptions) {
    return this.#call('startDeal', invoiceId, options);
  }

  #call(method: Method, invoiceId: string, options: CheckoutRequestOptions | undefined): Promise<CheckoutAnswer> {
    const call: Call = { method, invoiceId, signal: options?.signal, settled: false };
    this.log.push(call);
    return new Promise((resolve, reject) => {
      options?.signal?.addEventListener(
        'abort',
        () => {
          call.settled = true;
          reject(new DOMException('aborted', 'AbortError'));
        },
        { once: true },
      );
      const answer = this.answers[method];
      if (answer) {
        call.settled = true;
        resolve({ data: answer(), date: new Date().toUTCString() });
      }
    });
  }
}

const of = (log: Call[], method: Method) => log.filter((call) => call.method === method);
const live = (log: Call[], method: Method) => of(log, method).filter((call) => !call.signal?.aborted);

let container: HTMLElement;
let root: Root;

const mount = async (tree: ReactElement): Promise<MerchantCheckoutElement> => {
  flushSync(() => root.render(tree));
  await waitUntil(() => container.querySelector('merchant-checkout'), 'React rendered <merchant-checkout>');
  return container.querySelector('merchant-checkout')!;
};

const part = (element: MerchantCheckoutElement, name: string) =>
  element.shadowRoot?.querySelector<HTMLElement>(`[part~="${name}"]`) ?? null;

beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  flushSync(() => root.unmount());
  container.remove();
});

describe('merchant-checkout/react', () => {
  it('registers <merchant-checkout> when imported in the browser', () => {
    assert.strictEqual(customElements.get('merchant-checkout'), MerchantCheckoutElement);
  });

  it('sets the props on the element as properties, and className as its class', async () => {
    const client = new RecordingClient([], { getInvoice: waitingInvoice, getPaymentVariants: exampleVariants });
    const strings = { copy: 'Take it' };
    const element = await mount(
      createElement(MerchantCheckout, {
        invoiceId: INVOICE_ID,
        client,
        lang: 'ru',
        pollInterval: 60_000,
        hideCancel: true,
        theme: 'dark',
        strings,
        className: 'checkout',
      }),
    );
    assert.instanceOf(element, MerchantCheckoutElement);
    assert.strictEqual(element.invoiceId, INVOICE_ID);
    assert.strictEqual(element.client, client);
    assert.strictEqual(element.pollInterval, 60_000);
    assert.strictEqual(element.hideCancel, true);
    assert.strictEqual(element.strings, strings);
    assert.strictEqual(element.getAttribute('class'), 'checkout');
    await waitUntil(() => part(element, 'requisites'), 'the requisites are shown');
    // Reflected by the element itself, so CSS can see them.
    assert.strictEqual(element.getAttribute('theme'), 'dark');
    assert.strictEqual(element.getAttribute('lang'), 'ru');
    assert.strictEqual(part(element, 'cancel-button'), null);
  });

  it('hands each event to its onCheckout… prop: ready and, after a confirmed cancel, status and canceled', async () => {
    const client = new RecordingClient([], {
      getInvoice: waitingInvoice,
      getPaymentVariants: exampleVariants,
      cancelInvoice: () => exampleCanceledInvoice(),
    });
    const received: Record<string, Event[]> = {};
    const record = (name: string) => (event: Event) => (received[name] ??= []).push(event);
    const element = await mount(
      createElement(MerchantCheckout, {
        invoiceId: INVOICE_ID,
        client,
        lang: 'en',
        onCheckoutReady: record('ready'),
        onCheckoutStatus: record('status'),
        onCheckoutCanceled: record('canceled'),
        onCheckoutError: record('error'),
      }),
    );
    await waitUntil(() => received.ready?.length === 1, 'onCheckoutReady');
    const [ready] = received.ready as [CheckoutReadyEvent];
    assert.instanceOf(ready, CheckoutReadyEvent);
    assert.strictEqual(ready.detail.invoice.id, INVOICE_ID);

    part(element, 'cancel-button')!.click();
    await waitUntil(() => part(element, 'confirm-button'), 'the cancel asks for confirmation');
    part(element, 'confirm-button')!.click();
    await waitUntil(() => received.canceled?.length === 1 && received.status?.length === 1, 'onCheckoutCanceled and onCheckoutStatus');
    const [canceled] = received.canceled as [CheckoutCanceledEvent];
    const [status] = received.status as [CheckoutStatusEvent];
    assert.strictEqual(canceled.detail.invoice.status, 'canceled');
    assert.deepEqual([status.detail.previous, status.detail.status], ['new', 'canceled']);
    assert.strictEqual(received.error, undefined);
    assert.lengthOf(of(client.log, 'cancelInvoice'), 1);
  });

  it('maps all seven events to their props, each to its own', async () => {
    const invoice = waitingInvoice() as CheckoutReadyEvent['detail']['invoice'];
    const events = {
      onCheckoutReady: new CheckoutReadyEvent({ invoice }),
      onCheckoutStatus: new CheckoutStatusEvent({ status: 'paid', previous: 'new', invoice, source: 'poll' }),
      onCheckoutCanceled: new CheckoutCanceledEvent({ invoice: exampleCanceledInvoice() as CheckoutCanceledEvent['detail']['invoice'] }),
      onCheckoutExpired: new CheckoutExpiredEvent({ invoice }),
      onCheckoutVariantSelect: new CheckoutVariantSelectEvent({ option: 'SBP', method: 'sberbank' }),
      onCheckoutCopy: new CheckoutCopyEvent({ field: 'amount', value: '1500.00' }),
      onCheckoutError: new CheckoutErrorEvent({ code: 'network_error', message: 'offline', retryable: true }),
    };
    const received: Record<string, Event[]> = {};
    const handlers = Object.fromEntries(
      Object.keys(events).map((prop) => [prop, (event: Event) => (received[prop] ??= []).push(event)]),
    ) as Partial<MerchantCheckoutProps>;
    // No invoice id: the element stays idle and fires nothing of its own.
    const element = await mount(createElement(MerchantCheckout, { client: new RecordingClient([], {}), ...handlers }));
    for (const event of Object.values(events)) element.dispatchEvent(event);
    assert.sameMembers(Object.keys(received), Object.keys(events));
    for (const [prop, event] of Object.entries(events)) {
      assert.lengthOf(received[prop]!, 1, prop);
      assert.strictEqual(received[prop]![0], event, `${prop} got its own event`);
    }
  });

  it('moves a listener to a new handler and removes it with the prop', async () => {
    const first: Event[] = [];
    const second: Event[] = [];
    const client = new RecordingClient([], {});
    const element = await mount(createElement(MerchantCheckout, { client, onCheckoutCopy: (event) => first.push(event) }));
    element.dispatchEvent(new CheckoutCopyEvent({ field: 'amount', value: '1' }));
    flushSync(() => root.render(createElement(MerchantCheckout, { client, onCheckoutCopy: (event) => second.push(event) })));
    element.dispatchEvent(new CheckoutCopyEvent({ field: 'amount', value: '2' }));
    flushSync(() => root.render(createElement(MerchantCheckout, { client })));
    element.dispatchEvent(new CheckoutCopyEvent({ field: 'amount', value: '3' }));
    assert.deepEqual(
      first.map((event) => (event as CheckoutCopyEvent).detail.value),
      ['1'],
    );
    assert.deepEqual(
      second.map((event) => (event as CheckoutCopyEvent).detail.value),
      ['2'],
    );
  });

  it('under StrictMode: one live request per read, one ready, no error; unmount aborts what is pending', async () => {
    const log: Call[] = [];
    let atReady: Call[] | undefined;
    const problems: unknown[][] = [];
    const errors: Event[] = [];
    const { error, warn } = console;
    console.error = (...args: unknown[]) => void problems.push(args);
    console.warn = (...args: unknown[]) => void problems.push(args);
    try {
      // What a merchant writes: the client made once per component, the status in React state.
      // The variants are never answered, so a read is still pending when the page unmounts it.
      const App = () => {
        const client = useMemo(() => new RecordingClient(log, { getInvoice: waitingInvoice }), []);
        const [status, setStatus] = useState('loading');
        return createElement(
          'section',
          null,
          createElement('p', { id: 'status' }, status),
          createElement(MerchantCheckout, {
            invoiceId: INVOICE_ID,
            client,
            pollInterval: 1000,
            onCheckoutReady: (event) => {
              // Before the first poll (due a poll interval after this): the first load's reads only.
              atReady ??= [...log];
              setStatus(`ready ${event.detail.invoice.status}`);
            },
            onCheckoutError: (event) => errors.push(event),
          }),
        );
      };
      const element = await mount(createElement(StrictMode, null, createElement(App)));
      element.addEventListener('checkout-error', (event) => errors.push(event));
      await waitUntil(() => container.querySelector('#status')?.textContent === 'ready new', 'the ready event reached React state');

      const first = atReady!;
      assert.strictEqual(
        first.every((call) => call.signal instanceof AbortSignal),
        true,
        'every read can be aborted',
      );
      // A read that StrictMode's second mount made redundant would have to be aborted.
      assert.lengthOf(live(first, 'getInvoice'), 1, 'live invoice reads');
      assert.lengthOf(live(first, 'getPaymentVariants'), 1, 'live variant reads');
      const pending = log.filter((call) => !call.settled);
      assert.include(
        pending.map((call) => call.method),
        'getPaymentVariants',
      );

      flushSync(() => root.unmount());
      assert.deepEqual(
        pending.filter((call) => !call.signal!.aborted),
        [],
        'reads left running after unmount',
      );
      const callsAtUnmount = log.length;
      // Proving that nothing happens: longer than one poll interval.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.strictEqual(log.length, callsAtUnmount, 'no request after unmount');
      root = createRoot(container);
    } finally {
      console.error = error;
      console.warn = warn;
    }
    assert.deepEqual(errors, []);
    assert.deepEqual(problems, []);
  });
});
