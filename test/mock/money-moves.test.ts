/**
 * Where money moves on a pay-in, as the documentation and real shops show it: a paid invoice's
 * amount corrected (a second `paid` with the new amount), disputes opened on the service's side
 * after `paid`, `expired` or `canceled` and decided with the documented upper-case results, and
 * unique amounts (`maxAmount`) in `receivedSumFromTaker` of a `new` invoice. Each control is
 * tried through its method and its `/__mock` route, and with bad input.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FAILED_DISPUTE_RESULTS } from '../../src/schemas/index.js';
import { documentedCrossBorderCreateAnswer } from '../fixtures/documented-money.js';
import {
  FROZEN,
  capturedNotifications,
  control,
  controlError,
  createInvoiceBody,
  inProcessMock,
  messagesOf,
  multipartRequest,
  signedRequest,
  type MockUnderTest,
} from './helpers.js';

type Money = { amount: string; currency: string; subunit: number };
type Deal = {
  id: string;
  status: string;
  isActive: boolean;
  disputeResult: string | null;
  disputeReason: string | null;
  payment: { takerSum: Money; makerSum: Money; feeSum: Money } | null;
};
type Invoice = {
  id: string;
  status: string;
  sum: Money;
  updatedAt: string;
  receivedSumFromTaker: Money | null;
  receivedSumFromMaker: Money | null;
  serviceFeeSum: Money | null;
  payoutSum: Money | null;
  deals: Deal[];
};

const rub = (amount: string): Money => ({ amount, currency: 'RUB', subunit: 2 });
const usdt = (amount: string): Money => ({ amount, currency: 'USDT', subunit: 8 });

/** A mock on a frozen clock whose notifications land in `bodies`. */
const moneyMock = () => {
  const captured = capturedNotifications();
  const mock = inProcessMock({ ...FROZEN, controls: true, ...captured.options });
  return { mock, bodies: captured.bodies };
};

const create = async (mock: MockUnderTest, overrides: Record<string, unknown> = {}): Promise<Invoice> => {
  const answer = await signedRequest(mock, 'POST', '/api/merchant/invoices', {
    body: JSON.stringify(createInvoiceBody({ startDeal: true, ...overrides })),
  });
  assert.equal(answer.status, 200, answer.text);
  return answer.json as Invoice;
};

const read = (mock: MockUnderTest, id: string): Invoice => mock.service.getInvoice(id) as unknown as Invoice;
const balance = (mock: MockUnderTest): string => mock.service.listAccounts()[0]!.sum.amount;
/** USDT text → minor units, to compare balances without floats. */
const minor = (amount: string): bigint => BigInt(amount.replace('.', ''));

describe('a corrected payment: the second paid', () => {
  test('5000.00 → 5004.50: the sums and the deal payment at the invoice rate, a later updatedAt, a second paid notification, the credit moves by the difference', async () => {
    const { mock, bodies } = moneyMock();
    const invoice = await create(mock, { amount: '5000' });
    mock.service.markPaid(invoice.id);
    const paid = read(mock, invoice.id);
    const before = balance(mock);

    const answer = await control(mock, 'POST', `/invoices/${invoice.id}/correct`, { amount: '5004.50' });
    assert.equal(answer.status, 200, answer.text);
    const corrected = answer.json as Invoice;
    assert.equal(corrected.status, 'paid');
    assert.deepEqual(corrected.sum, rub('5000.00'), '`sum` stays the amount asked for');
    // 5004.50 RUB at 96.50 is 51.86010362 USDT (rounded down); the 5 % fee 2.59300518; the payout the rest.
    assert.deepEqual(
      [corrected.receivedSumFromTaker, corrected.receivedSumFromMaker, corrected.serviceFeeSum, corrected.payoutSum],
      [rub('5004.50'), usdt('51.86010362'), usdt('2.59300518'), usdt('49.26709844')],
    );
    assert.deepEqual(corrected.deals[0]?.payment?.takerSum, rub('5004.50'));
    assert.deepEqual(corrected.deals[0]?.payment?.makerSum, usdt('51.86010362'));
    assert.ok(Date.parse(corrected.updatedAt) > Date.parse(paid.updatedAt), `${corrected.updatedAt} is later than ${paid.updatedAt}`);
    // 5000.00 paid out 49.22279793; the correction adds the difference.
    assert.equal(minor(balance(mock)) - minor(before), minor('49.26709844') - minor('49.22279793'));

    await mock.service.notificationsSettled();
    assert.deepEqual(
      bodies.map((body) => [body.invoice.status, (body.invoice.receivedSumFromTaker as Money).amount]),
      [
        ['paid', '5000.00'],
        ['paid', '5004.50'],
      ],
    );
    const [first, second] = bodies;
    assert.ok(Date.parse(second!.invoice.updatedAt) > Date.parse(first!.invoice.updatedAt), 'the service’s own timestamps order the two');
    assert.deepEqual((second!.invoice.deal?.payment as { takerSum: Money }).takerSum, rub('5004.50'));
    assert.deepEqual(
      mock.service.notifications.map((record) => [record.previousStatus, record.status]),
      [
        ['new', 'paid'],
        ['paid', 'paid'],
      ],
    );

    mock.service.correctAmount(invoice.id, '4999.99');
    assert.deepEqual(read(mock, invoice.id).receivedSumFromTaker, rub('4999.99'), 'a correction may lower the amount too');
    await mock.close();
  });

  test('bad input: unknown id, wrong status, a pay-out, malformed or unchanged amounts are a 4xx naming the field', async () => {
    const { mock } = moneyMock();
    const open = await create(mock);
    const paid = await create(mock, { amount: '5000' });
    mock.service.markPaid(paid.id);
    const refusals: [string, unknown, number, RegExp][] = [
      ['00000000-0000-4000-8000-000000000000', { amount: '1.00' }, 404, /no invoice/],
      [open.id, { amount: '5004.50' }, 400, /invoice .* is new/],
      [paid.id, {}, 400, /^amount: /],
      [paid.id, { amount: 5004.5 }, 400, /^amount: /],
      [paid.id, { amount: 'abc' }, 400, /^amount: must be a decimal number/],
      [paid.id, { amount: '5004.555' }, 400, /^amount: must have at most 2 digits after the decimal point/],
      [paid.id, { amount: '0.00' }, 400, /^amount: must be greater than zero/],
      [paid.id, { amount: '5000.00' }, 400, /^amount: is the amount the invoice has already/],
      [paid.id, { amount: '1.00', note: 'x' }, 400, /^note: /],
    ];
    for (const [id, body, status, message] of refusals) {
      const answer = await control(mock, 'POST', `/invoices/${id}/correct`, body);
      assert.equal(answer.status, status, `${JSON.stringify(body)}: ${answer.text}`);
      assert.match(controlError(answer).message, message);
    }
    assert.throws(() => mock.service.correctAmount(paid.id, '-1'), /^MockControlError: amount: /);
    assert.deepEqual(read(mock, paid.id).receivedSumFromTaker, rub('5000.00'), 'nothing changed');
    await mock.close();
  });
});

describe('disputes after paid, and the documented revisions', () => {
  /** Drives one invoice into `start`, disputes it on the service's side, decides it; answers the statuses notified. */
  const revise = async (start: 'new' | 'paid' | 'expired' | 'canceled', result: string, amount?: string) => {
    const { mock, bodies } = moneyMock();
    const invoice = await create(mock, { amount: '5000' });
    if (start === 'paid') mock.service.markPaid(invoice.id);
    if (start === 'expired') mock.service.expire(invoice.id);
    if (start === 'canceled') assert.equal((await signedRequest(mock, 'POST', `/api/merchant/invoices/${invoice.id}/cancel`)).status, 200);
    const before = balance(mock);
    const opened = await control(mock, 'POST', `/invoices/${invoice.id}/dispute`, {});
    assert.equal(opened.status, 200, opened.text);
    const disputed = opened.json as Invoice;
    assert.deepEqual(
      [disputed.status, disputed.deals.length, disputed.deals[0]?.status, disputed.deals[0]?.disputeReason],
      ['dispute', 1, 'dispute', 'no_payment'],
    );
    const resolved = await control(mock, 'POST', `/invoices/${invoice.id}/resolve`, { result, ...(amount ? { amount } : {}) });
    assert.equal(resolved.status, 200, resolved.text);
    await mock.service.notificationsSettled();
    const after = resolved.json as Invoice;
    const stamps = bodies.map((body) => Date.parse(body.invoice.updatedAt));
    assert.ok(
      stamps.every((stamp, i) => i === 0 || stamp > stamps[i - 1]!),
      `updatedAt grows with each notification: ${stamps.join(', ')}`,
    );
    await mock.close();
    return {
      invoice,
      after,
      statuses: bodies.map((body) => body.invoice.status),
      credit: minor(balance(mock)) - minor(before),
      disputedDeal: bodies.at(-1)?.invoice.deal,
    };
  };

  test('paid → dispute → paid (ACCEPTED): the payment stands, the credit does not move', async () => {
    const { after, statuses, credit } = await revise('paid', 'ACCEPTED');
    assert.deepEqual(statuses, ['paid', 'dispute', 'paid']);
    assert.deepEqual(
      [after.status, after.receivedSumFromTaker, after.deals[0]?.status, after.deals[0]?.isActive, after.deals[0]?.disputeResult],
      ['paid', rub('5000.00'), 'completed', false, 'ACCEPTED'],
    );
    assert.equal(credit, 0n);
  });

  test('paid → dispute → paid (AMOUNT_CHANGED): settled at the amount given, in the sums and the deal payment', async () => {
    const { after, statuses, credit, disputedDeal } = await revise('paid', 'AMOUNT_CHANGED', '4990.00');
    assert.deepEqual(statuses, ['paid', 'dispute', 'paid']);
    assert.deepEqual(
      [after.receivedSumFromTaker, after.deals[0]?.payment?.takerSum, after.deals[0]?.disputeResult],
      [rub('4990.00'), rub('4990.00'), 'AMOUNT_CHANGED'],
    );
    // 4990.00 RUB pays out 49.12435233 USDT, 5000.00 paid out 49.22279793.
    assert.equal(credit, minor('49.12435233') - minor('49.22279793'));
    assert.deepEqual([disputedDeal?.status, disputedDeal?.disputeResult], ['completed', 'AMOUNT_CHANGED']);
  });

  test('paid → dispute → canceled (a failed result): the payment is taken back', async () => {
    const { after, statuses, credit } = await revise('paid', 'FRAUD_CONFIRM_DOCS');
    assert.deepEqual(statuses, ['paid', 'dispute', 'canceled']);
    assert.deepEqual(
      [
        after.status,
        after.receivedSumFromTaker,
        after.payoutSum,
        after.deals[0]?.status,
        after.deals[0]?.payment,
        after.deals[0]?.disputeResult,
      ],
      ['canceled', null, null, 'canceled', null, 'FRAUD_CONFIRM_DOCS'],
    );
    assert.equal(credit, -minor('49.22279793'));
  });

  test('expired → dispute → paid, and canceled → dispute → paid: the late payment is credited; a canceled invoice’s deal comes back', async () => {
    const late = await revise('expired', 'ACCEPTED');
    assert.deepEqual(late.statuses, ['expired', 'dispute', 'paid']);
    assert.deepEqual([late.after.receivedSumFromTaker, late.after.deals[0]?.status], [rub('5000.00'), 'completed']);
    assert.equal(late.credit, minor('49.22279793'));
    const revived = await revise('canceled', 'AMOUNT_CHANGED', '5001.50');
    assert.deepEqual(revived.statuses, ['canceled', 'dispute', 'paid']);
    assert.equal(revived.after.deals[0]?.id, revived.invoice.deals[0]?.id, 'the deal the cancel took off');
    assert.deepEqual(revived.after.receivedSumFromTaker, rub('5001.50'));
  });

  test('every failed result leaves the invoice canceled with nothing received, whatever it started from', async () => {
    for (const [start, result] of [
      ['expired', 'TTL_EXPIRED'],
      ['canceled', 'UNKNOWN'],
      ['new', 'WAITING_CONFIRM_DOCS_FROM_MERCHANT'],
    ] as const) {
      const { after, statuses, credit } = await revise(start, result);
      assert.deepEqual([statuses.at(-2), statuses.at(-1)], ['dispute', 'canceled'], `${start}, ${result}`);
      assert.deepEqual([after.receivedSumFromTaker, after.deals[0]?.disputeResult], [null, result]);
      assert.equal(credit, 0n);
    }
    const { mock } = moneyMock();
    for (const result of FAILED_DISPUTE_RESULTS) {
      const invoice = await create(mock);
      mock.service.openDispute(invoice.id);
      mock.service.resolveDispute(invoice.id, result);
      assert.deepEqual([read(mock, invoice.id).status, read(mock, invoice.id).deals[0]?.disputeResult], ['canceled', result]);
    }
    await mock.close();
  });

  test('an accepted invalid_sum settles the disputed amount; the merchant API still disputes only a new invoice (404 null when canceled)', async () => {
    const { mock } = moneyMock();
    const invoice = await create(mock, { amount: '1500' });
    mock.service.openDispute(invoice.id, { reason: 'invalid_sum', amount: '1210.00' });
    mock.service.resolveDispute(invoice.id, 'ACCEPTED');
    assert.deepEqual(read(mock, invoice.id).receivedSumFromTaker, rub('1210.00'));
    const dispute = (id: string, dealId: string) =>
      multipartRequest(mock, `/api/merchant/invoices/${id}/dispute`, { dealId, disputeReason: 'no_payment' });
    assert.deepEqual(messagesOf(await dispute(invoice.id, invoice.deals[0]!.id)), [
      `Can not open a dispute: invoice ${invoice.id} is paid`,
    ]);
    const canceled = await create(mock);
    await signedRequest(mock, 'POST', `/api/merchant/invoices/${canceled.id}/cancel`);
    const late = await dispute(canceled.id, canceled.deals[0]!.id);
    assert.deepEqual([late.status, late.text], [404, 'null']);
    await mock.close();
  });

  test('bad input to dispute and resolve: unknown id, wrong status, an unknown reason or result, a missing or malformed amount', async () => {
    const { mock } = moneyMock();
    const invoice = await create(mock);
    const noDeal = await create(mock, { startDeal: false });
    const disputes: [string, unknown, number, RegExp][] = [
      ['00000000-0000-4000-8000-000000000000', {}, 404, /no invoice/],
      [noDeal.id, {}, 400, /has no deal to dispute/],
      [invoice.id, { reason: 'bored' }, 400, /^reason: /],
      [invoice.id, { reason: 'invalid_sum' }, 400, /^amount: is required with invalid_sum/],
      [invoice.id, { reason: 'no_payment', amount: '10.00' }, 400, /^amount: goes only with invalid_sum/],
      [invoice.id, { reason: 'invalid_sum', amount: '12,50' }, 400, /^amount: must be a decimal number/],
    ];
    for (const [id, body, status, message] of disputes) {
      const answer = await control(mock, 'POST', `/invoices/${id}/dispute`, body);
      assert.equal(answer.status, status, `${JSON.stringify(body)}: ${answer.text}`);
      assert.match(controlError(answer).message, message);
    }
    const notYet = await control(mock, 'POST', `/invoices/${invoice.id}/resolve`, { result: 'ACCEPTED' });
    assert.match(controlError(notYet).message, /Can not resolve a dispute: invoice .* is new/);
    mock.service.openDispute(invoice.id, { reason: 'has_payment' });
    assert.match(controlError(await control(mock, 'POST', `/invoices/${invoice.id}/dispute`, {})).message, /is dispute/);
    const resolves: [unknown, RegExp][] = [
      [{ result: 'accepted' }, /^result: must be one of ACCEPTED, AMOUNT_CHANGED/],
      [{}, /^result: is required/],
      [{ result: 'ACCEPTED', outcome: 'paid' }, /^result: /],
      [{ result: 'AMOUNT_CHANGED' }, /^amount: is required with AMOUNT_CHANGED/],
      [{ result: 'AMOUNT_CHANGED', amount: '-3' }, /^amount: must be a decimal number/],
      [{ result: 'AMOUNT_CHANGED', amount: '0' }, /^amount: must be greater than zero/],
      [{ result: 'ACCEPTED', amount: '10.00' }, /^amount: goes only with AMOUNT_CHANGED/],
    ];
    for (const [body, message] of resolves) {
      const answer = await control(mock, 'POST', `/invoices/${invoice.id}/resolve`, body);
      assert.equal(answer.status, 400, `${JSON.stringify(body)}: ${answer.text}`);
      assert.match(controlError(answer).message, message);
    }
    assert.equal(read(mock, invoice.id).status, 'dispute', 'nothing was decided');
    await mock.close();
  });
});

describe('unique amounts: the amount the payer must send', () => {
  test('with maxAmount, a new invoice carries the amount drawn in receivedSumFromTaker (sum stays the amount asked); paying settles it', async () => {
    const { mock } = moneyMock();
    const plain = await create(mock, { amount: '2000' });
    assert.deepEqual([plain.receivedSumFromTaker, plain.payoutSum], [null, null], 'without unique amounts nothing is expected yet');
    const drawn = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const invoice = await create(mock, { amount: '2000', maxAmount: '2010.00' });
      const taker = invoice.receivedSumFromTaker!;
      assert.equal(invoice.sum.amount, '2000.00');
      assert.ok(minor(taker.amount) >= minor('2000.00') && minor(taker.amount) <= minor('2010.00'), taker.amount);
      assert.deepEqual([taker.currency, invoice.receivedSumFromMaker?.currency, invoice.payoutSum?.subunit], ['RUB', 'USDT', 8]);
      drawn.add(taker.amount);
      const lookup = (await signedRequest(mock, 'GET', `/api/merchant/invoices/${invoice.id}`)).json as Invoice;
      assert.deepEqual(lookup.receivedSumFromTaker, taker, 'every read says the same amount');
      mock.service.markPaid(invoice.id);
      assert.deepEqual(read(mock, invoice.id).receivedSumFromTaker, taker, 'paid at the amount drawn');
    }
    assert.ok(drawn.size > 1, 'amounts differ between invoices');
    const expired = await create(mock, { amount: '2000', maxAmount: '2010.00' });
    mock.service.expire(expired.id);
    assert.equal(read(mock, expired.id).receivedSumFromTaker, null, 'nothing expected of an invoice that ended unpaid');
    await mock.close();
  });

  test('a cross-border invoice fills the four sums while new, as the documented example', async () => {
    const { mock } = moneyMock();
    const documented = documentedCrossBorderCreateAnswer();
    const invoice = await create(mock, {
      amount: '1011',
      paymentOption: 'CROSS_BORDER',
      paymentMethod: 'dcbank',
      crossBorderCurrency: 'TJS',
      crossBorderRequisiteType: 'PHONE',
    });
    assert.deepEqual(Object.keys(invoice), Object.keys(documented));
    for (const field of ['receivedSumFromTaker', 'receivedSumFromMaker', 'serviceFeeSum', 'payoutSum'] as const) {
      assert.deepEqual(Object.keys(invoice[field]!), Object.keys(documented[field]), field);
      assert.equal(invoice[field]!.currency, documented[field].currency, field);
      assert.equal(invoice[field]!.subunit, documented[field].subunit, field);
    }
    assert.deepEqual(invoice.receivedSumFromTaker, rub('1011.00'));
    await mock.close();
  });
});
