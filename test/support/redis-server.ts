/**
 * A real `redis-server` for tests and benchmarks: on a free port, nothing saved to disk,
 * stopped (and started again on the same port) by its pid. When Debian's `redis-server` is
 * missing, starting one fails with the command that installs it; nothing is skipped.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection, createServer } from 'node:net';

export const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

export interface RedisProcess {
  port: number;
  url: string;
  readonly pid: number | undefined;
  /** Kills the server (SIGKILL: a crash, not a shutdown) and waits until it is gone. */
  kill(this: void): Promise<void>;
  /** Starts it again on the same port: empty, or with what it kept when durable. */
  restart(this: void): Promise<void>;
  stop(this: void): Promise<void>;
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

const answersPing = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let text = '';
    socket.setTimeout(500, () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      text += chunk.toString();
      if (text.includes('\r\n')) {
        socket.destroy();
        resolve(text.startsWith('+PONG'));
      }
    });
    socket.on('error', () => resolve(false));
  });

/** Fails with the way to install it when `redis-server` is not there. */
export const requireRedisServer = (): void => {
  const found = existsSync(REDIS_SERVER) || spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!found) {
    throw new Error(`redis-server is not installed (looked for ${REDIS_SERVER}); install it with: sudo apt-get install -y redis-server`);
  }
};

/**
 * A redis-server on a free port. By default nothing is saved (a restart starts empty); with
 * `durable`, run as the docs ask (`appendonly yes`, `appendfsync always`, `noeviction`) in a
 * folder of its own, so a restart after a SIGKILL keeps every acknowledged write.
 */
export const startRedis = async (options: { durable?: boolean } = {}): Promise<RedisProcess> => {
  requireRedisServer();
  const binary = existsSync(REDIS_SERVER) ? REDIS_SERVER : 'redis-server';
  const port = await freePort();
  let child: ChildProcess | undefined;
  const dir = options.durable ? mkdtempSync(join(tmpdir(), 'redis-durable-')) : undefined;
  const persistence = dir
    ? ['--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--maxmemory-policy', 'noeviction']
    : ['--appendonly', 'no'];

  const launch = async () => {
    const started = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--daemonize', 'no', '--loglevel', 'warning'],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    child = started;
    const exited = new Promise<number | null>((resolve) => started.once('exit', resolve));
    const end = Date.now() + 10_000;
    while (Date.now() < end) {
      if (await answersPing(port)) return;
      const early = await Promise.race([exited, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 50))]);
      if (early !== 'running') throw new Error(`redis-server on port ${port} exited with ${early}`);
    }
    throw new Error(`redis-server on port ${port} did not answer within 10 s`);
  };

  const kill = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    process.kill(running.pid!, 'SIGKILL');
    await exited;
  };

  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child?.pid;
    },
    kill,
    restart: launch,
    stop: async () => {
      await kill();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
};
