/**
 * Latency at a fixed rate, evenly paced: one request every `1000 / rate` ms, each on a kept-alive
 * connection that is idle at that moment, timed from its write to the last byte of its answer.
 *
 * Why not autocannon's `overallRate`: autocannon lets each connection send its whole quota for
 * the second back to back and then waits for the next second, so "200 req/s" is a burst of
 * closed-loop requests at saturation in the first tens of milliseconds of every second, and
 * its p99 measures queueing in that burst (and the three processes fighting for two cores)
 * more than what one request costs. Here requests never queue behind each other: a request
 * whose slot comes while every connection is busy is counted as `late` and sent when one
 * frees, timed from its slot (no coordinated omission); the others are timed from their write,
 * so that a timer of this process firing late does not count as the server's time.
 *
 * Raw sockets and a minimal HTTP/1.1 reader (Content-Length or chunked), so that the load
 * generator itself allocates next to nothing and its own pauses stay out of the figures.
 */
import { connect, type Socket } from 'node:net';

export interface PacedResult {
  /** Response times in ms, of 2xx answers. */
  times: number[];
  errors: number;
  /** Requests whose slot came while every connection was busy. */
  late: number;
}

interface Connection {
  socket: Socket;
  busy: boolean;
  /** When the current request's slot was (ms, performance.now()). */
  sentAt: number;
  buffer: Buffer;
  onAnswer: ((status: number) => void) | undefined;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** Length of one whole answer at the start of `buffer` and its status, or undefined while incomplete. */
export const answerLength = (buffer: Buffer): { length: number; status: number } | undefined => {
  const end = buffer.indexOf(HEADER_END);
  if (end === -1) return undefined;
  const head = buffer.toString('latin1', 0, end);
  const status = Number(head.slice(9, 12));
  const bodyStart = end + 4;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) {
    const total = bodyStart + Number(length[1]);
    return buffer.length >= total ? { length: total, status } : undefined;
  }
  if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) return { length: bodyStart, status };
  let at = bodyStart;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd === -1) return undefined;
    const size = parseInt(buffer.toString('latin1', at, lineEnd), 16);
    if (size === 0) {
      // The last chunk, then (no trailers) an empty line.
      return buffer.length >= lineEnd + 4 ? { length: lineEnd + 4, status } : undefined;
    }
    at = lineEnd + 2 + size + 2;
    if (buffer.length < at) return undefined;
  }
};

const open = (url: URL): Promise<Connection> =>
  new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.setNoDelay(true);
      resolve(connection);
    });
    const connection: Connection = { socket, busy: false, sentAt: 0, buffer: Buffer.alloc(0), onAnswer: undefined };
    socket.once('error', reject);
    socket.on('data', (chunk: Buffer) => {
      connection.buffer = connection.buffer.length ? Buffer.concat([connection.buffer, chunk]) : chunk;
      const whole = answerLength(connection.buffer);
      if (!whole) return;
      connection.buffer = connection.buffer.subarray(whole.length);
      connection.onAnswer?.(whole.status);
    });
  });

/**
 * `rate` requests a second for `seconds`, spread over `connections` kept-alive connections;
 * `urls[i]` is what connection `i % urls.length` asks for.
 */
export const paced = async (
  urls: readonly string[],
  headers: Record<string, string>,
  options: { rate: number; seconds: number; connections: number },
): Promise<PacedResult> => {
  const targets = urls.map((each) => new URL(each));
  const requestOf = (url: URL) =>
    Buffer.from(
      `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n${Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')}\r\n`,
      'latin1',
    );
  const connections = await Promise.all(Array.from({ length: options.connections }, (_, index) => open(targets[index % targets.length]!)));
  const requests = connections.map((_, index) => requestOf(targets[index % targets.length]!));
  const result: PacedResult = { times: [], errors: 0, late: 0 };
  const waiting: number[] = [];
  /** `from`: the slot of a request that waited for a connection, else nothing (timed from its write: a late timer is the generator's delay, not the server's). */
  const send = (index: number, from?: number) => {
    const connection = connections[index]!;
    connection.busy = true;
    connection.sentAt = from ?? performance.now();
    connection.socket.write(requests[index]!);
  };
  let next = 0;
  connections.forEach((connection, index) => {
    connection.socket.on('error', () => {
      result.errors++;
    });
    connection.onAnswer = (status) => {
      const time = performance.now() - connection.sentAt;
      if (status >= 200 && status < 300) result.times.push(time);
      else result.errors++;
      connection.busy = false;
      const slot = waiting.shift();
      if (slot !== undefined) send(index, slot);
    };
  });
  const interval = 1000 / options.rate;
  const total = Math.round(options.rate * options.seconds);
  const started = performance.now();
  try {
    await new Promise<void>((resolve) => {
      let count = 0;
      const tick = () => {
        const now = performance.now();
        // Every slot that has come (a timer may fire late and owe several).
        while (count < total && started + count * interval <= now) {
          const slot = started + count * interval;
          count++;
          let index = -1;
          for (let tried = 0; tried < connections.length; tried++) {
            const candidate = (next + tried) % connections.length;
            if (!connections[candidate]!.busy) {
              index = candidate;
              break;
            }
          }
          if (index === -1) {
            result.late++;
            waiting.push(slot);
          } else {
            next = (index + 1) % connections.length;
            send(index);
          }
        }
        if (count < total) setTimeout(tick, Math.max(0, started + count * interval - performance.now()));
        else {
          const drain = () => (connections.some((each) => each.busy) || waiting.length ? setTimeout(drain, 5) : resolve());
          drain();
        }
      };
      tick();
    });
  } finally {
    for (const connection of connections) connection.socket.destroy();
  }
  return result;
};
