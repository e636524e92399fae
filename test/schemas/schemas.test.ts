import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  CancelInvoiceResponseSchema,
  CheckoutDisputeAnswerSchema,
  CheckoutDisputeFormSchema,
  CheckoutInvoiceSchema,
  CreateInvoiceRequestSchema,
  CreateInvoiceResponseSchema,
  CreateWithdrawalRequestSchema,
  GetInvoiceResponseSchema,
  GetWithdrawalResponseSchema,
  InvoiceSchema,
  MoneySchema,
  PaymentVariantsResponseSchema,
  safeParse,
  type PaymentOption,
} from '../../src/schemas/index.js';
import {
  exampleCanceledInvoice,
  exampleInvoice,
  exampleLookupInvoice,
  exampleVariants,
  exampleWithdrawal,
  validCreateInvoice,
} from '../fixtures/dto.js';

const messageOf = (result: ReturnType<typeof safeParse>): string => {
  if (result.success) assert.fail('expected the value to be refused');
  return result.message;
};

describe('amounts are decimal text', () => {
  for (const amount of ['1500.00', '0.5', '12', '0.00000001', '100000000.00']) {
    test(`accepts ${JSON.stringify(amount)}`, () => {
      assert.equal(safeParse(MoneySchema, { amount, currency: 'RUB', subunit: 2 }).success, true);
    });
  }
  for (const amount of [1500, 1e3, '1e3', '-5', '1,5', '', ' 15', '15 ', '1.', '.5', '+5', 'NaN', 'Infinity', '0x10', null]) {
    test(`refuses ${JSON.stringify(amount)} in a request and names the field`, () => {
      const message = messageOf(safeParse(CreateInvoiceRequestSchema, validCreateInvoice({ amount })));
      assert.match(message, /^amount: must be a decimal number as text/);
    });
    test(`refuses ${JSON.stringify(amount)} in a response's sum and names the field`, () => {
      const message = messageOf(safeParse(InvoiceSchema, exampleInvoice({ sum: { amount, currency: 'RUB', subunit: 2 } })));
      assert.match(message, /sum\.amount: must be a decimal number as text/);
    });
  }
  test('a request amount of zero is refused', () => {
    assert.match(
      messageOf(safeParse(CreateInvoiceRequestSchema, validCreateInvoice({ amount: '0.00' }))),
      /amount: must be greater than zero/,
    );
  });
  test('a withdrawal amount must be decimal text too', () => {
    const result = safeParse(CreateWithdrawalRequestSchema, { accountId: 'a', amount: 100, address: 'x', code2FA: '123456' });
    assert.match(messageOf(result), /^amount: /);
  });
});

describe('create-invoice rules', () => {
  test('a minimal pay-in is valid', () => {
    assert.equal(safeParse(CreateInvoiceRequestSchema, validCreateInvoice()).success, true);
  });
  test('type "out" requires paymentOption, paymentMethod and paymentRequisites, each named', () => {
    const message = messageOf(safeParse(CreateInvoiceRequestSchema, validCreateInvoice({ type: 'out' })));
    assert.match(message, /paymentOption: is required when type is "out"/);
    assert.match(message, /paymentMethod: is required when type is "out"/);
    assert.match(message, /paymentRequisites: is required when type is "out"/);
  });
  test('a complete pay-out is valid', () => {
    const out = validCreateInvoice({
      type: 'out',
      paymentOption: 'TO_CARD',
      paymentMethod: 'sberbank',
      paymentRequisites: { requisites: '2202206712345678', holder: 'Ivan P.' },
    });
    assert.equal(safeParse(CreateInvoiceRequestSchema, out).success, true);
  });
  test('startDeal: true is refused on a pay-out', () => {
    const out = validCreateInvoice({
      type: 'out',
      startDeal: true,
      paymentOption: 'SBP',
      paymentMethod: 'tinkoff',
      paymentRequisites: { requisites: '+79001234567', holder: 'Ivan P.' },
    });
    assert.match(messageOf(safeParse(CreateInvoiceRequestSchema, out)), /startDeal: is only allowed when type is "in"/);
  });
  test('startDeal: true is fine on a pay-in', () => {
    assert.equal(safeParse(CreateInvoiceRequestSchema, validCreateInvoice({ startDeal: true })).success, true);
  });
  test('an unknown type is refused naming the field', () => {
    assert.match(
      messageOf(safeParse(CreateInvoiceRequestSchema, validCreateInvoice({ type: 'sideways' }))),
      /^type: must be "in" or "out"/,
    );
  });
  test('missing required fields are each named', () => {
    const message = messageOf(safeParse(CreateInvoiceRequestSchema, { type: 'in' }));
    for (const field of ['amount', 'currency', 'notificationUrl', 'notificationToken']) assert.match(message, new RegExp(`${field}: `));
  });
  test('a misspelt field is refused instead of silently dropped', () => {
    assert.match(
      messageOf(safeParse(CreateInvoiceRequestSchema, validCreateInvoice({ startdeal: true }))),
      /^startdeal: is not a known field$/,
    );
  });
  test('a wrong type names the field and what was received', () => {
    assert.match(
      messageOf(safeParse(CreateInvoiceRequestSchema, validCreateInvoice({ startDeal: 'yes' }))),
      /^startDeal: must be boolean, got string$/,
    );
  });
  test('notificationUrl must be an absolute http(s) URL', () => {
    assert.match(
      messageOf(safeParse(CreateInvoiceRequestSchema, validCreateInvoice({ notificationUrl: 'javascript:alert(1)' }))),
      /^notificationUrl: must be an absolute http\(s\) URL/,
    );
  });
});

describe('open enumerations', () => {
  test('an unknown payment option, status and bank code pass through unchanged', () => {
    const invoice = exampleLookupInvoice({ status: 'partially_paid', paymentOption: 'CRYPTO_QR', paymentMethod: 'newbank' });
    const result = safeParse(GetInvoiceResponseSchema, invoice);
    if (!result.success) return assert.fail(result.message);
    assert.equal(result.data.status, 'partially_paid');
    assert.equal(result.data.paymentOption, 'CRYPTO_QR');
  });
  test('known values are still named in the types', () => {
    const known: PaymentOption[] = ['TO_CARD', 'SBP', 'SOMETHING_NEW'];
    assert.equal(known.length, 3);
  });
  test('an empty status is refused, naming the known values', () => {
    assert.match(
      messageOf(safeParse(InvoiceSchema, exampleInvoice({ status: '' }))),
      /status: must not be empty \(known values: new, paid, canceled, expired, dispute\)/,
    );
  });
  test('a non-string option is refused', () => {
    assert.match(messageOf(safeParse(PaymentVariantsResponseSchema, [{ option: 1, method: 'x' }])), /\[0\]\.option: /);
  });
});

describe('responses', () => {
  const cases = [
    ['create invoice', CreateInvoiceResponseSchema, exampleInvoice()],
    ['lookup', GetInvoiceResponseSchema, exampleLookupInvoice()],
    ['cancel', CancelInvoiceResponseSchema, exampleCanceledInvoice()],
    ['withdrawal', GetWithdrawalResponseSchema, exampleWithdrawal()],
  ] as const;
  for (const [name, schema, value] of cases) {
    test(`${name}: a single object and a one-element array give the same object`, () => {
      const single = safeParse(schema, value);
      const wrapped = safeParse(schema, [value]);
      if (!single.success) return assert.fail(single.message);
      if (!wrapped.success) return assert.fail(wrapped.message);
      assert.deepEqual(wrapped.data, single.data);
      assert.equal(Array.isArray(single.data), false);
    });
  }
  test('a two-element array is not a single invoice', () => {
    assert.equal(safeParse(GetInvoiceResponseSchema, [exampleLookupInvoice(), exampleLookupInvoice()]).success, false);
  });
  test('unknown extra fields are accepted and kept', () => {
    const result = safeParse(GetInvoiceResponseSchema, exampleLookupInvoice({ brandNewField: { x: 1 } }));
    if (!result.success) return assert.fail(result.message);
    assert.deepEqual((result.data as Record<string, unknown>).brandNewField, { x: 1 });
  });
  test('variants: an array, or an array wrapped once more', () => {
    assert.deepEqual(PaymentVariantsResponseSchema.parse(exampleVariants()), exampleVariants());
    assert.deepEqual(PaymentVariantsResponseSchema.parse([exampleVariants()]), exampleVariants());
    assert.deepEqual(PaymentVariantsResponseSchema.parse([]), []);
  });
  test('a deal without requisites is refused, naming the path', () => {
    const invoice = exampleLookupInvoice();
    delete (invoice.deals[0] as Record<string, unknown>).requisites;
    assert.match(messageOf(safeParse(GetInvoiceResponseSchema, invoice)), /deals\[0\]\.requisites: /);
  });
  test('a timestamp without offset is read as UTC; one that is not a timestamp is refused', () => {
    const read = safeParse(InvoiceSchema, exampleInvoice({ expireAt: '2026-11-22 10:30' }));
    if (!read.success) return assert.fail(read.message);
    assert.equal(read.data.expireAt, '2026-11-22T10:30:00+00:00');
    assert.match(
      messageOf(safeParse(InvoiceSchema, exampleInvoice({ expireAt: '22.11.2026 10:30' }))),
      /expireAt: must be an ISO 8601 timestamp/,
    );
  });
  test('dispute and payment fields of unknown type are accepted when filled', () => {
    const invoice = exampleLookupInvoice({
      deals: [{ ...exampleLookupInvoice().deals[0], disputeResult: { outcome: 'won' }, payment: { id: 1 }, attachments: ['a'] }],
    });
    assert.equal(safeParse(GetInvoiceResponseSchema, invoice).success, true);
  });
});

describe('the payer’s journey: cross-border invoices, receipts, disputes', () => {
  test('a cross-border invoice’s transfer currency is read when it is text, and leniently otherwise', () => {
    const read = (crossBorderCurrency: unknown) => {
      const parsed = safeParse(InvoiceSchema, { ...exampleLookupInvoice(), crossBorderCurrency });
      assert.ok(parsed.success, parsed.success ? '' : parsed.message);
      return parsed.data.crossBorderCurrency;
    };
    assert.equal(read('TJS'), 'TJS');
    assert.equal(read(null), null);
    assert.equal(read(42), undefined);
    assert.equal(read(''), undefined);
  });

  test('the projection takes any receipt policy as text (a newer proxy’s), and a dispute answer only its two outcomes', () => {
    const invoice = {
      id: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
      internalId: null,
      type: 'in',
      status: 'new',
      sum: { amount: '1.00', currency: 'RUB', subunit: 2 },
      paymentMethod: null,
      paymentOption: null,
      deals: [],
      expireAt: '2026-11-22T10:30:00+03:00',
    };
    for (const receipts of ['off', 'optional', 'required', 'photo-only'])
      assert.ok(safeParse(CheckoutInvoiceSchema, { ...invoice, receipts }).success, receipts);
    assert.equal(safeParse(CheckoutInvoiceSchema, { ...invoice, receipts: '' }).success, false);
    assert.ok(safeParse(CheckoutDisputeAnswerSchema, { outcome: 'reported', invoice }).success);
    assert.match(messageOf(safeParse(CheckoutDisputeAnswerSchema, { outcome: 'ignored', invoice })), /^outcome: /);
  });

  test('the dispute form: the amount goes with invalid_sum only, as positive decimal text', () => {
    const attachment = new File(['%PDF-1.4'], 'receipt.pdf', { type: 'application/pdf' });
    assert.ok(safeParse(CheckoutDisputeFormSchema, { reason: 'invalid_sum', amount: '99.90', attachment }).success);
    assert.ok(safeParse(CheckoutDisputeFormSchema, { reason: 'no_payment', attachment }).success);
    assert.match(messageOf(safeParse(CheckoutDisputeFormSchema, { reason: 'invalid_sum', attachment })), /^amount: is required/);
    assert.match(
      messageOf(safeParse(CheckoutDisputeFormSchema, { reason: 'invalid_sum', amount: '99,90', attachment })),
      /^amount: must be a decimal number/,
    );
    assert.match(
      messageOf(safeParse(CheckoutDisputeFormSchema, { reason: 'no_payment', amount: '1', attachment })),
      /^amount: is only sent/,
    );
    assert.match(messageOf(safeParse(CheckoutDisputeFormSchema, { reason: 'no_payment' })), /^attachment: /);
  });
});
