/** `startMockServer`: the mock service on a real port, through the package's own `toNodeHandler`. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '../server/node-adapter.js';
import { DEFAULTS } from './options.js';
import type { MockServiceOptions } from './options.js';
import { createMockService, type MockService } from './service.js';

export interface MockServerOptions extends Omit<MockServiceOptions, 'publicBaseUrl'> {
  /** The `{base_url}` clients use (default: `http://{host}:{port}` of the listening socket). */
  publicBaseUrl?: string;
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on (default `127.0.0.1`). */
  host?: string;
}

export interface MockServer {
  /** The base URL: `publicBaseUrl` when given, else where the server listens. */
  url: string;
  service: MockService;
  /** Closes the service (timers, notifications, hanging requests) and the server. */
  close(this: void): Promise<void>;
}

export const startMockServer = async (options: MockServerOptions): Promise<MockServer> => {
  const { port = 0, host = '127.0.0.1', publicBaseUrl, ...serviceOptions } = options;
  let service: MockService | undefined;
  // The multipart operations take files up to the upload limit; the mock caps JSON bodies itself.
  const maxBodyBytes = Math.max(
    serviceOptions.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    (serviceOptions.maxUploadBytes ?? DEFAULTS.maxUploadBytes) + DEFAULTS.multipartOverheadBytes,
  );
  const handler = toNodeHandler((request) => service!.fetch(request), { maxBodyBytes });
  const server = createServer(handler);
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
