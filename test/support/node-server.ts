/**
 * A plain `node:http` server on a free loopback port for a test file, closed (connections
 * and all) when the file's tests are done.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';

const servers: ReturnType<typeof createServer>[] = [];
after(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Serves `listener` and answers its base URL (`http://127.0.0.1:<port>`). */
export const serve = async (listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> => {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
