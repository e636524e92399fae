/**
 * Receipts where the README mounts the proxy (issue 25) and wherever a shop mounts it (issue
 * 37, point 7): `createNodeServer(checkout)`, `toNodeHandler(checkout)`, and the shop's own
 * function in front of `kit.checkout` (on node:http and in Express), with no option, take what
 * the proxy takes and wait as long as it waits (each route tells the adapter its own cap and
 * deadline when it reads); a body over the limit that refused it is a 413 naming that limit
 * (`maxBytes`: the route's, a cap given by hand, or the adapter's 1 MiB when the route's
 * request was copied); the projection tells the element the receipt's limit, concurrent
 * receipts for one invoice are one upload to the service, and a body of thousands of tiny
 * parts is refused at the first part too many instead of being parsed whole.
 */
import assert from 'node:assert/strict';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import express from 'express';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { MAX_RECEIPT_BYTES } from '../../src/schemas/patterns.js';
import {
  createCheckoutHandler,
  createCheckoutServer,
  createNodeServer,
  MerchantClient,
  toNodeHandler,
  type CheckoutServer,
} from '../../src/server/node.js';
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

type Answer = {
  status: number;
  json: { deals?: { isActive: boolean; status: string }[]; error?: { code: string; message: string; maxBytes?: number } };
};

const sendReceipt = async (base: string, id: string, file: Blob): Promise<Answer> => {
  const body = new FormData();
  body.append('attachment', file);
  const response = await fetch(`${base}/invoices/${id}/receipt`, { method: 'POST', body });
  return { status: response.status, json: (await response.json()) as Answer['json'] };
};

/**
 * POSTs `file` as a receipt the way a phone on a slow network would: the multipart body in ten
 * pieces spread over `overMs` (with its length declared, or chunked).
 */
const sendReceiptSlowly = async (url: string, file: Blob, overMs: number, declareLength = true): Promise<Answer> => {
  const form = new FormData();
  form.append('attachment', file);
  const encoded = new Response(form);
  const bytes = Buffer.from(await encoded.arrayBuffer());
  const headers: Record<string, string> = { 'content-type': encoded.headers.get('content-type')! };
  if (declareLength) headers['content-length'] = String(bytes.length);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers, agent: false });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as Answer['json'] }));
    });
    req.on('error', reject);
    const piece = Math.ceil(bytes.length / 10);
    let sent = 0;
    const next = () => {
      if (req.destroyed) return;
      if (sent >= bytes.length) {
        req.end();
        return;
      }
      req.write(bytes.subarray(sent, sent + piece));
      sent += piece;
      setTimeout(next, overMs / 10);
    };
    next();
  });
};

/** A kit on the mock (no reconciler), closed when the file's tests are done. */
const kits: CheckoutServer[] = [];
const kitOf = (options: { maxUploadBytes?: number; uploadTimeoutMs?: number } = {}) => {
  const kit = createCheckoutServer({ client, basePath: '/checkout-api', authorize: () => true, reconcile: false, ...options });
  kits.push(kit);
  return kit;
};
after(async () => {
  for (const kit of kits.splice(0)) await kit.close();
});

/**
 * A shop's own function in front of the kit, as a shop with its own routes writes it: the
 * checkout under `/checkout-api`, its own JSON route `/orders` read with `request.text()`
 * (no cap of its own), and 404 for anything else. `copy`: the shop hands the kit a copy of the
 * request (`new Request(url, request)`), as a router that rewrites URLs does.
 */
const shopFront =
  (kit: CheckoutServer, copy = false) =>
  async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith('/checkout-api/')) return kit.checkout(copy ? new Request(request.url, request) : request);
    if (pathname === '/orders' && request.method === 'POST') return Response.json({ received: (await request.text()).length });
    return new Response('not found', { status: 404 });
  };

const confirmations = (id: string) =>
  mock.service.requests.filter((request) => request.method === 'POST' && request.path === `/api/merchant/invoices/${id}/confirm-transfer`)
    .length;

test('createNodeServer(checkout) takes a 3 MB receipt', async () => {
  const base = await listen(createNodeServer(proxyOf()));
  const answer = await sendReceipt(base, await newInvoice(), png(3_000_000));
  assert.equal(answer.status, 200, JSON.stringify(answer.json));
  assert.equal(answer.json.deals?.find((deal) => deal.isActive)?.status, 'transfer_confirmed');
});

test("createNodeServer(kit.fetch), the README's mount of the kit, takes a 3 MB receipt", async () => {
  const kit = createCheckoutServer({
    client,
    basePath: '/checkout-api',
    authorize: () => true,
    reconcile: false,
    notifications: { token: 't' },
  });
  try {
    const base = await listen(createNodeServer(kit.fetch));
    const answer = await sendReceipt(base, await newInvoice(), png(3_000_000));
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
  } finally {
    await kit.close();
  }
});

test('toNodeHandler(checkout) with no option takes what the proxy takes, and no more: the 413 names the proxy’s limit', async () => {
  const base = await serve(toNodeHandler(proxyOf({ maxUploadBytes: 2 * 1024 * 1024 })));
  const id = await newInvoice();
  const ok = await sendReceipt(`${base}/checkout-api`, id, png(1_900_000));
  assert.equal(ok.status, 200, JSON.stringify(ok.json));
  const tooLarge = await sendReceipt(`${base}/checkout-api`, await newInvoice(), png(2_200_000));
  assert.equal(tooLarge.status, 413);
  assert.equal(tooLarge.json.error?.code, 'payload_too_large');
  assert.equal(tooLarge.json.error?.maxBytes, 2 * 1024 * 1024);
});

test('the shop’s own function in front of kit.checkout, on createNodeServer: a 3 MB receipt is taken; its own route keeps 1 MiB', async () => {
  const base = await listen(createNodeServer(shopFront(kitOf())));
  const answer = await sendReceipt(base, await newInvoice(), png(3_000_000));
  assert.equal(answer.status, 200, JSON.stringify(answer.json));
  assert.equal(answer.json.deals?.find((deal) => deal.isActive)?.status, 'transfer_confirmed');
  const origin = base.replace(/\/checkout-api$/, '');
  const small = await fetch(`${origin}/orders`, { method: 'POST', body: 'x'.repeat(1000) });
  assert.deepEqual(await small.json(), { received: 1000 });
  // Read without a cap of its own: the adapter's 1 MiB, and the 413 says so.
  const large = await fetch(`${origin}/orders`, { method: 'POST', body: 'x'.repeat(2_000_000) });
  assert.equal(large.status, 413);
  assert.deepEqual(((await large.json()) as Answer['json']).error?.maxBytes, 1024 * 1024);
});

test('the shop’s own function in front of kit.checkout, in Express after express.json(): a 3 MB receipt is taken', async () => {
  const app = express();
  app.use(express.json());
  app.use(toNodeHandler(shopFront(kitOf())));
  const base = await serve(app);
  const answer = await sendReceipt(`${base}/checkout-api`, await newInvoice(), png(3_000_000));
  assert.equal(answer.status, 200, JSON.stringify(answer.json));
  assert.equal(answer.json.deals?.find((deal) => deal.isActive)?.status, 'transfer_confirmed');
});

test('behind the shop’s function, a receipt over the route’s own limit is a 413 naming that limit', async () => {
  const base = await listen(createNodeServer(shopFront(kitOf({ maxUploadBytes: 2 * 1024 * 1024 }))));
  const declared = await sendReceipt(base, await newInvoice(), png(2_200_000));
  assert.equal(declared.status, 413);
  assert.equal(declared.json.error?.maxBytes, 2 * 1024 * 1024);
  const chunked = await sendReceiptSlowly(`${base}/invoices/${await newInvoice()}/receipt`, png(2_200_000), 100, false);
  assert.equal(chunked.status, 413);
  assert.equal(chunked.json.error?.maxBytes, 2 * 1024 * 1024);
});

test('a cap given by hand (maxBodyBytes) is the limit that refuses, and the 413 names it, not the kit’s 10 MB', async () => {
  const base = await listen(createNodeServer(shopFront(kitOf()), { maxBodyBytes: 1024 * 1024 }));
  const declared = await sendReceipt(base, await newInvoice(), png(3_000_000));
  assert.equal(declared.status, 413);
  assert.equal(declared.json.error?.maxBytes, 1024 * 1024);
  // Chunked, nothing declared: the route reads it, and is held to the smaller cap.
  const id = await newInvoice();
  const chunked = await sendReceiptSlowly(`${base}/invoices/${id}/receipt`, png(3_000_000), 100, false);
  assert.equal(chunked.status, 413, JSON.stringify(chunked.json));
  assert.equal(chunked.json.error?.maxBytes, 1024 * 1024);
  assert.equal(confirmations(id), 0);
});

test('the shop hands the kit a copy of the request: the adapter’s 1 MiB holds, and the 413 says 1 MiB', async () => {
  const base = await listen(createNodeServer(shopFront(kitOf(), true)));
  const small = await sendReceipt(base, await newInvoice(), png(200_000));
  assert.equal(small.status, 200, JSON.stringify(small.json));
  const large = await sendReceipt(base, await newInvoice(), png(3_000_000));
  assert.equal(large.status, 413, JSON.stringify(large.json));
  assert.equal(large.json.error?.maxBytes, 1024 * 1024);
});

test('behind the shop’s function the route keeps its upload deadline: a receipt slower than the adapter’s own deadline is taken', async () => {
  // The adapter waits 400 ms for a body whose reader has no deadline; the kit's uploads wait 20 s.
  const base = `${await serve(toNodeHandler(shopFront(kitOf({ uploadTimeoutMs: 20_000 })), { bodyTimeoutMs: 400 }))}`;
  const answer = await sendReceiptSlowly(`${base}/checkout-api/invoices/${await newInvoice()}/receipt`, png(300_000), 1500);
  assert.equal(answer.status, 200, JSON.stringify(answer.json));
  // The shop's own route, read without a deadline of its own, is held to the adapter's.
  const own = await sendReceiptSlowly(`${base}/orders`, png(300_000), 1500);
  assert.equal(own.status, 408, JSON.stringify(own.json));
  assert.equal(own.json.error?.code, 'request_timeout');
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
