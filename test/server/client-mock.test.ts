/**
 * `MerchantClient` against the mock service on a real port: every documented operation end to
 * end, the service's errors as the mock words them (the documented array and the older
 * `{error}` body), and ids of every kind signed as they go on the wire (the mock checks each
 * signature against `publicBaseUrl + path + query` as received).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { MerchantClient } from '../../src/server/client/merchant-client.js';
import { MerchantApiError } from '../../src/server/client/errors.js';
import { validCreateInvoice } from '../fixtures/dto.js';

const SHOP = { apiKey: 'shop-key-1', secretKey: 'shop-secret-Ключ', storeId: 17, storeName: 'Demo Shop' };
const NO_PAY_IN = {
  apiKey: 'no-pay-in',
  secretKey: 'other-secret',
  storeId: 18,
  storeName: 'Closed',
  payIn: false,
  twoFactorEnabled: false,
};

const receipt = (bytes = 128) => new Blob([new Uint8Array(bytes).fill(66)], { type: 'application/pdf' });

const startMock = (errorFormat: 'documented' | 'legacy' = 'documented') =>
  startMockServer({ merchants: [SHOP, NO_PAY_IN], seed: 7, errorFormat, notificationAllowed: () => false });

const clientOf = (mock: MockServer, merchant: { apiKey: string; secretKey: string } = SHOP) =>
  new MerchantClient({ baseUrl: mock.url, apiKey: merchant.apiKey, secretKey: merchant.secretKey, timeoutMs: 5000 });

let mock: MockServer;
let client: MerchantClient;

before(async () => {
  mock = await startMock();
  client = clientOf(mock);
});
after(() => mock.close());

describe('every documented operation against the mock', () => {
  test('an invoice from create to dispute: create, read, variants, start-deal, confirm-transfer, dispute', async () => {
    const created = await client.createInvoice(validCreateInvoice({ internalId: 'flow-1', amount: '1500.00' }));
    assert.equal(created.status, 'new');
    assert.equal((await client.getInvoice(created.id)).id, created.id);
    assert.equal((await client.getInvoiceByInternalId('flow-1')).id, created.id);

    const variants = await client.listPaymentVariants(created.id);
    assert.ok(variants.length > 0);
    const started = await client.startDeal(created.id, { paymentMethod: variants[0]!.method, paymentOption: variants[0]!.option });
    assert.equal(started.deals.length, 1);
    const deal = started.deals[0]!;

    const confirmed = await client.confirmTransfer(created.id, new File(['%PDF-1.4'], 'чек.pdf', { type: 'application/pdf' }));
    assert.equal(confirmed.deals.find((each) => each.id === deal.id)?.status, 'transfer_confirmed');

    const disputed = await client.openDispute(created.id, {
      dealId: String(deal.id),
      reason: 'invalid_sum',
      amount: '1000',
      attachment: receipt(),
    });
    assert.equal(disputed.status, 'dispute');
  });

  test('start-deal with nothing chosen takes any free requisites', async () => {
    const created = await client.createInvoice(validCreateInvoice({ internalId: 'flow-2' }));
    const started = await client.startDeal(created.id);
    assert.ok(started.deals.length <= 1);
  });

  test('cancel', async () => {
    const created = await client.createInvoice(validCreateInvoice({ internalId: 'flow-3', startDeal: true }));
    assert.equal((await client.cancelInvoice(created.id)).status, 'canceled');
  });

  test('banks, options, rates and accounts', async () => {
    const banks = await client.listPaymentMethods('RUB');
    assert.ok(banks.length > 0);
    assert.ok(banks.every((bank) => bank.code && bank.name));
    assert.ok((await client.listPaymentMethods()).length >= banks.length);
    assert.ok((await client.listPaymentOptions()).some((option) => option.code === 'SBP'));
    const rates = await client.getCurrencyRates();
    assert.match(rates.in?.rate ?? '', /^\d+(\.\d+)?$/);
    const accounts = await client.listAccounts();
    assert.equal(accounts.length, 1);
  });

  test('withdrawals: create and read', async () => {
    const [account] = await client.listAccounts();
    const withdrawal = await client.createWithdrawal({
      accountId: account!.id,
      amount: '10',
      address: 'TQrZ9wBzQ2V7ZxYkS9hA1mV1p7nWcX3e4F',
      code2FA: '123456',
    });
    assert.equal((await client.getWithdrawal(withdrawal.id)).id, withdrawal.id);
  });

  test('public: the banks of a currency and the QR code, unsigned', async () => {
    const banks = await client.listPublicPaymentMethods('RUB');
    assert.ok(banks.some((bank) => bank.code === 'sberbank'));
    const created = await client.createInvoice(validCreateInvoice({ internalId: 'flow-qr', startDeal: true }));
    assert.match(await client.getInvoiceQrCode(created.id), /<svg[\s>]/);
  });

  test('createInvoiceOnce with nothing going wrong is one create', async () => {
    const before = mock.service.requests.length;
    const invoice = await client.createInvoiceOnce(validCreateInvoice({ internalId: 'once-1' }));
    assert.equal(invoice.internalId, 'once-1');
    assert.equal(mock.service.requests.length - before, 1);
  });
});

describe('ids of every kind are signed as sent (a bad signature would be 401)', () => {
  const ids = ['заказ 50% #1 ?/😀', 'a b', '100%', 'x#y', 'q?r=s', 'p/q', 'ё+Ё', "it's(1)*!"];

  test('an invoice with such an internal id is found by it', async () => {
    for (const internalId of ids) {
      const created = await client.createInvoice(validCreateInvoice({ internalId }));
      const found = await client.getInvoiceByInternalId(internalId);
      assert.equal(found.id, created.id, internalId);
      assert.equal(found.internalId, internalId);
    }
  });

  test('unknown ids of every kind are 404 not_found, never 401, on every id-taking method', async () => {
    const calls = [
      (id: string) => client.getInvoice(id),
      (id: string) => client.cancelInvoice(id),
      (id: string) => client.listPaymentVariants(id),
      (id: string) => client.startDeal(id, { paymentOption: 'SBP' }),
      (id: string) => client.confirmTransfer(id, receipt()),
      (id: string) => client.openDispute(id, { dealId: 'd', reason: 'no_payment', attachment: receipt() }),
      (id: string) => client.getWithdrawal(id),
      (id: string) => client.getInvoiceQrCode(id),
    ];
    for (const call of calls) {
      for (const id of ids) {
        await assert.rejects(call(id), (error: unknown) => {
          assert.ok(error instanceof MerchantApiError, String(error));
          assert.equal(error.status, 404, `${error.message}`);
          assert.equal(error.code, 'not_found');
          return true;
        });
      }
    }
  });

  test('a query with spaces and Cyrillic is signed as sent', async () => {
    assert.deepEqual(await client.listPaymentMethods('ру б'), []);
  });
});

describe('the service’s errors, as the mock words them', () => {
  for (const errorFormat of ['documented', 'legacy'] as const) {
    describe(`${errorFormat} error bodies`, () => {
      let server: MockServer;
      before(async () => {
        server = await startMock(errorFormat);
      });
      after(() => server.close());

      test('amount below the limit: amount_too_small', async () => {
        await assert.rejects(clientOf(server).createInvoice(validCreateInvoice({ amount: '1.00' })), {
          name: 'MerchantApiError',
          status: 400,
          code: 'amount_too_small',
        });
      });
      test('amount above the limit: amount_too_large', async () => {
        await assert.rejects(clientOf(server).createInvoice(validCreateInvoice({ amount: '100000000.00' })), {
          name: 'MerchantApiError',
          status: 400,
          code: 'amount_too_large',
        });
      });
      test('a terminal without pay-in: pay_in_disabled', async () => {
        await assert.rejects(clientOf(server, NO_PAY_IN).createInvoice(validCreateInvoice()), {
          name: 'MerchantApiError',
          status: 404,
          code: 'pay_in_disabled',
        });
      });
      test('withdrawal without 2FA: two_factor_required', async () => {
        await assert.rejects(
          clientOf(server, NO_PAY_IN).createWithdrawal({
            accountId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
            amount: '1',
            address: 'x',
            code2FA: '1',
          }),
          { name: 'MerchantApiError', code: 'two_factor_required' },
        );
      });
      test('a field the service names is exposed', async () => {
        await assert.rejects(clientOf(server).createWithdrawal({ accountId: 'not-a-uuid', amount: '1', address: 'x', code2FA: '1' }), {
          name: 'MerchantApiError',
          status: 400,
          field: 'accountId',
        });
      });
      test('a wrong secret: unauthorized', async () => {
        await assert.rejects(clientOf(server, { apiKey: SHOP.apiKey, secretKey: 'wrong' }).listAccounts(), {
          name: 'MerchantApiError',
          status: 401,
          code: 'unauthorized',
        });
      });
      test('an unknown invoice: not_found', async () => {
        await assert.rejects(clientOf(server).getInvoice('00000000-0000-4000-8000-000000000000'), {
          name: 'MerchantApiError',
          status: 404,
          code: 'not_found',
        });
      });
    });
  }
});
