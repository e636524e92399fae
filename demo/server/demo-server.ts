/**
 * The whole demo in one Node process and on one origin: Vite's dev server for the pages in
 * `demo/` (JS API, middleware mode, HMR on the same port), and in front of it the signing
 * proxy (`/checkout-api`), the shop's order API (`/demo-api`), the mock's test controls
 * (`/__mock`) and its public API (`/api/public`: the pictures of QR codes its deals link to;
 * the mock's base URL is this server's, so those links load in the payer's browser).
 * `npm run demo` (demo/server/main.ts) and the end-to-end test both start it here.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createViteServer, mergeConfig, type InlineConfig } from 'vite';
import { toNodeHandler } from '../../src/server/node.js';
import viteConfig from '../../vite.config.js';
import {
  CHECKOUT_BASE_PATH,
  createDemoBackend,
  DEMO_API_BASE_PATH,
  type DemoBackend,
  type DemoBackendOptions,
  SERVICE_PUBLIC_PATH,
} from './backend.js';

export const DEFAULT_DEMO_PORT = 5173;
const MOCK_CONTROLS_PATH = '/__mock';

export interface DemoServerOptions extends DemoBackendOptions {
  /** Default 5173; 0 picks a free port. */
  port?: number;
  /** Default `localhost`. */
  host?: string;
  /** Vite's cache of pre-bundled dependencies (default `node_modules/.vite`); tests use their own. */
  cacheDir?: string;
  /** Vite's log level (default `info`). */
  logLevel?: InlineConfig['logLevel'];
  /**
   * Reload the pages when a file changes (default true). Tests turn it off: a file saved
   * while they run (another editor in the same checkout) must not reload the page under them.
   */
  watch?: boolean;
}

export interface DemoServer {
  /** `http://host:port/`, with a trailing slash. */
  url: string;
  port: number;
  /** Stops Vite, the mock (its timers and hanging requests) and the HTTP server. */
  close(this: void): Promise<void>;
}

const under = (path: string, base: string) => path === base || path.startsWith(`${base}/`);

type NodeHandler = ReturnType<typeof toNodeHandler>;

export const startDemoServer = async (options: DemoServerOptions = {}): Promise<DemoServer> => {
  const { port = DEFAULT_DEMO_PORT, host = 'localhost', cacheDir, logLevel = 'info', watch = true, ...backendOptions } = options;
  const httpServer = createHttpServer();
  const vite = await createViteServer(
    mergeConfig(viteConfig, {
      configFile: false,
      logLevel,
      ...(cacheDir ? { cacheDir } : {}),
      server: { middlewareMode: true, ws: { server: httpServer }, ...(watch ? {} : { watch: null }) },
    } satisfies InlineConfig),
  );

  // The backend needs this server's URL (below): until it has it, nothing but Vite's pages is served.
  const ready: { handlers?: { checkout: NodeHandler; api: NodeHandler; mock: NodeHandler } } = {};
  httpServer.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
    const backendPath = [CHECKOUT_BASE_PATH, DEMO_API_BASE_PATH, MOCK_CONTROLS_PATH, SERVICE_PUBLIC_PATH].some((base) => under(path, base));
    const { handlers } = ready;
    if (backendPath && !handlers) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('Starting');
      return;
    }
    if (handlers && under(path, CHECKOUT_BASE_PATH)) return void handlers.checkout(req, res);
    if (handlers && under(path, DEMO_API_BASE_PATH)) return void handlers.api(req, res);
    if (handlers && (under(path, MOCK_CONTROLS_PATH) || under(path, SERVICE_PUBLIC_PATH))) return void handlers.mock(req, res);
    // demo/server/ is this code, not a page.
    if (under(path, '/server')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    vite.middlewares(req, res);
  });

  try {
    await new Promise<void>((resolve, reject) => {
      httpServer.once('error', reject);
      httpServer.listen(port, host, () => {
        httpServer.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await vite.close();
    throw error;
  }

  const address = httpServer.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${address.port}/`;
  const backend: DemoBackend = createDemoBackend({ serviceUrl: url.slice(0, -1), ...backendOptions });
  ready.handlers = {
    // The adapter learns from the proxy what it takes (a 10 MB receipt): nothing to set here.
    checkout: toNodeHandler(backend.checkout),
    api: toNodeHandler(backend.api),
    mock: toNodeHandler(backend.mock.fetch),
  };
  let closing: Promise<void> | undefined;
  return {
    url,
    port: address.port,
    close: () =>
      (closing ??= (async () => {
        backend.close();
        await vite.close();
        httpServer.closeAllConnections();
        await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      })()),
  };
};
