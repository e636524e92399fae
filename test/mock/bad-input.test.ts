/**
 * Bad input gets a 4xx in the documented error shape (a JSON array of `{message}` naming the
 * field; 404 `null`), and the mock keeps working. Each case runs in-process and on a real port.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { signRequest } from '../../src/server/node.js';
import {
  MERCHANT,
  TRANSPORTS,
  createInvoiceBody,
  fieldsOf,
  inProcessMock,
  messagesOf,
  networkMock,
  readAnswer,
  signedRequest,
  type MockUnderTest,
} from './helpers.js';

const postInvoice = (mock: MockUnderTest, body: unknown) =>
  signedRequest(mock, 'POST', '/api/merchant/invoices', { body: typeof body === 'string' ? body : JSON.stringify(body) });

for (const transport of TRANSPORTS) {
  describe(`bad input (${transport.name})`, () => {
    let mock: MockUnderTest;
    before(async () => {
      mock = await transport.start({ maxBodyBytes: 4096 });
    });
    after(async () => {
      // After every bad request, a good one still works.
      const good = await postInvoice(mock, createInvoiceBody({ startDeal: true }));
      assert.equal(good.status, 200, good.text);
      await mock.close();
    });

    test('malformed JSON and an empty body are 400 with a message', async () => {
      for (const body of ['{"type":"in",', 'not json', '']) {
        const answer = await postInvoice(mock, body);
        assert.equal(answer.status, 400);
        assert.equal(messagesOf(answer).length, 1);
      }
    });

    test('wrong types and missing required fields are 400 naming each field, in the documented words', async () => {
      const wrong = await postInvoice(mock, createInvoiceBody({ amount: 1500, startDeal: 'yes' }));
      assert.equal(wrong.status, 400);
      assert.deepEqual(fieldsOf(wrong), ['amount', 'startDeal']);
      assert.ok(messagesOf(wrong).includes('This value should be of type boolean field: "startDeal"'), wrong.text);

      const blank = await postInvoice(mock, createInvoiceBody({ amount: undefined }));
      assert.deepEqual(messagesOf(blank), ['this value should not be blank. field: "amount"']);

      const { currency: _currency, notificationToken: _token, ...missing } = createInvoiceBody();
      const answer = await postInvoice(mock, missing);
      assert.equal(answer.status, 400);
      assert.deepEqual(fieldsOf(answer), ['currency', 'notificationToken']);

      const notObject = await postInvoice(mock, [1, 2]);
      assert.equal(notObject.status, 400);

      for (const amount of ['-5', '1e3', '1,5', '', '0', '0.00']) {
        const bad = await postInvoice(mock, createInvoiceBody({ amount }));
        assert.equal(bad.status, 400, `amount ${JSON.stringify(amount)}`);
        assert.deepEqual(fieldsOf(bad), ['amount']);
      }
    });

    test('unknown fields, too many decimals, a bad currency and oversize ids are refused', async () => {
      assert.deepEqual(fieldsOf(await postInvoice(mock, createInvoiceBody({ amout: '1' }))), ['amout']);
      const decimals = await postInvoice(mock, createInvoiceBody({ amount: '1500.005' }));
      assert.equal(decimals.status, 400);
      assert.match(messagesOf(decimals)[0] ?? '', /at most 2 digits after the decimal point/);
      assert.equal((await postInvoice(mock, createInvoiceBody({ amount: '1500.000' }))).status, 200, 'trailing zeros are fine');
      assert.deepEqual(fieldsOf(await postInvoice(mock, createInvoiceBody({ currency: 'rub' }))), ['currency']);
      assert.deepEqual(fieldsOf(await postInvoice(mock, createInvoiceBody({ internalId: 'x'.repeat(256) }))), ['internalId']);
      assert.deepEqual(fieldsOf(await postInvoice(mock, createInvoiceBody({ notificationUrl: 'ftp://x' }))), ['notificationUrl']);
    });

    test('out-rules: a pay-out needs option, method and requisites; startDeal only on a pay-in', async () => {
      const bare = await postInvoice(mock, createInvoiceBody({ type: 'out' }));
      assert.equal(bare.status, 400);
      assert.deepEqual(fieldsOf(bare), ['paymentMethod', 'paymentOption', 'paymentRequisites']);
      const dealOnOut = await postInvoice(
        mock,
        createInvoiceBody({
          type: 'out',
          paymentMethod: 'vtb',
          paymentOption: 'TO_CARD',
          paymentRequisites: { requisites: '1', holder: 'x' },
          startDeal: true,
        }),
      );
      assert.equal(dealOnOut.status, 400);
      assert.deepEqual(fieldsOf(dealOnOut), ['startDeal']);
    });

    test('withdrawals: missing code2FA, a non-UUID account, a fee larger than the amount', async () => {
      const post = (body: unknown) => signedRequest(mock, 'POST', '/api/merchant/withdrawals', { body: JSON.stringify(body) });
      const account = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
      assert.deepEqual(fieldsOf(await post({ accountId: account, amount: '1', address: 'a' })), ['code2FA']);
      assert.deepEqual(fieldsOf(await post({ accountId: 'acc-1', amount: '1', address: 'a', code2FA: '1' })), ['accountId']);
      assert.deepEqual(
        fieldsOf(await post({ accountId: account, amount: '1', address: 'a', code2FA: '1', substractFeeFromAmount: true })),
        ['amount'],
      );
      assert.deepEqual(fieldsOf(await post({ accountId: account, amount: '0.000000001', address: 'a', code2FA: '1' })), ['amount']);
    });

    test('a JSON operation with another Content-Type is 415', async () => {
      const answer = await signedRequest(mock, 'POST', '/api/merchant/invoices', {
        body: 'type=in',
        contentType: 'application/x-www-form-urlencoded',
      });
      assert.equal(answer.status, 415);
      assert.match(messagesOf(answer)[0] ?? '', /application\/json/);
    });

    test('unknown paths are 404 and wrong methods 405 with Allow', async () => {
      for (const path of [
        '/api/merchant',
        '/api/merchant/nothing',
        '/api/merchant/invoices/x/y/z',
        '/elsewhere',
        '/api/merchant/invoices/internal-id/',
      ]) {
        const answer = await signedRequest(mock, 'GET', path);
        assert.equal(answer.status, 404, path);
        assert.equal(answer.text, 'null', 'documented: 404 null for a wrong URL');
      }
      const invoice = (await postInvoice(mock, createInvoiceBody())).json as { id: string };
      for (const [method, path, allow] of [
        ['GET', '/api/merchant/invoices', 'POST'],
        ['DELETE', `/api/merchant/invoices/${invoice.id}/cancel`, 'POST'],
        ['POST', `/api/merchant/invoices/${invoice.id}/available-payment-variants`, 'GET'],
        ['PUT', '/api/merchant/withdrawals', 'POST'],
        ['POST', '/api/merchant/accounts', 'GET'],
      ] as const) {
        const answer = await signedRequest(mock, method, path, method === 'GET' ? {} : { body: '{}' });
        assert.equal(answer.status, 405, `${method} ${path}`);
        assert.equal(answer.headers.get('allow'), allow);
        assert.equal(messagesOf(answer).length, 1);
      }
    });

    test('ids that are not UUIDs, or not found, are 404', async () => {
      for (const path of [
        '/api/merchant/invoices/not-a-uuid/cancel',
        '/api/merchant/invoices/00000000-0000-4000-8000-000000000000/available-payment-variants',
        '/api/merchant/withdrawals/%E0%A4%A',
        '/api/merchant/invoices/internal-id/never-made',
      ]) {
        const answer = await signedRequest(mock, path.endsWith('cancel') ? 'POST' : 'GET', path);
        assert.equal(answer.status, 404, path);
        assert.equal(answer.json, null);
      }
    });

    test('a body over the size limit is 413', async () => {
      const answer = await postInvoice(mock, createInvoiceBody({ internalId: 'x'.repeat(5000) }));
      assert.equal(answer.status, 413);
      assert.match(messagesOf(answer)[0] ?? '', /exceeds 4096 bytes/);
    });

    test('canceling twice is 400 (a canceled invoice is final)', async () => {
      const invoice = (await postInvoice(mock, createInvoiceBody({ startDeal: true }))).json as { id: string };
      assert.equal((await signedRequest(mock, 'POST', `/api/merchant/invoices/${invoice.id}/cancel`)).status, 200);
      const again = await signedRequest(mock, 'POST', `/api/merchant/invoices/${invoice.id}/cancel`);
      assert.equal(again.status, 400);
      assert.deepEqual(messagesOf(again), ['Invoice can not be canceled in status canceled']);
    });
  });
}

describe('a streamed body over the limit on a real port', () => {
  let mock: MockUnderTest;
  before(async () => {
    mock = await TRANSPORTS[1].start({ maxBodyBytes: 1000 });
  });
  after(() => mock.close());

  test('a chunked body that grows past the limit is 413, and the next request works', async () => {
    const url = `${mock.baseUrl}/api/merchant/invoices`;
    const body = 'y'.repeat(2000);
    const signature = await signRequest({ method: 'POST', url, body }, MERCHANT.secretKey);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: 'POST',
          headers: {
            'transfer-encoding': 'chunked',
            'content-type': 'application/json',
            'x-identity': MERCHANT.apiKey,
            'x-signature': signature,
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write('y'.repeat(100));
      req.end();
    });
    assert.equal(status, 413);
    const good = await signedRequest(mock, 'POST', '/api/merchant/invoices', { body: JSON.stringify(createInvoiceBody()) });
    assert.equal(good.status, 200);
  });
});

describe('a body that trickles in is cut off by the read deadline (bodyTimeoutMs)', () => {
  /** A body that sends its first bytes and then nothing more, never ending. */
  const stalled = (first: string) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(first));
      },
    });

  test('in-process: a JSON body and a multipart form that stall are 408, and the next request works', async () => {
    const mock = inProcessMock({ bodyTimeoutMs: 100 });
    try {
      const json = await mock.fetch(
        new Request(`${mock.baseUrl}/api/merchant/invoices`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-identity': MERCHANT.apiKey, 'x-signature': 'irrelevant' },
          body: stalled('{"type":'),
          duplex: 'half',
        } as RequestInit),
      );
      const answer = await readAnswer(json);
      assert.equal(answer.status, 408);
      assert.match(messagesOf(answer)[0] ?? '', /not received within 100 ms/);
      assert.equal(mock.service.requests.at(-1)?.status, 408, 'logged with its answer');
      const invoice = (await postInvoice(mock, createInvoiceBody({ startDeal: true }))).json as { id: string };
      const form = await mock.fetch(
        new Request(`${mock.baseUrl}/api/merchant/invoices/${invoice.id}/confirm-transfer`, {
          method: 'POST',
          headers: { 'content-type': 'multipart/form-data; boundary=x', 'x-identity': MERCHANT.apiKey, 'x-signature': 'irrelevant' },
          body: stalled('--x\r\nContent-Disposition: form-data; name="attachment"; filename="a.pdf"\r\n\r\n%PDF'),
          duplex: 'half',
        } as RequestInit),
      );
      assert.equal(form.status, 408);
      await form.body?.cancel();
      assert.equal((await postInvoice(mock, createInvoiceBody())).status, 200);
    } finally {
      await mock.close();
    }
  });

  test('on a real port: a chunked body sent a few bytes at a time is 408', async () => {
    const mock = await networkMock({ bodyTimeoutMs: 200 });
    const url = `${mock.baseUrl}/api/merchant/invoices`;
    let timer: ReturnType<typeof setInterval> | undefined;
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          url,
          {
            method: 'POST',
            headers: { 'transfer-encoding': 'chunked', 'content-type': 'application/json', 'x-identity': MERCHANT.apiKey },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
            clearInterval(timer);
            req.destroy();
          },
        );
        req.on('error', reject);
        timer = setInterval(() => req.write(' '), 20);
      });
      assert.equal(status, 408);
      const good = await signedRequest(mock, 'POST', '/api/merchant/invoices', { body: JSON.stringify(createInvoiceBody()) });
      assert.equal(good.status, 200);
    } finally {
      clearInterval(timer);
      await mock.close();
    }
  });
});
