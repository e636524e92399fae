/**
 * `toNodeHandler`'s cheaper paths behave like the plain ones: a GET is handed a `Request` that
 * is one in every way a handler can tell; an answer made from text or bytes is written whole
 * with its length; a streamed answer still streams; an open stream keeps neither its request
 * nor its answer alive, and a payer leaving ends it and closes the socket.
 */
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { inspect } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { toNodeHandler, type FetchHandler } from '../../src/server/node/adapter.js';
import { standInsWork } from '../../src/server/node/request.js';
import { textAnswer } from '../../src/server/http/runtime-seam.js';

const servers: ReturnType<typeof createServer>[] = [];
after(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const serve = async (listener: (req: IncomingMessage, res: ServerResponse) => void) => {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

/** The raw answer: status, headers as Node parsed them, body bytes. */
const raw = (url: string, method = 'GET') =>
  new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
    const req = httpRequest(url, { method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });

describe('the Request a GET is handed', () => {
  test('is a Request in every way a handler can tell', async () => {
    let seen: Record<string, unknown> = {};
    const { base } = await serve(
      toNodeHandler(async (request) => {
        const copy = new Request(request);
        const clone = request.clone();
        seen = {
          instance: request instanceof Request,
          tag: Object.prototype.toString.call(request),
          method: request.method,
          url: request.url,
          header: request.headers.get('x-order'),
          headersInstance: request.headers instanceof Headers,
          signal: request.signal instanceof AbortSignal && !request.signal.aborted,
          body: request.body,
          bodyUsed: request.bodyUsed,
          text: await request.text(),
          mode: request.mode,
          copy: [copy.method, copy.url, copy.headers.get('x-order')],
          clone: [clone.url, clone.headers.get('x-order')],
          asInit: new Request('https://elsewhere.example/', request).headers.get('x-order'),
          inspected: inspect(request).startsWith('Request {'),
          headerTag: Object.prototype.toString.call(request.headers),
          headerHas: [request.headers.has('X-Order'), request.headers.has('x-missing')],
          headerEntries: [...request.headers].some(([name, value]) => name === 'x-order' && value === 'order-1'),
          headerForEach: (() => {
            const names: string[] = [];
            request.headers.forEach((_value, name) => names.push(name));
            return names.includes('x-order');
          })(),
          headersCopied: new Headers(request.headers).get('x-order'),
          headerSet: (() => {
            request.headers.set('x-added', 'yes');
            request.headers.delete('x-order');
            return [request.headers.get('x-added'), request.headers.get('x-order')];
          })(),
        };
        return new Response(null, { status: 204 });
      }),
    );
    const response = await fetch(`${base}/invoices/1?x=%20y`, { headers: { 'x-order': 'order-1' } });
    assert.equal(response.status, 204);
    assert.deepEqual(seen, {
      instance: true,
      tag: '[object Request]',
      method: 'GET',
      url: `${base}/invoices/1?x=%20y`,
      header: 'order-1',
      headersInstance: true,
      signal: true,
      body: null,
      bodyUsed: false,
      text: '',
      mode: 'cors',
      copy: ['GET', `${base}/invoices/1?x=%20y`, 'order-1'],
      clone: [`${base}/invoices/1?x=%20y`, 'order-1'],
      asInit: 'order-1',
      inspected: true,
      headerTag: '[object Headers]',
      headerHas: [true, false],
      headerEntries: true,
      headerForEach: true,
      headersCopied: 'order-1',
      headerSet: ['yes', null],
    });
  });

  test('repeated headers reach it as a browser sent them, a repeated Set-Cookie each on its own', async () => {
    let seen: unknown;
    const { base } = await serve(
      toNodeHandler((request) => {
        seen = [request.headers.get('accept'), request.headers.get('cookie'), request.headers.getSetCookie()];
        return new Response(null, { status: 204 });
      }),
    );
    // Raw, as a client may send them: Node joins most repeats into one string and keeps
    // Set-Cookie's as a list, which a real request is then made from through a real Headers.
    const answer = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${base}/x`,
        {
          headers: [
            ['Host', new URL(base).host],
            ['Accept', 'text/html'],
            ['Accept', 'application/json'],
            ['Cookie', 'a=1'],
            ['Cookie', 'b=2'],
            ['Set-Cookie', 'c=3'],
            ['Set-Cookie', 'd=4'],
          ].flat(),
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    assert.equal(answer, 204);
    assert.deepEqual(seen, ['text/html, application/json', 'a=1; b=2', ['c=3', 'd=4']]);
  });

  test('a HEAD is handed as one, and answered without a body', async () => {
    let method = '';
    const { base } = await serve(
      toNodeHandler((request) => {
        method = request.method;
        return Response.json({ ok: true });
      }),
    );
    const answer = await raw(`${base}/x`, 'HEAD');
    assert.equal(method, 'HEAD');
    assert.equal(answer.status, 200);
    assert.equal(answer.body.length, 0);
  });
});

describe('the text answer made for a request of toNodeHandler', () => {
  test('is a Response in every way a wrapping handler can tell, and its bytes arrive as they are', async () => {
    const text = JSON.stringify({ bank: 'Сбербанк', emoji: '💳' });
    const made = (request: Request) =>
      textAnswer(request, text, 201, new Headers({ 'content-type': 'application/json; charset=utf-8', 'x-made': 'light' }));
    let seen: Record<string, unknown> = {};
    const { base } = await serve(
      toNodeHandler(async (request) => {
        const path = new URL(request.url).pathname;
        if (path === '/as-is') {
          const answer = made(request);
          answer.headers.set('x-added', 'later');
          return answer;
        }
        const answer = made(request);
        const clone = answer.clone();
        seen = {
          instance: answer instanceof Response,
          tag: Object.prototype.toString.call(answer),
          status: answer.status,
          ok: answer.ok,
          type: answer.type,
          header: answer.headers.get('x-made'),
          bodyIsStream: answer.body instanceof ReadableStream,
          cloneText: await clone.text(),
          inspected: inspect(answer).startsWith('Response {'),
        };
        // Re-wrapped by a handler of the merchant's: read through a real Response.
        return new Response(answer.body, answer);
      }),
    );
    const direct = await raw(`${base}/as-is`);
    assert.equal(direct.status, 201);
    assert.equal(direct.body.toString('utf8'), text);
    // Written whole with its length on every line: on Node 22 the request is the adapter's
    // stand-in; from Node 24 it is a real one (undici keeps its state in private fields) that the
    // adapter adopted, and the answer is the adapter's all the same.
    assert.equal(direct.headers['content-length'], String(Buffer.byteLength(text)));
    assert.equal(direct.headers['transfer-encoding'], undefined);
    assert.equal(direct.headers['x-added'], 'later');
    const wrapped = await raw(`${base}/wrapped`);
    assert.equal(wrapped.status, 201);
    assert.equal(wrapped.body.toString('utf8'), text);
    assert.equal(wrapped.headers['x-made'], 'light');
    assert.deepEqual(seen, {
      instance: true,
      tag: '[object Response]',
      status: 201,
      ok: true,
      type: 'default',
      header: 'light',
      bodyIsStream: true,
      cloneText: text,
      inspected: true,
    });
  });

  test('a request made elsewhere (a Fetch runtime) gets a real Response', async () => {
    const answer = textAnswer(new Request('http://localhost/x'), 'plain', 200, new Headers());
    assert.equal(Object.getPrototypeOf(answer), Response.prototype);
    assert.equal(await answer.text(), 'plain');
  });
});

describe('answers', () => {
  test('made from text or bytes: written whole, with their length, the same bytes', async () => {
    const text = JSON.stringify({ bank: 'Сбербанк', emoji: '💳' });
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const { base } = await serve(
      toNodeHandler((request) =>
        new URL(request.url).pathname === '/text'
          ? new Response(text, { headers: { 'content-type': 'application/json; charset=utf-8' } })
          : new Response(bytes),
      ),
    );
    const first = await raw(`${base}/text`);
    const second = await raw(`${base}/bytes`);
    assert.equal(first.body.toString('utf8'), text);
    assert.deepEqual([...second.body], [...bytes]);
    // undici up to Node 22 shows what a Response was made from (a symbol), so the answer is written
    // whole with its length; from Node 24 that is a private field, and the same bytes are streamed.
    if (standInsWork()) {
      assert.equal(first.headers['content-length'], String(Buffer.byteLength(text)));
      assert.equal(first.headers['transfer-encoding'], undefined);
      assert.equal(second.headers['content-length'], '5');
    } else assert.deepEqual([first.headers['transfer-encoding'], second.headers['transfer-encoding']], ['chunked', 'chunked']);
  });

  test('a body the handler streams, or read part of, is streamed as it comes', async () => {
    const { base } = await serve(
      toNodeHandler((request) => {
        if (new URL(request.url).pathname === '/stream') {
          const encoder = new TextEncoder();
          let count = 0;
          return new Response(
            new ReadableStream<Uint8Array>({
              pull: async (controller) => {
                await new Promise((resolve) => setTimeout(resolve, 5));
                if (count === 3) controller.close();
                else controller.enqueue(encoder.encode(`part ${count++};`));
              },
            }),
          );
        }
        // An answer whose stream was already taken: its text must not be written again from the source.
        const answer = new Response('abcdef');
        const [one, two] = answer.body!.tee();
        void one.cancel();
        return new Response(two, { headers: { 'x-teed': '1' } });
      }),
    );
    const streamed = await raw(`${base}/stream`);
    assert.equal(streamed.body.toString(), 'part 0;part 1;part 2;');
    assert.equal(streamed.headers['transfer-encoding'], 'chunked');
    const teed = await raw(`${base}/teed`);
    assert.equal(teed.body.toString(), 'abcdef');
  });
});

describe('an open stream', () => {
  const gc = (): Promise<void> => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    // WeakRefs made in this turn are kept until it ends: collect in a later one.
    return new Promise((resolve) =>
      setTimeout(() => {
        collect();
        resolve();
      }, 0),
    );
  };

  test('keeps neither its request nor its answer alive; a payer leaving ends it and closes the socket', async () => {
    let requestRef: WeakRef<Request> | undefined;
    let responseRef: WeakRef<Response> | undefined;
    let canceled: () => void = () => undefined;
    const ended = new Promise<void>((resolve) => (canceled = resolve));
    const handler: FetchHandler = (request) => {
      requestRef = new WeakRef(request);
      const encoder = new TextEncoder();
      let pulls = 0;
      const body = new ReadableStream<Uint8Array>(
        {
          // The first event at once, then nothing (an idle stream).
          pull: (controller) => {
            if (pulls++ === 0) controller.enqueue(encoder.encode('event: invoice\ndata: {}\n\n'));
          },
          cancel: () => canceled(),
        },
        { highWaterMark: 0 },
      );
      request.signal.addEventListener('abort', () => canceled(), { once: true });
      const response = new Response(body, { headers: { 'content-type': 'text/event-stream' } });
      responseRef = new WeakRef(response);
      return response;
    };
    const { server, base } = await serve(toNodeHandler(handler));
    let serverSockets = 0;
    server.on('connection', (socket) => {
      serverSockets++;
      socket.on('close', () => serverSockets--);
    });
    const controller = new AbortController();
    const answer = await fetch(`${base}/events`, { signal: controller.signal });
    const reader = answer.body!.getReader();
    assert.match(new TextDecoder().decode((await reader.read()).value), /^event: invoice/);
    await gc();
    await gc();
    // From Node 24 the request is a real one, held while its answer is open: undici's signal of it,
    // which tells the handler that the payer left, dies with it.
    if (standInsWork()) assert.equal(requestRef?.deref(), undefined, 'the request was collected while the stream is open');
    assert.equal(responseRef?.deref(), undefined, 'the answer object was collected while its body streams');
    assert.equal(serverSockets, 1);
    controller.abort();
    await ended;
    for (let i = 0; i < 100 && serverSockets > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(serverSockets, 0, 'the server closed its socket');
  });
});
