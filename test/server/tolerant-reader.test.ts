/**
 * The tolerant reader: every timestamp form, both answer shapes, and every field the checkout
 * never shows in any state, through the client and through the proxy; and the strict part
 * still refused with the field named.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MerchantClient, MerchantResponseError, createCheckoutHandler } from '../../src/server/node.js';
import { timestampWarnings } from '../../src/schemas/index.js';
import {
  INVOICE_ID,
  WITHDRAWAL_ID,
  exampleCanceledInvoice,
  exampleInvoice,
  exampleLookupDeal,
  exampleLookupInvoice,
  exampleVariants,
  exampleWithdrawal,
  validCreateInvoice,
} from '../fixtures/dto.js';
import { documentedConfirmTransferAnswer, documentedInvoice, documentedStartDealAnswer } from '../fixtures/documented.js';

/** A client whose service answers `body` to everything. */
const clientAnswering = (body: () => unknown) =>
  new MerchantClient({
    baseUrl: 'https://pay.example',
    apiKey: 'key',
    secretKey: 'secret',
    timeoutMs: 2000,
    fetch: () => Promise.resolve(Response.json(body())),
  });

const proxyAnswering = (body: () => unknown) => createCheckoutHandler({ client: clientAnswering(body), authorize: () => true });

const proxyGet = async (body: () => unknown) => {
  const response = await proxyAnswering(body)(new Request(`https://shop.example/invoices/${INVOICE_ID}`));
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
};

/** Each form the service may write, and the RFC 3339 form the element receives. */
const TIMESTAMPS: [string, string][] = [
  ['2026-11-22T10:30:00+03:00', '2026-11-22T10:30:00+03:00'],
  ['2026-11-22T10:30:00+0300', '2026-11-22T10:30:00+03:00'],
  ['2026-11-22T10:30:00+03', '2026-11-22T10:30:00+03:00'],
  ['2026-11-22T07:30:00Z', '2026-11-22T07:30:00+00:00'],
  ['2026-11-22T10:30+03:00', '2026-11-22T10:30:00+03:00'],
  ['2026-11-22T10:30:00.5+03:00', '2026-11-22T10:30:00.5+03:00'],
  ['2026-11-22T10:30:00.123456789-05:00', '2026-11-22T10:30:00.123456789-05:00'],
  ['2026-11-22t07:30:00z', '2026-11-22T07:30:00+00:00'],
  ['2026-11-22T07:30:00', '2026-11-22T07:30:00+00:00'],
];

describe('timestamps: every ISO 8601 form, normalized to RFC 3339 ±HH:MM', () => {
  for (const [sent, normalized] of TIMESTAMPS) {
    test(`${sent} → ${normalized}, through the client and through the proxy`, async () => {
      const body = () => exampleLookupInvoice({ expireAt: sent, updatedAt: sent, deals: [exampleLookupDeal({ canceledAt: sent })] });
      const invoice = await clientAnswering(body).getInvoice(INVOICE_ID);
      assert.equal(invoice.expireAt, normalized);
      assert.equal(invoice.deals[0]?.canceledAt, normalized);
      const { status, json } = await proxyGet(body);
      assert.equal(status, 200);
      assert.equal(json.expireAt, normalized);
      assert.equal(json.updatedAt, normalized);
      assert.equal((json.deals as { canceledAt: string }[])[0]?.canceledAt, normalized);
      const canceled = await clientAnswering(() => exampleCanceledInvoice({ expiredAt: sent })).cancelInvoice(INVOICE_ID);
      assert.equal(canceled.expiredAt, normalized);
    });
  }

  test('a timestamp without an offset is read as UTC and logged once', async () => {
    const logged: string[] = [];
    const original = timestampWarnings.noOffset;
    timestampWarnings.noOffset = (text) => void logged.push(text);
    try {
      const client = clientAnswering(() => exampleLookupInvoice({ expireAt: '2026-11-22T07:30:00' }));
      assert.equal((await client.getInvoice(INVOICE_ID)).expireAt, '2026-11-22T07:30:00+00:00');
      assert.deepEqual(logged, ['2026-11-22T07:30:00']);
    } finally {
      timestampWarnings.noOffset = original;
    }
  });

  test('what is no timestamp at all is refused, naming the field', async () => {
    for (const bad of ['tomorrow', '2026-13-01T10:00:00Z', '2026-02-30T10:00:00Z', '2026-11-22T25:00:00Z', '2026-11-22T10:00:00+3']) {
      const error = await clientAnswering(() => exampleLookupInvoice({ expireAt: bad }))
        .getInvoice(INVOICE_ID)
        .then(
          () => assert.fail(`${bad} accepted`),
          (failure: unknown) => failure,
        );
      assert.ok(error instanceof MerchantResponseError, bad);
      assert.equal(error.field, 'expireAt');
    }
  });
});

describe('one object or a one-element array, for every answer', () => {
  const client = (body: unknown) => clientAnswering(() => structuredClone(body));
  const cases: [string, unknown, (c: MerchantClient) => Promise<{ id?: string } | unknown[]>][] = [
    ['create', exampleInvoice(), (c) => c.createInvoice(validCreateInvoice())],
    ['lookup by internal id', exampleLookupInvoice(), (c) => c.getInvoiceByInternalId('order-42')],
    ['read by id', exampleLookupInvoice(), (c) => c.getInvoice(INVOICE_ID)],
    ['cancel', exampleCanceledInvoice(), (c) => c.cancelInvoice(INVOICE_ID)],
    ['create withdrawal', exampleWithdrawal(), (c) => c.createWithdrawal({ accountId: 'a', amount: '1', address: 'x', code2FA: '1' })],
    ['withdrawal', exampleWithdrawal(), (c) => c.getWithdrawal(WITHDRAWAL_ID)],
  ];
  for (const [name, body, call] of cases) {
    test(name, async () => {
      const single = (await call(client(body))) as { id: string };
      const wrapped = (await call(client([body]))) as { id: string };
      assert.equal(single.id, (body as { id: string }).id);
      assert.deepEqual(wrapped, single);
    });
  }
  test('variants: a list, a list in a list, or one object (a list of one)', async () => {
    assert.equal((await client(exampleVariants()).listPaymentVariants(INVOICE_ID)).length, 3);
    assert.equal((await client([exampleVariants()]).listPaymentVariants(INVOICE_ID)).length, 3);
    assert.deepEqual(await client({ option: 'SBP', method: 'vtb' }).listPaymentVariants(INVOICE_ID), [{ option: 'SBP', method: 'vtb' }]);
  });
});

/** Fields the checkout never shows, each missing, null and of another type: the answer is read all the same. */
describe('fields the checkout never shows never reject an answer', () => {
  const drop = (object: Record<string, unknown>, field: string, state: 'missing' | 'null' | 'wrong type') => {
    if (state === 'missing') delete object[field];
    else object[field] = state === 'null' ? null : { unexpected: [1, 2] };
  };
  const dealFields = [
    'paymentMethodName',
    'disputeReasonData',
    'disputeReason',
    'disputeAttachment',
    'attachments',
    'disputeResult',
    'rate',
    'payment',
    'type',
    'id',
  ];
  const invoiceFields = [
    'storeName',
    'storeId',
    'userId',
    'invoiceUrl',
    'createdAt',
    'updatedAt',
    'payoutSum',
    'paymentRequisites',
    'paymentMethod',
  ];
  const cancelFields = ['flow', 'flowData', 'isSumChanged', 'successUrl', 'cancelUrl', 'expiredAt'];
  const withdrawalFields = ['status', 'accountId', 'txId', 'address', 'createdAt'];
  for (const state of ['missing', 'null', 'wrong type'] as const) {
    for (const field of dealFields) {
      test(`deal.${field} ${state}: accepted by the client and the proxy`, async () => {
        const body = () => {
          const invoice = exampleLookupInvoice();
          drop(invoice.deals[0] as Record<string, unknown>, field, state);
          return invoice;
        };
        assert.equal((await clientAnswering(body).getInvoice(INVOICE_ID)).id, INVOICE_ID);
        assert.equal((await proxyGet(body)).status, 200);
      });
    }
    for (const field of invoiceFields) {
      test(`invoice.${field} ${state}: accepted by the client and the proxy`, async () => {
        const body = () => {
          const invoice = exampleLookupInvoice();
          drop(invoice, field, state);
          return invoice;
        };
        assert.equal((await clientAnswering(body).getInvoice(INVOICE_ID)).id, INVOICE_ID);
        assert.equal((await proxyGet(body)).status, 200);
      });
    }
    if (state !== 'wrong type') {
      test(`invoice.receivedSumFromTaker ${state}: accepted (the amount to send is then \`sum\`)`, async () => {
        const body = () => {
          const invoice = exampleLookupInvoice();
          drop(invoice, 'receivedSumFromTaker', state);
          return invoice;
        };
        assert.equal((await clientAnswering(body).getInvoice(INVOICE_ID)).id, INVOICE_ID);
        assert.equal((await proxyGet(body)).status, 200);
      });
    }
    for (const field of cancelFields) {
      test(`cancel answer's ${field} ${state}: accepted`, async () => {
        const canceled = exampleCanceledInvoice();
        drop(canceled, field, state);
        assert.equal((await clientAnswering(() => canceled).cancelInvoice(INVOICE_ID)).status, 'canceled');
      });
    }
    for (const field of withdrawalFields) {
      test(`withdrawal.${field} ${state}: accepted`, async () => {
        const withdrawal = exampleWithdrawal();
        drop(withdrawal, field, state);
        assert.equal((await clientAnswering(() => withdrawal).getWithdrawal(WITHDRAWAL_ID)).id, WITHDRAWAL_ID);
      });
    }
  }
  test('a malformed receivedSumFromTaker (the amount the payer is shown) is refused, naming the field', async () => {
    for (const wrong of [
      { unexpected: [1, 2] },
      { amount: 1003.17, currency: 'RUB', subunit: 2 },
      { amount: '1 003,17', currency: 'RUB', subunit: 2 },
    ]) {
      const error = await clientAnswering(() => ({ ...exampleLookupInvoice(), receivedSumFromTaker: wrong }))
        .getInvoice(INVOICE_ID)
        .catch((failure: unknown) => failure);
      assert.ok(error instanceof MerchantResponseError, JSON.stringify(wrong));
      assert.match(error.field ?? '', /^receivedSumFromTaker/);
    }
  });
  test('holder: null on a deal that is not shown is accepted; on the shown deal it is refused, naming the field', async () => {
    const closed = exampleLookupInvoice({
      status: 'canceled',
      deals: [exampleLookupDeal({ isActive: false, status: 'canceled', requisites: { requisites: null, holder: null } })],
    });
    assert.equal((await clientAnswering(() => closed).getInvoice(INVOICE_ID)).status, 'canceled');
    const shown = exampleLookupInvoice({ deals: [exampleLookupDeal({ requisites: { requisites: '2202206712345678', holder: null } })] });
    const error = await clientAnswering(() => shown)
      .getInvoice(INVOICE_ID)
      .catch((failure: unknown) => failure);
    assert.ok(error instanceof MerchantResponseError);
    assert.equal(error.field, 'deals[0].requisites.holder');
  });
});

describe('strict where money is', () => {
  const refused: [string, Record<string, unknown>, string][] = [
    ['a number amount', { sum: { amount: 1500, currency: 'RUB', subunit: 2 } }, 'sum.amount'],
    ['no currency', { sum: { amount: '1500.00', subunit: 2 } }, 'sum.currency'],
    ['a string subunit', { sum: { amount: '1500.00', currency: 'RUB', subunit: '2' } }, 'sum.subunit'],
    ['a status that is no string', { status: 3 }, 'status'],
    ['an id that is no UUID', { id: 'order-42' }, 'id'],
    ['a javascript: QR link', { deals: [exampleLookupDeal({ qrCodeLink: 'javascript:alert(1)' })] }, 'deals[0].qrCodeLink'],
    [
      'an active deal without requisites',
      { deals: [exampleLookupDeal({ requisites: { requisites: '', holder: 'A' } })] },
      'deals[0].requisites.requisites',
    ],
  ];
  for (const [name, overrides, field] of refused) {
    test(`${name}: the client throws naming ${field}, the proxy answers 502 upstream_invalid`, async () => {
      const body = () => exampleLookupInvoice(overrides);
      const error = await clientAnswering(body)
        .getInvoice(INVOICE_ID)
        .catch((failure: unknown) => failure);
      assert.ok(error instanceof MerchantResponseError, name);
      assert.equal(error.field, field);
      const { status, json } = await proxyGet(body);
      assert.equal(status, 502);
      assert.equal((json.error as { code: string }).code, 'upstream_invalid');
    });
  }
});

describe('the proxy forwards an allow-listed projection only', () => {
  test('tokens, user, store id, fees, payouts and unknown fields never reach the browser', async () => {
    const { json } = await proxyGet(() =>
      exampleLookupInvoice({
        notificationToken: 'secret-token',
        notificationUrl: 'https://shop.example/notify',
        payoutSum: { amount: '10.00', currency: 'USDT', subunit: 8 },
        serviceFeeSum: { amount: '1.00', currency: 'USDT', subunit: 8 },
        somethingNew: { internal: true },
        deals: [exampleLookupDeal({ payment: { feeSum: { amount: '1', currency: 'USDT', subunit: 8 } }, traderId: 77 })],
      }),
    );
    const text = JSON.stringify(json);
    for (const leaked of [
      'secret-token',
      'notificationUrl',
      'userId',
      'storeId',
      'payoutSum',
      'serviceFeeSum',
      'somethingNew',
      'traderId',
      'feeSum',
      'invoiceUrl',
    ]) {
      assert.ok(!text.includes(leaked), `${leaked} reached the browser`);
    }
    assert.equal((json.deals as { requisitesKind: string }[])[0]?.requisitesKind, 'card');
  });
});

describe("the documentation's own answers, verbatim (slashes escaped as the service writes them)", () => {
  /** A client whose service answers `body` as JSON text with every `/` written `\/`. */
  const escapedClient = (body: unknown) =>
    new MerchantClient({
      baseUrl: 'https://pay.example',
      apiKey: 'key',
      secretKey: 'secret',
      fetch: () =>
        Promise.resolve(new Response(JSON.stringify(body).replaceAll('/', '\\/'), { headers: { 'content-type': 'application/json' } })),
    });

  test('InvoiceDTO: read by id', async () => {
    const invoice = await escapedClient(documentedInvoice()).getInvoice('c8a9d474-b35b-4961-9bf4-b049e40dbc5b');
    assert.equal(invoice.sum.amount, '120.00');
    assert.equal(invoice.invoiceUrl, 'https://{{domain}}/invoice?id=c8a9d474-b35b-4961-9bf4-b049e40dbc5b');
    assert.equal(invoice.deals[0]?.id, invoice.id, 'a deal id may equal its invoice id');
    assert.equal(invoice.deals[0]?.qrCodeLink, 'https://www.sberbank.com/sms/pbpn?requisiteNumber=2234203656072495');
  });

  test('start-deal: the invoice with its one new deal', async () => {
    const invoice = await escapedClient(documentedStartDealAnswer()).startDeal('f70fe815-c61e-49bc-9e68-a96dcbaa8424', {});
    assert.equal(invoice.deals.length, 1);
    assert.equal(invoice.deals[0]?.status, 'transfer_waiting');
    assert.deepEqual(invoice.deals[0]?.requisites, { requisites: '4444 4444 4444 4444', holder: 'test' });
  });

  test('confirm-transfer: transfer_confirmed, disputeReasonData as an object, the settlement sums', async () => {
    const invoice = await escapedClient(documentedConfirmTransferAnswer()).confirmTransfer(
      '0a0eb051-b255-42a8-a7bc-606e1c04233e',
      new Blob(['receipt'], { type: 'text/plain' }),
    );
    assert.equal(invoice.deals[0]?.status, 'transfer_confirmed');
    assert.deepEqual(invoice.deals[0]?.disputeReasonData, { amount: '210' });
    assert.equal(invoice.payoutSum?.amount, '6.25012347');
  });
});
