/**
 * Each test control does what it says, as a method and over HTTP under `/__mock`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readFile } from 'node:fs/promises';
import { CONTROL_ROUTES, MockControlError } from '../../src/mock/index.js';
import { MerchantApiError, MerchantNetworkError, MerchantResponseError, MerchantTimeoutError } from '../../src/server/node.js';
import { control, createInvoiceBody, inProcessMock, networkMock, type MockUnderTest } from './helpers.js';

const newInvoice = (mock: MockUnderTest, overrides: Record<string, unknown> = {}) =>
  mock.client().createInvoice({ ...createInvoiceBody(overrides), type: (overrides.type as 'in' | 'out' | undefined) ?? 'in' });

const rejectsWithStatus = (status: number, code: string) => (error: unknown) => {
  assert.ok(error instanceof MockControlError, String(error));
  assert.equal(error.status, status);
  assert.equal(error.code, code);
  return true;
};

describe('test controls', () => {
  let mock: MockUnderTest;
  before(async () => {
    mock = await networkMock({ controls: true });
  });
  after(() => mock.close());

  test('markPaid: new → paid, the active deal completes; not twice', async () => {
    const invoice = await newInvoice(mock, { startDeal: true, internalId: 'pay-me' });
    mock.service.markPaid(invoice.id);
    const paid = await mock.client().getInvoiceByInternalId('pay-me');
    assert.equal(paid.status, 'paid');
    assert.equal(paid.deals[0]?.isActive, false);
    assert.equal(paid.deals[0]?.status, 'completed');
    // 1500 RUB at 96.50 is 15.54404145 USDT; 5 % fee 0.77720207 (rounded down); payout the rest.
    assert.deepEqual(paid.receivedSumFromTaker, { amount: '1500.00', currency: 'RUB', subunit: 2 });
    assert.deepEqual(paid.receivedSumFromMaker, { amount: '15.54404145', currency: 'USDT', subunit: 8 });
    assert.deepEqual(paid.payoutSum, { amount: '14.76683938', currency: 'USDT', subunit: 8 });
    assert.throws(() => mock.service.markPaid(invoice.id), rejectsWithStatus(400, 'invalid_state'));
    assert.throws(() => mock.service.markPaid('00000000-0000-4000-8000-000000000000'), rejectsWithStatus(404, 'not_found'));
  });

  test('POST /__mock/invoices/{id}/paid answers the invoice; errors are JSON', async () => {
    const invoice = await newInvoice(mock);
    const answer = await control(mock, 'POST', `/invoices/${invoice.id}/paid`);
    assert.equal(answer.status, 200);
    assert.equal((answer.json as { status: string }).status, 'paid');
    const again = await control(mock, 'POST', `/invoices/${invoice.id}/paid`);
    assert.equal(again.status, 400);
    assert.equal((again.json as { error: { code: string } }).error.code, 'invalid_state');
    const missing = await control(mock, 'POST', '/invoices/nope/paid');
    assert.equal(missing.status, 404);
  });

  test('expire: new → expired now; the active deal becomes inactive', async () => {
    const invoice = await newInvoice(mock, { startDeal: true, internalId: 'expire-me' });
    const answer = await control(mock, 'POST', `/invoices/${invoice.id}/expire`);
    assert.equal(answer.status, 200);
    const expired = await mock.client().getInvoiceByInternalId('expire-me');
    assert.equal(expired.status, 'expired');
    assert.ok(Date.parse(expired.expireAt) <= Date.now());
    assert.ok(Date.parse(expired.expireAt) < Date.parse(invoice.expireAt));
    assert.equal(expired.deals[0]?.isActive, false);
    assert.equal(expired.deals[0]?.status, 'expired');
    assert.equal(expired.deals[0]?.canceledAt, invoice.deals[0]?.canceledAt, 'canceledAt is the deal deadline, not the time of the end');
    await assert.rejects(
      mock.client().cancelInvoice(invoice.id),
      (error: unknown) => error instanceof MerchantApiError && error.status === 400,
    );
  });

  test('startDeal: on a pay-in without a deal, with the variant asked for or one of its variants', async () => {
    const invoice = await newInvoice(mock, { internalId: 'deal-later' });
    assert.deepEqual(invoice.deals, []);
    const answer = await control(mock, 'POST', `/invoices/${invoice.id}/deal`, { option: 'SBP', method: 'alfabank' });
    assert.equal(answer.status, 200);
    const withDeal = await mock.client().getInvoiceByInternalId('deal-later');
    assert.equal(withDeal.deals.length, 1);
    assert.equal(withDeal.deals[0]?.paymentMethod, 'alfabank');
    assert.equal(withDeal.deals[0]?.paymentOption, 'SBP');
    assert.equal(withDeal.deals[0]?.paymentMethodName, undefined, 'only the create answer names the bank (option paymentMethodName)');
    assert.equal(withDeal.paymentMethod, null, 'documented: the invoice keeps the method given at creation');
    assert.throws(() => mock.service.startDeal(invoice.id), rejectsWithStatus(400, 'invalid_state'));

    const other = await newInvoice(mock);
    mock.service.startDeal(other.id);
    const variants = await mock.client().listPaymentVariants(other.id);
    const deal = mock.service.getInvoice(other.id)?.deals[0];
    assert.ok(variants.some((v) => v.method === deal?.paymentMethod && v.option === deal.paymentOption));

    const payout = await mock.client().createInvoice({
      ...createInvoiceBody(),
      type: 'out',
      paymentMethod: 'vtb',
      paymentOption: 'TO_CARD',
      paymentRequisites: { requisites: '2200240000000000', holder: 'Иван Петрович С.' },
    });
    assert.throws(() => mock.service.startDeal(payout.id), rejectsWithStatus(400, 'invalid_state'));
    const bad = await control(mock, 'POST', `/invoices/${other.id}/deal`, { option: 3 });
    assert.equal(bad.status, 400);
  });

  test('setLatency delays every API answer; reset removes it', async () => {
    const latency = await control(mock, 'POST', '/latency', { ms: 150 });
    assert.equal(latency.status, 200);
    const started = performance.now();
    await mock.client().request('GET', '/accounts');
    assert.ok(performance.now() - started >= 140, 'answer waited for the latency');
    await control(mock, 'POST', '/reset');
    const again = performance.now();
    await mock.client().request('GET', '/accounts');
    assert.ok(performance.now() - again < 140);
  });

  test('failNext answers the next N requests with the status, then works again', async () => {
    const answer = await control(mock, 'POST', '/fail', { count: 2, status: 503 });
    assert.equal(answer.status, 200);
    for (let i = 0; i < 2; i++) {
      await assert.rejects(mock.client().request('GET', '/accounts'), (error: unknown) => {
        assert.ok(error instanceof MerchantApiError);
        assert.equal(error.status, 503);
        assert.match(error.bodyExcerpt, /failure injected/);
        return true;
      });
    }
    await mock.client().request('GET', '/accounts');
    mock.service.failNext(1);
    await assert.rejects(
      mock.client().request('GET', '/accounts'),
      (error: unknown) => error instanceof MerchantApiError && error.status === 500,
    );
    assert.throws(() => mock.service.failNext(1, 200), RangeError);
  });

  test('a fault scoped to an invoice waits for a request about that invoice; other traffic passes it by', async () => {
    const target = await newInvoice(mock, { internalId: 'scoped-fault' });
    const other = await newInvoice(mock);
    const answer = await control(mock, 'POST', '/fail', { count: 2, status: 503, invoiceId: target.id });
    assert.equal(answer.status, 200);
    // Not about the invoice, or about it by internal id (as a reconciler reads): the faults stay queued.
    await mock.client().request('GET', '/accounts');
    assert.equal((await mock.client().getInvoice(other.id)).id, other.id);
    assert.equal((await mock.client().getInvoiceByInternalId('scoped-fault')).id, target.id);
    const fails = (error: unknown) => error instanceof MerchantApiError && error.status === 503;
    await assert.rejects(mock.client().getInvoice(target.id), fails);
    await assert.rejects(mock.client().listPaymentVariants(target.id), fails);
    assert.equal((await mock.client().getInvoice(target.id)).id, target.id, 'two failures, then it works again');
    mock.service.malformNext(1, { invoiceId: other.id });
    assert.equal((await mock.client().getInvoice(target.id)).id, target.id);
    await assert.rejects(mock.client().getInvoice(other.id), MerchantResponseError);
    assert.equal((await control(mock, 'POST', '/hang', { invoiceId: '' })).status, 400, 'an empty invoice id is refused');
    assert.throws(() => mock.service.hangNext(1, { invoiceId: '' }), RangeError);
  });

  test('hangNext: the next request never answers until its caller gives up', async () => {
    const answer = await control(mock, 'POST', '/hang', {});
    assert.equal(answer.status, 200);
    const before = mock.service.requests.length;
    await assert.rejects(mock.client(undefined, 200).request('GET', '/accounts'), MerchantTimeoutError);
    assert.equal(mock.service.requests[before]?.status, 0, 'recorded, never answered');
    await mock.client().request('GET', '/accounts');
  });

  test('malformNext: the next answer is 200 with broken JSON', async () => {
    const invoice = await newInvoice(mock);
    await control(mock, 'POST', '/malform', { count: 1 });
    await assert.rejects(mock.client().listPaymentVariants(invoice.id), (error: unknown) => {
      assert.ok(error instanceof MerchantResponseError);
      assert.equal(error.status, 200);
      assert.match(error.message, /not JSON/);
      return true;
    });
  });

  test('reset clears faults that were not used yet', async () => {
    mock.service.failNext(3);
    mock.service.hangNext(1);
    mock.service.reset();
    await mock.client().request('GET', '/accounts');
  });

  test('requests and notifications can be read; the controls list themselves; CORS for a demo page', async () => {
    const requests = await control(mock, 'GET', '/requests');
    assert.ok(Array.isArray(requests.json) && requests.json.length > 0);
    assert.deepEqual(Object.keys(requests.json[0] as object).sort(), ['body', 'headers', 'method', 'path', 'query', 'status']);
    const notifications = await control(mock, 'GET', '/notifications');
    assert.ok(Array.isArray(notifications.json));
    const index = await control(mock, 'GET', '');
    assert.ok(Array.isArray((index.json as { controls: unknown }).controls));
    assert.equal(index.headers.get('access-control-allow-origin'), '*');
    const preflight = await mock.fetch(new Request(`${mock.baseUrl}/__mock/fail`, { method: 'OPTIONS' }));
    assert.equal(preflight.status, 204);
    const wrongMethod = await control(mock, 'GET', '/fail');
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get('allow'), 'POST');
    const unknown = await control(mock, 'POST', '/explode');
    assert.equal(unknown.status, 404);
  });

  test('src/mock/README.md has a row for every control, and no other', async () => {
    const readme = await readFile(new URL('../../src/mock/README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Test controls'));
    const rows = [...section.matchAll(/^\| `(GET|POST) (\/__mock[^`]*)` \|/gm)].map((match) => `${match[1]} ${match[2]}`);
    const listed = ((await control(mock, 'GET', '')).json as { controls: string[] }).controls.map((line) =>
      line.split(/\s+/).slice(0, 2).join(' '),
    );
    assert.deepEqual(
      listed,
      CONTROL_ROUTES.map((line) => line.split(/\s+/).slice(0, 2).join(' ')),
    );
    assert.deepEqual(rows, listed);
  });

  test('controls do not count as API requests', async () => {
    const before = mock.service.requests.length;
    await control(mock, 'GET', '/requests');
    await control(mock, 'POST', '/reset');
    assert.equal(mock.service.requests.length, before);
  });
});

describe('controls off, and close()', () => {
  test('without controls: true, /__mock is not served', async () => {
    const mock = inProcessMock();
    const answer = await control(mock, 'POST', '/fail', { count: 1 });
    assert.equal(answer.status, 404);
    await mock.client().request('GET', '/accounts');
    await mock.close();
  });

  test('close() ends hanging requests and latency waits; later requests get 503', async () => {
    const mock = await networkMock({ controls: true });
    mock.service.hangNext(1);
    const hanging = mock.client(undefined, 5_000).request('GET', '/accounts');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const inProcess = inProcessMock();
    inProcess.service.setLatency(10_000);
    const waiting = inProcess.client().request('GET', '/accounts');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = performance.now();
    inProcess.service.close();
    await assert.rejects(waiting, MerchantNetworkError);
    await mock.close();
    await assert.rejects(hanging);
    assert.ok(performance.now() - started < 2_000);
    const after = await inProcess.fetch(new Request(`${inProcess.baseUrl}/api/merchant/accounts`));
    assert.equal(after.status, 503);
    await after.body?.cancel();
  });

  test('a hanging in-process request ends when its signal aborts', async () => {
    const mock = inProcessMock();
    mock.service.hangNext(1);
    const controller = new AbortController();
    const pending = mock.fetch(new Request(`${mock.baseUrl}/api/merchant/accounts`, { signal: controller.signal }));
    controller.abort(new Error('caller gave up'));
    await assert.rejects(pending, /caller gave up/);
    await mock.close();
  });
});
