/**
 * The documented dispute results (upper case, successful ones apart, open to newer ones) and
 * the accounts as AccountDTO, the older `{id, currency, balance}` still read.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  AccountListSchema,
  DisputeResultSchema,
  FAILED_DISPUTE_RESULTS,
  KNOWN_DISPUTE_RESULTS,
  SUCCESSFUL_DISPUTE_RESULTS,
  isSuccessfulDisputeResult,
  safeParse,
} from '../../src/schemas/index.js';

describe('dispute results', () => {
  test('the documented lists: two successes, seven failures, all upper case, none twice', () => {
    assert.deepEqual([...SUCCESSFUL_DISPUTE_RESULTS], ['ACCEPTED', 'AMOUNT_CHANGED']);
    assert.equal(FAILED_DISPUTE_RESULTS.length, 7);
    assert.deepEqual([...KNOWN_DISPUTE_RESULTS], [...SUCCESSFUL_DISPUTE_RESULTS, ...FAILED_DISPUTE_RESULTS]);
    assert.equal(new Set(KNOWN_DISPUTE_RESULTS).size, KNOWN_DISPUTE_RESULTS.length);
    assert.ok(KNOWN_DISPUTE_RESULTS.every((result) => /^[A-Z_]+$/.test(result)));
  });

  test('a result is read as its text, a newer one too; only a documented success counts as one', () => {
    for (const result of [...KNOWN_DISPUTE_RESULTS, 'PARTIALLY_ACCEPTED'])
      assert.equal(safeParse(DisputeResultSchema, result).success, true, result);
    assert.equal(safeParse(DisputeResultSchema, '').success, false);
    assert.equal(safeParse(DisputeResultSchema, 1).success, false);
    assert.deepEqual(
      ['ACCEPTED', 'AMOUNT_CHANGED', 'TTL_EXPIRED', 'UNKNOWN', 'accepted', 'PARTIALLY_ACCEPTED', null].map(isSuccessfulDisputeResult),
      [true, true, false, false, false, false, false],
    );
  });
});

describe('accounts', () => {
  const money = (amount: string) => ({ amount, currency: 'USDT', subunit: 8 });
  const ID = '3f0c8b4e-6a1d-4e2f-9b7a-5c8d2e1f0a9b';

  test('AccountDTO: sum, frozenSum and withdrawalFee as Money; one object reads as a list of one', () => {
    const parsed = safeParse(AccountListSchema, {
      id: ID,
      currency: 'USDT',
      sum: money('10.74886973'),
      frozenSum: money('0.00000000'),
      withdrawalFee: money('5.00000000'),
    });
    assert.ok(parsed.success);
    assert.deepEqual(
      [parsed.data[0]?.sum, parsed.data[0]?.frozenSum, parsed.data[0]?.withdrawalFee],
      [money('10.74886973'), money('0.00000000'), money('5.00000000')],
    );
  });

  test('the older {id, currency, balance}: a Money balance reads as sum; odd sums read as undefined; the id is required', () => {
    const older = safeParse(AccountListSchema, [{ id: ID, currency: 'USDT', balance: money('3.00000000') }]);
    assert.ok(older.success);
    assert.deepEqual(older.data[0]?.sum, money('3.00000000'));
    const text = safeParse(AccountListSchema, [{ id: 7, balance: '3.5', sum: 3.5, frozenSum: { amount: 1 } }]);
    assert.ok(text.success);
    assert.deepEqual(
      [text.data[0]?.id, text.data[0]?.sum, text.data[0]?.frozenSum, text.data[0]?.balance],
      ['7', undefined, undefined, '3.5'],
    );
    const missing = safeParse(AccountListSchema, [{ currency: 'USDT' }]);
    assert.equal(missing.success, false);
    assert.match(missing.success ? '' : missing.message, /^\[0\]\.id: /);
  });
});
