/**
 * Receipts where the README mounts the proxy (issue 25): `createNodeServer(checkout)` and
 * `toNodeHandler(checkout)` with no option take what the proxy takes (they learn its upload cap
 * and deadline from the handler), the projection tells the element the receipt's limit,
 * concurrent receipts for one invoice are one upload to the service, and a body of thousands
 * of tiny parts is refused at the first part too many instead of being parsed whole.
 */
import assert from 'node:assert/strict';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { MAX_RECEIPT_BYTES } from '../../src/schemas/patterns.js';
import {
  createCheckoutHandler,
  createCheckoutServer,
  createNodeServer,
  createNotificationHandler,
  MerchantClient,
  toNodeHandler,
} from '../../src/server/index.js';
import { MAX_UPLOAD_PARTS } from '../../src/server/proxy/uploads.js';
import { serve } from '../support/node-server.js';

const MERCHANT = { apiKey: 'mounts-key', secretKey: 'mounts-secret', storeId: 61, storeName: 'Mounts Shop' };
let mock: MockServer;
let client: MerchantClient;
const servers: Server[] = [];

before(async () => {
  mock = await startMockServer({ merchants: [MERCHANT], port: 0, notificationAllowed: () => false });
  client = new MerchantClient({ baseUrl: mock.url, apiKey: MERCHANT.apiKey, secretKey: MERCHANT.secretKey, timeoutMs: 5000 });
});

after(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await mock.close();
});

const proxyOf = (options: { maxUploadBytes?: number } = {}) =>
  createCheckoutHandler({ client, basePath: '/checkout-api', authorize: () => true, ...options });

const listen = async (server: Server): Promise<string> => {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/checkout-api`;
};

const newInvoice = async () =>
  (
    await client.createInvoice({
      type: 'in',
      amount: '1500.00',
      currency: 'RUB',
      notificationUrl: 'https://shop.example/notify',
      notificationToken: 't',
      startDeal: true,
    })
  ).id;

/** A PNG receipt of `size` bytes. */
const png = (size: number) => {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new File([bytes], 'photo.png', { type: 'image/png' });
};

const sendReceipt = async (base: string, id: string, file: Blob) => {
  const body = new FormData();
  body.append('attachment', file);
  const response = await fetch(`${base}/invoices/${id}/receipt`, { method: 'POST', body });
  return {
    status: response.status,
    json: (await response.json()) as { deals?: { isActive: boolean; status: string }[]; error?: { code: string } },
  };
};

const confirmations = (id: string) =>
  mock.service.requests.filter((request) => request.method === 'POST' && request.path === `/api/merchant/invoices/${id}/confirm-transfer`)
    .length;

test('createNodeServer(checkout) takes a 3 MB receipt and waits for an upload as long as the proxy does', async () => {
  const checkout = proxyOf();
  const server = createNodeServer(checkout);
  const base = await listen(server);
  const id = await newInvoice();
  const answer = await sendReceipt(base, id, png(3_000_000));
  assert.equal(answer.status, 200, JSON.stringify(answer.json));
  assert.equal(answer.json.deals?.find((deal) => deal.isActive)?.status, 'transfer_confirmed');
  // The proxy answers a slow upload itself (408 after uploadTimeoutMs, 120 s): the server's own
  // deadline must not cut the connection first, which a browser answers by sending the POST again.
  assert.ok(server.requestTimeout > 120_000, `requestTimeout ${server.requestTimeout} ms`);
  const notifications = createNodeServer(createNotificationHandler({ token: 'x', verify: false, onNotification: () => undefined }));
  assert.equal(notifications.requestTimeout, 30_000, 'a handler that declares nothing keeps the 30 s');
});

test("createNodeServer(kit.fetch), the README's mount of the kit, takes a 3 MB receipt and waits as long as the proxy does", async () => {
  const kit = createCheckoutServer({
    client,
    basePath: '/checkout-api',
    authorize: () => true,
    reconcile: false,
    notifications: { token: 't' },
  });
  try {
    const server = createNodeServer(kit.fetch);
    const base = await listen(server);
    const answer = await sendReceipt(base, await newInvoice(), png(3_000_000));
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    assert.ok(server.requestTimeout > 120_000, `requestTimeout ${server.requestTimeout} ms`);
  } finally {
    await kit.close();
  }
});

test('toNodeHandler(checkout) with no option takes what the proxy takes, and no more', async () => {
  const base = await serve(toNodeHandler(proxyOf({ maxUploadBytes: 2 * 1024 * 1024 })));
  const id = await newInvoice();
  const ok = await sendReceipt(`${base}/checkout-api`, id, png(1_900_000));
  assert.equal(ok.status, 200, JSON.stringify(ok.json));
  const tooLarge = await sendReceipt(`${base}/checkout-api`, await newInvoice(), png(2_200_000));
  assert.equal(tooLarge.status, 413);
  assert.equal(tooLarge.json.error?.code, 'payload_too_large');
});

test('the projection says how large a receipt this proxy takes', async () => {
  const base = await serve(toNodeHandler(proxyOf({ maxUploadBytes: 2 * 1024 * 1024 })));
  const id = await newInvoice();
  const small = (await (await fetch(`${base}/checkout-api/invoices/${id}`)).json()) as { receiptMaxBytes?: number };
  assert.equal(small.receiptMaxBytes, 2 * 1024 * 1024 - 64 * 1024);
  const usual = await listen(createNodeServer(proxyOf()));
  const standard = (await (await fetch(`${usual}/invoices/${id}`)).json()) as { receiptMaxBytes?: number };
  assert.equal(standard.receiptMaxBytes, MAX_RECEIPT_BYTES, 'the service’s 10 MB, no more');
});

test('five receipts at once for one invoice: one upload to the service, and every payer told it arrived', async () => {
  const base = await listen(createNodeServer(proxyOf()));
  const id = await newInvoice();
  const answers = await Promise.all(Array.from({ length: 5 }, () => sendReceipt(base, id, png(200_000))));
  assert.deepEqual(
    answers.map(({ status }) => status),
    [200, 200, 200, 200, 200],
    JSON.stringify(answers.map(({ json }) => json.error)),
  );
  assert.equal(confirmations(id), 1);
  // Sent again later (the answer was lost): answered from the invoice, nothing sent.
  assert.equal((await sendReceipt(base, id, png(1000))).status, 200);
  assert.equal(confirmations(id), 1);
});

test('a body of 60,000 tiny parts is refused at the first part too many, without reading it all', async () => {
  const base = await listen(createNodeServer(proxyOf()));
  const id = await newInvoice();
  const boundary = 'many-parts';
  const part = (index: number) => `--${boundary}\r\nContent-Disposition: form-data; name="f${index}"\r\n\r\n${'a'.repeat(100)}\r\n`;
  const body = Buffer.from(Array.from({ length: 60_000 }, (_, index) => part(index)).join('') + `--${boundary}--\r\n`);
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(`${base}/invoices/${id}/receipt`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) },
      agent: false,
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
  assert.equal(answer.status, 400);
  assert.match(answer.body, new RegExp(`more than ${MAX_UPLOAD_PARTS} parts`));
  assert.equal(confirmations(id), 0);
});
