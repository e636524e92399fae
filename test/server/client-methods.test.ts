/**
 * `MerchantClient`'s methods are the rows of `OPERATIONS` (src/server/client/operation-methods.ts):
 * the type check holds its method set to exactly the rows' names (besides the three methods
 * that are no operation), so a row without a method or a method without a row fails
 * `npm run typecheck`; and every row, called through its method against the mock in process,
 * sends one request with the row's method, path and signing, which the mock accepts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createMockService } from '../../src/mock/index.js';
import { OPERATION_LIST, type OperationAnswer, type OperationName, type OperationRow } from '../../src/schemas/operations.js';
import { WRAPPED_OPERATIONS } from '../../src/server/client/operation-methods.js';
import { MerchantClient, verifySignature } from '../../src/server/node.js';
import { validCreateInvoice } from '../fixtures/dto.js';

/** The client's methods that are not an operation's, each on purpose. */
type NotOperations = 'onInvoice' | 'createInvoiceOnce' | 'request';
type MethodNames<Client> = { [Key in keyof Client]: Client[Key] extends (...args: never[]) => unknown ? Key : never }[keyof Client];
/** `true` when `Client`'s methods, `NotOperations` aside, are exactly the operations, each answering its row's answer. */
type OneMethodPerRow<Client> = [Exclude<MethodNames<Client>, NotOperations>] extends [OperationName]
  ? [OperationName] extends [MethodNames<Client>]
    ? { [Name in OperationName]: Name extends keyof Client ? Client[Name] : never } extends {
        [Name in OperationName]: (...args: never[]) => Promise<OperationAnswer<Name>>;
      }
      ? true
      : never
    : never
  : never;

const holds: OneMethodPerRow<MerchantClient> = true;
// The same check fails for a method without a row, a row without a method, and a method answering another row's answer:
// @ts-expect-error a method without a row
const extraMethod: OneMethodPerRow<MerchantClient & { getRefund(id: string): Promise<unknown> }> = true;
// @ts-expect-error a row without a method
const missingMethod: OneMethodPerRow<Omit<MerchantClient, 'getWithdrawal'>> = true;
// @ts-expect-error a method answering another row's answer
const wrongAnswer: OneMethodPerRow<Omit<MerchantClient, 'listAccounts'> & { listAccounts(): Promise<OperationAnswer<'getInvoice'>> }> =
  true;

const SHOP = { apiKey: 'shop-key-methods', secretKey: 'shop-secret-Ключ', storeId: 17, storeName: 'Demo Shop' };
const BASE_URL = 'https://pay.mock.test';

interface Sent {
  request: Request;
  /** The body's text as sent (a JSON body is signed with it). */
  body: string;
}

/**
 * The arguments of each operation's method against the mock, after whatever it needs made
 * first (an invoice, a deal, a withdrawal). A `Record` of every operation: a new row needs its
 * arguments here, or the type check fails.
 */
const ARGUMENTS: { [Name in OperationName]: (client: MerchantClient) => Promise<Parameters<MerchantClient[Name]>> } = {
  createInvoice: () => Promise.resolve([validCreateInvoice({ internalId: 'methods-create' })]),
  getInvoice: async (client) => [(await client.createInvoice(validCreateInvoice())).id],
  getInvoiceByInternalId: async (client) => [(await client.createInvoice(validCreateInvoice({ internalId: 'methods-ид 1' }))).internalId!],
  listPaymentVariants: async (client) => [(await client.createInvoice(validCreateInvoice())).id],
  startDeal: async (client) => {
    const { id } = await client.createInvoice(validCreateInvoice());
    const [variant] = await client.listPaymentVariants(id);
    return [id, { paymentMethod: variant!.method, paymentOption: variant!.option }];
  },
  confirmTransfer: async (client) => [
    (await client.createInvoice(validCreateInvoice({ startDeal: true }))).id,
    new Blob(['%PDF-1.4'], { type: 'application/pdf' }),
  ],
  openDispute: async (client) => {
    const invoice = await client.createInvoice(validCreateInvoice({ startDeal: true }));
    await client.confirmTransfer(invoice.id, new Blob(['%PDF-1.4'], { type: 'application/pdf' }));
    const attachment = new Blob(['%PDF-1.4'], { type: 'application/pdf' });
    return [invoice.id, { dealId: String(invoice.deals[0]!.id), reason: 'invalid_sum', amount: '1000', attachment }];
  },
  cancelInvoice: async (client) => [(await client.createInvoice(validCreateInvoice({ startDeal: true }))).id],
  listPaymentMethods: () => Promise.resolve(['RUB']),
  listPaymentOptions: () => Promise.resolve([]),
  getCurrencyRates: () => Promise.resolve([]),
  listAccounts: () => Promise.resolve([]),
  createWithdrawal: async (client) => {
    const [account] = await client.listAccounts();
    return [{ accountId: account!.id, amount: '10', address: 'TQrZ9wBzQ2V7ZxYkS9hA1mV1p7nWcX3e4F', code2FA: '123456' }];
  },
  getWithdrawal: async (client) => {
    const [account] = await client.listAccounts();
    const withdrawal = await client.createWithdrawal({ accountId: account!.id, amount: '10', address: 'TQrZ9wBzQ2V7', code2FA: '123456' });
    return [withdrawal.id];
  },
  listPublicPaymentMethods: () => Promise.resolve(['RUB']),
  getInvoiceQrCode: async (client) => [(await client.createInvoice(validCreateInvoice({ startDeal: true }))).id],
};

/** The row's path as a pattern of the path sent: each `{name}` one non-empty segment. */
const pathPattern = (row: OperationRow): RegExp =>
  new RegExp(
    `^${row.path
      .split(/\{\w+\}/)
      .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}$`,
  );

describe("MerchantClient's methods are the rows of OPERATIONS", () => {
  test('the type check holds the methods to the rows (see the top of this file)', () => {
    assert.deepEqual([holds, extraMethod, missingMethod, wrongAnswer], [true, true, true, true]);
  });

  test('the prototype has one method per row, and no other besides the three that are not operations', () => {
    const own = Object.getOwnPropertyNames(MerchantClient.prototype).filter((name) => name !== 'constructor');
    const base = Object.getOwnPropertyNames(Object.getPrototypeOf(MerchantClient.prototype) as object).filter(
      (name) => name !== 'constructor',
    );
    assert.deepEqual(own, [], 'the Node entry’s client adds no method');
    assert.deepEqual(base.sort(), [...OPERATION_LIST.map((row) => row.name), 'onInvoice', 'createInvoiceOnce', 'request'].sort());
    for (const name of WRAPPED_OPERATIONS)
      assert.ok(
        OPERATION_LIST.some((row) => row.name === name),
        `${name} is a row`,
      );
  });

  test("every row, through its method against the mock, sends one request with the row's method, path and signing", async () => {
    const service = createMockService({ merchants: [SHOP], publicBaseUrl: BASE_URL, notificationAllowed: () => false });
    let sent: Sent[] = [];
    const client = new MerchantClient({
      baseUrl: BASE_URL,
      apiKey: SHOP.apiKey,
      secretKey: SHOP.secretKey,
      timeoutMs: 5_000,
      fetch: async (request) => {
        sent.push({ request, body: await request.clone().text() });
        return service.fetch(request);
      },
    });
    try {
      for (const row of OPERATION_LIST) {
        const args = await ARGUMENTS[row.name](client);
        sent = [];
        const methods = client as unknown as Record<OperationName, (...args: unknown[]) => Promise<unknown>>;
        const answer = await methods[row.name](...args);
        assert.equal(sent.length, 1, `${row.name}: one request`);
        const [{ request, body }] = sent as [Sent];
        const url = new URL(request.url);
        assert.equal(request.method, row.method, `${row.name}: method`);
        assert.match(url.pathname, pathPattern(row), `${row.name}: path`);
        for (const key of url.searchParams.keys()) assert.ok(row.query?.includes(key), `${row.name}: query ${key} is the row's`);
        const type = request.headers.get('content-type') ?? '';
        if (row.signing === 'public') {
          assert.equal(request.headers.get('x-identity'), null, `${row.name}: no key`);
          assert.equal(request.headers.get('x-signature'), null, `${row.name}: no signature`);
        } else {
          assert.equal(request.headers.get('x-identity'), SHOP.apiKey, `${row.name}: the key`);
          const signed = { method: row.method, url: request.url, body: row.signing === 'json' ? body : undefined };
          assert.ok(
            await verifySignature(signed, request.headers.get('x-signature'), SHOP.secretKey),
            `${row.name}: signed as its row says`,
          );
        }
        if (row.signing === 'json') assert.match(type, /^application\/json/, `${row.name}: a JSON body`);
        if (row.signing === 'multipart') assert.match(type, /^multipart\/form-data; boundary=/, `${row.name}: a multipart body`);
        if (row.signing === 'url' || row.signing === 'public') assert.equal(body, '', `${row.name}: no body`);
        if (row.answersInvoice) assert.equal(typeof (answer as { id?: unknown }).id, 'string', `${row.name}: an invoice`);
        else assert.notEqual(answer, undefined, `${row.name}: an answer`);
      }
    } finally {
      service.close();
    }
  });
});
