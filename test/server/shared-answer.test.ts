/**
 * The proxy's reads of an unchanged invoice: the same answer text is the same frozen invoice
 * (client/answer.ts, `sharedAnswer`), so its projection and JSON are made once. What a payer sees must
 * not change for it: a changed answer is read afresh, a broken one is still refused, the
 * store gets every state, a failed record is tried again, and a public read of the client is
 * still a fresh object of the caller's own.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MerchantClient, createCheckoutHandler, createMemoryStore, createNodeFetch, type CheckoutStore } from '../../src/server/node.js';
import type { SharedReadOptions } from '../../src/server/client/options.js';
import { INVOICE_ID, exampleLookupInvoice } from '../fixtures/dto.js';
import { startSigningServer, type SigningServer } from '../helpers/signing-server.js';

const API_KEY = 'shared-answer-key';
const SECRET_KEY = 'shared-answer-secret';

let server: SigningServer;
before(async () => {
  server = await startSigningServer(API_KEY, SECRET_KEY);
});
after(() => server.close());

const clientOf = () => new MerchantClient({ baseUrl: server.baseUrl, apiKey: API_KEY, secretKey: SECRET_KEY, fetch: createNodeFetch() });
const shared: SharedReadOptions = { sharedAnswer: true };

describe('the client, for a shared read', () => {
  test('the same text is the same frozen invoice; another text is read afresh; a broken one is refused', async () => {
    let invoice: Record<string, unknown> = exampleLookupInvoice();
    server.reply(() => ({ json: invoice }));
    const client = clientOf();
    const first = await client.getInvoice(INVOICE_ID, shared);
    const second = await client.getInvoice(INVOICE_ID, shared);
    assert.equal(second, first, 'the same object for the same answer');
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first.sum) && Object.isFrozen(first.deals[0]));
    invoice = exampleLookupInvoice({ status: 'paid' });
    const changed = await client.getInvoice(INVOICE_ID, shared);
    assert.notEqual(changed, first);
    assert.equal(changed.status, 'paid');
    invoice = exampleLookupInvoice({ sum: { amount: 'a lot', currency: 'RUB', subunit: 2 } });
    await assert.rejects(client.getInvoice(INVOICE_ID, shared), { name: 'MerchantResponseError' });
  });

  test('a public read is a fresh, unfrozen object every time', async () => {
    server.reply(() => ({ json: exampleLookupInvoice() }));
    const client = clientOf();
    await client.getInvoice(INVOICE_ID, shared);
    const first = await client.getInvoice(INVOICE_ID);
    const second = await client.getInvoice(INVOICE_ID);
    assert.notEqual(first, second);
    assert.equal(Object.isFrozen(first), false);
    first.status = 'paid';
    assert.equal(second.status, exampleLookupInvoice().status);
  });
});

describe('the proxy, polled on an unchanged invoice', () => {
  const poll = async (handler: (request: Request) => Promise<Response>) => {
    const answer = await handler(
      new Request(`https://shop.example/checkout-api/invoices/${INVOICE_ID}`, { headers: { 'sec-fetch-site': 'same-origin' } }),
    );
    assert.equal(answer.status, 200);
    return (await answer.json()) as { status: string };
  };

  test('answers each state as it is; the store records each state once; a failed record is tried again', async () => {
    let status = 'active';
    server.reply(() => ({ json: exampleLookupInvoice({ status }) }));
    const memory = createMemoryStore();
    const recorded: string[] = [];
    let failNext = 1;
    const store: CheckoutStore = {
      ...memory,
      record: (update) => {
        recorded.push(update.invoice.status);
        if (failNext > 0) {
          failNext--;
          return Promise.reject(new Error('the store is down'));
        }
        return memory.record(update);
      },
    };
    const errors: unknown[] = [];
    const handler = createCheckoutHandler({
      client: clientOf(),
      basePath: '/checkout-api',
      authorize: () => true,
      store,
      onError: (error) => errors.push(error),
    });
    assert.equal((await poll(handler)).status, 'active');
    assert.equal((await poll(handler)).status, 'active');
    assert.equal((await poll(handler)).status, 'active');
    status = 'paid';
    assert.equal((await poll(handler)).status, 'paid');
    assert.equal((await poll(handler)).status, 'paid');
    // The first record failed, so the same state was recorded at the next read; then once per state.
    assert.deepEqual(recorded, ['active', 'active', 'paid']);
    assert.ok(errors.some((error) => error instanceof Error && /store is down/.test(error.message)));
  });

  test("the merchant's hooks are handed the shared invoice frozen: none can change what the next payer sees", async () => {
    server.reply(() => ({ json: exampleLookupInvoice() }));
    const seen: boolean[] = [];
    const handler = createCheckoutHandler({
      client: clientOf(),
      basePath: '/checkout-api',
      authorize: () => true,
      receipts: (invoice) => {
        seen.push(Object.isFrozen(invoice) && Object.isFrozen(invoice.deals[0]));
        assert.throws(() => {
          (invoice as { status: string }).status = 'paid';
        }, TypeError);
        return 'optional';
      },
    });
    assert.equal((await poll(handler)).status, exampleLookupInvoice().status);
    assert.equal((await poll(handler)).status, exampleLookupInvoice().status);
    assert.deepEqual(seen, [true, true]);
  });
});
