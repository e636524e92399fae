/**
 * Pay-outs, accounts and the lists as documented: a pay-out's create answer has one deal of
 * type `out`, status `new`, to the payee, and `paymentRequisites: null`; it holds its cost on
 * the store's account while it runs, is debited once sent, and gives it back when canceled or
 * expired. `GET /accounts` is the AccountDTO; a withdrawal is frozen until it is sent (`txId`).
 * The bank lists start with the placeholder `unknown`; every payment option is in RUB.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MOCK_DEFAULTS } from '../../src/mock/index.js';
import { AccountListSchema, CreateInvoiceResponseSchema, safeParse } from '../../src/schemas/index.js';
import {
  documentedAccountShape,
  documentedPaymentMethods,
  documentedPaymentOptions,
  documentedPayoutCreateAnswer,
  documentedPayoutCreateRequest,
  documentedPublicPaymentMethods,
} from '../fixtures/documented-money.js';
import {
  FROZEN,
  MERCHANT,
  control,
  controlError,
  createInvoiceBody,
  inProcessMock,
  manualClock,
  messagesOf,
  readAnswer,
  signedRequest,
  type MockUnderTest,
} from './helpers.js';

type Money = { amount: string; currency: string; subunit: number };
type Account = { id: string; currency: string; sum: Money; frozenSum: Money; withdrawalFee: Money };

const usdt = (amount: string): Money => ({ amount, currency: 'USDT', subunit: 8 });
const accounts = async (mock: MockUnderTest): Promise<Account[]> =>
  (await signedRequest(mock, 'GET', '/api/merchant/accounts')).json as Account[];
const payout = (overrides: Record<string, unknown> = {}) => ({
  ...documentedPayoutCreateRequest(),
  notificationUrl: 'http://127.0.0.1:9/hooks',
  ...overrides,
});
const createPayout = (mock: MockUnderTest, overrides: Record<string, unknown> = {}) =>
  signedRequest(mock, 'POST', '/api/merchant/invoices', { body: JSON.stringify(payout(overrides)) });

// 1000.00 RUB at 96.50 is 10.36269430 USDT; with the 5 % fee (0.51813471) the pay-out costs 10.88082901.
const COST = '10.88082901';
const BALANCE = `${MOCK_DEFAULTS.balance}.00000000`;

describe('pay-outs', () => {
  test('the create answer is the documented one: one deal of type out, status new, to the payee; paymentRequisites null', async () => {
    const mock = inProcessMock(FROZEN);
    const answer = await createPayout(mock);
    assert.equal(answer.status, 200, answer.text);
    const created = answer.json as ReturnType<typeof documentedPayoutCreateAnswer>;
    const documented = documentedPayoutCreateAnswer();
    assert.deepEqual(Object.keys(created), Object.keys(documented), 'the documented field order, without invoiceUrl');
    assert.deepEqual(Object.keys(created.deals[0]!), Object.keys(documented.deals[0]!));
    const [deal] = created.deals;
    const [example] = documented.deals;
    assert.deepEqual(
      [
        created.type,
        created.status,
        created.paymentMethod,
        created.paymentOption,
        created.paymentRequisites,
        created.sum,
        created.receivedSumFromTaker,
      ],
      [
        documented.type,
        documented.status,
        documented.paymentMethod,
        documented.paymentOption,
        documented.paymentRequisites,
        documented.sum,
        documented.receivedSumFromTaker,
      ],
    );
    assert.deepEqual(
      [deal?.type, deal?.status, deal?.paymentMethod, deal?.paymentOption, deal?.requisites, deal?.payment, deal?.isActive],
      [
        example?.type,
        example?.status,
        example?.paymentMethod,
        example?.paymentOption,
        example?.requisites,
        example?.payment,
        example?.isActive,
      ],
    );
    assert.ok(safeParse(CreateInvoiceResponseSchema, created).success, 'the client reads it');
    assert.ok(safeParse(CreateInvoiceResponseSchema, documented).success, 'and the documented one');
    await mock.close();
  });

  test('its cost is frozen while it runs, debited once sent (a paid notification), the deal completed with its payment', async () => {
    const mock = inProcessMock({ ...FROZEN, controls: true });
    const created = (await createPayout(mock)).json as { id: string };
    const [running] = await accounts(mock);
    assert.deepEqual([running?.frozenSum, running?.sum], [usdt(COST), usdt('9989.11917099')], 'the cost has left the sum and is frozen');

    const sent = await control(mock, 'POST', `/invoices/${created.id}/paid`);
    assert.equal(sent.status, 200, sent.text);
    const paid = sent.json as {
      status: string;
      payoutSum: Money;
      receivedSumFromTaker: Money;
      deals: { status: string; isActive: boolean; payment: { takerSum: Money } | null }[];
    };
    assert.deepEqual(
      [paid.status, paid.deals[0]?.status, paid.deals[0]?.isActive, paid.deals[0]?.payment?.takerSum.amount],
      ['paid', 'completed', false, '1000.00'],
    );
    assert.deepEqual([paid.receivedSumFromTaker.amount, paid.payoutSum], ['1000.00', usdt(COST)], 'what the pay-out cost the account');
    const [after] = await accounts(mock);
    assert.deepEqual([after?.frozenSum, after?.sum], [usdt('0.00000000'), running?.sum], 'the hold became the debit');
    assert.deepEqual(
      mock.service.notifications.map((record) => [record.previousStatus, record.status]),
      [['new', 'paid']],
    );
    await mock.close();
  });

  test('canceled or expired, it gives its hold back; the cancel answer lists no deal', async () => {
    const mock = inProcessMock(FROZEN);
    const [start] = await accounts(mock);
    const canceled = (await createPayout(mock)).json as { id: string };
    const answer = await signedRequest(mock, 'POST', `/api/merchant/invoices/${canceled.id}/cancel`);
    assert.deepEqual([answer.status, (answer.json as { deals: unknown[] }).deals], [200, []]);
    assert.deepEqual((await accounts(mock))[0], start);
    const expiring = (await createPayout(mock)).json as { id: string };
    assert.notDeepEqual((await accounts(mock))[0], start);
    await mock.service.advanceClock(MOCK_DEFAULTS.invoiceTtlMs);
    assert.equal(mock.service.getInvoice(expiring.id)?.status, 'expired');
    assert.deepEqual((await accounts(mock))[0], start);
    await mock.close();
  });

  test('bad input: more than the account has, a blank payee, unknown with SBP; unknown with a card finds the bank from its number', async () => {
    const poor = inProcessMock({ merchants: [{ ...MERCHANT, balance: '10.88082900' }] });
    assert.deepEqual(messagesOf(await createPayout(poor)), ['Insufficient funds']);
    assert.deepEqual((await accounts(poor))[0]?.frozenSum, usdt('0.00000000'), 'nothing held');
    await poor.close();
    const exact = inProcessMock({ merchants: [{ ...MERCHANT, balance: COST }] });
    assert.equal((await createPayout(exact)).status, 200, 'the whole balance may go');
    assert.deepEqual((await accounts(exact))[0]?.sum, usdt('0.00000000'));
    await exact.close();

    const mock = inProcessMock({ controls: true });
    const blank = await createPayout(mock, { paymentRequisites: { requisites: ' ', holder: 1 } });
    assert.deepEqual(messagesOf(blank), [
      'this value should not be blank. field: "paymentRequisites.requisites"',
      'this value should not be blank. field: "paymentRequisites.holder"',
    ]);
    assert.deepEqual(messagesOf(await createPayout(mock, { paymentMethod: 'unknown', paymentOption: 'SBP' })), [
      'Payment method not allowed',
    ]);
    const found = (
      await createPayout(mock, { paymentMethod: 'unknown', paymentRequisites: { requisites: '2200 7001 2345 6789', holder: 'Анна К.' } })
    ).json as {
      paymentMethod: string;
      deals: { paymentMethod: string }[];
    };
    assert.deepEqual(
      [found.paymentMethod, found.deals[0]?.paymentMethod],
      ['unknown', 'tinkoff'],
      'the invoice keeps what was asked; the deal names the bank',
    );
    const foreign = (
      await createPayout(mock, { paymentMethod: 'unknown', paymentRequisites: { requisites: '4111 1111 1111 1111', holder: 'A' } })
    ).json as { deals: { paymentMethod: string }[] };
    assert.equal(foreign.deals[0]?.paymentMethod, 'unknown', 'a card of no known bank stays unknown');
    const sent = (await createPayout(mock)).json as { id: string };
    mock.service.markPaid(sent.id);
    assert.match(controlError(await control(mock, 'POST', `/invoices/${sent.id}/dispute`, {})).message, /pay-in/, 'disputes are a payer’s');
    assert.match(controlError(await control(mock, 'POST', `/invoices/${sent.id}/correct`, { amount: '1000.01' })).message, /pay-in/);
    await mock.close();
  });
});

describe('accounts and withdrawals', () => {
  test('GET /accounts answers the documented AccountDTO; the client reads it, and the older {id, currency, balance}', async () => {
    const mock = inProcessMock();
    const [account] = await accounts(mock);
    const documented = documentedAccountShape();
    assert.deepEqual(Object.keys(account!), Object.keys(documented));
    for (const field of ['sum', 'frozenSum', 'withdrawalFee'] as const)
      assert.deepEqual(Object.keys(account![field]), Object.keys(documented[field]), field);
    assert.deepEqual(
      [account?.currency, account?.sum, account?.withdrawalFee],
      ['USDT', usdt(BALANCE), usdt(`${MOCK_DEFAULTS.withdrawalFee}.00000000`)],
    );
    const read = await mock.client().listAccounts();
    assert.deepEqual([read[0]?.sum, read[0]?.frozenSum], [account?.sum, account?.frozenSum]);
    const older = safeParse(AccountListSchema, [{ id: account!.id, currency: 'USDT', balance: usdt('3.00000000') }]);
    assert.ok(older.success && older.data[0]?.sum?.amount === '3.00000000', 'the older balance reads as sum');
    assert.deepEqual(mock.service.listAccounts(), [account]);
    await mock.close();
  });

  test('a withdrawal leaves sum at once and is frozen until sent; then GET /withdrawals/{id} has its txId', async () => {
    const clock = manualClock();
    const mock = inProcessMock({ now: clock.now });
    const [start] = await accounts(mock);
    const created = await mock.client().createWithdrawal({ accountId: start!.id, amount: '100', address: 'TQrZ9wBzQ2V7', code2FA: '1' });
    const [sending] = await accounts(mock);
    assert.deepEqual([sending?.sum.amount, sending?.frozenSum.amount], ['9899.00000000', '101.00000000'], 'the sum and the fee');
    assert.equal((await mock.client().getWithdrawal(created.id)).txId, null);
    clock.advance(MOCK_DEFAULTS.withdrawalTxDelayMs);
    const sent = await mock.client().getWithdrawal(created.id);
    assert.match(sent.txId ?? '', /^[0-9a-f]{64}$/);
    assert.deepEqual((await accounts(mock))[0], { ...sending, frozenSum: usdt('0.00000000') }, 'debited: no longer frozen');
    await mock.close();
  });
});

describe('the lists, as documented', () => {
  test('payment methods start with the placeholder unknown (merchant and public API); every option is in RUB', async () => {
    const mock = inProcessMock();
    const methods = (await signedRequest(mock, 'GET', '/api/merchant/payment-methods')).json as { code: string }[];
    const documented = documentedPaymentMethods();
    assert.deepEqual(methods[0], documented[0]);
    assert.ok(
      documented.every(({ code }) => methods.some((method) => method.code === code)),
      'every documented code is listed',
    );
    const rub = (await signedRequest(mock, 'GET', '/api/merchant/payment-methods?currency=RUB')).json as unknown[];
    assert.deepEqual(rub[0], documented[0]);
    const publicList = (await readAnswer(await mock.fetch(new Request(`${mock.baseUrl}/api/public/payment-methods/RUB`))))
      .json as unknown[];
    assert.deepEqual(publicList[0], documentedPublicPaymentMethods()[0]);
    assert.deepEqual(
      (await readAnswer(await mock.fetch(new Request(`${mock.baseUrl}/api/public/payment-methods/XYZ`)))).json,
      [],
      'a currency without banks lists nothing',
    );

    const options = (await signedRequest(mock, 'GET', '/api/merchant/payment-options')).json as unknown[];
    for (const option of documentedPaymentOptions())
      assert.ok(
        options.some((each) => JSON.stringify(each) === JSON.stringify(option)),
        JSON.stringify(option),
      );
    assert.ok(options.every((option) => (option as { currency: string }).currency === 'RUB'));
    assert.equal((await mock.client().listPaymentMethods())[0]?.code, 'unknown', 'the client reads it as it comes');
    const invoice = await mock
      .client()
      .createInvoice({ ...createInvoiceBody({ paymentMethod: 'unknown', paymentOption: 'TO_CARD' }), type: 'in' });
    assert.equal(invoice.paymentMethod, 'unknown');
    await mock.close();
  });
});
