/**
 * The amounts besides `sum` the payer is shown (issue 24, point 5; issue 25, point 5): while an
 * invoice is open, the amount the service expects (`receivedSumFromTaker`: a unique amount up to
 * `maxAmount`, or a changed sum); once paid, the amount it settled.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvoiceSchema, safeParse } from '../../src/schemas/index.js';
import { projectInvoice } from '../../src/server/node.js';
import { documentedPaidNotification } from '../fixtures/documented.js';
import { exampleLookupInvoice } from '../fixtures/dto.js';

const RUB = (amount: string) => ({ amount, currency: 'RUB', subunit: 2 });
const read = (body: unknown) => {
  const parsed = safeParse(InvoiceSchema, body);
  assert.ok(parsed.success, parsed.success ? '' : parsed.message);
  return parsed.data;
};

describe('the projection: amountDue and amountPaid', () => {
  test("an open invoice with a unique amount: amountDue is the service's receivedSumFromTaker", () => {
    const projected = projectInvoice(read({ ...exampleLookupInvoice(), receivedSumFromTaker: RUB('1503.17') }));
    assert.deepEqual(projected.amountDue, RUB('1503.17'));
    assert.deepEqual(projected.sum, RUB('1500.00'));
    assert.equal(projected.amountPaid, undefined);
  });

  test('an open invoice without it, and a canceled or expired one: neither', () => {
    for (const body of [
      exampleLookupInvoice(),
      { ...exampleLookupInvoice({ status: 'canceled' }), receivedSumFromTaker: RUB('1503.17') },
      exampleLookupInvoice({ status: 'expired' }),
    ]) {
      const projected = projectInvoice(read(body));
      assert.deepEqual([projected.amountDue, projected.amountPaid], [undefined, undefined], String(body.status));
    }
  });

  test("a paid invoice: amountPaid is receivedSumFromTaker, else the completed deal's payment", () => {
    const { invoice } = documentedPaidNotification();
    assert.deepEqual(projectInvoice(read({ ...invoice, receivedSumFromTaker: RUB('5004.50') })).amountPaid, RUB('5004.50'));
    const withoutSum = { ...invoice, receivedSumFromTaker: null };
    withoutSum.deal.payment.takerSum.amount = '3600.00';
    assert.deepEqual(projectInvoice(read(withoutSum)).amountPaid, RUB('3600.00'));
    assert.equal(projectInvoice(read(withoutSum)).amountDue, undefined);
  });
});
