/**
 * The servers of the proxy benchmark, each in a process of its own (so each has its own event
 * loop, as in production): `node --import tsx bench/proxy-servers.ts <role>`, configured by a
 * JSON argument, printing one JSON line with its URL once it listens. Ends on SIGTERM or when
 * its parent's stdin closes.
 *
 * - `mock`: the mock service on a port, with one invoice (its lookup is what is loaded).
 * - `proxy`: `createCheckoutHandler` on node:http (`toNodeHandler`), upstream to the mock
 *   through `createNodeFetch()` (keep-alive node:http agents).
 * - `passthrough`: the least a Node proxy can do: node:http forwarding the same upstream
 *   request (pre-signed headers) over a keep-alive agent and piping the answer back.
 * - `fetch-passthrough`: the same with the HTTP client the proxy uses, the global `fetch`
 *   (undici, keep-alive), reading the answer whole and sending it on.
 */
import { Agent, createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { startMockServer } from '../src/mock/index.js';
import { MerchantClient, createCheckoutHandler, createNodeServer, signRequest } from '../src/server/index.js';
import { createNodeFetch } from '../src/server/node-fetch.js';
import { MERCHANT, createBenchInvoice } from './fixtures.js';


export interface MockInfo {
  url: string;
  invoiceId: string;
  /** The upstream lookup the proxy makes, pre-signed: for the passthrough and the direct load. */
  lookupPath: string;
  lookupHeaders: Record<string, string>;
}

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const startMock = async (): Promise<{ info: MockInfo; close: () => Promise<void> }> => {
  const mock = await startMockServer({ merchants: [MERCHANT], controls: false, port: 0 });
  const client = new MerchantClient({ baseUrl: mock.url, apiKey: MERCHANT.apiKey, secretKey: MERCHANT.secretKey });
  const invoice = await createBenchInvoice(client);
  // What the proxy sends upstream for `GET /invoices/{id}`: the read by id.
  const lookupPath = `/api/merchant/invoices/${invoice.id}`;
  const signature = await signRequest({ method: 'GET', url: `${mock.url}${lookupPath}` }, MERCHANT.secretKey);
  return {
    info: {
      url: mock.url,
      invoiceId: invoice.id,
      lookupPath,
      lookupHeaders: { accept: 'application/json', 'x-identity': MERCHANT.apiKey, 'x-signature': signature },
    },
    close: mock.close,
  };
};

const startProxy = async (mock: MockInfo): Promise<{ url: string; close: () => Promise<void> }> => {
  const client = new MerchantClient({
    baseUrl: mock.url,
    apiKey: MERCHANT.apiKey,
    secretKey: MERCHANT.secretKey,
    // What the README recommends for a proxy on Node (the global fetch costs ~110 µs more per call).
    fetch: createNodeFetch(),
  });
  const handler = createCheckoutHandler({
    client,
    basePath: '/checkout-api',
    authorize: (id) => id === mock.invoiceId,
  });
  // What the README recommends for a public proxy: createNodeServer's header, request and idle deadlines.
  const server = createNodeServer(handler);
  const url = await listen(server);
  return { url, close: () => new Promise((resolve) => server.close(() => resolve())) };
};

const startPassthrough = async (mock: MockInfo): Promise<{ url: string; close: () => Promise<void> }> => {
  const upstream = new URL(mock.url);
  const agent = new Agent({ keepAlive: true });
  const server = createServer((req, res) => {
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: mock.lookupPath, method: 'GET', headers: mock.lookupHeaders, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      res.writeHead(502).end();
    });
    forward.end();
    req.resume();
  });
  const url = await listen(server);
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.close(() => resolve());
      }),
  };
};

const startFetchPassthrough = async (mock: MockInfo): Promise<{ url: string; close: () => Promise<void> }> => {
  const upstream = `${mock.url}${mock.lookupPath}`;
  const server = createServer((req, res) => {
    req.resume();
    fetch(upstream, { headers: mock.lookupHeaders })
      .then(async (answer) => {
        const body = await answer.text();
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(body);
      })
      .catch(() => res.writeHead(502).end());
  });
  const url = await listen(server);
  return { url, close: () => new Promise((resolve) => server.close(() => resolve())) };
};

const main = async () => {
  const [role = '', config = '{}'] = process.argv.slice(2);
  let started: { url: string; close: () => Promise<void> } & { info?: MockInfo };
  if (role === 'mock') {
    const mock = await startMock();
    started = { url: mock.info.url, info: mock.info, close: mock.close };
  } else if (role === 'proxy') {
    started = await startProxy(JSON.parse(config) as MockInfo);
  } else if (role === 'passthrough') {
    started = await startPassthrough(JSON.parse(config) as MockInfo);
  } else if (role === 'fetch-passthrough') {
    started = await startFetchPassthrough(JSON.parse(config) as MockInfo);
  } else {
    throw new Error(`unknown role ${JSON.stringify(role)}`);
  }
  const stop = () => {
    void started.close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.stdin.on('close', stop);
  // Each line on stdin asks for the CPU time this process has used so far (µs, user + system).
  createInterface({ input: process.stdin }).on('line', () => {
    const { user, system } = process.cpuUsage();
    process.stdout.write(`${JSON.stringify({ cpu: user + system })}\n`);
  });
  process.stdout.write(`${JSON.stringify({ url: started.url, info: started.info })}\n`);
};

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) await main();
