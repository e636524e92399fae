/**
 * The mock answers with exactly the field sets of the service's public documentation
 * (docs/ARCHITECTURE.md, "The payment service"). The expected keys are written out here from the
 * documented examples (not taken from the schemas or the mock), and compared with the raw JSON sent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CancelInvoiceResponseSchema,
  CreateInvoiceResponseSchema,
  CreateWithdrawalResponseSchema,
  GetInvoiceResponseSchema,
  GetWithdrawalResponseSchema,
  PaymentVariantsResponseSchema,
  safeParse,
} from '../../src/schemas/index.js';
import { createInvoiceBody, inProcessMock, isObject, manualClock, signedRequest, type MockUnderTest } from './helpers.js';

// The documentation's "Money object".
const MONEY = ['amount', 'currency', 'subunit'];
// The documentation's "InvoiceDTO".
const INVOICE = [
  'id',
  'internalId',
  'userId',
  'type',
  'status',
  'paymentMethod',
  'paymentOption',
  'paymentRequisites',
  'sum',
  'storeId',
  'storeName',
  'receivedSumFromTaker',
  'receivedSumFromMaker',
  'serviceFeeSum',
  'payoutSum',
  'createdAt',
  'expireAt',
  'updatedAt',
  'invoiceUrl',
  'deals',
];
// The documentation: "The cancel operation returns a different set of invoice fields".
const CANCELED_INVOICE = [
  'id',
  'internalId',
  'type',
  'paymentMethod',
  'paymentOption',
  'paymentRequisites',
  'expiredAt',
  'sum',
  'status',
  'deals',
  'successUrl',
  'cancelUrl',
  'isSumChanged',
  'flow',
  'flowData',
];
// The documented DealDTO example (with `disputeResult` and `attachments`).
const LOOKUP_DEAL = [
  'id',
  'type',
  'status',
  'paymentMethod',
  'paymentOption',
  'requisites',
  'canceledAt',
  'disputeAttachment',
  'disputeReason',
  'disputeReasonData',
  'payment',
  'rate',
  'isActive',
  'qrCodeLink',
  'disputeResult',
  'attachments',
];
// The create answer of the documented pay-in example names the bank too (option `paymentMethodName`).
const DEAL = [...LOOKUP_DEAL, 'paymentMethodName'];
// DealDTO's `requisites`: "fields `requisites` ... and `holder`".
const DEAL_REQUISITES = ['requisites', 'holder'];
// The documented pay-out create answer: no `invoiceUrl`; its deal without `qrCodeLink`, `disputeResult`, `attachments`.
const PAYOUT_CREATED = INVOICE.filter((name) => name !== 'invoiceUrl');
const PAYOUT_DEAL = LOOKUP_DEAL.filter((name) => !['qrCodeLink', 'disputeResult', 'attachments'].includes(name));
// The documentation's "PaymentVariantDTO".
const VARIANT = ['option', 'method'];
// The documentation's "WithdrawalDTO": `status` and `accountId` only from the create operation.
const WITHDRAWAL_LOOKUP = ['id', 'createdAt', 'updatedAt', 'sum', 'fee', 'address', 'txId'];
const WITHDRAWAL_CREATE = [...WITHDRAWAL_LOOKUP, 'status', 'accountId'];

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

const keysOf = (value: unknown, where: string): string[] => {
  assert.ok(isObject(value), `${where} is an object`);
  return Object.keys(value).sort();
};
const assertKeys = (value: unknown, expected: string[], where: string) =>
  assert.deepEqual(keysOf(value, where), [...expected].sort(), `field set of ${where}`);

const assertMoney = (value: unknown, subunit: number, where: string) => {
  assertKeys(value, MONEY, where);
  const money = value as { amount: string; subunit: number };
  assert.equal(money.subunit, subunit, `${where}.subunit`);
  assert.match(money.amount, new RegExp(`^\\d+\\.\\d{${subunit}}$`), `${where}.amount has exactly ${subunit} decimals`);
};

const assertDeals = (deals: unknown, expected: string[], where: string) => {
  assert.ok(Array.isArray(deals), `${where} is an array`);
  deals.forEach((deal, index) => {
    assertKeys(deal, expected, `${where}[${index}]`);
    assertKeys((deal as { requisites: unknown }).requisites, DEAL_REQUISITES, `${where}[${index}].requisites`);
    assert.match((deal as { canceledAt: string }).canceledAt, ISO_WITH_OFFSET);
  });
};

const assertInvoice = (value: unknown, dealKeys: string[], where: string) => {
  assertKeys(value, INVOICE, where);
  const invoice = value as Record<string, unknown>;
  assertMoney(invoice.sum, 2, `${where}.sum`);
  for (const field of ['createdAt', 'expireAt', 'updatedAt']) assert.match(String(invoice[field]), ISO_WITH_OFFSET, `${where}.${field}`);
  assertDeals(invoice.deals, dealKeys, `${where}.deals`);
};

describe('field sets equal the reference for every response type', () => {
  const clock = manualClock();
  let mock: MockUnderTest;
  let invoiceId: string;
  before(async () => {
    mock = inProcessMock({ now: clock.now, controls: true });
    const created = await signedRequest(mock, 'POST', '/api/merchant/invoices', {
      body: JSON.stringify(createInvoiceBody({ internalId: 'fields-1', startDeal: true })),
    });
    assert.equal(created.status, 200, created.text);
    invoiceId = (created.json as { id: string }).id;
  });
  after(() => mock.close());

  test('create invoice: InvoiceDTO with deals as created (with paymentMethodName, no dispute result)', async () => {
    const created = await signedRequest(mock, 'POST', '/api/merchant/invoices', {
      body: JSON.stringify(createInvoiceBody({ startDeal: true, paymentMethod: 'sberbank', paymentOption: 'SBP' })),
    });
    assertInvoice(created.json, DEAL, 'create answer');
    assert.equal((created.json as { deals: unknown[] }).deals.length, 1);
    assert.equal(safeParse(CreateInvoiceResponseSchema, created.json).success, true);
  });

  test('create invoice without a deal, and a pay-out', async () => {
    const plain = await signedRequest(mock, 'POST', '/api/merchant/invoices', { body: JSON.stringify(createInvoiceBody()) });
    assertInvoice(plain.json, DEAL, 'create answer without deal');
    const out = await signedRequest(mock, 'POST', '/api/merchant/invoices', {
      body: JSON.stringify(
        createInvoiceBody({
          type: 'out',
          paymentMethod: 'vtb',
          paymentOption: 'TO_CARD',
          paymentRequisites: { requisites: '2200240000000000', holder: 'X' },
        }),
      ),
    });
    assertKeys(out.json, PAYOUT_CREATED, 'pay-out create answer');
    assertDeals((out.json as { deals: unknown }).deals, PAYOUT_DEAL, 'pay-out create answer.deals');
    assert.equal(safeParse(CreateInvoiceResponseSchema, out.json).success, true);
  });

  test('lookup by internal id: InvoiceDTO with deals carrying disputeResult and attachments', async () => {
    const found = await signedRequest(mock, 'GET', '/api/merchant/invoices/internal-id/fields-1');
    assertInvoice(found.json, LOOKUP_DEAL, 'lookup answer');
    assert.equal(safeParse(GetInvoiceResponseSchema, found.json).success, true);
  });

  test('available payment variants: an array of PaymentVariantDTO', async () => {
    const variants = await signedRequest(mock, 'GET', `/api/merchant/invoices/${invoiceId}/available-payment-variants`);
    assert.ok(Array.isArray(variants.json) && variants.json.length > 0);
    variants.json.forEach((variant, index) => assertKeys(variant, VARIANT, `variants[${index}]`));
    assert.equal(safeParse(PaymentVariantsResponseSchema, variants.json).success, true);
  });

  test('cancel: the cancel variant of the invoice', async () => {
    const created = await signedRequest(mock, 'POST', '/api/merchant/invoices', {
      body: JSON.stringify(createInvoiceBody({ startDeal: true })),
    });
    const id = (created.json as { id: string }).id;
    const canceled = await signedRequest(mock, 'POST', `/api/merchant/invoices/${id}/cancel`);
    assertKeys(canceled.json, CANCELED_INVOICE, 'cancel answer');
    const body = canceled.json as Record<string, unknown>;
    assertMoney(body.sum, 2, 'cancel answer.sum');
    assert.match(String(body.expiredAt), ISO_WITH_OFFSET);
    assert.deepEqual(body.deals, []);
    assert.equal(body.flow, 'DEFAULT');
    assert.equal(body.flowData, null);
    assert.equal(body.isSumChanged, false);
    assert.equal(body.status, 'canceled');
    assert.equal(safeParse(CancelInvoiceResponseSchema, canceled.json).success, true);
  });

  test('paid and expired invoices keep the same field sets (the four sums become Money objects when paid)', async () => {
    const paidId = (
      (await signedRequest(mock, 'POST', '/api/merchant/invoices', {
        body: JSON.stringify(createInvoiceBody({ internalId: 'paid-1', startDeal: true })),
      }).then((a) => a.json)) as { id: string }
    ).id;
    mock.service.markPaid(paidId);
    const paid = await signedRequest(mock, 'GET', '/api/merchant/invoices/internal-id/paid-1');
    assertInvoice(paid.json, LOOKUP_DEAL, 'paid lookup answer');
    const body = paid.json as Record<string, unknown>;
    assertMoney(body.receivedSumFromTaker, 2, 'receivedSumFromTaker');
    // Documented: the maker side, fee and payout are USDT with 8 decimals.
    for (const field of ['receivedSumFromMaker', 'serviceFeeSum', 'payoutSum']) assertMoney(body[field], 8, field);
    const payment = (body.deals as { payment: Record<string, unknown> }[])[0]?.payment;
    assertKeys(payment, ['takerSum', 'makerSum', 'feeSum', 'date'], 'paid deal.payment');
    assert.match(String(payment?.date), ISO_WITH_OFFSET);

    const expiringId = (
      (await signedRequest(mock, 'POST', '/api/merchant/invoices', {
        body: JSON.stringify(createInvoiceBody({ internalId: 'exp-1', startDeal: true })),
      }).then((a) => a.json)) as { id: string }
    ).id;
    mock.service.expire(expiringId);
    const expired = await signedRequest(mock, 'GET', '/api/merchant/invoices/internal-id/exp-1');
    assertInvoice(expired.json, LOOKUP_DEAL, 'expired lookup answer');
  });

  test('withdrawals: create with status and accountId, lookup without; 8 decimal places', async () => {
    const created = await signedRequest(mock, 'POST', '/api/merchant/withdrawals', {
      body: JSON.stringify({ accountId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', amount: '12.5', address: 'TQ', code2FA: '000000' }),
    });
    assertKeys(created.json, WITHDRAWAL_CREATE, 'withdrawal create answer');
    const body = created.json as Record<string, unknown>;
    assertMoney(body.sum, 8, 'withdrawal.sum');
    assertMoney(body.fee, 8, 'withdrawal.fee');
    assert.equal(body.status, 2);
    assert.equal(body.txId, null);
    assert.equal(safeParse(CreateWithdrawalResponseSchema, created.json).success, true);

    for (const when of ['before', 'after'] as const) {
      if (when === 'after') clock.advance(60_000);
      const found = await signedRequest(mock, 'GET', `/api/merchant/withdrawals/${String(body.id)}`);
      assertKeys(found.json, WITHDRAWAL_LOOKUP, `withdrawal lookup answer (${when} txId)`);
      assert.equal(safeParse(GetWithdrawalResponseSchema, found.json).success, true);
    }
  });
});
