/**
 * The payer's journey beyond the deal, through the proxy on a real port (toNodeHandler) and the
 * mock service on its own real port: the receipt (`POST /invoices/{id}/receipt`, the service's
 * confirm-transfer), the report of a missing payment (`POST /invoices/{id}/dispute`) and the
 * bank names (`GET /banks?currency=`). What reached the service is read from the mock's log.
 */
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import {
  DEFAULT_CHECKOUT_MAX_UPLOAD_BYTES,
  MerchantClient,
  createCheckoutHandler,
  createMemoryStore,
  toNodeHandler,
  type CheckoutHandlerOptions,
  type CheckoutStore,
  type DisputeContext,
  type Invoice,
} from '../../src/server/node.js';
import { mockQuirks } from '../support/quirks.js';
import { readSse } from '../support/sse.js';

const MERCHANT = { apiKey: 'journey-api-key-T4s1', secretKey: 'journey-secret-Wq8e', storeId: 52, storeName: 'Journey Shop' };

let mock: MockServer;
let client: MerchantClient;
/** The shop's orders: the invoices a payer may touch. */
const owned = new Set<string>();
let authorizeCalls = 0;
const servers: Server[] = [];

before(async () => {
  mock = await startMockServer({ merchants: [MERCHANT], controls: true, port: 0, notificationAllowed: () => false, ...mockQuirks() });
  client = new MerchantClient({ baseUrl: mock.url, apiKey: MERCHANT.apiKey, secretKey: MERCHANT.secretKey, timeoutMs: 5000 });
});

after(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await mock.close();
});

interface Proxy {
  url: string;
  store: CheckoutStore;
}

/** A proxy instance on its own port, mounted as a shop mounts it (the adapter's cap lets a receipt in). */
const startProxy = async (options: Partial<CheckoutHandlerOptions> = {}, via: MerchantClient = client): Promise<Proxy> => {
  const store = options.store ?? createMemoryStore();
  const handler = createCheckoutHandler({
    client: via,
    basePath: '/checkout-api',
    authorize: (id) => {
      authorizeCalls++;
      return owned.has(id);
    },
    store,
    ...options,
  });
  const server = createServer(toNodeHandler(handler, { maxBodyBytes: 64 * 1024 * 1024 }));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/checkout-api`, store };
};

const newInvoice = async (startDeal = true, amount = '1500.00'): Promise<Invoice> => {
  const invoice = await client.createInvoice({
    type: 'in',
    amount,
    currency: 'RUB',
    notificationUrl: 'https://shop.example/notify',
    notificationToken: 'unused-token',
    startDeal,
  });
  owned.add(invoice.id);
  return invoice;
};

/** What reached the service for `id` (from the mock's request log). */
const upstream = (id: string, operation: string) =>
  mock.service.requests.filter((request) => request.method === 'POST' && request.path === `/api/merchant/invoices/${id}/${operation}`);

// ── Files ────────────────────────────────────────────────────────────────────────────

const bytes = (...parts: (string | number[])[]): Uint8Array<ArrayBuffer> => {
  const out: number[] = [];
  for (const part of parts) out.push(...(typeof part === 'string' ? [...part].map((char) => char.charCodeAt(0)) : part));
  return Uint8Array.from(out);
};
const padding = (size: number) => new Array<number>(size).fill(0);
const FILES = {
  png: () => new File([bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], padding(120))], 'чек.png', { type: 'image/png' }),
  jpeg: () => new File([bytes([0xff, 0xd8, 0xff, 0xe0], padding(120))], 'photo.jpg', { type: 'image/jpeg' }),
  pdf: () => new File([bytes('%PDF-1.7\n%âãÏÓ\n1 0 obj\n')], 'receipt.pdf', { type: 'application/pdf' }),
  webp: () => new File([bytes('RIFF', [0x40, 0, 0, 0], 'WEBPVP8 ', padding(40))], 'shot.webp', { type: 'image/webp' }),
  heic: () =>
    new File([bytes([0, 0, 0, 0x18], 'ftypheic', [0, 0, 0, 0], 'mif1heic', padding(40))], 'IMG_0001.HEIC', { type: 'image/heic' }),
};

interface Answer {
  status: number;
  headers: Headers;
  json: Record<string, unknown> & { error?: { code: string; message: string } };
}

const call = async (url: string, init: RequestInit = {}): Promise<Answer> => {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? (JSON.parse(text) as Answer['json']) : {} };
};

const form = (fields: Record<string, string | Blob>): FormData => {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
};

const sendReceipt = (proxy: Proxy, id: string, file: Blob | string = FILES.png()) =>
  call(`${proxy.url}/invoices/${id}/receipt`, { method: 'POST', body: form({ attachment: file }) });

const sendDispute = (proxy: Proxy, id: string, fields: Record<string, string | Blob>) =>
  call(`${proxy.url}/invoices/${id}/dispute`, { method: 'POST', body: form(fields) });

const activeDeal = (invoice: unknown) =>
  (invoice as { deals: { isActive: boolean; status: string }[] }).deals.find((deal) => deal.isActive);

// ── Raw uploads: sizes and stalls ────────────────────────────────────────────────────

interface RawAnswer {
  /** 0 when the connection was reset before an answer could be read. */
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The client's write or read failure, when the server cut the connection. */
  error?: Error;
  /** Bytes the client managed to hand to its socket before the answer came. */
  written: number;
  /** The connection was closed by the server after the answer. */
  closed: Promise<void>;
}

/**
 * A multipart upload written by hand: `total` bytes in 64 KiB chunks as fast as the socket
 * takes them (chunked, unless `length` declares a size), or only `stallAfter` bytes and then
 * nothing. Writing stops once the answer arrives.
 */
const rawUpload = (url: string, options: { total: number; length?: number; stallAfter?: number }) =>
  new Promise<RawAnswer>((resolve, reject) => {
    const boundary = 'journey-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n`,
      'latin1',
    );
    const chunk = Buffer.alloc(64 * 1024, 7);
    const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    if (options.length !== undefined) headers['content-length'] = String(options.length);
    const req = httpRequest(url, { method: 'POST', headers, agent: false });
    let written = 0;
    let answered = false;
    const closed = new Promise<void>((done) => req.once('socket', (socket) => socket.once('close', () => done())));
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (data: Buffer) => chunks.push(data));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), written, closed }),
      );
      res.on('error', reject);
    });
    // The server closing while the client still writes is one of the outcomes looked at.
    req.on('error', (error) => {
      if (!answered) {
        answered = true;
        resolve({ status: 0, headers: {}, body: '', error, written, closed });
      }
    });
    const write = (data: Buffer) => {
      written += data.length;
      return req.write(data);
    };
    write(head);
    const limit = options.stallAfter ?? options.total;
    const pump = () => {
      while (!answered && written < limit) {
        if (!write(chunk.subarray(0, Math.min(chunk.length, limit - written)))) {
          req.once('drain', pump);
          return;
        }
      }
      if (options.stallAfter === undefined && !answered) req.end();
    };
    pump();
  });

// ── Receipts ─────────────────────────────────────────────────────────────────────────

describe('POST /invoices/{id}/receipt', () => {
  let proxy: Proxy;
  before(async () => {
    proxy = await startProxy();
  });

  test('the receipt confirms the transfer: the active deal is transfer_confirmed, the file went to the service renamed', async () => {
    const invoice = await newInvoice();
    const answer = await sendReceipt(proxy, invoice.id);
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    assert.equal(answer.json.id, invoice.id);
    assert.equal(answer.json.receipts, 'optional');
    assert.equal(activeDeal(answer.json)?.status, 'transfer_confirmed');
    const [sent] = upstream(invoice.id, 'confirm-transfer');
    assert.ok(sent, 'confirm-transfer reached the service');
    const parts = (sent.body as { parts: { name: string; file?: { name: string; type: string; size: number } }[] }).parts;
    assert.deepEqual(parts, [
      { name: 'attachment', value: null, file: { name: 'receipt.png', type: 'image/png', size: FILES.png().size } },
    ]);
    // The same read of the invoice now shows it too.
    const read = await call(`${proxy.url}/invoices/${invoice.id}`);
    assert.equal(activeDeal(read.json)?.status, 'transfer_confirmed');
  });

  test('every receipt type is taken when its content is that type: JPEG, PDF, WebP, HEIC', async () => {
    for (const [type, file] of [
      ['jpeg', FILES.jpeg()],
      ['pdf', FILES.pdf()],
      ['webp', FILES.webp()],
      ['heic', FILES.heic()],
    ] as const) {
      const invoice = await newInvoice();
      const answer = await sendReceipt(proxy, invoice.id, file);
      assert.equal(answer.status, 200, `${type}: ${JSON.stringify(answer.json)}`);
      assert.equal(activeDeal(answer.json)?.status, 'transfer_confirmed', type);
    }
  });

  test('sent again once the transfer is confirmed: the invoice as it is, nothing sent twice', async () => {
    const invoice = await newInvoice();
    assert.equal((await sendReceipt(proxy, invoice.id)).status, 200);
    const again = await sendReceipt(proxy, invoice.id);
    assert.equal(again.status, 200);
    assert.equal(activeDeal(again.json)?.status, 'transfer_confirmed');
    assert.equal(upstream(invoice.id, 'confirm-transfer').length, 1);
  });

  test('a file whose declared type or content is not a receipt is 415, and nothing is sent', async () => {
    const invoice = await newInvoice();
    const cases: [string, File][] = [
      ['text declared as PNG', new File(['I paid, honest'], 'receipt.png', { type: 'image/png' })],
      ['a PNG declared as JPEG', new File([FILES.png()], 'receipt.jpg', { type: 'image/jpeg' })],
      ['a JPEG declared as PDF', new File([FILES.jpeg()], 'receipt.pdf', { type: 'application/pdf' })],
      ['a PNG declared as text', new File([FILES.png()], 'receipt.txt', { type: 'text/plain' })],
      ['a PNG without a type', new File([FILES.png()], 'receipt')],
      ['an SVG', new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'receipt.svg', { type: 'image/svg+xml' })],
      ['a GIF declared as WebP', new File(['GIF89a', new Uint8Array(40)], 'receipt.webp', { type: 'image/webp' })],
    ];
    for (const [what, file] of cases) {
      const answer = await sendReceipt(proxy, invoice.id, file);
      assert.equal(answer.status, 415, what);
      assert.equal(answer.json.error?.code, 'unsupported_media_type', what);
      assert.match(answer.json.error?.message ?? '', /^attachment: /, what);
      assert.notEqual(answer.headers.get('connection'), 'close', `${what}: the upload was read whole, the connection stays`);
    }
    assert.equal(upstream(invoice.id, 'confirm-transfer').length, 0);
  });

  test('a body that is not multipart is 415; a form without the file, or with more, is 400 naming the field', async () => {
    const invoice = await newInvoice();
    const json = await call(`${proxy.url}/invoices/${invoice.id}/receipt`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(json.status, 415);
    const missing = await call(`${proxy.url}/invoices/${invoice.id}/receipt`, { method: 'POST', body: form({ note: 'x' }) });
    assert.equal(missing.status, 400);
    assert.match(missing.json.error?.message ?? '', /"note": is not a field/);
    const text = await sendReceipt(proxy, invoice.id, 'receipt.png');
    assert.equal(text.status, 400);
    assert.match(text.json.error?.message ?? '', /^attachment: must be a file/);
    const two = new FormData();
    two.append('attachment', FILES.png());
    two.append('attachment', FILES.png());
    const twice = await call(`${proxy.url}/invoices/${invoice.id}/receipt`, { method: 'POST', body: two });
    assert.equal(twice.status, 400);
    assert.match(twice.json.error?.message ?? '', /^attachment: is given more than once/);
    const empty = await sendReceipt(proxy, invoice.id, new File([], 'empty.png', { type: 'image/png' }));
    assert.equal(empty.status, 400);
    assert.equal(upstream(invoice.id, 'confirm-transfer').length, 0);
  });

  test('a receipt over 10 MB is 413 naming the attachment, even under a larger upload cap', async () => {
    const roomy = await startProxy({ maxUploadBytes: 12 * 1024 * 1024 });
    const invoice = await newInvoice();
    const big = new File([FILES.png(), new Uint8Array(10 * 1024 * 1024)], 'big.png', { type: 'image/png' });
    const answer = await sendReceipt(roomy, invoice.id, big);
    assert.equal(answer.status, 413);
    assert.equal(answer.json.error?.code, 'payload_too_large');
    assert.match(answer.json.error?.message ?? '', /^attachment: must be at most 10 MB/);
    assert.equal(upstream(invoice.id, 'confirm-transfer').length, 0);
  });

  test('an upload one byte past maxUploadBytes is 413 at once, without waiting for its end, and the connection is closed', async () => {
    const invoice = await newInvoice();
    // The client sends one byte too many and then waits, its upload unfinished.
    const answer = await rawUpload(`${proxy.url}/invoices/${invoice.id}/receipt`, {
      total: DEFAULT_CHECKOUT_MAX_UPLOAD_BYTES + 1,
      stallAfter: DEFAULT_CHECKOUT_MAX_UPLOAD_BYTES + 1,
    });
    assert.equal(answer.status, 413, answer.body);
    assert.equal((JSON.parse(answer.body) as Answer['json']).error?.code, 'payload_too_large');
    assert.equal(answer.headers.connection, 'close');
    await answer.closed;
    assert.equal(upstream(invoice.id, 'confirm-transfer').length, 0);
  });

  test('a flood past maxUploadBytes is cut off: the client cannot push much more than the cap', async () => {
    const invoice = await newInvoice();
    const total = 64 * 1024 * 1024;
    const answer = await rawUpload(`${proxy.url}/invoices/${invoice.id}/receipt`, { total });
    // The 413 arrives, or (the client still writing into a closed connection) the reset does first.
    if (answer.error) assert.match(String((answer.error as NodeJS.ErrnoException).code), /^(EPIPE|ECONNRESET)$/);
    else assert.equal(answer.status, 413, answer.body);
    await answer.closed;
    assert.ok(answer.written < total / 2, `the client wrote ${answer.written} of ${total} bytes`);
    assert.equal(upstream(invoice.id, 'confirm-transfer').length, 0);
  });

  test('an upload that declares more than maxUploadBytes is 413 at once, nothing read', async () => {
    const invoice = await newInvoice();
    const before = authorizeCalls;
    const answer = await rawUpload(`${proxy.url}/invoices/${invoice.id}/receipt`, {
      total: 0,
      stallAfter: 0,
      length: DEFAULT_CHECKOUT_MAX_UPLOAD_BYTES + 1,
    });
    assert.equal(answer.status, 413);
    assert.equal(answer.headers.connection, 'close');
    await answer.closed;
    assert.equal(authorizeCalls, before, 'nobody was asked');
  });

  test('a stalled upload is 408 after uploadTimeoutMs, the connection closed, nothing sent', async () => {
    const impatient = await startProxy({ uploadTimeoutMs: 300 });
    const invoice = await newInvoice();
    const started = Date.now();
    const answer = await rawUpload(`${impatient.url}/invoices/${invoice.id}/receipt`, { total: 5000, length: 5000, stallAfter: 1000 });
    const took = Date.now() - started;
    assert.equal(answer.status, 408, answer.body);
    assert.equal((JSON.parse(answer.body) as Answer['json']).error?.code, 'request_timeout');
    assert.equal(answer.headers.connection, 'close');
    await answer.closed;
    assert.ok(took >= 250 && took < 5000, `answered after ${took} ms`);
    assert.equal(upstream(invoice.id, 'confirm-transfer').length, 0);
  });

  test('the upload deadline is its own: a slow upload within uploadTimeoutMs passes a short time budget', async () => {
    const slowPhone = await startProxy({ timeoutMs: 400, uploadTimeoutMs: 5000 });
    const invoice = await newInvoice();
    const file = FILES.png();
    const body = new FormData();
    body.append('attachment', file);
    const encoder = new Response(body);
    const type = encoder.headers.get('content-type')!;
    const encoded = new Uint8Array(await encoder.arrayBuffer());
    // The body trickles in over about a second, more than the 400 ms budget of the upstream work.
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        for (let offset = 0; offset < encoded.length; offset += 64) {
          controller.enqueue(encoded.subarray(offset, offset + 64));
          await new Promise((resolve) => setTimeout(resolve, 1000 / (encoded.length / 64)));
        }
        controller.close();
      },
    });
    const answer = await call(`${slowPhone.url}/invoices/${invoice.id}/receipt`, {
      method: 'POST',
      body: stream,
      headers: { 'content-type': type },
      duplex: 'half',
    } as RequestInit);
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    assert.equal(activeDeal(answer.json)?.status, 'transfer_confirmed');
  });

  test('an invoice without a deal waiting for a transfer is 409 no_deal', async () => {
    const invoice = await newInvoice(false);
    const answer = await sendReceipt(proxy, invoice.id);
    assert.equal(answer.status, 409);
    assert.equal(answer.json.error?.code, 'no_deal');
    assert.equal(upstream(invoice.id, 'confirm-transfer').length, 0);
  });

  test('another shop’s invoice is 404 before the upload is read', async () => {
    const invoice = await newInvoice();
    owned.delete(invoice.id);
    const answer = await sendReceipt(proxy, invoice.id);
    assert.equal(answer.status, 404);
    assert.equal(answer.headers.get('connection'), 'close');
    assert.equal(upstream(invoice.id, 'confirm-transfer').length, 0);
  });
});

describe('the receipt policy', () => {
  test('receipts: "off" refuses receipts with 403 receipts_off, and the projection says so', async () => {
    const proxy = await startProxy({ receipts: 'off' });
    const invoice = await newInvoice();
    const answer = await sendReceipt(proxy, invoice.id);
    assert.equal(answer.status, 403);
    assert.equal(answer.json.error?.code, 'receipts_off');
    assert.equal(upstream(invoice.id, 'confirm-transfer').length, 0);
    assert.equal((await call(`${proxy.url}/invoices/${invoice.id}`)).json.receipts, 'off');
  });

  test('receipts: "required" shows in every projection: the read, the deal, the event stream', async () => {
    const proxy = await startProxy({ receipts: 'required' });
    const invoice = await newInvoice(false);
    assert.equal((await call(`${proxy.url}/invoices/${invoice.id}`)).json.receipts, 'required');
    const variants = (await call(`${proxy.url}/invoices/${invoice.id}/available-payment-variants`)).json as unknown as {
      option: string;
      method: string;
    }[];
    const deal = await call(`${proxy.url}/invoices/${invoice.id}/deal`, {
      method: 'POST',
      body: JSON.stringify({ option: variants[0]!.option, method: variants[0]!.method }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(deal.status, 200, JSON.stringify(deal.json));
    assert.equal(deal.json.receipts, 'required');
    const stream = await fetch(`${proxy.url}/invoices/${invoice.id}/events`);
    const events = readSse(stream.body!);
    try {
      const first = await events.nextEvent(5000);
      assert.equal((JSON.parse(first!.data!) as { receipts: string }).receipts, 'required');
    } finally {
      await events.close();
    }
    // A receipt is taken like with `optional`: `required` is what the element asks of the payer.
    assert.equal((await sendReceipt(proxy, invoice.id)).status, 200);
  });

  test('a function decides per invoice and payer; its "off" refuses the receipt, its answer reaches the stream', async () => {
    const seen: { id: string; cookie: string | null }[] = [];
    const proxy = await startProxy({
      receipts: (invoice, request) => {
        seen.push({ id: invoice.id, cookie: request.headers.get('cookie') });
        if (request.headers.get('cookie') === 'tier=trusted') return 'optional';
        return invoice.sum.amount === '2500.00' ? 'off' : Promise.resolve('required');
      },
    });
    const large = await newInvoice(true, '2500.00');
    const small = await newInvoice(true, '1500.00');
    assert.equal((await call(`${proxy.url}/invoices/${large.id}`)).json.receipts, 'off');
    assert.equal((await call(`${proxy.url}/invoices/${small.id}`)).json.receipts, 'required');
    assert.equal((await call(`${proxy.url}/invoices/${large.id}`, { headers: { cookie: 'tier=trusted' } })).json.receipts, 'optional');
    assert.deepEqual(seen.slice(0, 3), [
      { id: large.id, cookie: null },
      { id: small.id, cookie: null },
      { id: large.id, cookie: 'tier=trusted' },
    ]);

    const refused = await sendReceipt(proxy, large.id);
    assert.equal(refused.status, 403);
    assert.equal(refused.json.error?.code, 'receipts_off');
    assert.equal(upstream(large.id, 'confirm-transfer').length, 0);
    const taken = await sendReceipt(proxy, small.id);
    assert.equal(taken.status, 200);
    assert.equal(taken.json.receipts, 'required');

    const stream = await fetch(`${proxy.url}/invoices/${large.id}/events`);
    const events = readSse(stream.body!);
    try {
      assert.equal((JSON.parse((await events.nextEvent(5000))!.data!) as { receipts: string }).receipts, 'off');
    } finally {
      await events.close();
    }
  });

  test('a function that answers something else is a 500, and the option itself is checked at creation', async () => {
    const proxy = await startProxy({ receipts: () => 'sometimes' as never });
    const invoice = await newInvoice();
    const answer = await call(`${proxy.url}/invoices/${invoice.id}`);
    assert.equal(answer.status, 500);
    assert.equal(answer.json.error?.code, 'internal_error');
    assert.throws(() => createCheckoutHandler({ client, authorize: () => true, receipts: 'always' as never }), /receipts must be/);
    assert.throws(() => createCheckoutHandler({ client, authorize: () => true, uploadTimeoutMs: 0 }), /uploadTimeoutMs/);
    assert.throws(() => createCheckoutHandler({ client, authorize: () => true, maxUploadBytes: -1 }), /maxUploadBytes/);
  });
});

// ── Disputes ─────────────────────────────────────────────────────────────────────────

describe('POST /invoices/{id}/dispute', () => {
  let proxy: Proxy;
  before(async () => {
    proxy = await startProxy();
  });

  test('by default the report is forwarded: the service opens the dispute, the invoice is `dispute`', async () => {
    const invoice = await newInvoice();
    const answer = await sendDispute(proxy, invoice.id, { reason: 'invalid_sum', amount: '1000.50', attachment: FILES.pdf() });
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    assert.equal(answer.json.outcome, 'forwarded');
    const disputed = answer.json.invoice as { id: string; status: string; receipts: string };
    assert.equal(disputed.id, invoice.id);
    assert.equal(disputed.status, 'dispute');
    assert.equal(disputed.receipts, 'optional');
    const [sent] = upstream(invoice.id, 'dispute');
    assert.ok(sent);
    const parts = (sent.body as { parts: { name: string; value: string | null; file?: { type: string } }[] }).parts;
    const byName = new Map(parts.map((part) => [part.name, part]));
    assert.equal(byName.get('dealId')?.value, invoice.deals[0]!.id);
    assert.equal(byName.get('disputeReason')?.value, 'invalid_sum');
    assert.equal(byName.get('disputeReasonData[amount]')?.value, '1000.50');
    assert.equal(byName.get('attachment')?.file?.type, 'application/pdf');
    assert.equal((await client.getInvoice(invoice.id)).status, 'dispute');
  });

  test('no_payment about an expired deal: the most recent deal the payer could have paid to is disputed', async () => {
    const invoice = await newInvoice();
    // Past every deal's deadline (15–30 min), within the invoice's hour: the deal is expired, the invoice still new.
    await mock.service.advanceClock(31 * 60 * 1000);
    assert.equal(activeDeal(await client.getInvoice(invoice.id)), undefined);
    const answer = await sendDispute(proxy, invoice.id, { reason: 'no_payment', attachment: FILES.jpeg() });
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    const parts = (upstream(invoice.id, 'dispute')[0]!.body as { parts: { name: string; value: string | null }[] }).parts;
    assert.deepEqual(parts.map((part) => part.name).sort(), ['attachment', 'dealId', 'disputeReason']);
    assert.equal(parts.find((part) => part.name === 'dealId')?.value, invoice.deals[0]!.id);
  });

  test('a second dispute about the invoice is 409 dispute_exists; one is sent', async () => {
    const invoice = await newInvoice();
    assert.equal((await sendDispute(proxy, invoice.id, { reason: 'no_payment', attachment: FILES.png() })).status, 200);
    const again = await sendDispute(proxy, invoice.id, { reason: 'no_payment', attachment: FILES.png() });
    assert.equal(again.status, 409);
    assert.equal(again.json.error?.code, 'dispute_exists');
    assert.equal(upstream(invoice.id, 'dispute').length, 1);
  });

  test('the form is checked: reason, the amount with invalid_sum in the currency’s decimals, the receipt', async () => {
    const invoice = await newInvoice();
    const cases: [string, Record<string, string | Blob>, number, RegExp][] = [
      [
        'invalid_sum without an amount',
        { reason: 'invalid_sum', attachment: FILES.png() },
        400,
        /amount: is required when reason is "invalid_sum"/,
      ],
      [
        'an amount with too many decimals for RUB',
        { reason: 'invalid_sum', amount: '1000.501', attachment: FILES.png() },
        400,
        /amount: must have at most 2 digits after the point in RUB/,
      ],
      [
        'an amount in exponent form',
        { reason: 'invalid_sum', amount: '1e3', attachment: FILES.png() },
        400,
        /amount: must be a decimal number/,
      ],
      ['a negative amount', { reason: 'invalid_sum', amount: '-5', attachment: FILES.png() }, 400, /amount: must be a decimal number/],
      ['a zero amount', { reason: 'invalid_sum', amount: '0.00', attachment: FILES.png() }, 400, /amount: must be greater than zero/],
      [
        'an amount with no_payment',
        { reason: 'no_payment', amount: '5', attachment: FILES.png() },
        400,
        /amount: is only sent when reason is "invalid_sum"/,
      ],
      ['an unknown reason', { reason: 'changed_mind', attachment: FILES.png() }, 400, /reason: must be "no_payment" or "invalid_sum"/],
      ['no reason', { attachment: FILES.png() }, 400, /reason: /],
      ['no receipt', { reason: 'no_payment' }, 400, /^attachment: the receipt is required/],
      [
        'a receipt that is not one',
        { reason: 'no_payment', attachment: new File(['hello'], 'a.png', { type: 'image/png' }) },
        415,
        /^attachment: the file's content is not image\/png/,
      ],
      ['another field', { reason: 'no_payment', attachment: FILES.png(), dealId: 'x' }, 400, /"dealId": is not a field/],
    ];
    for (const [what, fields, status, message] of cases) {
      const answer = await sendDispute(proxy, invoice.id, fields);
      assert.equal(answer.status, status, `${what}: ${JSON.stringify(answer.json)}`);
      assert.match(answer.json.error?.message ?? '', message, what);
    }
    assert.equal(upstream(invoice.id, 'dispute').length, 0);
    // None of them used up the invoice's one dispute.
    assert.equal((await sendDispute(proxy, invoice.id, { reason: 'invalid_sum', amount: '1499', attachment: FILES.png() })).status, 200);
  });

  test('a canceled invoice is 409 dispute_not_allowed; one without any deal is 409 no_deal; nothing is sent', async () => {
    const canceled = await newInvoice();
    await client.cancelInvoice(canceled.id);
    const refused = await sendDispute(proxy, canceled.id, { reason: 'no_payment', attachment: FILES.png() });
    assert.equal(refused.status, 409);
    assert.equal(refused.json.error?.code, 'dispute_not_allowed');
    const bare = await newInvoice(false);
    const none = await sendDispute(proxy, bare.id, { reason: 'no_payment', attachment: FILES.png() });
    assert.equal(none.status, 409);
    assert.equal(none.json.error?.code, 'no_deal');
    assert.equal(upstream(canceled.id, 'dispute').length + upstream(bare.id, 'dispute').length, 0);
  });
});

describe('the dispute hook and the one dispute per invoice', () => {
  test('"notify": the hook has the report, the payer is told `reported`, nothing reaches the service', async () => {
    const reports: DisputeContext[] = [];
    const proxy = await startProxy({
      dispute: (context) => {
        reports.push(context);
        return 'notify';
      },
    });
    const invoice = await newInvoice();
    const answer = await sendDispute(proxy, invoice.id, { reason: 'invalid_sum', amount: '700', attachment: FILES.heic() });
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    assert.equal(answer.json.outcome, 'reported');
    assert.equal((answer.json.invoice as { status: string }).status, 'new');
    assert.equal(upstream(invoice.id, 'dispute').length, 0);
    assert.equal(reports.length, 1);
    const [report] = reports;
    assert.equal(report!.id, invoice.id);
    assert.equal(report!.deal.id, invoice.deals[0]!.id);
    assert.equal(report!.reason, 'invalid_sum');
    assert.equal(report!.amount, '700');
    assert.equal(report!.attachment.type, 'image/heic');
    assert.ok(report!.attachment.size > 0);
    assert.equal(report!.invoice.id, invoice.id);
    assert.ok(report!.signal instanceof AbortSignal);
    // The report was the invoice's one dispute.
    const again = await sendDispute(proxy, invoice.id, { reason: 'no_payment', attachment: FILES.png() });
    assert.equal(again.json.error?.code, 'dispute_exists');
    assert.equal(reports.length, 1);
  });

  test('"refuse" is 403 dispute_refused, nothing sent, and the payer may try again', async () => {
    let decision: 'refuse' | 'forward' = 'refuse';
    const proxy = await startProxy({ dispute: () => Promise.resolve(decision) });
    const invoice = await newInvoice();
    const refused = await sendDispute(proxy, invoice.id, { reason: 'no_payment', attachment: FILES.png() });
    assert.equal(refused.status, 403);
    assert.equal(refused.json.error?.code, 'dispute_refused');
    assert.equal(upstream(invoice.id, 'dispute').length, 0);
    decision = 'forward';
    const forwarded = await sendDispute(proxy, invoice.id, { reason: 'no_payment', attachment: FILES.png() });
    assert.equal(forwarded.status, 200);
    assert.equal(forwarded.json.outcome, 'forwarded');
  });

  test('a hook that throws is a 500 and releases the claim', async () => {
    let fail = true;
    const proxy = await startProxy({
      dispute: () => {
        if (fail) throw new Error('the shop’s database is down');
        return 'forward';
      },
    });
    const invoice = await newInvoice();
    const broken = await sendDispute(proxy, invoice.id, { reason: 'no_payment', attachment: FILES.png() });
    assert.equal(broken.status, 500);
    assert.equal(broken.json.error?.code, 'internal_error');
    fail = false;
    assert.equal((await sendDispute(proxy, invoice.id, { reason: 'no_payment', attachment: FILES.png() })).status, 200);
  });

  test('two proxy instances sharing one store: the second dispute is 409 dispute_exists on the other instance', async () => {
    const store = createMemoryStore();
    const first = await startProxy({ store, dispute: () => 'notify' });
    const second = await startProxy({ store });
    const invoice = await newInvoice();
    assert.equal((await sendDispute(first, invoice.id, { reason: 'no_payment', attachment: FILES.png() })).json.outcome, 'reported');
    const again = await sendDispute(second, invoice.id, { reason: 'no_payment', attachment: FILES.png() });
    assert.equal(again.status, 409);
    assert.equal(again.json.error?.code, 'dispute_exists');
    assert.equal(upstream(invoice.id, 'dispute').length, 0, 'the invoice is still new at the service: only the store stopped it');
  });

  test('concurrent reports from two instances: exactly one is forwarded', async () => {
    const store = createMemoryStore();
    const [first, second] = await Promise.all([startProxy({ store }), startProxy({ store })]);
    const invoice = await newInvoice();
    const answers = await Promise.all([
      sendDispute(first, invoice.id, { reason: 'no_payment', attachment: FILES.png() }),
      sendDispute(second, invoice.id, { reason: 'no_payment', attachment: FILES.png() }),
    ]);
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409]);
    assert.equal(upstream(invoice.id, 'dispute').length, 1);
  });
});

describe('the service’s answer to a forwarded dispute', () => {
  /** A client whose dispute calls the test answers itself, the rest going to the mock. */
  const interceptedClient = (answer: (request: Request) => Promise<Response> | undefined) =>
    new MerchantClient({
      baseUrl: mock.url,
      apiKey: MERCHANT.apiKey,
      secretKey: MERCHANT.secretKey,
      timeoutMs: 5000,
      fetch: (request) => (request.method === 'POST' && request.url.endsWith('/dispute') ? answer(request) : undefined) ?? fetch(request),
    });

  test('a refusal (404 null: the invoice was canceled meanwhile) is 409 dispute_not_allowed and releases the claim', async () => {
    let refuse = true;
    const proxy = await startProxy(
      {},
      interceptedClient(() =>
        refuse ? Promise.resolve(new Response('null', { status: 404, headers: { 'content-type': 'application/json' } })) : undefined,
      ),
    );
    const invoice = await newInvoice();
    const refused = await sendDispute(proxy, invoice.id, { reason: 'no_payment', attachment: FILES.png() });
    assert.equal(refused.status, 409);
    assert.equal(refused.json.error?.code, 'dispute_not_allowed');
    assert.equal(upstream(invoice.id, 'dispute').length, 0);
    refuse = false;
    const forwarded = await sendDispute(proxy, invoice.id, { reason: 'no_payment', attachment: FILES.png() });
    assert.equal(forwarded.status, 200, JSON.stringify(forwarded.json));
    assert.equal(upstream(invoice.id, 'dispute').length, 1);
  });

  test('the service’s own refusal (the invoice expired) is 409 dispute_not_allowed, and a retry is asked again', async () => {
    const proxy = await startProxy();
    const invoice = await newInvoice();
    mock.service.expire(invoice.id);
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await sendDispute(proxy, invoice.id, { reason: 'no_payment', attachment: FILES.png() });
      assert.equal(refused.status, 409);
      assert.equal(refused.json.error?.code, 'dispute_not_allowed', 'not dispute_exists: the claim was released');
    }
    assert.equal(upstream(invoice.id, 'dispute').length, 2);
  });

  test('accepted but answered unreadably: 502, and the claim is kept (no second dispute)', async () => {
    const proxy = await startProxy(
      {},
      interceptedClient(async (request) => {
        await fetch(request);
        return new Response('{"id": "cut in the mid', { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    const invoice = await newInvoice();
    const broken = await sendDispute(proxy, invoice.id, { reason: 'no_payment', attachment: FILES.png() });
    assert.equal(broken.status, 502);
    assert.equal(broken.json.error?.code, 'upstream_invalid');
    assert.equal(await proxy.store.claimDispute(invoice.id, 1000), undefined, 'the claim is kept');
    assert.equal(
      (await sendDispute(proxy, invoice.id, { reason: 'no_payment', attachment: FILES.png() })).json.error?.code,
      'dispute_exists',
    );
    assert.equal(upstream(invoice.id, 'dispute').length, 1);
  });

  test('no answer in time: 504, and the claim stays held (it lapses later), so no second dispute goes out meanwhile', async () => {
    const proxy = await startProxy(
      { timeoutMs: 300 },
      interceptedClient(() => new Promise<Response>(() => undefined)),
    );
    const invoice = await newInvoice();
    const late = await sendDispute(proxy, invoice.id, { reason: 'no_payment', attachment: FILES.png() });
    assert.equal(late.status, 504);
    assert.equal(late.json.error?.code, 'upstream_timeout');
    assert.equal(await proxy.store.claimDispute(invoice.id, 1000), undefined, 'the claim is held');
  });
});

// ── Banks ────────────────────────────────────────────────────────────────────────────

describe('GET /banks?currency=', () => {
  const listReads = (currency: string) =>
    mock.service.requests.filter((request) => request.path === '/api/merchant/payment-methods' && request.query === `?currency=${currency}`)
      .length;

  test('the service’s banks with their names, public and cacheable; two requests, one upstream read', async () => {
    const proxy = await startProxy();
    const before = { reads: listReads('RUB'), authorize: authorizeCalls };
    const first = await call(`${proxy.url}/banks?currency=RUB`);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('cache-control'), 'public, max-age=3600');
    const banks = first.json as unknown as { code: string; name: string }[];
    assert.ok(banks.length > 5);
    assert.ok(
      banks.some((bank) => bank.code === 'sberbank' && bank.name === 'Сбербанк'),
      JSON.stringify(banks.slice(0, 3)),
    );
    for (const bank of banks) assert.deepEqual(Object.keys(bank).sort(), ['code', 'name']);
    const second = await call(`${proxy.url}/banks?currency=RUB`);
    assert.deepEqual(second.json, first.json);
    assert.equal(listReads('RUB') - before.reads, 1);
    assert.equal(authorizeCalls, before.authorize, 'no invoice, no authorization');
  });

  test('concurrent requests share one read, and deals’ bank names come from the same cache', async () => {
    const proxy = await startProxy();
    const before = listReads('RUB');
    const answers = await Promise.all([1, 2, 3].map(() => call(`${proxy.url}/banks?currency=RUB`)));
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 200, 200],
    );
    const invoice = await newInvoice();
    const read = await call(`${proxy.url}/invoices/${invoice.id}`);
    assert.ok((read.json.deals as { paymentMethodName?: string }[])[0]!.paymentMethodName);
    assert.equal(listReads('RUB') - before, 1);
  });

  test('a currency that is not 3 to 5 capital letters, or not exactly one, is 400 naming `currency`', async () => {
    const proxy = await startProxy();
    for (const query of [
      '',
      '?currency=',
      '?currency=rub',
      '?currency=R',
      '?currency=RUBLES',
      '?currency=RU%20B',
      '?currency=RUB&currency=KZT',
      '?cur=RUB',
    ]) {
      const answer = await call(`${proxy.url}/banks${query}`);
      assert.equal(answer.status, 400, query);
      assert.match(answer.json.error?.message ?? '', /^currency: /, query);
    }
  });

  test('an upstream failure is 502 and is not cached; bankNames: false turns the route off', async () => {
    const proxy = await startProxy();
    mock.service.failNext(1, 500);
    const failed = await call(`${proxy.url}/banks?currency=KZT`);
    assert.equal(failed.status, 502);
    assert.equal(failed.json.error?.code, 'upstream_error');
    const retried = await call(`${proxy.url}/banks?currency=KZT`);
    assert.equal(retried.status, 200);
    const off = await startProxy({ bankNames: false });
    const gone = await call(`${off.url}/banks?currency=RUB`);
    assert.equal(gone.status, 404);
    assert.equal(gone.json.error?.code, 'not_found');
  });

  test('another method is 405 with Allow', async () => {
    const proxy = await startProxy();
    const answer = await call(`${proxy.url}/banks?currency=RUB`, { method: 'POST' });
    assert.equal(answer.status, 405);
    assert.equal(answer.headers.get('allow'), 'GET, OPTIONS');
  });
});

describe('cross-border invoices', () => {
  test('the projection carries the transfer currency, and the deal’s bank name comes from that currency’s list', async () => {
    const proxy = await startProxy();
    const invoice = await client.createInvoice({
      type: 'in',
      amount: '1011.00',
      currency: 'RUB',
      notificationUrl: 'https://shop.example/notify',
      notificationToken: 'unused-token',
      paymentOption: 'CROSS_BORDER',
      crossBorderCurrency: 'TJS',
      crossBorderRequisiteType: 'CARD',
      startDeal: true,
    });
    owned.add(invoice.id);
    const read = await call(`${proxy.url}/invoices/${invoice.id}`);
    assert.equal(read.json.crossBorderCurrency, 'TJS');
    const deal = (read.json.deals as { paymentOption: string; paymentMethod: string; paymentMethodName?: string }[])[0]!;
    assert.equal(deal.paymentOption, 'CROSS_BORDER');
    const tajik = (await call(`${proxy.url}/banks?currency=TJS`)).json as unknown as { code: string; name: string }[];
    assert.equal(deal.paymentMethodName, tajik.find((bank) => bank.code === deal.paymentMethod)?.name);
  });
});
