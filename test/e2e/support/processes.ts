/**
 * Processes an end-to-end test starts (the built bin, a PHP or Python shop): a free port, a
 * start that waits until the process answers (or fails with what it printed), and a stop
 * (or a crash: SIGKILL) that ends its whole process group.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Spawns `command` (in this repository, or `cwd`) and resolves once `url` answers (or fails with what the process printed). */
export const startProcess = async (
  command: string,
  args: string[],
  env: Record<string, string>,
  url: string,
  cwd = root,
): Promise<ChildProcess> => {
  // Its own process group: `php -S` with workers forks, and every one of them must end with it.
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => void (printed += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => void (printed += chunk.toString('utf8')));
  const end = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} exited (${child.exitCode}): ${printed}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return child;
    } catch {
      if (Date.now() > end) throw new Error(`${command} did not answer at ${url}: ${printed}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
};

/** SIGKILL of the process and its group (a crash: no goodbye, nothing flushed), once it is gone. */
export const crash = async (child: ChildProcess) => {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
  }
  child.stdout?.destroy();
  child.stderr?.destroy();
};

/** Ends the process and its group (a PHP server's workers), and lets go of its pipes. */
export const stop = async (child: ChildProcess | undefined) => {
  if (!child) return;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // The group is gone already.
  }
  child.stdout?.destroy();
  child.stderr?.destroy();
};
