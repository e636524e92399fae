/**
 * Test doubles for the element: a checkout client whose answers the test gives by hand, and
 * fixtures with times relative to now.
 */
import { fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { CheckoutAnswer, CheckoutClient, CheckoutRequestOptions, CheckoutWatchHandlers } from '../../src/element/protocol-client.js';
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';
import { exampleCanceledInvoice, exampleLookupDeal, exampleLookupInvoice, exampleVariants, INVOICE_ID } from '../fixtures/dto.js';
import '../../src/element/define.js';

export { INVOICE_ID };
export const OTHER_INVOICE_ID = '7a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d';

export type Method = 'getInvoice' | 'getPaymentVariants' | 'cancelInvoice' | 'startDeal' | 'getBanks' | 'sendReceipt' | 'reportPayment';

export interface Call {
  method: Method;
  invoiceId: string;
  variant: { option: string; method: string } | undefined;
  /** What an upload sent: the receipt, or the report. */
  body?: unknown;
  signal: AbortSignal | undefined;
  settled: boolean;
  resolve: (answer: CheckoutAnswer) => void;
  reject: (error: Error) => void;
}

/** A `CheckoutClient` that records every call and answers only when told (or by a reply rule). */
export class FakeClient implements CheckoutClient {
  readonly calls: Call[] = [];
  readonly #replies = new Map<Method, (call: Call) => CheckoutAnswer | Error | undefined>();
  #waiters: { method: Method; resolve: (call: Call) => void }[] = [];

  /** Answers every later call of `method` at once (an `Error` is thrown; `undefined` leaves it pending). */
  reply(method: Method, rule: (call: Call) => CheckoutAnswer | Error | undefined): this {
    this.#replies.set(method, rule);
    return this;
  }

  getInvoice(invoiceId: string, options?: CheckoutRequestOptions) {
    return this.#call('getInvoice', invoiceId, undefined, options);
  }
  getPaymentVariants(invoiceId: string, options?: CheckoutRequestOptions) {
    return this.#call('getPaymentVariants', invoiceId, undefined, options);
  }
  cancelInvoice(invoiceId: string, options?: CheckoutRequestOptions) {
    return this.#call('cancelInvoice', invoiceId, undefined, options);
  }
  startDeal(invoiceId: string, variant: { option: string; method: string }, options?: CheckoutRequestOptions) {
    return this.#call('startDeal', invoiceId, variant, options);
  }

  getBanks(currency: string, options?: CheckoutRequestOptions) {
    return this.#call('getBanks', currency, undefined, options);
  }
  sendReceipt(invoiceId: string, file: Blob, options?: CheckoutRequestOptions) {
    return this.#call('sendReceipt', invoiceId, undefined, options, file);
  }
  reportPayment(invoiceId: string, report: unknown, options?: CheckoutRequestOptions) {
    return this.#call('reportPayment', invoiceId, undefined, options, report);
  }

  callsOf(method: Method): Call[] {
    return this.calls.filter((call) => call.method === method);
  }

  pending(method: Method): Call[] {
    return this.callsOf(method).filter((call) => !call.settled);
  }

  /**
   * The oldest unanswered call of `method`, waiting for it if needed. Waits without timers, so
   * it works under fake timers too (a call that never comes fails the test by its timeout).
   */
  next(method: Method): Promise<Call> {
    const call = this.pending(method)[0];
    if (call) return Promise.resolve(call);
    return new Promise((resolve) => this.#waiters.push({ method, resolve }));
  }

  /** Answers the oldest unanswered call of `method` with `data` (and a `Date` header of now). */
  async answer(method: Method, data: unknown, date: string | null = new Date().toUTCString()): Promise<Call> {
    const call = await this.next(method);
    call.resolve({ data, date });
    return call;
  }

  async fail(method: Method, error: Error): Promise<Call> {
    const call = await this.next(method);
    call.reject(error);
    return call;
  }

  #call(
    method: Method,
    invoiceId: string,
    variant: Call['variant'],
    options: CheckoutRequestOptions | undefined,
    body?: unknown,
  ): Promise<CheckoutAnswer> {
    return new Promise<CheckoutAnswer>((resolve, reject) => {
      const call: Call = {
        method,
        invoiceId,
        variant,
        body,
        signal: options?.signal,
        settled: false,
        resolve: (answer) => {
          call.settled = true;
          resolve(answer);
        },
        reject: (error) => {
          call.settled = true;
          reject(error);
        },
      };
      this.calls.push(call);
      options?.signal?.addEventListener('abort', () => call.reject(new DOMException('aborted', 'AbortError')), {
        once: true,
      });
      const rule = this.#replies.get(method);
      const outcome = rule?.(call);
      if (outcome instanceof Error) call.reject(outcome);
      else if (outcome) call.resolve(outcome);
      else {
        const waiter = this.#waiters.find((candidate) => candidate.method === method);
        if (waiter) {
          this.#waiters = this.#waiters.filter((candidate) => candidate !== waiter);
          waiter.resolve(call);
        }
      }
    });
  }
}

const isoIn = (ms: number) => new Date(Date.now() + ms).toISOString();

const FIXTURE_DEADLINE = exampleLookupDeal().canceledAt;

/**
 * An invoice waiting for a transfer: an active deal, `expireAt` 30 minutes from now. Its
 * deals' deadlines (`canceledAt`) are its expiry, unless a deal of `overrides` says otherwise:
 * the countdown shows the earlier of the two.
 */
export const waitingInvoice = (overrides: Record<string, unknown> = {}) => {
  const invoice = exampleLookupInvoice({ expireAt: isoIn(30 * 60_000), ...overrides });
  const deals = invoice.deals as { canceledAt?: unknown }[];
  return {
    ...invoice,
    // A deal keeps a deadline a test gave it; the fixture's own (a fixed date) follows the expiry.
    deals: deals.map((deal) => (deal.canceledAt === FIXTURE_DEADLINE ? { ...deal, canceledAt: invoice.expireAt } : deal)),
  };
};

/** An invoice without an active deal (the variant picker). */
export const newInvoice = (overrides: Record<string, unknown> = {}) =>
  waitingInvoice({ deals: [], paymentMethod: null, paymentOption: null, ...overrides });

export const dealWith = (overrides: Record<string, unknown>) => exampleLookupDeal(overrides);

export const canceledInvoice = (overrides: Record<string, unknown> = {}) => exampleCanceledInvoice(overrides);

export const variants = exampleVariants;

/** A client that answers the first load at once with `invoice` and the example variants. */
export const readyClient = (invoice: unknown = waitingInvoice(), variantList: unknown = variants()) =>
  new FakeClient()
    .reply('getInvoice', () => ({ data: invoice, date: new Date().toUTCString() }))
    .reply('getPaymentVariants', () => ({ data: variantList, date: new Date().toUTCString() }));

export const part = (el: MerchantCheckoutElement, name: string): HTMLElement | null =>
  el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);

export const parts = (el: MerchantCheckoutElement, name: string): HTMLElement[] => [
  ...el.shadowRoot!.querySelectorAll<HTMLElement>(`[part~="${name}"]`),
];

export const screenOf = (el: MerchantCheckoutElement): string | undefined => part(el, 'base')?.dataset.screen;

export const text = (node: Element | null | undefined): string => (node?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** Spaces of every kind (Intl uses U+00A0 and U+202F) as plain spaces. */
export const plain = (value: string): string => value.replace(/[\u00a0\u202f]/g, ' ');

export const liveRegion = (el: MerchantCheckoutElement): string => text(el.shadowRoot!.querySelector('[role="status"][aria-live]'));

/** The next `name` event of `target`, typed from `GlobalEventHandlersEventMap`. */
export const nextEvent = <K extends keyof GlobalEventHandlersEventMap>(target: EventTarget, name: K) =>
  oneEvent<GlobalEventHandlersEventMap[K]>(target, name);

/** Lets pending promises and the element's update run (no timers: fine under fake timers). */
export const settle = async (el: MerchantCheckoutElement): Promise<void> => {
  for (let turn = 0; turn < 20; turn++) await Promise.resolve();
  await el.updateComplete;
};

/**
 * Lets the work the element leaves until a screen is painted run (the QR encoder, lettermarks,
 * bank names: src/element/controllers/after-paint.ts): two frames, then `settle`. Before fake
 * timers are removed, so that its re-render does not come at the real clock, behind the fake one.
 */
export const painted = async (el: MerchantCheckoutElement): Promise<void> => {
  for (let frame = 0; frame < 2; frame++) await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
  await settle(el);
};

/** Waits until the element shows `screen`. */
export const untilScreen = async (el: MerchantCheckoutElement, screen: string): Promise<void> => {
  await waitUntil(() => screenOf(el) === screen, `screen is ${screenOf(el)}, expected ${screen}`);
  await el.updateComplete;
};

export interface Stream {
  invoiceId: string;
  handlers: CheckoutWatchHandlers;
  signal: AbortSignal;
}

/** A `FakeClient` that can stream: `push` and `failStream` speak for the proxy's event stream. */
export class StreamingFakeClient extends FakeClient {
  readonly streams: Stream[] = [];

  watch(invoiceId: string, handlers: CheckoutWatchHandlers, { signal }: { signal: AbortSignal }): void {
    this.streams.push({ invoiceId, handlers, signal });
  }

  /** The streams not closed by the element. */
  open(): Stream[] {
    return this.streams.filter((stream) => !stream.signal.aborted);
  }

  /** Sends `data` as an `invoice` event on the one open stream. */
  push(data: unknown): void {
    const [stream, ...others] = this.open();
    if (!stream || others.length) throw new Error(`${this.open().length} streams open, expected one`);
    stream.handlers.data(data);
  }

  /** The open stream says it lives (a heartbeat; `heartbeatMs` when it states its period). */
  beat(heartbeatMs?: number): void {
    const [stream] = this.open();
    if (!stream) throw new Error('no stream open');
    stream.handlers.alive(heartbeatMs);
  }

  /** The open stream fails (a dropped connection, a 404 of a polling-only proxy). */
  failStream(): void {
    const [stream] = this.open();
    if (!stream) throw new Error('no stream open');
    stream.handlers.error(new Error('the event stream failed'));
  }
}

/** A `fetch` whose event-stream answers the test writes by hand: each request, its body's writer and its end. */
export class StreamingFetch {
  readonly requests: { url: string; init: RequestInit; write: (text: string) => void; end: () => void }[] = [];
  #answer: () => Response | undefined = () => undefined;

  /** Answers every later request with `make()` instead of an open event stream. */
  answerWith(make: () => Response): this {
    this.#answer = make;
    return this;
  }

  readonly fetch = (url: string, init: RequestInit): Promise<Response> => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (each) => void (controller = each) });
    const encoder = new TextEncoder();
    this.requests.push({ url, init, write: (text) => controller.enqueue(encoder.encode(text)), end: () => controller.close() });
    init.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')), { once: true });
    return Promise.resolve(this.#answer() ?? new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8' } }));
  };
}

/** The element on `client`, for the invoice of the fixtures, in `lang`. */
export const mount = (client: FakeClient, lang = 'en') =>
  fixture<MerchantCheckoutElement>(html`<merchant-checkout lang=${lang} invoice-id=${INVOICE_ID} .client=${client}></merchant-checkout>`);

/**
 * The space bar for `sendKeys({ press })`, named by the character it types: puppeteer's
 * keyboard over CDP knows the name `Space`, over WebDriver BiDi (Firefox) it does not.
 */
export const SPACE = ' ';

/** Replaces `navigator.clipboard.writeText` until the returned function is called. */
export const stubClipboard = (writeText: ((value: string) => Promise<void>) | undefined): (() => void) => {
  Object.defineProperty(navigator.clipboard, 'writeText', { value: writeText, configurable: true });
  return () => Reflect.deleteProperty(navigator.clipboard, 'writeText');
};

/** A clipboard that accepts every write and keeps it in `written`, until `restore()`. */
export const recordingClipboard = (): { written: string[]; restore: () => void } => {
  const written: string[] = [];
  const restore = stubClipboard((value) => {
    written.push(value);
    return Promise.resolve();
  });
  return { written, restore };
};
