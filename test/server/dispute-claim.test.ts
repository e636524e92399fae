/**
 * The memory store's dispute claim (`claimDispute`), which keeps an invoice to one dispute
 * across the proxy instances of one process; the Redis store's is tested against a real Redis
 * in redis-cluster.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createMemoryStore } from '../../src/server/node.js';

const ID = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const OTHER = '11111111-2222-4333-8444-555555555555';

describe('the memory store’s dispute claim', () => {
  test('held: no second claim; released: claimable again; kept: never again', async () => {
    const store = createMemoryStore();
    const claim = await store.claimDispute(ID, 10_000);
    assert.ok(claim);
    assert.equal(await store.claimDispute(ID, 10_000), undefined);
    assert.ok(await store.claimDispute(OTHER, 10_000), 'another invoice is its own');
    await claim.settle('released');
    const again = await store.claimDispute(ID, 10_000);
    assert.ok(again);
    await again.settle('kept');
    assert.equal(await store.claimDispute(ID, 10_000), undefined);
    await store.close();
  });

  test('an unsettled claim lapses after holdMs; the late release of a lapsed claim frees nobody else’s', async () => {
    const store = createMemoryStore();
    const first = await store.claimDispute(ID, 50);
    assert.ok(first);
    await new Promise((resolve) => setTimeout(resolve, 80));
    const second = await store.claimDispute(ID, 10_000);
    assert.ok(second, 'the first lapsed');
    await first.settle('released');
    assert.equal(await store.claimDispute(ID, 10_000), undefined, 'the second still holds it');
    await store.close();
  });
});
