/**
 * Every documented endpoint in its documented shape: lookups by id, start-deal, confirm-transfer,
 * disputes, the lists, the public API, amount limits, withdrawal errors, terminals sharing a
 * secret, and multipart bodies up to the documented 10 MB.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  FROZEN,
  MERCHANT,
  createInvoiceBody,
  inProcessMock,
  messagesOf,
  multipartRequest,
  networkMock,
  readAnswer,
  signedRequest,
  type MockUnderTest,
} from './helpers.js';

type Invoice = { id: string; status: string; sum: { amount: string }; deals: Deal[]; successUrl?: string; isSumChanged?: boolean } & Record<
  string,
  unknown
>;
type Deal = {
  id: string;
  status: string;
  paymentMethod: string;
  paymentOption: string;
  disputeReason: string | null;
  disputeReasonData: unknown;
  attachments: string[];
};

/** A second terminal of the same shop: its own key, the same secret. */
const TERMINAL_2 = { apiKey: 'shop-key-2', secretKey: MERCHANT.secretKey, storeId: 19, storeName: 'Demo Shop, terminal 2' };

const create = async (mock: MockUnderTest, overrides: Record<string, unknown> = {}, merchant = MERCHANT): Promise<Invoice> => {
  const answer = await signedRequest(mock, 'POST', '/api/merchant/invoices', {
    body: JSON.stringify(createInvoiceBody(overrides)),
    merchant,
  });
  assert.equal(answer.status, 200, answer.text);
  return answer.json as Invoice;
};
const post = (mock: MockUnderTest, path: string, body?: unknown) =>
  signedRequest(mock, 'POST', `/api/merchant${path}`, body === undefined ? {} : { body: JSON.stringify(body) });
const get = (mock: MockUnderTest, path: string, merchant = MERCHANT) => signedRequest(mock, 'GET', `/api/merchant${path}`, { merchant });
const receipt = (size = 1024) => new Blob([new Uint8Array(size)], { type: 'application/pdf' });

describe('merchant API endpoints', () => {
  let mock: MockUnderTest;
  before(() => {
    mock = inProcessMock({ ...FROZEN, merchants: [MERCHANT, TERMINAL_2], controls: true });
  });
  after(() => mock.close());

  test('GET /invoices/{id} by the service id; another terminal with the same secret gets 404 null', async () => {
    const invoice = await create(mock, { internalId: 'by-id' });
    const found = await get(mock, `/invoices/${invoice.id}`);
    assert.equal(found.status, 200);
    assert.deepEqual(found.json, invoice);
    for (const path of [`/invoices/${invoice.id}`, '/invoices/internal-id/by-id', `/invoices/${invoice.id}/available-payment-variants`]) {
      const other = await get(mock, path, TERMINAL_2);
      assert.deepEqual([other.status, other.text], [404, 'null'], path);
    }
    const own = await create(mock, { internalId: 'by-id' }, TERMINAL_2);
    assert.equal(((await get(mock, '/invoices/internal-id/by-id', TERMINAL_2)).json as Invoice).id, own.id);
    assert.equal(((await get(mock, '/invoices/internal-id/by-id')).json as Invoice).id, invoice.id);
  });

  test('POST /invoices/{id}/start-deal: the chosen variant, or any with nulls; deals has 1 element', async () => {
    const chosen = await create(mock);
    const answer = await post(mock, `/invoices/${chosen.id}/start-deal`, { paymentMethod: 'tinkoff', paymentOption: 'SBP' });
    assert.equal(answer.status, 200, answer.text);
    const deals = (answer.json as Invoice).deals;
    assert.deepEqual(
      deals.map((d) => [d.paymentMethod, d.paymentOption, d.status]),
      [['tinkoff', 'SBP', 'transfer_waiting']],
    );
    assert.equal((await post(mock, `/invoices/${chosen.id}/start-deal`, {})).status, 400, 'a second active deal is refused');

    const any = await create(mock);
    const anyAnswer = await post(mock, `/invoices/${any.id}/start-deal`, { paymentMethod: null, paymentOption: null });
    assert.equal((anyAnswer.json as Invoice).deals.length, 1);

    const wrong = await create(mock);
    assert.deepEqual(messagesOf(await post(mock, `/invoices/${wrong.id}/start-deal`, { paymentOption: 'TELEPATHY' })), [
      'Payment option not allowed',
    ]);
    assert.deepEqual(messagesOf(await post(mock, `/invoices/${wrong.id}/start-deal`, { paymentMethod: 'nobank' })), [
      'Payment method not allowed',
    ]);
  });

  test('no free requisites: start-deal is 400 PAYMENT_METHOD_NOT_AVAILABLE, create with startDeal has deals []', async () => {
    mock.service.setNoRequisites(['sberbank']);
    const invoice = await create(mock);
    const refused = await post(mock, `/invoices/${invoice.id}/start-deal`, { paymentMethod: 'sberbank', paymentOption: 'TO_CARD' });
    assert.deepEqual([refused.status, refused.json], [400, [{ message: 'PAYMENT_METHOD_NOT_AVAILABLE' }]]);
    assert.equal(
      (await post(mock, `/invoices/${invoice.id}/start-deal`, { paymentMethod: 'vtb', paymentOption: 'TO_CARD' })).status,
      200,
      'other banks still have requisites',
    );
    const control = await mock.fetch(
      new Request(`${mock.baseUrl}/__mock/no-requisites`, { method: 'POST', body: JSON.stringify({ methods: ['*'] }) }),
    );
    assert.equal(control.status, 200);
    const empty = await create(mock, { startDeal: true });
    assert.deepEqual([empty.status, empty.deals], ['new', []]);
    mock.service.setNoRequisites([]);
    assert.equal((await create(mock, { startDeal: true })).deals.length, 1);
  });

  test('amount limits (RUB 1000.00–100000.00 by default, an option per currency) and maxAmount', async () => {
    const post400 = async (overrides: Record<string, unknown>) => messagesOf(await post(mock, '/invoices', createInvoiceBody(overrides)));
    assert.deepEqual(await post400({ amount: '999.99' }), ['Invoice amount should be not less than 1000.00']);
    assert.deepEqual(await post400({ amount: '100000.01' }), ['Invoice amount should be not greater than 100000.00']);
    assert.equal((await create(mock, { amount: '1000' })).sum.amount, '1000.00');
    assert.equal((await create(mock, { amount: '100000' })).sum.amount, '100000.00');
    assert.deepEqual(await post400({ amount: '2000', maxAmount: '1999.99' }), ['maxAmount can not be less than amount']);
    const amounts = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const unique = await create(mock, { amount: '2000', maxAmount: '2010' });
      assert.equal(unique.sum.amount, '2000.00', '`sum` is the amount asked for');
      const amount = Number((unique.receivedSumFromTaker as { amount: string }).amount.split('.')[0]);
      assert.ok(amount >= 2000 && amount <= 2010, String(amount));
      amounts.add(String(amount));
    }
    assert.ok(amounts.size > 1, 'the amount to pay is randomised up to maxAmount');

    const kzt = inProcessMock({ amountLimits: { KZT: { min: '500', max: '600' } } });
    const small = await signedRequest(kzt, 'POST', '/api/merchant/invoices', {
      body: JSON.stringify(createInvoiceBody({ currency: 'KZT', amount: '499' })),
    });
    assert.deepEqual(messagesOf(small), ['Invoice amount should be not less than 500.00']);
    await kzt.close();
  });

  test('the documented extra create fields, explicit nulls, and their checks', async () => {
    const invoice = await create(mock, {
      successUrl: 'https://shop.example/ok',
      cancelUrl: 'https://shop.example/fail',
      crossBorderCurrency: 'TJS',
      crossBorderRequisiteType: 'CARD',
      strictlySingleTransfer: true,
      allowMatching: false,
      matchingSettings: { maxAmount: '23000', minPartAmount: '1000', maxPartAmount: '5000' },
      lang: 'en',
      internalId: null,
      userId: null,
      paymentMethod: null,
      paymentOption: null,
      paymentRequisites: null,
      maxAmount: null,
      startDeal: true,
    });
    assert.equal(invoice.crossBorderCurrency, 'TJS');
    assert.equal(invoice.internalId, null);
    assert.ok(['dcbank', 'alif', 'eskhata'].includes(invoice.deals[0]!.paymentMethod), 'a TJS bank for a cross-border invoice');
    const canceled = (await post(mock, `/invoices/${invoice.id}/cancel`)).json as Invoice;
    assert.equal(canceled.successUrl, 'https://shop.example/ok');
    assert.deepEqual(messagesOf(await post(mock, '/invoices', createInvoiceBody({ crossBorderRequisiteType: 'FAX' }))), [
      'This value should be of type PHONE|CARD field: "crossBorderRequisiteType"',
    ]);
    assert.deepEqual(messagesOf(await post(mock, '/invoices', createInvoiceBody({ allowMatching: 'yes' }))), [
      'This value should be of type boolean field: "allowMatching"',
    ]);
  });

  test('cancel of an expired invoice is 400; statuses never move on from a final one', async () => {
    const invoice = await create(mock, { startDeal: true });
    mock.service.expire(invoice.id);
    const answer = await post(mock, `/invoices/${invoice.id}/cancel`);
    assert.deepEqual([answer.status, messagesOf(answer)], [400, ['Invoice can not be canceled in status expired']]);
    assert.throws(() => mock.service.markPaid(invoice.id), /expired/);
    const paid = await create(mock, { startDeal: true });
    mock.service.markPaid(paid.id);
    assert.throws(() => mock.service.expire(paid.id), /paid/);
    assert.throws(() => mock.service.resolveDispute(paid.id, 'canceled'), /paid/);
    assert.equal(mock.service.getInvoice(paid.id)?.status, 'paid');
  });

  test('confirm-transfer (multipart, file `attachment`) → the deal is transfer_confirmed', async () => {
    const invoice = await create(mock, { startDeal: true });
    const missing = await multipartRequest(mock, `/api/merchant/invoices/${invoice.id}/confirm-transfer`, { note: 'no file' });
    assert.deepEqual(messagesOf(missing), ['this value should not be blank. field: "attachment"']);
    const answer = await multipartRequest(mock, `/api/merchant/invoices/${invoice.id}/confirm-transfer`, { attachment: receipt() });
    assert.equal(answer.status, 200, answer.text);
    const body = answer.json as Invoice;
    assert.equal(body.status, 'new');
    assert.deepEqual([body.deals[0]?.status, body.deals[0]?.attachments], ['transfer_confirmed', ['receipt.pdf']]);
  });

  test('dispute (multipart) → invoice and deal in dispute; disputeReasonData [] or {amount}; 404 null when canceled; resolved by control', async () => {
    const invoice = await create(mock, { startDeal: true });
    const dealId = invoice.deals[0]!.id;
    const answer = await multipartRequest(mock, `/api/merchant/invoices/${invoice.id}/dispute`, {
      dealId,
      disputeReason: 'invalid_sum',
      'disputeReasonData[amount]': '1210',
      attachment: receipt(),
    });
    assert.equal(answer.status, 200, answer.text);
    const disputed = answer.json as Invoice;
    assert.equal(disputed.status, 'dispute');
    assert.deepEqual(
      [disputed.deals[0]?.status, disputed.deals[0]?.disputeReason, disputed.deals[0]?.disputeReasonData],
      ['dispute', 'invalid_sum', { amount: '1210' }],
    );
    mock.service.resolveDispute(invoice.id, 'paid');
    const paid = mock.service.getInvoice(invoice.id)!;
    assert.deepEqual([paid.status, paid.receivedSumFromTaker?.amount, paid.deals[0]?.disputeResult], ['paid', '1210.00', 'ACCEPTED']);

    const other = await create(mock, { startDeal: true });
    const noPayment = await multipartRequest(mock, `/api/merchant/invoices/${other.id}/dispute`, {
      dealId: other.deals[0]!.id,
      disputeReason: 'no_payment',
    });
    assert.deepEqual((noPayment.json as Invoice).deals[0]?.disputeReasonData, []);
    // The older body of the control still works: "canceled" stands for the failed result UNKNOWN.
    const resolve = await mock.fetch(
      new Request(`${mock.baseUrl}/__mock/invoices/${other.id}/resolve`, { method: 'POST', body: '{"outcome":"canceled"}' }),
    );
    const rejected = (await resolve.json()) as Invoice;
    assert.deepEqual([rejected.status, (rejected.deals[0] as Deal & { disputeResult: unknown }).disputeResult], ['canceled', 'UNKNOWN']);

    const canceled = await create(mock, { startDeal: true });
    await post(mock, `/invoices/${canceled.id}/cancel`);
    const late = await multipartRequest(mock, `/api/merchant/invoices/${canceled.id}/dispute`, {
      dealId: canceled.deals[0]!.id,
      disputeReason: 'no_payment',
    });
    assert.deepEqual([late.status, late.text], [404, 'null']);
    const badReason = await multipartRequest(mock, `/api/merchant/invoices/${other.id}/dispute`, { dealId: 'x', disputeReason: 'bored' });
    assert.equal(badReason.status, 400);
  });

  test('lists: payment methods with real codes and Russian names, options, rates, accounts', async () => {
    const methods = (await get(mock, '/payment-methods')).json as { code: string; name: string; currency: string }[];
    assert.deepEqual(Object.keys(methods[0]!), ['code', 'name', 'currency']);
    assert.deepEqual(methods[0], { code: 'unknown', name: 'unknown', currency: 'RUB' }, 'documented: the placeholder first');
    const names = new Map(methods.map((m) => [m.code, m.name]));
    for (const [code, name] of Object.entries({
      sberbank: 'Сбербанк',
      tinkoff: 'Т-Банк',
      alfabank: 'Альфа-Банк',
      vtb: 'ВТБ',
      raiffeisenbank: 'Райффайзенбанк',
      gazprombank: 'Газпромбанк',
      ozonbank: 'Озон Банк',
    })) {
      assert.equal(names.get(code), name, code);
    }
    assert.ok(methods.filter((m) => m.currency === 'RUB').length >= 25);
    for (const currency of ['KZT', 'TJS', 'UZS']) {
      const only = (await get(mock, `/payment-methods?currency=${currency}`)).json as { code: string; currency: string }[];
      assert.ok(only.length > 1 && only.every((m) => m.currency === currency), currency);
      assert.equal(only[0]?.code, 'unknown');
    }
    const options = (await get(mock, '/payment-options')).json as { code: string; name: string; currency: string }[];
    assert.deepEqual(Object.keys(options[0]!), ['code', 'name', 'currency']);
    assert.ok(['SBP', 'TO_CARD', 'SBP_QR', 'CROSS_BORDER', 'MANUAL_SBP_QR'].every((code) => options.some((o) => o.code === code)));
    assert.deepEqual([...new Set(options.map((o) => o.currency))], ['RUB'], 'documented: every option in RUB, CROSS_BORDER too');
    assert.deepEqual((await get(mock, '/currency-rates/current')).json, {
      in: { pair: 'USDT/RUB', rate: '96.50' },
      out: { pair: 'USDT/RUB', rate: '96.50' },
    });
    const accounts = (await get(mock, '/accounts')).json as Record<string, unknown>[];
    assert.deepEqual(Object.keys(accounts[0]!), ['id', 'currency', 'sum', 'frozenSum', 'withdrawalFee']);
  });
});

describe('public API (no signature)', () => {
  let mock: MockUnderTest;
  before(() => {
    mock = inProcessMock();
  });
  after(() => mock.close());
  const plain = async (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    readAnswer(await mock.fetch(new Request(`${mock.baseUrl}${path}`, { method, headers, ...(body ? { body } : {}) })));

  test('GET /api/public/payment-methods/{currency} → [{code, name}]', async () => {
    const answer = await plain('GET', '/api/public/payment-methods/RUB');
    const list = answer.json as { code: string; name: string }[];
    assert.deepEqual(list[0], { code: 'unknown', name: 'unknown' }, 'documented: the placeholder first');
    assert.ok(list.some((m) => m.code === 'tinkoff' && m.name === 'Т-Банк'));
    assert.deepEqual((await plain('GET', '/api/public/payment-methods/XYZ')).json, []);
  });

  test('GET /api/public/invoices/{id}/qr-code → an SVG', async () => {
    const invoice = await create(mock, { startDeal: true, paymentMethod: 'sberbank', paymentOption: 'SBP_QR' });
    const answer = await plain('GET', `/api/public/invoices/${invoice.id}/qr-code`);
    assert.equal(answer.headers.get('content-type'), 'image/svg+xml');
    assert.match(answer.text, /^<svg[\s\S]*<\/svg>\s*$/);
    assert.equal((await plain('GET', '/api/public/invoices/00000000-0000-4000-8000-000000000000/qr-code')).status, 404);
  });

  test('available-payment-variants and start-deal with only X-Identity (the hosted page)', async () => {
    const invoice = await create(mock);
    const variants = await plain('GET', `/api/public/invoices/${invoice.id}/available-payment-variants`, { 'X-Identity': MERCHANT.apiKey });
    assert.equal(variants.status, 200);
    const [first] = variants.json as { option: string; method: string }[];
    assert.equal((await plain('GET', `/api/public/invoices/${invoice.id}/available-payment-variants`)).status, 401);
    const started = await plain(
      'POST',
      `/api/public/invoices/${invoice.id}/start-deal`,
      { 'X-Identity': MERCHANT.apiKey, 'content-type': 'application/json' },
      JSON.stringify({ paymentMethod: first!.method, paymentOption: first!.option }),
    );
    assert.equal(started.status, 200, started.text);
    assert.equal((started.json as Invoice).deals[0]?.paymentMethod, first!.method);
  });
});

describe('withdrawals, terminals and flows', () => {
  const ACCOUNT = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
  const withdraw = (mock: MockUnderTest, amount: string) =>
    signedRequest(mock, 'POST', '/api/merchant/withdrawals', {
      body: JSON.stringify({ accountId: ACCOUNT, amount, address: 'TQ', code2FA: '123456' }),
    });

  test('2FA should be enabled / Insufficient funds; a paid invoice adds its payout to the balance', async () => {
    const no2fa = inProcessMock({ merchants: [{ ...MERCHANT, twoFactorEnabled: false }] });
    assert.deepEqual(messagesOf(await withdraw(no2fa, '1')), ['2FA should be enabled for this operation']);
    await no2fa.close();

    const poor = inProcessMock({ merchants: [{ ...MERCHANT, balance: '10' }] });
    assert.equal((await withdraw(poor, '9')).status, 200, '9 + fee 1 = the balance');
    assert.deepEqual(messagesOf(await withdraw(poor, '0.5')), ['Insufficient funds']);
    const invoice = await create(poor, { startDeal: true });
    poor.service.markPaid(invoice.id);
    assert.equal((await withdraw(poor, '0.5')).status, 200);
    await poor.close();
  });

  test('a terminal with pay-in or pay-out off answers 404 Pay in disabled / Pay out disabled', async () => {
    const mock = inProcessMock({ merchants: [{ ...MERCHANT, payIn: false, payOut: false }] });
    const payIn = await signedRequest(mock, 'POST', '/api/merchant/invoices', { body: JSON.stringify(createInvoiceBody()) });
    assert.deepEqual([payIn.status, payIn.json], [404, [{ message: 'Pay in disabled' }]]);
    const out = createInvoiceBody({
      type: 'out',
      paymentMethod: 'vtb',
      paymentOption: 'TO_CARD',
      paymentRequisites: { requisites: '2200 2400 0000 0000', holder: 'X' },
    });
    const payOut = await signedRequest(mock, 'POST', '/api/merchant/invoices', { body: JSON.stringify(out) });
    assert.deepEqual([payOut.status, payOut.json], [404, [{ message: 'Pay out disabled' }]]);
    await mock.close();
  });

  test("errorFormat 'legacy' keeps the older {error: {code, message}} body", async () => {
    const mock = inProcessMock({ errorFormat: 'legacy' });
    const answer = await signedRequest(mock, 'GET', '/api/merchant/invoices/00000000-0000-4000-8000-000000000000');
    assert.deepEqual(answer.json, { error: { code: 'not_found', message: 'invoice 00000000-0000-4000-8000-000000000000 not found' } });
    await mock.close();
  });

  test('dealIdIsInvoiceId: a deal may carry its invoice id (documented quirk)', async () => {
    const mock = inProcessMock({ dealIdIsInvoiceId: true });
    const invoice = await create(mock, { startDeal: true });
    assert.equal(invoice.deals[0]?.id, invoice.id);
    await mock.close();
  });
});

describe('multipart bodies up to 10 MB on a real port', () => {
  let mock: MockUnderTest;
  before(async () => {
    mock = await networkMock();
  });
  after(() => mock.close());
  const TEN_MB = 10 * 1024 * 1024;

  test('a 10 MB attachment is accepted, 10 MB + 1 byte is refused; JSON keeps its small cap', async () => {
    const invoice = await create(mock, { startDeal: true });
    const ok = await multipartRequest(mock, `/api/merchant/invoices/${invoice.id}/confirm-transfer`, { attachment: receipt(TEN_MB) });
    assert.equal(ok.status, 200, ok.text.slice(0, 200));
    const other = await create(mock, { startDeal: true });
    const big = await multipartRequest(mock, `/api/merchant/invoices/${other.id}/confirm-transfer`, { attachment: receipt(TEN_MB + 1) });
    assert.equal(big.status, 400);
    assert.match(messagesOf(big)[0] ?? '', /too large.*field: "attachment"/);
    const json = await signedRequest(mock, 'POST', '/api/merchant/invoices', {
      body: JSON.stringify(createInvoiceBody({ internalId: 'x'.repeat(70_000) })),
    });
    assert.equal(json.status, 413);
  });
});
