/**
 * A real HTTP server on a loopback port that checks every request's signature with
 * node:crypto (independently of the code under test), records what arrived, and answers
 * with whatever the test's handler says.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  signatureValid: boolean;
}

export type Reply = { status?: number; json?: unknown; text?: string; headers?: Record<string, string> } | 'hang';

export interface SigningServer {
  baseUrl: string;
  received: ReceivedRequest[];
  reply: (handler: (request: ReceivedRequest) => Reply) => void;
  close: () => Promise<void>;
}

export const startSigningServer = async (apiKey: string, secretKey: string): Promise<SigningServer> => {
  const received: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  let handler: (request: ReceivedRequest) => Reply = () => ({ status: 404, json: { error: 'no handler' } });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = `${baseUrl}${req.url ?? ''}`;
      const isJson = (req.headers['content-type'] ?? '').startsWith('application/json');
      const expected = createHmac('sha1', secretKey)
        .update(`${req.method}${url}${isJson ? body : ''}`, 'utf8')
        .digest('base64');
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        signatureValid: req.headers['x-identity'] === apiKey && req.headers['x-signature'] === expected,
      };
      received.push(request);
      if (!request.signatureValid) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad signature"}');
        return;
      }
      const reply = handler(request);
      if (reply === 'hang') {
        hanging.add(res);
        return;
      }
      const headers = { ...reply.headers };
      let payload = reply.text ?? '';
      if (reply.json !== undefined) {
        payload = JSON.stringify(reply.json);
        headers['content-type'] ??= 'application/json';
      }
      res.writeHead(reply.status ?? 200, headers).end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    received,
    reply: (next) => {
      handler = next;
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
