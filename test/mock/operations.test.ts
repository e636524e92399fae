/**
 * Every operation of the service's merchant API (the rows of `OPERATIONS`,
 * src/schemas/operations.ts) round-trips through `MerchantClient`, against the mock in-process (its
 * `fetch`) and on a real port (through `@hono/node-server`), including 401s.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MerchantApiError, MerchantClient, signRequest } from '../../src/server/node.js';
import {
  MERCHANT,
  OTHER_MERCHANT,
  TRANSPORTS,
  createInvoiceBody,
  isObject,
  manualClock,
  readAnswer,
  signedRequest,
  type MockUnderTest,
} from './helpers.js';

const ACCOUNT_ID = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

for (const transport of TRANSPORTS) {
  describe(`every operation through MerchantClient (${transport.name})`, () => {
    const clock = manualClock();
    let mock: MockUnderTest;
    before(async () => {
      mock = await transport.start({ now: clock.now, withdrawalTxDelayMs: 5_000 });
    });
    after(() => mock.close());

    test('createInvoice → getInvoiceByInternalId → listPaymentVariants → cancelInvoice', async () => {
      const client = mock.client();
      const created = await client.createInvoice({
        type: 'in',
        amount: '1500',
        currency: 'RUB',
        notificationUrl: 'https://shop.example/hooks',
        notificationToken: 'tok',
        internalId: `order-${transport.name}`,
        userId: 'user-7',
        startDeal: true,
      });
      assert.equal(created.status, 'new');
      assert.deepEqual(created.sum, { amount: '1500.00', currency: 'RUB', subunit: 2 });
      assert.equal(created.storeId, MERCHANT.storeId);
      assert.equal(created.storeName, MERCHANT.storeName);
      assert.equal(created.internalId, `order-${transport.name}`);
      assert.equal(created.userId, 'user-7');
      assert.equal(created.deals.length, 1);
      const [deal] = created.deals;
      assert.equal(deal?.status, 'transfer_waiting');
      assert.equal(deal?.isActive, true);

      const found = await client.getInvoiceByInternalId(`order-${transport.name}`);
      assert.equal(found.id, created.id);
      assert.equal(found.deals[0]?.id, deal?.id);
      assert.equal(found.deals[0]?.disputeResult, null);
      assert.deepEqual(found.deals[0]?.attachments, []);

      const variants = await client.listPaymentVariants(created.id);
      assert.ok(
        variants.some((v) => v.method === deal?.paymentMethod && v.option === deal.paymentOption),
        'the deal is one of the variants',
      );

      const canceled = await client.cancelInvoice(created.id);
      assert.equal(canceled.id, created.id);
      assert.equal(canceled.status, 'canceled');
      assert.deepEqual(canceled.deals, []);
      assert.equal(canceled.flow, 'DEFAULT');
      assert.equal(canceled.flowData, null);
      assert.equal(canceled.isSumChanged, false);
      assert.equal(canceled.expiredAt, created.expireAt);

      const after = await client.getInvoiceByInternalId(`order-${transport.name}`);
      assert.equal(after.status, 'canceled');
      assert.deepEqual(after.deals, []);
    });

    test("a pay-out invoice keeps its bank and option; its one deal (type out, new) carries the payee's requisites", async () => {
      const created = await mock.client().createInvoice({
        type: 'out',
        amount: '2500.5',
        currency: 'RUB',
        notificationUrl: 'https://shop.example/hooks',
        notificationToken: 'tok',
        paymentMethod: 'tinkoff',
        paymentOption: 'TO_CARD',
        paymentRequisites: { requisites: '2200700012345678', holder: 'Анна Сергеевна К.' },
      });
      assert.equal(created.type, 'out');
      assert.equal(created.sum.amount, '2500.50');
      assert.equal(created.paymentMethod, 'tinkoff');
      assert.equal(created.paymentOption, 'TO_CARD');
      assert.equal(created.paymentRequisites, null, 'documented: null at the top level');
      assert.equal(created.deals.length, 1);
      const [deal] = created.deals;
      assert.deepEqual(
        [deal?.type, deal?.status, deal?.isActive, deal?.paymentMethod, deal?.paymentOption],
        ['out', 'new', true, 'tinkoff', 'TO_CARD'],
      );
      assert.deepEqual(deal?.requisites, { requisites: '2200700012345678', holder: 'Анна Сергеевна К.' });
      assert.deepEqual(await mock.client().listPaymentVariants(created.id), [{ option: 'TO_CARD', method: 'tinkoff' }]);
    });

    test('createWithdrawal answers status 2, txId null and accountId; getWithdrawal fills txId later', async () => {
      const client = mock.client();
      const created = await client.createWithdrawal({ accountId: ACCOUNT_ID, amount: '100', address: 'TQrZ9wBzQ2V7', code2FA: '123456' });
      assert.equal(created.status, 2);
      assert.equal(created.txId, null);
      assert.equal(created.accountId, ACCOUNT_ID);
      assert.deepEqual(created.sum, { amount: '100.00000000', currency: 'USDT', subunit: 8 });
      assert.equal(created.fee.subunit, 8);

      const early = await client.getWithdrawal(created.id);
      assert.equal(early.txId, null);
      assert.equal('status' in early, false);
      assert.equal('accountId' in early, false);

      clock.advance(5_000);
      const later = await client.getWithdrawal(created.id);
      assert.match(later.txId ?? '', /^[0-9a-f]{64}$/);
      assert.notEqual(later.updatedAt, later.createdAt);
    });

    test('substractFeeFromAmount takes the fee out of the sum', async () => {
      const created = await mock
        .client()
        .createWithdrawal({ accountId: ACCOUNT_ID, amount: '100', address: 'addr', code2FA: '1', substractFeeFromAmount: true });
      assert.equal(created.sum.amount, '99.00000000');
      assert.equal(created.fee.amount, '1.00000000');
    });

    test('the operations shown only in signing examples: accounts answers, a multipart dispute opens one', async () => {
      const client = mock.client();
      const accounts = await client.request('GET', '/accounts');
      assert.ok(Array.isArray(accounts) && isObject(accounts[0]));
      assert.match(String(accounts[0].id), /^[0-9a-f-]{36}$/);

      const invoice = await client.createInvoice({ ...createInvoiceBody(), type: 'in', startDeal: true });
      const form = new FormData();
      form.set('dealId', String(invoice.deals[0]?.id));
      form.set('disputeReason', 'no_payment');
      form.set('attachment', new Blob(['%PDF-1.4 receipt']), 'receipt.pdf');
      const disputed = (await client.request('POST', `/invoices/${invoice.id}/dispute`, form)) as {
        status: string;
        deals: { status: string }[];
      };
      assert.equal(disputed.status, 'dispute');
      assert.equal(disputed.deals[0]?.status, 'dispute');
    });

    test('a wrong secret, an unknown X-Identity and a missing signature are 401 with a JSON error', async () => {
      const wrongSecret = mock.client({ apiKey: MERCHANT.apiKey, secretKey: 'not-the-secret' });
      await assert.rejects(wrongSecret.createInvoice({ ...createInvoiceBody(), type: 'in' }), (error: unknown) => {
        assert.ok(error instanceof MerchantApiError);
        assert.equal(error.status, 401);
        assert.match(error.bodyExcerpt, /Unauthorized/);
        return true;
      });
      const unknown = mock.client({ apiKey: 'nobody', secretKey: 'x' });
      await assert.rejects(
        unknown.getWithdrawal(ACCOUNT_ID),
        (error: unknown) => error instanceof MerchantApiError && error.status === 401,
      );

      const bare = await readAnswer(await mock.fetch(new Request(`${mock.baseUrl}/api/merchant/accounts`)));
      assert.equal(bare.status, 401);
      assert.deepEqual(bare.json, [{ message: 'Unauthorized' }], 'documented: 401 Unauthorized');

      const noSignature = await readAnswer(
        await mock.fetch(new Request(`${mock.baseUrl}/api/merchant/accounts`, { headers: { 'X-Identity': MERCHANT.apiKey } })),
      );
      assert.equal(noSignature.status, 401);
    });

    test('the signature covers the body and the query', async () => {
      const body = JSON.stringify(createInvoiceBody());
      const url = `${mock.baseUrl}/api/merchant/invoices`;
      const signature = await signRequest({ method: 'POST', url, body }, MERCHANT.secretKey);
      const headers = { 'X-Identity': MERCHANT.apiKey, 'X-Signature': signature, 'Content-Type': 'application/json' };
      const tampered = await mock.fetch(new Request(url, { method: 'POST', headers, body: body.replace('1500', '1') }));
      assert.equal(tampered.status, 401);
      await tampered.body?.cancel();

      const withQuery = await signedRequest(mock, 'GET', '/api/merchant/accounts?page=2');
      assert.equal(withQuery.status, 200);
      const path = '/api/merchant/accounts';
      const querySigned = await signRequest({ method: 'GET', url: `${mock.baseUrl}${path}?page=2` }, MERCHANT.secretKey);
      const moved = await mock.fetch(
        new Request(`${mock.baseUrl}${path}?page=3`, { headers: { 'X-Identity': MERCHANT.apiKey, 'X-Signature': querySigned } }),
      );
      assert.equal(moved.status, 401);
      await moved.body?.cancel();
    });

    test('each merchant sees only its own invoices and withdrawals (404 otherwise)', async () => {
      const own = await mock.client().createInvoice({ ...createInvoiceBody(), type: 'in', internalId: 'private-order' });
      const withdrawal = await mock.client().createWithdrawal({ accountId: ACCOUNT_ID, amount: '5', address: 'a', code2FA: '1' });
      const other = mock.client(OTHER_MERCHANT);
      for (const call of [
        () => other.cancelInvoice(own.id),
        () => other.listPaymentVariants(own.id),
        () => other.getInvoiceByInternalId('private-order'),
        () => other.getWithdrawal(withdrawal.id),
      ]) {
        await assert.rejects(call(), (error: unknown) => error instanceof MerchantApiError && error.status === 404);
      }
      assert.equal((await mock.client().getInvoiceByInternalId('private-order')).id, own.id);
    });
  });
}

describe('signatures against publicBaseUrl', () => {
  test('a request that arrives under another host and mount path verifies against publicBaseUrl', async () => {
    const { createMockService } = await import('../../src/mock/index.js');
    const service = createMockService({
      merchants: [MERCHANT],
      publicBaseUrl: 'https://pay.example.com/gateway/',
      notificationAllowed: () => false,
    });
    // A reverse proxy in front of the mock: the client signs the public URL, the mock sees an internal one.
    const rewrite = (request: Request) => {
      const url = new URL(request.url);
      return service.fetch(new Request(`http://mock.internal:8080/internal${url.pathname.replace('/gateway', '')}${url.search}`, request));
    };
    const client = new MerchantClient({
      baseUrl: 'https://pay.example.com/gateway',
      apiKey: MERCHANT.apiKey,
      secretKey: MERCHANT.secretKey,
      fetch: rewrite,
    });
    const invoice = await client.createInvoice({ ...createInvoiceBody(), type: 'in', startDeal: true });
    assert.equal(invoice.status, 'new');
    assert.equal(invoice.invoiceUrl, `https://pay.example.com/gateway/invoice?id=${invoice.id}`);
    assert.deepEqual(
      service.requests.map((r) => r.path),
      ['/api/merchant/invoices'],
    );
    service.close();
  });
});
