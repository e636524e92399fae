/**
 * Aborts reach the socket: upstream calls the proxy gave up on (its time budget ran out) leave
 * no connection open on the service.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { MerchantClient, createCheckoutHandler, createNodeFetch } from '../../src/server/node.js';

const ID = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
let upstream: Server;
let baseUrl: string;
const open = new Set<Socket>();
let received = 0;

before(async () => {
  // A service that takes every request and never answers.
  upstream = createServer(() => void received++);
  upstream.on('connection', (socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

after(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

const hungCalls = async (client: MerchantClient) => {
  const proxy = createCheckoutHandler({ client, authorize: () => true, timeoutMs: 800 });
  const before = received;
  const answers = await Promise.all(Array.from({ length: 200 }, () => proxy(new Request(`https://shop.example/invoices/${ID}`))));
  assert.deepEqual(
    answers.map((answer) => answer.status),
    Array.from({ length: 200 }, () => 504),
  );
  assert.ok(received - before > 0, 'the calls reached the service');
  await new Promise((resolve) => setTimeout(resolve, 2000));
  return open.size;
};

describe('a timed-out upstream call closes its connection', () => {
  test('the default fetch: 200 hung calls → 200 answers of 504 → 0 sockets open 2 s later', { timeout: 30_000 }, async () => {
    assert.equal(await hungCalls(new MerchantClient({ baseUrl, apiKey: 'key', secretKey: 'secret' })), 0);
  });
  test('createNodeFetch: the same', { timeout: 30_000 }, async () => {
    assert.equal(await hungCalls(new MerchantClient({ baseUrl, apiKey: 'key', secretKey: 'secret', fetch: createNodeFetch() })), 0);
  });
});
