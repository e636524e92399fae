import { assert } from '@open-wc/testing';
import { type CheckoutClient, CheckoutError, createCheckoutClient, readBanks, readInvoice } from '../../src/element/protocol-client.js';
import { reportPayment, sendReceipt } from '../../src/element/protocol-uploads.js';
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

/** What `promise` rejects with; a promise that settles is a test failure. */
const rejection = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
};

const failure = async (promise: Promise<unknown>): Promise<CheckoutError> => {
  const error = await rejection(promise);
  assert.instanceOf(error, CheckoutError);
  return error;
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
    assert.equal(((await rejection(pending)) as Error).name, 'AbortError');
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

describe('the payer’s journey: banks, receipt, report', () => {
  /** A `fetch` that keeps what it was given (a form stays a form) and answers with `respond`. */
  const recordingFetch = (respond: (url: string, init: RequestInit) => Response | Promise<Response>) => {
    const sent: { url: string; init: RequestInit }[] = [];
    const fetch = (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return new Promise<Response>((resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        void Promise.resolve(respond(url, init)).then(resolve, reject);
      });
    };
    return { fetch, sent };
  };
  const receipt = () => new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], 'чек 1.jpg', { type: 'image/jpeg' });
  const signal = () => new AbortController().signal;
  const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

  it('reads the banks of a currency from `/banks?currency=`', async () => {
    const { fetch, sent } = recordingFetch(() =>
      json([
        { code: 'sberbank', name: 'Сбербанк' },
        { code: 'tinkoff', name: 'Т-Банк', extra: 1 },
      ]),
    );
    const client = createCheckoutClient({ endpoint: '/checkout-api/', fetch });
    const { value } = await readBanks(client, 'RUB', signal());
    assert.deepEqual(
      value.map(({ code, name }) => [code, name]),
      [
        ['sberbank', 'Сбербанк'],
        ['tinkoff', 'Т-Банк'],
      ],
    );
    assert.equal(sent[0]!.url, '/checkout-api/banks?currency=RUB');
    assert.equal(sent[0]!.init.method, 'GET');
    await readBanks(client, 'R&B', signal());
    assert.equal(sent[1]!.url, '/checkout-api/banks?currency=R%26B');
  });

  it('refuses a bank list that is not `[{ code, name }]`, naming the field', async () => {
    const client = createCheckoutClient({ endpoint: '', fetch: recordingFetch(() => json([{ code: '', name: 'Nameless' }])).fetch });
    const error = await failure(readBanks(client, 'RUB', signal()));
    assert.equal(error.code, 'invalid_response');
    assert.match(error.message, /^\[0\]\.code: /);
    const notAList = createCheckoutClient({ endpoint: '', fetch: recordingFetch(() => json({ banks: [] })).fetch });
    assert.equal((await failure(readBanks(notAList, 'RUB', signal()))).code, 'invalid_response');
  });

  it('sends the receipt as multipart `attachment` with its name, the browser writing the boundary', async () => {
    const { fetch, sent } = recordingFetch(() => json(waitingInvoice()));
    const client = createCheckoutClient({ endpoint: '/checkout-api', fetch, headers: { 'x-csrf-token': 't' } });
    const file = receipt();
    const { value } = await sendReceipt(client, INVOICE_ID, file, signal());
    assert.equal(value.id, INVOICE_ID);
    const [{ url, init }] = sent as [{ url: string; init: RequestInit }];
    assert.equal(url, `/checkout-api/invoices/${INVOICE_ID}/receipt`);
    assert.equal(init.method, 'POST');
    const headers = init.headers as Record<string, string>;
    assert.equal(headers['content-type'], undefined, 'no content type of our own: the multipart boundary is the browser’s');
    assert.equal(headers['x-csrf-token'], 't');
    assert.instanceOf(init.body, FormData);
    const sentFile = init.body.get('attachment') as File;
    assert.equal(sentFile.name, 'чек 1.jpg');
    assert.equal(sentFile.type, 'image/jpeg');
    assert.equal(sentFile.size, file.size);
    assert.deepEqual([...init.body.keys()], ['attachment']);
  });

  it('a bare Blob goes as `receipt`', async () => {
    const { fetch, sent } = recordingFetch(() => json(waitingInvoice()));
    await sendReceipt(
      createCheckoutClient({ endpoint: '', fetch }),
      INVOICE_ID,
      new Blob(['%PDF-1.4'], { type: 'application/pdf' }),
      signal(),
    );
    assert.equal(((sent[0]!.init.body as FormData).get('attachment') as File).name, 'receipt');
  });

  it('reports a payment: reason, amount as the text typed, receipt; the answer’s outcome and invoice', async () => {
    const { fetch, sent } = recordingFetch(() => json({ outcome: 'forwarded', invoice: waitingInvoice({ status: 'dispute' }) }));
    const client = createCheckoutClient({ endpoint: '/checkout-api', fetch });
    const { value } = await reportPayment(
      client,
      INVOICE_ID,
      { reason: 'invalid_sum', amount: '1000.50', attachment: receipt() },
      signal(),
    );
    assert.equal(value.outcome, 'forwarded');
    assert.equal(value.invoice.status, 'dispute');
    const { url, init } = sent[0]!;
    assert.equal(url, `/checkout-api/invoices/${INVOICE_ID}/dispute`);
    const form = init.body as FormData;
    assert.deepEqual([...form.keys()], ['reason', 'amount', 'attachment']);
    assert.equal(form.get('reason'), 'invalid_sum');
    assert.equal(form.get('amount'), '1000.50');
    await reportPayment(client, INVOICE_ID, { reason: 'no_payment', attachment: receipt() }, signal());
    assert.deepEqual([...(sent[1]!.init.body as FormData).keys()], ['reason', 'attachment']);
  });

  it('refuses a report answer with another outcome, or about another invoice', async () => {
    const other = { outcome: 'forwarded', invoice: waitingInvoice({ id: '11111111-2222-4333-8444-555555555555' }) };
    for (const [answer, message] of [
      [{ outcome: 'ignored', invoice: waitingInvoice() }, /^outcome: /],
      [{ outcome: 'reported' }, /invoice/],
      [
        { outcome: 'reported', invoice: waitingInvoice({ sum: { amount: 1000.5, currency: 'RUB', subunit: 2 } }) },
        /^invoice\.sum\.amount: /,
      ],
      [other, /^id: the answer is about invoice/],
    ] as const) {
      const client = createCheckoutClient({ endpoint: '', fetch: recordingFetch(() => json(answer)).fetch });
      const error = await failure(reportPayment(client, INVOICE_ID, { reason: 'no_payment', attachment: receipt() }, signal()));
      assert.equal(error.code, 'invalid_response');
      assert.match(error.message, message);
    }
  });

  it('passes on the proxy’s refusals with their codes', async () => {
    for (const [code, status] of [
      ['dispute_exists', 409],
      ['receipts_off', 403],
      ['unsupported_media_type', 415],
      ['payload_too_large', 413],
    ] as const) {
      const client = createCheckoutClient({
        endpoint: '',
        fetch: recordingFetch(() => json({ error: { code, message: 'no' } }, status)).fetch,
      });
      const error = await failure(sendReceipt(client, INVOICE_ID, receipt(), signal()));
      assert.deepInclude(error, { code, status, retryable: false });
    }
  });

  it('a 413 carries the limit that refused the upload when the answer says one, and none when it does not', async () => {
    const said = createCheckoutClient({
      endpoint: '',
      fetch: recordingFetch(() => json({ error: { code: 'payload_too_large', message: 'too large', maxBytes: 1048576 } }, 413)).fetch,
    });
    assert.deepInclude(await failure(sendReceipt(said, INVOICE_ID, receipt(), signal())), {
      code: 'payload_too_large',
      status: 413,
      maxBytes: 1048576,
    });
    // A server in front of the proxy (nginx's client_max_body_size) answers in HTML: too large, no figure.
    const bare = createCheckoutClient({
      endpoint: '',
      fetch: recordingFetch(() => new Response('<html>413 Request Entity Too Large</html>', { status: 413 })).fetch,
    });
    assert.deepInclude(await failure(sendReceipt(bare, INVOICE_ID, receipt(), signal())), {
      code: 'payload_too_large',
      status: 413,
      maxBytes: undefined,
    });
  });

  it('an upload has its own, longer timeout (uploadTimeoutMs, 120 s by default)', async () => {
    const slow = () => later(60, json(waitingInvoice()));
    const client = createCheckoutClient({ endpoint: '', fetch: recordingFetch(slow).fetch, timeoutMs: 20, uploadTimeoutMs: 1000 });
    assert.equal((await sendReceipt(client, INVOICE_ID, receipt(), signal())).value.id, INVOICE_ID);
    assert.include((await failure(readInvoice(client, INVOICE_ID, signal()))).message, '20 ms');
    const impatient = createCheckoutClient({ endpoint: '', fetch: recordingFetch(slow).fetch, uploadTimeoutMs: 20 });
    const error = await failure(reportPayment(impatient, INVOICE_ID, { reason: 'no_payment', attachment: receipt() }, signal()));
    assert.deepInclude(error, { code: 'network_error', retryable: true });
    assert.include(error.message, '20 ms');
  });

  it('an upload the page no longer needs is aborted: an AbortError', async () => {
    const { fetch } = recordingFetch(() => new Promise<Response>(() => undefined));
    const controller = new AbortController();
    const pending = sendReceipt(createCheckoutClient({ endpoint: '', fetch }), INVOICE_ID, receipt(), controller.signal);
    controller.abort();
    assert.equal(((await rejection(pending)) as Error).name, 'AbortError');
  });

  it('a merchant’s own client without these methods: not_implemented, nothing thrown at the element', async () => {
    const bare: CheckoutClient = {
      getInvoice: () => Promise.resolve({ data: waitingInvoice() }),
      getPaymentVariants: () => Promise.resolve({ data: [] }),
      cancelInvoice: () => Promise.resolve({ data: waitingInvoice() }),
      startDeal: () => Promise.resolve({ data: waitingInvoice() }),
    };
    for (const call of [
      () => readBanks(bare, 'RUB', signal()),
      () => sendReceipt(bare, INVOICE_ID, receipt(), signal()),
      () => reportPayment(bare, INVOICE_ID, { reason: 'no_payment' }, signal()),
    ]) {
      assert.deepInclude(await failure(call()), { code: 'not_implemented', status: 501, retryable: false });
    }
  });

  it('a merchant’s own client with these methods is validated like the default one', async () => {
    const own: CheckoutClient = {
      getInvoice: () => Promise.resolve({ data: waitingInvoice() }),
      getPaymentVariants: () => Promise.resolve({ data: [] }),
      cancelInvoice: () => Promise.resolve({ data: waitingInvoice() }),
      startDeal: () => Promise.resolve({ data: waitingInvoice() }),
      getBanks: (currency) => Promise.resolve({ data: [{ code: 'sberbank', name: `Сбербанк (${currency})` }] }),
      sendReceipt: () => Promise.resolve({ data: [waitingInvoice()] }),
      reportPayment: (_id, report) =>
        Promise.resolve({ data: { outcome: report.reason === 'no_payment' ? 'reported' : 'forwarded', invoice: waitingInvoice() } }),
    };
    assert.equal((await readBanks(own, 'KZT', signal())).value[0]!.name, 'Сбербанк (KZT)');
    assert.equal((await sendReceipt(own, INVOICE_ID, receipt(), signal())).value.id, INVOICE_ID);
    assert.equal((await reportPayment(own, INVOICE_ID, { reason: 'no_payment' }, signal())).value.outcome, 'reported');
  });
});
