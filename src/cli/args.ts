/**
 * The arguments every command reads the same way: `parseArgs` (strict), a wrong one named with
 * exit status 2, and `--help` printed with status 0.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

interface Printer {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** What `parseArgs` gives for `options`. */
type Values<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true }>>['values'];

/** The command's values, or the exit status when it is done already (a wrong argument, `--help`). */
export const commandArgs = <O extends Options>(
  command: string,
  args: readonly string[],
  options: O,
  help: string,
  io: Printer,
): Values<O> | number => {
  let parsed;
  try {
    parsed = parseArgs<{ args: string[]; options: O; strict: true }>({
      args: [...args],
      options: { ...options, help: { type: 'boolean' } },
      strict: true,
    });
  } catch (error) {
    io.err(`merchant-checkout ${command}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  if ((parsed.values as { help?: boolean }).help) {
    io.out(help);
    return 0;
  }
  return parsed.values;
};
