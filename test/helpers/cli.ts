/**
 * Runs a command-line program for a test: collects what it prints, waits for a line, and stops
 * it with SIGTERM, resolving its exit code.
 */
import { spawn, type SpawnOptions } from 'node:child_process';

export interface RunningCli {
  /** Everything printed so far, stdout and stderr together. */
  output: () => string;
  /** Resolves with the output once `pattern` appears (or the program ended, or `timeoutMs` passed). */
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<string>;
  /** SIGTERM, then the exit code. */
  stop: () => Promise<number | null>;
}

export const startCli = (args: string[], options: SpawnOptions = {}): RunningCli => {
  const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // 'close', not 'exit': the output is complete only once the pipes have closed.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    output: () => output,
    waitFor: async (pattern, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(output) && Date.now() < deadline && child.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return output;
    },
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
};
