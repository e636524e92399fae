/**
 * `startMockServer`: the mock service on a real port, its Hono app served on node:http by
 * `@hono/node-server`. Node cuts off a client that is slow to send its headers or its whole
 * request; the body deadline inside the mock (`bodyTimeoutMs`, 408) comes first.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { DEFAULTS } from './options.js';
import { checkOptions, type OptionShapeOf } from '../server/options-check.js';
import type { MockServiceOptions } from './options.js';
import { MOCK_SERVICE_OPTIONS, createMockService, type MockService } from './service.js';

const HEADERS_TIMEOUT_MS = 10_000;

/** Options of {@link startMockServer}: the service's, and where to listen. */
export interface MockServerOptions extends Omit<MockServiceOptions, 'publicBaseUrl'> {
  /** The `{base_url}` clients use (default: `http://{host}:{port}` of the listening socket). */
  publicBaseUrl?: string;
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on (default `127.0.0.1`). */
  host?: string;
}

/** The keys `startMockServer` takes (options-check.ts). */
const MOCK_SERVER_OPTIONS = { ...MOCK_SERVICE_OPTIONS, port: true, host: true } as const satisfies OptionShapeOf<MockServerOptions>;

/** A mock service listening on a port. */
export interface MockServer {
  /** The base URL: `publicBaseUrl` when given, else where the server listens. */
  url: string;
  /** The service behind the port: its controls, state and request log. */
  service: MockService;
  /** Closes the service (timers, notifications, hanging requests) and the server. */
  close(this: void): Promise<void>;
}

/**
 * Starts the mock payment service on a port (`@hono/node-server` on `node:http`), with
 * header and body deadlines. Resolves once it listens; `close()` stops it. The same as the
 * `merchant-checkout-mock` bin (docs/api/mock-cli.md) without the flags.
 *
 * @example
 * ```ts
 * const mock = await startMockServer({ merchants: [{ apiKey: 'key', secretKey: 'secret', storeId: 1, storeName: 'Shop' }] });
 * const client = new MerchantClient({ baseUrl: mock.url, apiKey: 'key', secretKey: 'secret' });
 * ```
 */
export const startMockServer = async (options: MockServerOptions): Promise<MockServer> => {
  checkOptions('startMockServer', options, MOCK_SERVER_OPTIONS);
  const { port = 0, host = '127.0.0.1', publicBaseUrl, ...serviceOptions } = options;
  let service: MockService | undefined;
  // The service needs the port for its base URL, so it exists only once the server listens.
  const listener = getRequestListener((request: Request) => (service ? service.fetch(request) : new Response(null, { status: 503 })), {
    // A library does not swap the process's global Request and Response.
    overrideGlobalObjects: false,
  });
  const server = createServer(
    { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: HEADERS_TIMEOUT_MS + (serviceOptions.bodyTimeoutMs ?? DEFAULTS.bodyTimeoutMs) },
    (req, res) => void listener(req, res),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
  const url = (publicBaseUrl ?? `http://${hostPart}:${address.port}`).replace(/\/+$/, '');
  try {
    service = createMockService({ ...serviceOptions, publicBaseUrl: url });
  } catch (error) {
    await new Promise((resolve) => server.close(resolve));
    throw error;
  }
  const ready = service;
  let closing: Promise<void> | undefined;
  return {
    url,
    service: ready,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        ready.close();
        server.closeAllConnections();
        server.close(() => resolve());
      })),
  };
};
