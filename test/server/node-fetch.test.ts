import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startMockServer } from '../../src/mock/index.js';
import { MerchantClient, createNodeFetch } from '../../src/server/node.js';
import { INVOICE_ID, exampleLookupInvoice, exampleVariants, validCreateInvoice } from '../fixtures/dto.js';
import { startSigningServer, type SigningServer } from '../helpers/signing-server.js';

const API_KEY = 'api-key-node-fetch';
const SECRET_KEY = 'secret-node-fetch-ключ';

let server: SigningServer;
before(async () => {
  server = await startSigningServer(API_KEY, SECRET_KEY);
});
after(() => server.close());

const clientFor = (baseUrl: string, timeoutMs = 2000, maxResponseBytes?: number) =>
  new MerchantClient({
    baseUrl,
    apiKey: API_KEY,
    secretKey: SECRET_KEY,
    timeoutMs,
    fetch: createNodeFetch(),
    ...(maxResponseBytes ? { maxResponseBytes } : {}),
  });

describe('createNodeFetch under MerchantClient', () => {
  test('a JSON POST and a GET arrive signed, with the exact body, and answer parsed', async () => {
    server.received.length = 0;
    server.reply((request) => ({
      json: request.method === 'GET' ? exampleLookupInvoice() : exampleLookupInvoice({ internalId: 'заказ-7' }),
    }));
    const client = clientFor(server.baseUrl);
    const created = await client.createInvoice(validCreateInvoice({ internalId: 'заказ-7' }));
    const read = await client.getInvoiceByInternalId('заказ 7/8');
    assert.equal(created.internalId, 'заказ-7');
    assert.equal(read.id, INVOICE_ID);
    assert.deepEqual(
      server.received.map((request) => request.signatureValid),
      [true, true],
    );
    assert.deepEqual(JSON.parse(server.received[0]!.body), validCreateInvoice({ internalId: 'заказ-7' }));
    assert.equal(server.received[1]!.path, `/api/merchant/invoices/internal-id/${encodeURIComponent('заказ 7/8')}`);
  });

  test('a multipart body goes with its boundary and is signed over method + URL', async () => {
    server.received.length = 0;
    server.reply(() => ({ status: 204 }));
    const form = new FormData();
    form.set('reason', 'Деньги отправлены');
    assert.equal(await clientFor(server.baseUrl).request('POST', `/invoices/${INVOICE_ID}/dispute`, form), null);
    assert.match(String(server.received[0]!.headers['content-type']), /^multipart\/form-data; boundary=/);
    assert.match(server.received[0]!.body, /Деньги отправлены/);
    assert.equal(server.received[0]!.signatureValid, true);
  });

  test('keeps the connection alive between calls', async () => {
    let connections = 0;
    const plain = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(exampleVariants()));
    });
    plain.on('connection', () => connections++);
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const client = new MerchantClient({
        baseUrl: `http://127.0.0.1:${(plain.address() as AddressInfo).port}`,
        apiKey: API_KEY,
        secretKey: SECRET_KEY,
        fetch: createNodeFetch(),
      });
      for (let i = 0; i < 5; i++) assert.equal((await client.listPaymentVariants(INVOICE_ID)).length, 3);
      assert.equal(connections, 1);
    } finally {
      plain.closeAllConnections();
      await new Promise((resolve) => plain.close(resolve));
    }
  });

  test('a hung service is cut at timeoutMs and the connection closed', async () => {
    let closed = false;
    const hanging = createServer((req) => req.on('close', () => (closed = true)));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const client = clientFor(`http://127.0.0.1:${(hanging.address() as AddressInfo).port}`, 200);
      await assert.rejects(client.listPaymentVariants(INVOICE_ID), { name: 'MerchantTimeoutError', timeoutMs: 200 });
      for (let i = 0; i < 100 && !closed; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(closed, true, 'the server saw the request go away');
    } finally {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    }
  });

  test('an answer over the size limit is refused, a 500 is MerchantApiError', async () => {
    server.reply(() => ({ json: Array.from({ length: 200 }, () => ({ option: 'SBP', method: 'sberbank' })) }));
    await assert.rejects(clientFor(server.baseUrl, 2000, 500).listPaymentVariants(INVOICE_ID), /answer exceeds 500 bytes/);
    server.reply(() => ({ status: 500, text: 'boom' }));
    await assert.rejects(clientFor(server.baseUrl).listPaymentVariants(INVOICE_ID), {
      name: 'MerchantApiError',
      status: 500,
      bodyExcerpt: 'boom',
    });
  });

  test('an answer is read whole as it streams: chunks split inside a letter, a byte-order mark, a cut, a redirect, a size limit', async () => {
    const json = JSON.stringify(exampleLookupInvoice({ storeName: 'Магазин «Ёлка»' }));
    const bytes = Buffer.from(`\uFEFF${json}`);
    const split = bytes.indexOf(Buffer.from('Ё')) + 1; // inside the two bytes of «Ё»
    let mode: 'chunks' | 'cut' | 'redirect' | 'stream-large' = 'chunks';
    const plain = createServer((req, res) => {
      req.resume();
      if (mode === 'redirect') return void res.writeHead(302, { location: 'https://elsewhere.example/x' }).end();
      res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no length declared
      if (mode === 'stream-large') return void res.end('['.padEnd(5000, ' '));
      res.write(bytes.subarray(0, split));
      if (mode === 'cut') return void setTimeout(() => res.socket?.destroy(), 20);
      setTimeout(() => res.end(bytes.subarray(split)), 20);
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const client = clientFor(`http://127.0.0.1:${(plain.address() as AddressInfo).port}`, 2000, 1000);
      const read = clientFor(`http://127.0.0.1:${(plain.address() as AddressInfo).port}`);
      assert.equal((await read.getInvoice(INVOICE_ID)).storeName, 'Магазин «Ёлка»');
      mode = 'cut';
      await assert.rejects(read.getInvoice(INVOICE_ID), { name: 'MerchantNetworkError', message: /request failed/ });
      mode = 'redirect';
      await assert.rejects(read.getInvoice(INVOICE_ID), {
        name: 'MerchantResponseError',
        status: 302,
        message: /redirect to https:\/\/elsewhere\.example\/x is not followed/,
      });
      mode = 'stream-large';
      await assert.rejects(client.getInvoice(INVOICE_ID), {
        name: 'MerchantResponseError',
        status: 200,
        message: /answer exceeds 1000 bytes/,
      });
    } finally {
      plain.closeAllConnections();
      await new Promise((resolve) => plain.close(resolve));
    }
  });

  test('a refused connection is MerchantNetworkError', async () => {
    await assert.rejects(clientFor('http://127.0.0.1:1').listPaymentVariants(INVOICE_ID), { name: 'MerchantNetworkError' });
  });

  test('round-trips with the mock on a real port', async () => {
    const merchant = { apiKey: API_KEY, secretKey: SECRET_KEY, storeId: 1, storeName: 'Shop' };
    const mock = await startMockServer({ merchants: [merchant], port: 0 });
    try {
      const client = clientFor(mock.url);
      const invoice = await client.createInvoice(
        validCreateInvoice({ internalId: 'nf-1', startDeal: true, notificationUrl: 'http://127.0.0.1:9/hook' }),
      );
      assert.equal((await client.getInvoiceByInternalId('nf-1')).id, invoice.id);
      assert.equal((await client.cancelInvoice(invoice.id)).status, 'canceled');
    } finally {
      await mock.close();
    }
  });
});
