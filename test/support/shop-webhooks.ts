/**
 * A shop's webhook endpoint for the gateway's tests: a node:http server on a free loopback port
 * that keeps every webhook it gets (headers and body) and answers the status the test sets.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingMessage['headers'];
  body: string;
}

export interface ShopWebhooks {
  /** The endpoint's URL (`/webhooks` under the server's origin, or `path`). */
  url: string;
  /** What it received, oldest first. */
  received: ReceivedWebhook[];
  /** The status it answers from now on. */
  answer: (status: number) => void;
  close(): Promise<void>;
}

export const startShopWebhooks = async (status: number, path = '/webhooks'): Promise<ShopWebhooks> => {
  const received: ReceivedWebhook[] = [];
  let answer = status;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    received,
    answer: (next) => {
      answer = next;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
};
