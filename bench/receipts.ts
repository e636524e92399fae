/**
 * Large multipart bodies must not stall other payers (issue 25): the proxy (`createNodeServer`,
 * in front of the mock in a process of its own, so that its own parsing is not counted) gets a 9.5 MB body of 60,000 tiny parts while another
 * payer reads an invoice every 5 ms; the slowest of those reads is the stall. Beside it, what
 * parsing that body whole costs the event loop (`Response#formData()`, how the proxy read an
 * upload before), and the same reads during a plain 10 MB receipt.
 *
 *   node --import tsx bench/receipts.ts      (about 10 s)
 */
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCheckoutHandler, createNodeServer, MerchantClient } from '../src/server/node.js';
import { percentile, sleep } from './lib.js';

const MERCHANT = { apiKey: 'bench-receipts', secretKey: 'bench-receipts-secret' };

/** The mock's CLI in its own process; its base URL and a way to stop it. */
const startMockProcess = async () => {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/mock/cli.ts', '--port', '0', '--api-key', MERCHANT.apiKey, '--secret-key', MERCHANT.secretKey],
    {
      cwd: new URL('..', import.meta.url),
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const found = /base URL:\s+(http:\/\/\S+)/.exec(text);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the mock exited (${code})`)));
  });
  return { url, close: () => new Promise((resolve) => (child.once('exit', resolve), child.kill())) };
};
export const PARTS = 60_000;
/** Goal: another payer's read is not held noticeably (a fifth of a second) by someone's upload. */
export const STALL_GOAL_MS = 200;

export interface ReceiptsResult {
  bytes: number;
  /** The event loop held by parsing the whole body at once (the way before), ms. */
  wholeParseMs: number;
  /** The slowest and the p99 of another payer's reads during the 60,000-part upload, ms. */
  manyParts: { status: number; maxReadMs: number; p99ReadMs: number; reads: number };
  /** The same during a plain 10 MB receipt. */
  bigReceipt: { status: number; maxReadMs: number; p99ReadMs: number; reads: number };
}

const manyPartsBody = (boundary: string): Buffer =>
  Buffer.from(
    Array.from(
      { length: PARTS },
      (_, index) => `--${boundary}\r\nContent-Disposition: form-data; name="f${index}"\r\n\r\n${'a'.repeat(100)}\r\n`,
    ).join('') + `--${boundary}--\r\n`,
  );

const receiptBody = (boundary: string): Buffer => {
  const file = Buffer.alloc(10 * 1024 * 1024 - 1024, 7);
  file.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="r.png"\r\nContent-Type: image/png\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
};

const post = (url: string, boundary: string, body: Buffer) =>
  new Promise<number>((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) },
      agent: false,
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });

/** Reads `url` every 5 ms until `done` settles; the time each read took. */
const readWhile = async (url: string, done: Promise<unknown>): Promise<number[]> => {
  let over = false;
  void done.finally(() => (over = true));
  const times: number[] = [];
  while (!over) {
    const start = performance.now();
    await (await fetch(url)).arrayBuffer();
    times.push(performance.now() - start);
    await sleep(5);
  }
  return times;
};

export const runReceipts = async (): Promise<ReceiptsResult> => {
  const mock = await startMockProcess();
  const client = new MerchantClient({ baseUrl: mock.url, apiKey: MERCHANT.apiKey, secretKey: MERCHANT.secretKey });
  const server = createNodeServer(createCheckoutHandler({ client, authorize: () => true }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const boundary = 'bench-boundary';
    const many = manyPartsBody(boundary);
    const parseStart = performance.now();
    await new Response(new Uint8Array(many), { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }).formData();
    const wholeParseMs = performance.now() - parseStart;

    const measure = async (body: Buffer) => {
      const id = (
        await client.createInvoice({
          type: 'in',
          amount: '1500',
          currency: 'RUB',
          notificationUrl: 'https://shop.example/n',
          notificationToken: 't',
          startDeal: true,
        })
      ).id;
      const other = (
        await client.createInvoice({
          type: 'in',
          amount: '1500',
          currency: 'RUB',
          notificationUrl: 'https://shop.example/n',
          notificationToken: 't',
        })
      ).id;
      await (await fetch(`${base}/invoices/${other}`)).arrayBuffer();
      const upload = post(`${base}/invoices/${id}/receipt`, boundary, body);
      const times = await readWhile(`${base}/invoices/${other}`, upload);
      return {
        status: await upload,
        maxReadMs: Math.round(Math.max(...times)),
        p99ReadMs: Math.round(percentile(times, 99)),
        reads: times.length,
      };
    };
    return {
      bytes: many.length,
      wholeParseMs: Math.round(wholeParseMs),
      manyParts: await measure(many),
      bigReceipt: await measure(receiptBody(boundary)),
    };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await mock.close();
  }
};

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runReceipts(), null, 2));
}
