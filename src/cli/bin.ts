#!/usr/bin/env node
/** The `merchant-checkout` bin: runs a command (main.ts) with this process's arguments, environment and streams. */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { runCli } from './main.js';

/** The first SIGTERM or SIGINT: a long-running command (serve) stops gracefully on it. */
const stopSignal = new Promise<string>((resolve) => {
  process.once('SIGTERM', () => resolve('SIGTERM'));
  process.once('SIGINT', () => resolve('SIGINT'));
});

runCli(process.argv.slice(2), {
  env: process.env,
  stopSignal,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  stdin: () => readFileSync(0, 'utf8'),
  // Only with a terminal on both sides: a question nobody sees is never asked.
  ask:
    process.stdin.isTTY && process.stderr.isTTY
      ? async (question) => {
          const terminal = createInterface({ input: process.stdin, output: process.stderr });
          try {
            return await terminal.question(question);
          } finally {
            terminal.close();
          }
        }
      : undefined,
}).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    process.stderr.write(`merchant-checkout: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
