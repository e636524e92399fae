/**
 * A real `redis-server` for tests and benchmarks: on a free port, nothing saved to disk unless
 * the caller's arguments say so (then in a temporary folder of its own, removed on stop),
 * stopped (and started again on the same port) by its pid. When Debian's `redis-server` is
 * missing, starting one fails with the command that installs it; nothing is skipped.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

export interface RedisProcess {
  port: number;
  url: string;
  readonly pid: number | undefined;
  /** Kills the server (SIGKILL: a crash, not a shutdown) and waits until it is gone. */
  kill(this: void): Promise<void>;
  /** Starts it again on the same port: empty, unless its arguments keep an append-only file. */
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

export interface RedisOptions {
  /**
   * More arguments of `redis-server`, after the defaults (`--save '' --appendonly no`), which
   * they override: `['--appendonly', 'yes']`, `['--maxmemory-policy', 'allkeys-lru']`,
   * `['--rename-command', 'CONFIG', '']`.
   */
  args?: readonly string[];
}

/** Redis run as the docs ask, so that a restart after a SIGKILL keeps every acknowledged write. */
export const DURABLE_REDIS_ARGS: readonly string[] = ['--appendonly', 'yes', '--appendfsync', 'always', '--maxmemory-policy', 'noeviction'];

export const startRedis = async (options: RedisOptions = {}): Promise<RedisProcess> => {
  requireRedisServer();
  const binary = existsSync(REDIS_SERVER) ? REDIS_SERVER : 'redis-server';
  const port = await freePort();
  // Where an append-only file or a snapshot goes when the arguments ask for one: never the working folder.
  const dir = mkdtempSync(join(tmpdir(), 'merchant-checkout-redis-'));
  let child: ChildProcess | undefined;

  const launch = async () => {
    const started = spawn(
      binary,
      [
        ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
        ...['--daemonize', 'no', '--loglevel', 'warning', ...(options.args ?? [])],
      ],
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
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** Waits until a store on Redis answers (it connects in the background; commands fail meanwhile), at most 10 s. */
export const storeConnected = async (store: { trackedCount(): Promise<number> }): Promise<void> => {
  const end = Date.now() + 10_000;
  for (;;) {
    try {
      await store.trackedCount();
      return;
    } catch (error) {
      if (Date.now() > end) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
};
