/**
 * `merchant-checkout` (src/cli/bin.ts runs it): the kit's commands, for a shop's operators and its cron. One row a
 * command (`COMMANDS`); each reads its settings from the environment (`env.ts`) and answers an
 * exit status: 0 done, 1 something it was asked to do failed, 2 a setting or an argument is wrong.
 */
import { DOCTOR_HELP, doctorCommand } from './doctor.js';
import { ENV_HELP } from '../gateway/env.js';
import { RECONCILE_HELP, reconcileCommand } from './reconcile.js';
import { SERVE_HELP, serveCommand, type ServeIo } from './serve.js';
import { SIMULATE_HELP, simulateCommand } from './simulate.js';

interface Command {
  summary: string;
  help: string;
  run: (args: readonly string[], io: ServeIo) => Promise<number>;
}

/** Every command, one row each. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  serve: { summary: 'run the checkout gateway: the kit as a process for a shop on any stack', help: SERVE_HELP, run: serveCommand },
  reconcile: {
    summary: 'read invoices from the service now and report what each was found in (for cron)',
    help: RECONCILE_HELP,
    run: reconcileCommand,
  },
  simulate: {
    summary: 'play the payment service to a notification receiver (any language) and report what it got right',
    help: SIMULATE_HELP,
    run: simulateCommand,
  },
  doctor: {
    summary: 'check a brand of the payment service before going live, and print the mock options that reproduce it',
    help: DOCTOR_HELP,
    run: doctorCommand,
  },
};

export const mainHelp = (): string => {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const envWidth = Math.max(...ENV_HELP.map(([name]) => name.length));
  return `merchant-checkout: the server kit's commands

Usage: merchant-checkout <command> [options]   (merchant-checkout <command> --help)

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`)
  .join('\n')}

Settings (environment):
${ENV_HELP.map(([name, what]) => `  ${name.padEnd(envWidth)}  ${what}`).join('\n')}
`;
};

/** Runs `merchant-checkout` with `argv` (without node and the script); answers the exit status. */
export const runCli = async (argv: readonly string[], io: ServeIo): Promise<number> => {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(mainHelp());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`merchant-checkout: no command ${JSON.stringify(name)}\n\n${mainHelp()}`);
    return 2;
  }
  return command.run(rest, io);
};
