import type { FlagDef } from './flags';
import type { CliIO, Env } from './io';
import type { FlagValues } from './values';

/** What a command receives: its positionals, resolved flags and the outside world. */
export interface CommandContext {
  args: string[];
  flags: FlagValues;
  io: CliIO;
  env: Env;
  /** The database file (--database, resolved against the working directory). */
  database: string;
}

/**
 * One entry of the command table. `run` returns the exit code; it throws UsageError (exit 2)
 * or CliError/StateError (exit 1) with a one-line message, which run() prints.
 */
export interface Command {
  /** Words after `filemgr`: '' (serve), 'hash', 'config set', 'users add' ... */
  name: string;
  summary: string;
  /** More text for --help, a paragraph. */
  description?: string;
  /** The positionals as shown in usage, e.g. '<username> <password>'. */
  usage?: string;
  args: { min: number; max: number };
  /** The command's own flags; --config, --database and --help are added to every command. */
  flags: readonly FlagDef[];
  run(ctx: CommandContext): Promise<number>;
}
