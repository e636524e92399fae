/**
 * Several shop instances (test/support/cluster-instance.ts), each its own process, against one
 * mock service and one Redis: for the multi-instance tests and benchmarks.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface NotificationCall {
  instance: number;
  id: string;
  status: string;
  updatedAt: string | null;
}

export interface Instance {
  index: number;
  url: string;
  child: ChildProcess;
}

export interface Cluster {
  instances: Instance[];
  /** Every `onNotification` call of every instance, in the order they were reported. */
  calls: NotificationCall[];
  stop(this: void): Promise<void>;
}

export interface ClusterOptions {
  count: number;
  mockUrl: string;
  apiKey: string;
  secretKey: string;
  token: string;
  /** Without it, each instance has a memory store of its own. */
  redisUrl?: string;
  redisPrefix?: string;
  refreshIntervalMs?: number;
  /** Extra arguments for node (e.g. `--max-old-space-size`). */
  execArgv?: string[];
}

const INSTANCE = fileURLToPath(new URL('./cluster-instance.ts', import.meta.url));

export const startCluster = async (options: ClusterOptions): Promise<Cluster> => {
  const calls: NotificationCall[] = [];
  const start = (index: number) =>
    new Promise<Instance>((resolve, reject) => {
      const child = fork(INSTANCE, [], {
        execArgv: ['--import', 'tsx', ...(options.execArgv ?? [])],
        env: {
          ...process.env,
          MOCK_URL: options.mockUrl,
          API_KEY: options.apiKey,
          SECRET_KEY: options.secretKey,
          NOTIFICATION_TOKEN: options.token,
          REDIS_URL: options.redisUrl ?? '',
          REDIS_PREFIX: options.redisPrefix ?? 'test:',
          EVENTS_REFRESH_MS: options.refreshIntervalMs ? String(options.refreshIntervalMs) : '',
        },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`instance ${index} did not start within 30 s`));
      }, 30_000);
      child.on('message', (message: { type: string; url?: string } & Omit<NotificationCall, 'instance'>) => {
        if (message.type === 'listening') {
          clearTimeout(timer);
          resolve({ index, url: message.url!, child });
        } else if (message.type === 'notification') {
          calls.push({ instance: index, id: message.id, status: message.status, updatedAt: message.updatedAt });
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`instance ${index} exited with ${code} before it listened`));
      });
    });
  const started = await Promise.allSettled(Array.from({ length: options.count }, (_, index) => start(index)));
  const instances = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const stop = async () => {
    await Promise.all(
      instances.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
  };
  const failed = started.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { instances, calls, stop };
};
