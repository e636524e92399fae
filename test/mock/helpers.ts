/**
 * Helpers of the mock's tests: merchants, the mock reached in-process or on a real port,
 * raw signed requests (to see exact answers), and a notification receiver on loopback.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMockService, startMockServer, type MockService, type MockServiceOptions } from '../../src/mock/index.js';
import { MerchantClient, signRequest } from '../../src/server/node.js';

export const MERCHANT = { apiKey: 'shop-key', secretKey: 'shop-secret-Ключ', storeId: 17, storeName: 'Demo Shop' };
export const OTHER_MERCHANT = { apiKey: 'other-key', secretKey: 'other-secret', storeId: 18, storeName: 'Other Shop' };

export const START = Date.parse('2026-11-22T07:00:00.000Z');

/** A clock a test moves by hand. */
export const manualClock = (start = START) => {
  let current = start;
  return {
    now: () => current,
    advance: (ms: number) => {
      current += ms;
    },
  };
};

export interface MockUnderTest {
  name: string;
  service: MockService;
  baseUrl: string;
  /** The `fetch` a client uses to reach it (the service's own, or the global one for a port). */
  fetch: (request: Request) => Promise<Response>;
  client: (merchant?: { apiKey: string; secretKey: string }, timeoutMs?: number) => MerchantClient;
  close: () => Promise<void>;
}

/** Tests that do not look at notifications send none. */
const QUIET = { notificationAllowed: () => false };

type Options = Partial<Omit<MockServiceOptions, 'publicBaseUrl'>> & { publicBaseUrl?: string };

const withClient = (
  name: string,
  service: MockService,
  baseUrl: string,
  fetcher: (request: Request) => Promise<Response>,
  close: () => Promise<void>,
): MockUnderTest => ({
  name,
  service,
  baseUrl,
  fetch: fetcher,
  client: (merchant = MERCHANT, timeoutMs = 5_000) =>
    new MerchantClient({ baseUrl, apiKey: merchant.apiKey, secretKey: merchant.secretKey, fetch: fetcher, timeoutMs }),
  close,
});

export const inProcessMock = (options: Options = {}): MockUnderTest => {
  const baseUrl = options.publicBaseUrl ?? 'https://pay.mock.test';
  const service = createMockService({ merchants: [MERCHANT, OTHER_MERCHANT], ...QUIET, ...options, publicBaseUrl: baseUrl });
  return withClient('in-process fetch', service, baseUrl, service.fetch, () => {
    service.close();
    return Promise.resolve();
  });
};

export const networkMock = async (options: Options = {}): Promise<MockUnderTest> => {
  const server = await startMockServer({ merchants: [MERCHANT, OTHER_MERCHANT], port: 0, ...QUIET, ...options });
  return withClient('real port', server.service, server.url, (request) => fetch(request), server.close);
};

/** Both ways of reaching the mock, for tests that must hold for each. */
export const TRANSPORTS = [
  { name: 'in-process fetch', start: (options?: Options) => Promise.resolve(inProcessMock(options)) },
  { name: 'real port', start: (options?: Options) => networkMock(options) },
] as const;

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/**
 * A signed request built by hand, to see the exact answer (a client would validate it).
 * `body` is sent as is; `contentType` defaults to JSON when there is a body.
 */
export const signedRequest = async (
  mock: Pick<MockUnderTest, 'baseUrl' | 'fetch'>,
  method: string,
  path: string,
  options: {
    body?: string;
    contentType?: string | null;
    merchant?: { apiKey: string; secretKey: string };
    headers?: Record<string, string>;
  } = {},
): Promise<RawAnswer> => {
  const merchant = options.merchant ?? MERCHANT;
  const url = `${mock.baseUrl}${path}`;
  const contentType = options.contentType === undefined ? (options.body === undefined ? null : 'application/json') : options.contentType;
  const signedBody = contentType?.startsWith('application/json') ? options.body : undefined;
  const headers = new Headers({
    'X-Identity': merchant.apiKey,
    'X-Signature': await signRequest({ method, url, body: signedBody }, merchant.secretKey),
    ...options.headers,
  });
  if (contentType) headers.set('Content-Type', contentType);
  const response = await mock.fetch(new Request(url, { method, headers, body: options.body ?? null }));
  return readAnswer(response);
};

export const readAnswer = async (response: Response): Promise<RawAnswer> => {
  const text = await response.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
};

export const createInvoiceBody = (overrides: Record<string, unknown> = {}) => ({
  type: 'in',
  amount: '1500',
  currency: 'RUB',
  notificationUrl: 'http://127.0.0.1:9/hooks/payments',
  notificationToken: 'notify-token-1',
  ...overrides,
});

export interface ReceivedNotification {
  headers: IncomingMessage['headers'];
  body: string;
  json: unknown;
  at: number;
}

/** A loopback HTTP server that records what arrives and answers with the next status of `statuses` (then 200). */
export const startReceiver = async (statuses: number[] = []) => {
  const received: ReceivedNotification[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      received.push({ headers: req.headers, body, json, at: Date.now() });
      res.writeHead(statuses.shift() ?? 200, { 'content-type': 'text/plain' }).end('ok');
      for (const resolve of waiters.splice(0)) resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/payments`;
  return {
    url,
    received,
    /** Resolves once `count` notifications have arrived. */
    waitFor: async (count: number): Promise<void> => {
      while (received.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
};

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The messages of a documented error: a JSON array of `{message}`. */
export const messagesOf = (answer: RawAnswer): string[] => {
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json/, 'a JSON error');
  assert.ok(Array.isArray(answer.json), `error body is an array: ${answer.text}`);
  return (answer.json as { message: unknown }[]).map((item) => {
    assert.deepEqual(Object.keys(item), ['message']);
    assert.equal(typeof item.message, 'string');
    return item.message as string;
  });
};

/** The fields a documented 400 names (`… field: "amount"`), sorted. */
export const fieldsOf = (answer: RawAnswer): string[] =>
  messagesOf(answer)
    .map((message) => /field: "([^"]+)"/.exec(message)?.[1] ?? '')
    .sort();

/** A signed multipart request (the signature covers METHOD + URL only). */
export const multipartRequest = async (
  mock: Pick<MockUnderTest, 'baseUrl' | 'fetch'>,
  path: string,
  fields: Record<string, string | Blob>,
  merchant: { apiKey: string; secretKey: string } = MERCHANT,
): Promise<RawAnswer> => {
  const url = `${mock.baseUrl}${path}`;
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, 'receipt.pdf');
  }
  const headers = { 'X-Identity': merchant.apiKey, 'X-Signature': await signRequest({ method: 'POST', url }, merchant.secretKey) };
  return readAnswer(await mock.fetch(new Request(url, { method: 'POST', headers, body: form })));
};

/** A request to a test control under `/__mock` (unsigned JSON), answered raw. */
export const control = async (
  mock: Pick<MockUnderTest, 'baseUrl' | 'fetch'>,
  method: string,
  path: string,
  body?: unknown,
): Promise<RawAnswer> =>
  readAnswer(
    await mock.fetch(
      new Request(`${mock.baseUrl}/__mock${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      }),
    ),
  );

/** The `{error: {code, message}}` of a control's refusal. */
export const controlError = (answer: RawAnswer): { code: string; message: string } => {
  assert.ok(isObject(answer.json) && isObject(answer.json.error), `a control error: ${answer.text}`);
  return answer.json.error as { code: string; message: string };
};

/** The documented notification body, as far as these tests read it. */
export interface NotificationBody {
  notificationDate: string;
  invoice: Record<string, unknown> & { status: string; updatedAt: string; deal: (Record<string, unknown> & { status: string }) | null };
}

/** Options that deliver notifications in-process (every one answered 200) into `bodies`. */
export const capturedNotifications = () => {
  const bodies: NotificationBody[] = [];
  return {
    bodies,
    options: {
      notificationAllowed: () => true,
      notificationFetch: async (request: Request) => {
        bodies.push((await request.json()) as NotificationBody);
        return new Response('ok');
      },
    },
  };
};

/** A frozen clock at a whole minute, for runs that must repeat exactly. */
export const FROZEN = { clock: { start: START, frozen: true } } as const;
