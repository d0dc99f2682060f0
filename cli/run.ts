import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { setNativeCacheRoot } from '../server/lib/sharp-loader';
import { databaseKind, redactDatabase } from '../server/state/database-kind';
import { StateError } from '../server/state/migrations';
import { parseArgs } from './args';
import type { Command } from './command';
import { COMMANDS } from './command-table';
import { loadConfigFile, unknownKeys, type ConfigFile } from './config-file';
import { GLOBAL_FLAGS, HELP_FLAG, allFlags } from './flags';
import { fsErrorSentence } from './fs-errors';
import { commandHelp, groupHelp } from './help';
import { CliError, UsageError, type CliIO, type Env } from './io';
import { resolveFlags } from './values';

interface Dispatch {
  command: Command | undefined;
  /** The command words when they name a group (`config`) rather than a command. */
  group: string;
  rest: string[];
}

/** Global flags that take a value: their value is never mistaken for a command word. */
const GLOBAL_VALUE_TOKENS = new Set(GLOBAL_FLAGS.flatMap((d) => [`--${d.name}`, ...(d.short ? [`-${d.short}`] : [])]));

function isPrefix(words: string[], table: readonly Command[]): boolean {
  const text = words.join(' ');
  return table.some((c) => c.name === text || c.name.startsWith(`${text} `));
}

/** Splits argv into the command words (wherever global flags sit) and the rest. */
function dispatch(argv: readonly string[], table: readonly Command[]): Dispatch {
  const words: string[] = [];
  const rest: string[] = [];
  let positional = false;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] ?? '';
    if (token === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (token.startsWith('-') && token !== '-') {
      rest.push(token);
      if (GLOBAL_VALUE_TOKENS.has(token) && i + 1 < argv.length) rest.push(argv[++i] ?? '');
    } else if (!positional && isPrefix([...words, token], table)) {
      words.push(token);
    } else {
      positional = true;
      rest.push(token);
    }
  }
  const name = words.join(' ');
  return { command: table.find((c) => c.name === name), group: name, rest };
}

function searchDirs(env: Env): string[] {
  return ['.', env.HOME ?? homedir(), '/etc/filemgr'];
}

function warnUnknownKeys(file: ConfigFile, io: CliIO): void {
  const known = new Set(allFlags().filter((d) => d.env).flatMap((d) => [d.name, ...(d.aliases ?? []), ...(d.deprecated ?? [])]));
  for (const key of unknownKeys(file, known)) io.stderr.write(`filemgr: ignoring unknown key "${key}" in ${file.path}\n`);
}

function checkArgCount(cmd: Command, positionals: string[]): void {
  const { min, max } = cmd.args;
  if (positionals.length > max) {
    const extra = positionals[max] ?? '';
    if (cmd.name === '' || max === 0) throw new UsageError(`unknown command "${[cmd.name, extra].filter((s) => s).join(' ')}"`);
    throw new UsageError(`too many arguments for ${cmd.name} (expected ${cmd.usage ?? 'none'})`);
  }
  if (positionals.length < min) throw new UsageError(`${cmd.name} needs ${cmd.usage ?? `${min} arguments`}`);
}

async function execute(cmd: Command, rest: string[], { env, io }: { env: Env; io: CliIO }): Promise<number> {
  const defs = [...GLOBAL_FLAGS, ...cmd.flags, HELP_FLAG];
  const parsed = parseArgs(rest, defs);
  if (parsed.given.has('help')) {
    io.stdout.write(commandHelp(cmd, defs, COMMANDS));
    return 0;
  }
  for (const notice of parsed.notices) io.stderr.write(`filemgr: ${notice}\n`);
  checkArgCount(cmd, parsed.positionals);
  const configFlag = resolveFlags(GLOBAL_FLAGS, { parsed, env, file: undefined }).string('config');
  const file = await loadConfigFile(configFlag, searchDirs(env), io.cwd);
  if (file) warnUnknownKeys(file, io);
  const flags = resolveFlags(defs, { parsed, env, file });
  setNativeCacheRoot(join(env.XDG_CACHE_HOME || join(env.HOME ?? homedir(), '.cache'), 'filemgr'));
  // A PostgreSQL URL (beyond.md §10) is not a path: it stays as given.
  const given = flags.string('database');
  const database = databaseKind(given) === 'postgres' ? given.trim() : resolve(io.cwd, given);
  return cmd.run({ args: parsed.positionals, flags, io, env, database });
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** A PostgreSQL URL's password never reaches stderr, whoever wrote the message. */
function hidePasswords(message: string): string {
  return message.replace(/postgres(?:ql)?:\/\/[^\s'"]+/gi, (url) => redactDatabase(url));
}

function report(err: unknown, hint: string, io: CliIO): number {
  if (err instanceof UsageError) {
    io.stderr.write(`filemgr: ${oneLine(err.message)}; see ${hint}\n`);
    return 2;
  }
  // CliError and StateError carry messages written for the admin; anything else is still one
  // line (its message), never a stack trace.
  const known = err instanceof CliError || err instanceof StateError;
  const message = hidePasswords(fsErrorSentence(err) ?? (err instanceof Error ? err.message : String(err)));
  io.stderr.write(`filemgr: ${oneLine(known ? message : message || 'unexpected failure')}\n`);
  return 1;
}

/**
 * Runs one command line and returns its exit code: 0 success, 1 failure (one line on stderr),
 * 2 usage error. Never throws; never prints a stack trace.
 */
export async function run(argv: readonly string[], env: Env, io: CliIO): Promise<number> {
  const wantsHelpWord = argv[0] === 'help';
  const { command, group, rest } = dispatch(wantsHelpWord ? argv.slice(1) : argv, COMMANDS);
  const hint = `filemgr ${command?.name || group ? `${command?.name || group} ` : ''}--help`;
  try {
    if (!command) {
      if (wantsHelpWord || rest.includes('--help') || rest.includes('-h')) {
        io.stdout.write(groupHelp(group, COMMANDS));
        return 0;
      }
      const stray = rest.find((t) => !t.startsWith('-'));
      if (stray !== undefined) throw new UsageError(`unknown command "${group} ${stray}"`);
      const members = COMMANDS.filter((c) => c.name.startsWith(`${group} `)).map((c) => c.name.slice(group.length + 1));
      throw new UsageError(`${group} needs a command: ${members.join(', ')}`);
    }
    return await execute(command, wantsHelpWord ? [...rest, '--help'] : rest, { env, io });
  } catch (err) {
    return report(err, hint, io);
  }
}
