import { assert } from '@open-wc/testing';
import { CheckoutError, createCheckoutClient, readInvoice } from '../../src/element/protocol-client.js';
import { FakeClient, INVOICE_ID, waitingInvoice } from './helpers.js';

interface Sent {
  url: string;
  method: string;
  body: string | null;
  headers: Record<string, string>;
}

/** A `fetch` that records requests and answers with `respond`. */
const fakeFetch = (respond: (sent: Sent) => Response | Promise<Response>) => {
  const sent: Sent[] = [];
  const fetch = (input: string, init: RequestInit) => {
    const request: Sent = {
      url: input,
      method: init.method ?? 'GET',
      body: typeof init.body === 'string' ? init.body : null,
      headers: init.headers as Record<string, string>,
    };
    sent.push(request);
    return new Promise<Response>((resolve, reject) => {
      init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      void Promise.resolve(respond(request)).then(resolve, reject);
    });
  };
  return { fetch, sent };
};

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const failure = async (promise: Promise<unknown>): Promise<CheckoutError> => {
  try {
    await promise;
  } catch (error) {
    assert.instanceOf(error, CheckoutError);
    return error;
  }
  throw new Error('expected a failure');
};

describe('checkout protocol client', () => {
  it('speaks the four routes of the protocol under the endpoint', async () => {
    const { fetch, sent } = fakeFetch(() => json({}, 200, { date: 'Sun, 22 Nov 2026 10:00:00 GMT' }));
    const client = createCheckoutClient({ endpoint: '/checkout-api/', fetch });
    const answer = await client.getInvoice(INVOICE_ID);
    assert.deepEqual(answer, { data: {}, date: 'Sun, 22 Nov 2026 10:00:00 GMT' });
    await client.getPaymentVariants(INVOICE_ID);
    await client.cancelInvoice(INVOICE_ID);
    await client.startDeal(INVOICE_ID, { option: 'SBP', method: 'sberbank' });
    assert.deepEqual(
      sent.map(({ method, url, body }) => [method, url, body]),
      [
        ['GET', `/checkout-api/invoices/${INVOICE_ID}`, null],
        ['GET', `/checkout-api/invoices/${INVOICE_ID}/available-payment-variants`, null],
        ['POST', `/checkout-api/invoices/${INVOICE_ID}/cancel`, null],
        ['POST', `/checkout-api/invoices/${INVOICE_ID}/deal`, '{"option":"SBP","method":"sberbank"}'],
      ],
    );
    assert.equal(sent[3]!.headers['content-type'], 'application/json');
    assert.equal(sent[0]!.headers.accept, 'application/json');
  });

  it('encodes the id into the path', async () => {
    const { fetch, sent } = fakeFetch(() => json({}));
    await createCheckoutClient({ endpoint: '', fetch }).getInvoice('../../admin?x=1');
    assert.equal(sent[0]!.url, '/invoices/..%2F..%2Fadmin%3Fx%3D1');
  });

  it('turns the proxy error body into a typed error', async () => {
    const { fetch } = fakeFetch(() => json({ error: { code: 'not_found', message: 'unknown invoice' } }, 404));
    const error = await failure(createCheckoutClient({ endpoint: '/api', fetch }).getInvoice(INVOICE_ID));
    assert.deepInclude(error, { code: 'not_found', message: 'unknown invoice', status: 404, retryable: false });
  });

  it('calls an error without the body http_error, retryable for 5xx, 408 and 429', async () => {
    for (const [status, retryable] of [
      [500, true],
      [503, true],
      [429, true],
      [408, true],
      [403, false],
    ] as const) {
      const { fetch } = fakeFetch(() => new Response('<html>oops</html>', { status }));
      const error = await failure(createCheckoutClient({ endpoint: '', fetch }).getInvoice(INVOICE_ID));
      assert.deepInclude(error, { code: 'http_error', status, retryable });
    }
  });

  it('calls a non-JSON success invalid_response', async () => {
    const { fetch } = fakeFetch(() => new Response('<html>', { status: 200 }));
    const error = await failure(createCheckoutClient({ endpoint: '', fetch }).getInvoice(INVOICE_ID));
    assert.equal(error.code, 'invalid_response');
  });

  it('calls a failed request a retryable network_error', async () => {
    const { fetch } = fakeFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const error = await failure(createCheckoutClient({ endpoint: '', fetch }).getInvoice(INVOICE_ID));
    assert.deepInclude(error, { code: 'network_error', retryable: true });
  });

  it('gives up after timeoutMs', async () => {
    const { fetch } = fakeFetch(() => new Promise<Response>(() => undefined));
    const error = await failure(createCheckoutClient({ endpoint: '', fetch, timeoutMs: 20 }).getInvoice(INVOICE_ID));
    assert.deepInclude(error, { code: 'network_error', retryable: true });
    assert.include(error.message, '20 ms');
  });

  it('lets the caller abort: an AbortError, not a checkout error', async () => {
    const { fetch } = fakeFetch(() => new Promise<Response>(() => undefined));
    const controller = new AbortController();
    const pending = createCheckoutClient({ endpoint: '', fetch }).getInvoice(INVOICE_ID, { signal: controller.signal });
    controller.abort();
    try {
      await pending;
      assert.fail('expected an abort');
    } catch (error) {
      assert.equal((error as Error).name, 'AbortError');
    }
  });

  it('validates what any client returns, naming the field', async () => {
    const client = new FakeClient().reply('getInvoice', () => ({ data: waitingInvoice({ id: 'nope' }) }));
    const error = await failure(readInvoice(client, INVOICE_ID, new AbortController().signal));
    assert.equal(error.code, 'invalid_response');
    assert.match(error.message, /^id: must be a UUID/);
  });

  it('accepts the one-element array the reference describes', async () => {
    const client = new FakeClient().reply('getInvoice', () => ({ data: [waitingInvoice()] }));
    const { value } = await readInvoice(client, INVOICE_ID, new AbortController().signal);
    assert.equal(value.id, INVOICE_ID);
  });
});
