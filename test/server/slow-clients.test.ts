/**
 * Slow clients cannot hold the server: a body trickled at 1 byte/s is answered 408 within the
 * body deadline, a body nobody reads is held to the adapter's own deadline (the answer went out:
 * the connection is closed; no answer yet: 408), headers that never end are cut by
 * createNodeServer's headers deadline, and normal requests are served meanwhile.
 */
import assert from 'node:assert/strict';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Server } from 'node:http';
import { MerchantClient, createCheckoutHandler, createNodeServer, createNotificationHandler } from '../../src/server/node.js';
import { INVOICE_ID, exampleLookupInvoice } from '../fixtures/dto.js';

const client = new MerchantClient({
  baseUrl: 'https://pay.example',
  apiKey: 'key',
  secretKey: 'secret',
  fetch: () => Promise.resolve(Response.json(exampleLookupInvoice())),
});
const proxy = createCheckoutHandler({ client, authorize: () => true, bodyTimeoutMs: 700 });
const notifications = createNotificationHandler({ token: 'token', client, onNotification: () => undefined, bodyTimeoutMs: 700 });
let server: Server;
let port: number;

before(async () => {
  server = createNodeServer((request) => (new URL(request.url).pathname === '/notify' ? notifications(request) : proxy(request)), {
    headersTimeoutMs: 800,
    requestTimeoutMs: 5000,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Opens a raw connection, sends `head`, then the body one byte a second; resolves with what came back and when. */
const trickle = (head: string, body: string, to = port) =>
  new Promise<{ text: string; ms: number }>((resolve) => {
    const started = Date.now();
    const socket: Socket = connect(to, '127.0.0.1', () => {
      socket.write(head);
      let sent = 0;
      const timer = setInterval(() => {
        if (sent < body.length && !socket.destroyed) socket.write(body[sent++]!);
      }, 1000);
      let text = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ text, ms: Date.now() - started });
      });
      socket.on('error', () => undefined);
    });
  });

describe('slow clients', () => {
  test('a deal body trickled at 1 byte/s is answered 408 within the body deadline', { timeout: 10_000 }, async () => {
    const body = JSON.stringify({ option: 'SBP', method: 'sberbank' });
    const { text, ms } = await trickle(
      `POST /invoices/${INVOICE_ID}/deal HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      body,
    );
    assert.match(text, /^HTTP\/1\.1 408/);
    assert.match(text, /"code":"request_timeout"/);
    assert.ok(ms < 3000, `answered after ${ms} ms`);
  });

  test('a notification trickled in slowly is 408 too (the service retries it)', { timeout: 10_000 }, async () => {
    const { text } = await trickle(
      'POST /notify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\nX-Notification-Token: token\r\nConnection: close\r\n\r\n',
      '{"notificationType":"invoice"',
    );
    assert.match(text, /^HTTP\/1\.1 408/);
  });

  test(
    'headers that never end are cut by the headers deadline, and a normal request is served meanwhile',
    { timeout: 10_000 },
    async () => {
      const slow = trickle(`GET /invoices/${INVOICE_ID} HTTP/1.1\r\nHost: 127.0.0.1\r\n`, 'X-Slow: aaaaaaaaaaaaaaaaaaaa');
      const normal = await fetch(`http://127.0.0.1:${port}/invoices/${INVOICE_ID}`);
      assert.equal(normal.status, 200);
      const { ms } = await slow;
      assert.ok(ms < 4000, `the slow connection was closed after ${ms} ms`);
    },
  );

  test(
    'a body nobody reads is held to the adapter’s deadline: after the answer the connection is closed, without one it is 408; a GET’s is not waited for',
    { timeout: 10_000 },
    async () => {
      const unread = createNodeServer(
        (request) =>
          new URL(request.url).pathname === '/answers'
            ? Promise.resolve(Response.json({ read: false }))
            : new Promise<Response>((resolve) => setTimeout(() => resolve(Response.json({ late: true })), 4000)),
        { bodyTimeoutMs: 500 },
      );
      await new Promise<void>((resolve) => unread.listen(0, '127.0.0.1', resolve));
      try {
        const to = (unread.address() as AddressInfo).port;
        const head = (path: string) => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 30\r\n\r\n`;
        // Each resolves when the server closes the connection; the 30 bytes would take 30 s.
        const [answered, silent, get] = await Promise.all([
          trickle(head('/answers'), 'a'.repeat(30), to),
          trickle(head('/silent'), 'a'.repeat(30), to),
          // A GET with a body: answered, and its body not waited for.
          trickle(
            'GET /answers HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n',
            `1e\r\n${'a'.repeat(30)}\r\n0\r\n\r\n`,
            to,
          ),
        ]);
        assert.match(answered.text, /^HTTP\/1\.1 200/);
        assert.match(get.text, /^HTTP\/1\.1 200/);
        assert.match(silent.text, /^HTTP\/1\.1 408/);
        assert.match(silent.text, /"code":"request_timeout"/);
        assert.doesNotMatch(silent.text, /late/);
      } finally {
        unread.closeAllConnections();
        await new Promise((resolve) => unread.close(resolve));
      }
    },
  );
});
