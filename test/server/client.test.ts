import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  MerchantApiError,
  MerchantClient,
  MerchantClientError,
  MerchantNetworkError,
  MerchantResponseError,
  MerchantTimeoutError,
  MerchantValidationError,
} from '../../src/server/node.js';
import { OPERATIONS } from '../../src/schemas/operations.js';
import { safeParse } from '../../src/schemas/index.js';
import {
  ACCOUNT_ID,
  INVOICE_ID,
  WITHDRAWAL_ID,
  exampleCanceledInvoice,
  exampleInvoice,
  exampleLookupInvoice,
  exampleVariants,
  exampleWithdrawal,
  validCreateInvoice,
} from '../fixtures/dto.js';
import { startSigningServer, type SigningServer } from '../helpers/signing-server.js';

const API_KEY = 'api-key-test';
const SECRET_KEY = 'secret-key-test-Ключ';

let server: SigningServer;
let client: MerchantClient;

before(async () => {
  server = await startSigningServer(API_KEY, SECRET_KEY);
  client = new MerchantClient({ baseUrl: server.baseUrl, apiKey: API_KEY, secretKey: SECRET_KEY, timeoutMs: 2000 });
});
after(() => server.close());
beforeEach(() => {
  server.received.length = 0;
});

const last = () => {
  const request = server.received.at(-1);
  assert.ok(request, 'a request reached the server');
  return request;
};

describe('every operation, signed, in both response shapes', () => {
  const operations = [
    {
      name: 'createInvoice' as const,
      call: () => client.createInvoice(validCreateInvoice({ internalId: 'заказ-7', startDeal: true })),
      method: 'POST',
      path: '/api/merchant/invoices',
      answer: exampleInvoice(),
    },
    {
      name: 'cancelInvoice' as const,
      call: () => client.cancelInvoice(INVOICE_ID),
      method: 'POST',
      path: `/api/merchant/invoices/${INVOICE_ID}/cancel`,
      answer: exampleCanceledInvoice(),
    },
    {
      name: 'getInvoiceByInternalId' as const,
      call: () => client.getInvoiceByInternalId('order/42?x=1#y'),
      method: 'GET',
      path: '/api/merchant/invoices/internal-id/order%2F42%3Fx%3D1%23y',
      answer: exampleLookupInvoice(),
    },
    {
      name: 'listPaymentVariants' as const,
      call: () => client.listPaymentVariants(INVOICE_ID),
      method: 'GET',
      path: `/api/merchant/invoices/${INVOICE_ID}/available-payment-variants`,
      answer: exampleVariants(),
    },
    {
      name: 'createWithdrawal' as const,
      call: () => client.createWithdrawal({ accountId: ACCOUNT_ID, amount: '100', address: 'TQrZ9w', code2FA: '123456' }),
      method: 'POST',
      path: '/api/merchant/withdrawals',
      answer: exampleWithdrawal(),
    },
    {
      name: 'getWithdrawal' as const,
      call: () => client.getWithdrawal(WITHDRAWAL_ID),
      method: 'GET',
      path: `/api/merchant/withdrawals/${WITHDRAWAL_ID}`,
      answer: exampleWithdrawal({ txId: 'abc123', status: undefined, accountId: undefined }),
    },
  ];

  for (const { name, call, method, path, answer } of operations) {
    for (const wrapped of [false, true]) {
      test(`${name}: ${method} ${path.replace(/[0-9a-f-]{36}/, '{id}')}, answer as ${wrapped ? 'a one-element array' : 'one object'}`, async () => {
        server.reply(() => ({ json: wrapped ? [answer] : answer }));
        const result = await call();
        const request = last();
        assert.equal(server.received.length, 1);
        assert.equal(request.method, method);
        assert.equal(request.path, path);
        assert.equal(request.signatureValid, true, 'X-Identity and X-Signature verify');
        assert.equal(request.headers['x-identity'], API_KEY);
        // What the operation's answer schema reads out of it (the schemas normalise, e.g. a missing userId is null).
        const expected = safeParse(OPERATIONS[name].answer, JSON.parse(JSON.stringify(answer)));
        assert.ok(expected.success);
        assert.deepEqual(result, expected.data);
      });
    }
  }

  test('createInvoice sends exactly the validated JSON with a JSON content type', async () => {
    server.reply(() => ({ json: exampleInvoice() }));
    const body = validCreateInvoice({ internalId: 'заказ-№7', userId: 'Иван' });
    await client.createInvoice(body);
    assert.equal(last().headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(last().body), body);
  });

  test('cancelInvoice sends no body', async () => {
    server.reply(() => ({ json: exampleCanceledInvoice() }));
    await client.cancelInvoice(INVOICE_ID);
    assert.equal(last().body, '');
    assert.equal(last().headers['content-type'], undefined);
  });

  test('request(): accounts (GET) is signed', async () => {
    server.reply(() => ({ json: [{ id: ACCOUNT_ID, balance: '10.00' }] }));
    const accounts = await client.request('GET', '/accounts');
    assert.equal(last().path, '/api/merchant/accounts');
    assert.equal(last().signatureValid, true);
    assert.deepEqual(accounts, [{ id: ACCOUNT_ID, balance: '10.00' }]);
  });

  test('request(): dispute as multipart is signed over method + URL', async () => {
    server.reply(() => ({ json: { ok: true } }));
    const form = new FormData();
    form.set('reason', 'Деньги отправлены');
    form.set('file', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'receipt.pdf');
    const answer = await client.request('POST', `/invoices/${INVOICE_ID}/dispute`, form);
    assert.match(String(last().headers['content-type']), /^multipart\/form-data; boundary=/);
    assert.match(last().body, /Деньги отправлены/);
    assert.equal(last().signatureValid, true);
    assert.deepEqual(answer, { ok: true });
  });

  test('request(): an object body goes as signed JSON; a text answer comes back as text', async () => {
    server.reply(() => ({ text: 'accepted', headers: { 'content-type': 'text/plain' } }));
    assert.equal(await client.request('POST', '/api/merchant/something', { a: 'б' }), 'accepted');
    assert.equal(last().path, '/api/merchant/something');
    assert.equal(last().body, '{"a":"б"}');
    assert.equal(last().signatureValid, true);
  });

  test('request(): an empty answer is null', async () => {
    server.reply(() => ({ status: 204 }));
    assert.equal(await client.request('DELETE', '/things/1'), null);
  });
});

describe('requests are validated before anything is sent', () => {
  const refused: [string, () => Promise<unknown>, RegExp][] = [
    ['a number amount', () => client.createInvoice(validCreateInvoice({ amount: 1500 })), /^amount$/],
    ['an exponent amount', () => client.createInvoice(validCreateInvoice({ amount: '1e3' })), /^amount$/],
    ['a negative amount', () => client.createInvoice(validCreateInvoice({ amount: '-5' })), /^amount$/],
    ['a comma amount', () => client.createInvoice(validCreateInvoice({ amount: '1,5' })), /^amount$/],
    ['an empty amount', () => client.createInvoice(validCreateInvoice({ amount: '' })), /^amount$/],
    [
      'a pay-out without option',
      () => client.createInvoice(validCreateInvoice({ type: 'out', paymentMethod: 'sber', paymentRequisites: {} })),
      /^paymentOption$/,
    ],
    [
      'a pay-out without method',
      () => client.createInvoice(validCreateInvoice({ type: 'out', paymentOption: 'SBP', paymentRequisites: {} })),
      /^paymentMethod$/,
    ],
    [
      'a pay-out without requisites',
      () => client.createInvoice(validCreateInvoice({ type: 'out', paymentOption: 'SBP', paymentMethod: 'sber' })),
      /^paymentRequisites$/,
    ],
    [
      'startDeal on a pay-out',
      () =>
        client.createInvoice(
          validCreateInvoice({
            type: 'out',
            startDeal: true,
            paymentOption: 'SBP',
            paymentMethod: 'sber',
            paymentRequisites: { holder: 'x' },
          }),
        ),
      /^startDeal$/,
    ],
    ['a missing currency', () => client.createInvoice({ ...validCreateInvoice(), currency: undefined } as never), /^currency$/],
    ['an unknown field', () => client.createInvoice(validCreateInvoice({ amout: '1' })), /^amout$/],
    [
      'a withdrawal without code2FA',
      () => client.createWithdrawal({ accountId: ACCOUNT_ID, amount: '1', address: 'a' } as never),
      /^code2FA$/,
    ],
    [
      'a withdrawal with a float amount',
      () => client.createWithdrawal({ accountId: ACCOUNT_ID, amount: 0.1, address: 'a', code2FA: '1' } as never),
      /^amount$/,
    ],
    ['an empty invoice id to cancel', () => client.cancelInvoice(''), /^id$/],
    ['a non-string invoice id for variants', () => client.listPaymentVariants(42 as never), /^id$/],
    ['an empty withdrawal id', () => client.getWithdrawal(''), /^id$/],
    ['an empty internal id', () => client.getInvoiceByInternalId(''), /^internalId$/],
    ['a raw path to another host', () => client.request('GET', '//evil.example/x'), /^path$/],
    ['a raw path with a fragment', () => client.request('GET', '/accounts#x'), /^path$/],
    ['a raw GET with a body', () => client.request('GET', '/accounts', { a: 1 }), /^body$/],
  ];
  const dotted: [string, () => Promise<unknown>][] = [
    ['an invoice id that walks up', () => client.cancelInvoice('../withdrawals')],
    ['a raw path with dot segments', () => client.request('GET', '/invoices/../withdrawals')],
    ['a raw path with encoded dots', () => client.request('GET', '/%2e%2e/admin')],
  ];
  for (const [name, call] of dotted) {
    test(`${name} throws a TypeError, and sends nothing`, async () => {
      await assert.rejects(call(), (error: unknown) => error instanceof TypeError && /"\."|"\.\."/.test(error.message));
      assert.equal(server.received.length, 0);
    });
  }
  for (const [name, call, field] of refused) {
    test(`${name} throws MerchantValidationError naming the field, and sends nothing`, async () => {
      await assert.rejects(call(), (error: unknown) => {
        assert.ok(error instanceof MerchantValidationError, String(error));
        assert.ok(error instanceof MerchantClientError);
        assert.match(error.field, field);
        assert.ok(error.message.includes(error.field), error.message);
        return true;
      });
      assert.equal(server.received.length, 0);
    });
  }
});

describe('answers', () => {
  test('a 500 throws MerchantApiError with status, operation and an excerpt, never the secret or signature', async () => {
    server.reply((request) => ({
      status: 500,
      json: { error: 'database down', echo: request.headers['x-signature'], key: SECRET_KEY, pad: 'x'.repeat(2000) },
    }));
    await assert.rejects(client.getInvoiceByInternalId('order-42'), (error: unknown) => {
      assert.ok(error instanceof MerchantApiError);
      assert.equal(error.status, 500);
      assert.equal(error.operation, 'getInvoiceByInternalId');
      assert.match(error.bodyExcerpt, /database down/);
      assert.ok(error.bodyExcerpt.length <= 501 + 20, `excerpt is short: ${error.bodyExcerpt.length}`);
      const signature = String(last().headers['x-signature']);
      for (const text of [error.message, error.bodyExcerpt, JSON.stringify(error), String(error.stack)]) {
        assert.ok(!text.includes(SECRET_KEY), 'no secret');
        assert.ok(!text.includes(signature), 'no signature');
      }
      return true;
    });
  });

  test('a 404 throws MerchantApiError with 404', async () => {
    server.reply(() => ({ status: 404, text: 'not found' }));
    await assert.rejects(client.cancelInvoice(INVOICE_ID), { name: 'MerchantApiError', status: 404, bodyExcerpt: 'not found' });
  });

  test('an invalid answer throws MerchantResponseError naming the field', async () => {
    server.reply(() => ({ json: exampleLookupInvoice({ sum: { amount: 1500, currency: 'RUB', subunit: 2 } }) }));
    await assert.rejects(client.getInvoiceByInternalId('order-42'), (error: unknown) => {
      assert.ok(error instanceof MerchantResponseError);
      assert.equal(error.field, 'sum.amount');
      assert.equal(error.status, 200);
      return true;
    });
  });

  test('a non-JSON 200 throws MerchantResponseError', async () => {
    server.reply(() => ({ text: '<html>gateway</html>', headers: { 'content-type': 'text/html' } }));
    await assert.rejects(client.listPaymentVariants(INVOICE_ID), { name: 'MerchantResponseError' });
  });

  test('an answer over the size limit is refused without being buffered whole', async () => {
    const small = new MerchantClient({ baseUrl: server.baseUrl, apiKey: API_KEY, secretKey: SECRET_KEY, maxResponseBytes: 1000 });
    server.reply(() => ({ json: exampleVariants().concat(Array.from({ length: 500 }, () => ({ option: 'SBP', method: 'x' }))) }));
    await assert.rejects(small.listPaymentVariants(INVOICE_ID), /answer exceeds 1000 bytes/);
  });

  test('a hung service is cut at timeoutMs with MerchantTimeoutError', async () => {
    const quick = new MerchantClient({ baseUrl: server.baseUrl, apiKey: API_KEY, secretKey: SECRET_KEY, timeoutMs: 300 });
    server.reply(() => 'hang');
    const started = performance.now();
    await assert.rejects(quick.getInvoiceByInternalId('order-42'), (error: unknown) => {
      assert.ok(error instanceof MerchantTimeoutError);
      assert.equal(error.timeoutMs, 300);
      assert.match(error.message, /getInvoiceByInternalId: no answer within 300 ms/);
      return true;
    });
    // Generous slack for a noisy machine: the point is that it does not wait for the server.
    assert.ok(performance.now() - started < 300 + 1500);
  });

  test('a per-call timeout overrides the client one, and a fetch that ignores its signal is still cut', async () => {
    const stuck = new MerchantClient({
      baseUrl: 'https://pay.example.com',
      apiKey: API_KEY,
      secretKey: SECRET_KEY,
      fetch: () => new Promise<Response>(() => undefined),
    });
    await assert.rejects(stuck.listPaymentVariants(INVOICE_ID, { timeoutMs: 50 }), { name: 'MerchantTimeoutError', timeoutMs: 50 });
  });

  test("the caller's signal aborts the request", async () => {
    server.reply(() => 'hang');
    const controller = new AbortController();
    const pending = client.getWithdrawal(WITHDRAWAL_ID, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await assert.rejects(pending, (error: unknown) => error instanceof MerchantNetworkError && error.aborted);
  });

  test('a refused connection throws MerchantNetworkError', async () => {
    const dead = new MerchantClient({ baseUrl: 'http://127.0.0.1:1', apiKey: API_KEY, secretKey: SECRET_KEY });
    await assert.rejects(dead.listPaymentVariants(INVOICE_ID), (error: unknown) => error instanceof MerchantNetworkError && !error.aborted);
  });

  test('a wrong secret is refused by the service as 401', async () => {
    const wrong = new MerchantClient({ baseUrl: server.baseUrl, apiKey: API_KEY, secretKey: 'not-the-secret' });
    await assert.rejects(wrong.listPaymentVariants(INVOICE_ID), { name: 'MerchantApiError', status: 401 });
  });
});

describe('construction', () => {
  test('a base URL path prefix is kept, a trailing slash is not doubled', async () => {
    server.reply(() => ({ json: exampleVariants() }));
    const prefixed = new MerchantClient({ baseUrl: `${server.baseUrl}/`, apiKey: API_KEY, secretKey: SECRET_KEY });
    await prefixed.listPaymentVariants(INVOICE_ID);
    assert.equal(last().path, `/api/merchant/invoices/${INVOICE_ID}/available-payment-variants`);
  });
  test('bad options are refused with a clear message', () => {
    assert.throws(() => new MerchantClient({ baseUrl: 'not a url', apiKey: 'a', secretKey: 'b' }), /baseUrl must be an absolute URL/);
    assert.throws(() => new MerchantClient({ baseUrl: 'ftp://x', apiKey: 'a', secretKey: 'b' }), /baseUrl must be http\(s\)/);
    assert.throws(() => new MerchantClient({ baseUrl: 'https://x', apiKey: '', secretKey: 'b' }), /apiKey/);
    assert.throws(() => new MerchantClient({ baseUrl: 'https://x', apiKey: 'a', secretKey: '' }), /secretKey/);
    assert.throws(() => new MerchantClient({ baseUrl: 'https://x', apiKey: 'a', secretKey: 'b', timeoutMs: 0 }), /timeoutMs/);
  });
  test('the secret is not reachable from the client object', () => {
    const text = JSON.stringify(client) + Object.keys(client).join();
    assert.ok(!text.includes(SECRET_KEY));
  });
});
