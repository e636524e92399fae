import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { describe, test } from 'node:test';
import { serve } from '../support/node-server.js';
import { PayloadTooLargeError, toNodeHandler, type FetchHandler } from '../../src/server/node/adapter.js';

const echo: FetchHandler = async (request) => {
  let body: string;
  try {
    body = await request.text();
  } catch (error) {
    const tooLarge = error instanceof PayloadTooLargeError || (error as Error).cause instanceof PayloadTooLargeError;
    return Response.json({ error: tooLarge ? 'too large' : String(error) }, { status: tooLarge ? 413 : 400 });
  }
  return Response.json({ method: request.method, url: request.url, body, type: request.headers.get('content-type') });
};

describe('toNodeHandler on node:http', () => {
  test('passes method, full URL, headers and body, and streams the answer back', async () => {
    const base = await serve(toNodeHandler(echo));
    const response = await fetch(`${base}/checkout-api/invoices?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"option":"SBP","текст":"да"}',
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {
      method: 'POST',
      url: `${base}/checkout-api/invoices?x=1`,
      body: '{"option":"SBP","текст":"да"}',
      type: 'application/json',
    });
  });

  test('a declared body over the limit is answered 413 without calling the handler', async () => {
    let called = false;
    const base = await serve(toNodeHandler(async (request) => ((called = true), echo(request)), { maxBodyBytes: 100 }));
    const response = await fetch(`${base}/x`, { method: 'POST', body: 'x'.repeat(101) });
    assert.equal(response.status, 413);
    assert.deepEqual(await response.json(), {
      error: { code: 'payload_too_large', message: 'request body exceeds 100 bytes', maxBytes: 100 },
    });
    assert.equal(called, false);
  });

  test('a chunked body that grows past the limit errors the stream the handler reads', async () => {
    const base = await serve(toNodeHandler(echo, { maxBodyBytes: 1000 }));
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${base}/x`, { method: 'POST', headers: { 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write('y'.repeat(100));
      req.end();
    });
    assert.equal(status, 413);
  });

  test('a handler that cancels an unread body answers, and the kept-alive connection serves the next request', async () => {
    let uncaught: unknown;
    const onUncaught = (error: unknown) => (uncaught = error);
    process.on('uncaughtException', onUncaught);
    try {
      const base = await serve(
        toNodeHandler(async (request) => {
          if (request.method === 'POST') await request.body?.cancel();
          return Response.json({ method: request.method });
        }),
      );
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const send = (method: string, body?: string) =>
        new Promise<{ status: number; text: string; socket: unknown }>((resolve, reject) => {
          const req = httpRequest(`${base}/x`, { method, agent }, (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text, socket: req.socket }));
          });
          req.on('error', reject);
          if (body) req.write(body);
          req.end();
        });
      const first = await send('POST', 'z'.repeat(200_000));
      const second = await send('GET');
      agent.destroy();
      assert.deepEqual([first.status, first.text], [200, '{"method":"POST"}']);
      assert.deepEqual([second.status, second.text], [200, '{"method":"GET"}']);
      assert.equal(uncaught, undefined);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });

  test('multiple Set-Cookie headers survive', async () => {
    const base = await serve(
      toNodeHandler(() => {
        const headers = new Headers();
        headers.append('set-cookie', 'a=1');
        headers.append('set-cookie', 'b=2');
        return new Response(null, { status: 204, headers });
      }),
    );
    const response = await fetch(base);
    assert.deepEqual(response.headers.getSetCookie(), ['a=1', 'b=2']);
  });

  test('a throwing handler is a 500 without its message', async () => {
    const base = await serve(
      toNodeHandler(() => {
        throw new Error('secret-internal-detail');
      }),
    );
    const response = await fetch(base);
    assert.equal(response.status, 500);
    const text = await response.text();
    assert.ok(!text.includes('secret-internal-detail'));
    assert.match(text, /internal_error/);
  });

  test('a payer who disconnects aborts the request signal', async () => {
    let aborted: Promise<void> | undefined;
    const base = await serve(
      toNodeHandler(
        (request) =>
          new Promise<Response>(() => {
            aborted = new Promise((resolve) => request.signal.addEventListener('abort', () => resolve()));
          }),
      ),
    );
    const controller = new AbortController();
    const pending = fetch(base, { signal: controller.signal }).catch(() => undefined);
    while (!aborted) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await pending;
    await aborted;
  });
});

describe('toNodeHandler as Connect/Express middleware', () => {
  test('requests outside basePath go to next(); inside, the full original URL reaches the handler', async () => {
    const middleware = toNodeHandler(echo, { basePath: '/checkout-api' });
    const base = await serve((req, res) => {
      // What Express does when mounted with app.use('/checkout-api', …): strip the prefix from url.
      const original = req.url ?? '/';
      if (original.startsWith('/checkout-api')) {
        Object.assign(req, { originalUrl: original, url: original.slice('/checkout-api'.length) || '/' });
      }
      middleware(req, res, (error?: unknown) => {
        res.writeHead(error ? 500 : 200, { 'content-type': 'text/plain' }).end(error ? 'next(error)' : 'next()');
      });
    });
    const outside = await fetch(`${base}/shop/cart`);
    assert.equal(await outside.text(), 'next()');
    const inside = await fetch(`${base}/checkout-api/invoices/1`);
    assert.equal(((await inside.json()) as { url: string }).url, `${base}/checkout-api/invoices/1`);
  });

  test('a throwing handler goes to next(error)', async () => {
    const middleware = toNodeHandler(() => Promise.reject(new Error('boom')));
    const base = await serve((req, res) => middleware(req, res, (error?: unknown) => res.end(error ? 'next(error)' : 'next()')));
    assert.equal(await (await fetch(base)).text(), 'next(error)');
  });

  test('X-Forwarded-* are used only with trustProxy', async () => {
    const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'shop.example' };
    const plain = await serve(toNodeHandler(echo));
    assert.match(((await (await fetch(`${plain}/a`, { headers })).json()) as { url: string }).url, /^http:\/\/127\.0\.0\.1/);
    const trusting = await serve(toNodeHandler(echo, { trustProxy: true }));
    assert.equal(((await (await fetch(`${trusting}/a`, { headers })).json()) as { url: string }).url, 'https://shop.example/a');
  });
});

describe('toNodeHandler with hostile or unusual requests', () => {
  /** Sends raw HTTP/1.1 text and resolves with the raw answer. */
  const raw = (base: string, text: string) =>
    new Promise<string>((resolve, reject) => {
      const { hostname, port } = new URL(base);
      const socket = connect(Number(port), hostname, () => socket.end(text));
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
    });

  test('an absolute-form request target keeps only its path, also with basePath and next (no crash)', async () => {
    const middleware = toNodeHandler(echo, { basePath: '/checkout-api' });
    const base = await serve((req, res) => middleware(req, res, () => res.end('next()')));
    const { host } = new URL(base);
    const answer = await raw(base, `GET http://evil.example/checkout-api/x HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    assert.match(answer, /^HTTP\/1.1 200/);
    assert.ok(answer.includes(`"url":"${base}/checkout-api/x"`), answer);
  });

  test('a Host that could move the path is a 400, never a thrown error', async () => {
    const middleware = toNodeHandler(echo, { basePath: '/checkout-api' });
    const base = await serve((req, res) => middleware(req, res, () => res.end('next()')));
    for (const host of ['evil.example/checkout-api', 'user@evil.example', 'a b']) {
      const answer = await raw(base, `GET /checkout-api/x HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      assert.match(answer, /^HTTP\/1.1 400/, host);
    }
    const star = await raw(base, `OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.match(star, /^HTTP\/1.1 400/);
  });

  test('dot segments (plain or encoded) and backslashes in the raw path are a 400 before any parsing', async () => {
    let calls = 0;
    const base = await serve(toNodeHandler(async (request) => ((calls += 1), echo(request))));
    const { host } = new URL(base);
    for (const target of ['/a/../b', '/a/./b', '/a/%2e%2E/b', '/a/.%2e', '/a/%2e', '/a\\b', 'http://x/a/../b', '/..']) {
      const answer = await raw(base, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      assert.match(answer, /^HTTP\/1.1 400/, target);
    }
    for (const target of ['/a/...', '/a/.b', '/a/b.', '/a?x=/../', '/a/%252e%252e']) {
      const answer = await raw(base, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      assert.match(answer, /^HTTP\/1.1 200/, target);
    }
    assert.equal(calls, 5);
  });

  test('a body already read by a parser before it (express.json()) is passed on from req.body', async () => {
    const middleware = toNodeHandler(echo, { maxBodyBytes: 100 });
    const base = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        Object.assign(req, { body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
        middleware(req, res);
      });
    });
    const ok = await fetch(`${base}/x`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"option":"SBP"}' });
    assert.equal(((await ok.json()) as { body: string }).body, '{"option":"SBP"}');
    const big = await fetch(`${base}/x`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ a: 'x'.repeat(99) }),
    });
    assert.equal(big.status, 413);
  });
});
