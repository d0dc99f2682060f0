import { posix, win32 } from 'node:path';
import { CommandParseError, splitCommandLine } from './split';

/** What the runner says when a line may not run (api.md §3.18). */
export const NOT_ALLOWED = 'Command not allowed.';

/** What decides whether a line runs: the user's allow-list and the configured shell. */
export interface CommandPolicy {
  /** `user.commands`: program names allowed, compared exactly. */
  commands: readonly string[];
  /** `settings.shell`, e.g. ['/bin/sh', '-c']; empty (or a blank first word) runs programs directly. */
  shell: readonly string[];
  platform: NodeJS.Platform;
}

/** The verdict on one line: the argv to execute, or the one message to send back. */
export type Decision = { kind: 'run'; argv: string[] } | { kind: 'refuse'; message: string };

/**
 * Shell control and substitution characters (api.md §14): with a shell configured a line holding
 * any of them is refused, quoted or not. Beyond the list of §14: `^` (a pipe in old Bourne
 * shells), `{`/`}` (brace expansion builds words the allow-list and argument checks never saw)
 * and NUL, which no argv can carry.
 */
const SHELL_CONTROL = /[;&|`$<>()\n\r^{}\0]/u;
/** cmd.exe expands %VAR% and !VAR! even inside quotes. */
const WINDOWS_SHELL_CONTROL = /[%!]/u;
/** Tilde expansion turns a word (or an assignment value) into an absolute home path. */
const TILDE_WORD = /(?:^|[\s=:])~/u;

function usesShell(shell: readonly string[]): boolean {
  const [first] = shell;
  return first !== undefined && first !== '';
}

function absolute(part: string, platform: NodeJS.Platform): boolean {
  if (posix.isAbsolute(part)) return true;
  // Windows: \x, \\server\x and every drive-letter form (C:\x, and C:x relative to the drive).
  return platform === 'win32' && (win32.isAbsolute(part) || /^[A-Za-z]:/u.test(part));
}

/**
 * An argument that could reach outside the working directory (api.md §14): an absolute path,
 * also as the value of `--opt=/x`, or a `..` segment between any separators.
 */
export function escapingArgument(arg: string, platform: NodeJS.Platform): boolean {
  if (arg.split('=').some((part) => absolute(part, platform))) return true;
  return arg.split(/[/\\=]/u).includes('..');
}

/**
 * A glob whose segment starts with a dot: `.*` matches `..` in most shells, a way up that the
 * text of the line does not show. Only a shell expands globs.
 */
function dotGlob(word: string): boolean {
  return word.split(/[/\\]/u).some((segment) => segment.startsWith('.') && /[*?[]/u.test(segment));
}

function shellRefuses(line: string, words: readonly string[], platform: NodeJS.Platform): boolean {
  if (SHELL_CONTROL.test(line) || TILDE_WORD.test(line)) return true;
  if (platform === 'win32' && WINDOWS_SHELL_CONTROL.test(line)) return true;
  return words.some(dotGlob);
}

/**
 * Decides what a command line does (api.md §3.18 steps 5-7, §14): a parse error is answered
 * with its text; the program must be on the allow-list; no argument may be absolute or climb
 * with `..`; with a shell the line must hold no control or substitution characters and then
 * reaches the shell whole, else the parsed words are executed directly.
 */
export function decide(line: string, policy: CommandPolicy): Decision {
  const refuse: Decision = { kind: 'refuse', message: NOT_ALLOWED };
  let parsed: { command: string; args: string[] };
  try {
    parsed = splitCommandLine(line, policy.platform);
  } catch (err) {
    if (err instanceof CommandParseError) return { kind: 'refuse', message: err.message };
    throw err;
  }
  const { command, args } = parsed;
  if (line.includes('\0')) return refuse;
  const shell = usesShell(policy.shell);
  if (shell && shellRefuses(line, [command, ...args], policy.platform)) return refuse;
  if (!policy.commands.includes(command)) return refuse;
  if (args.some((arg) => escapingArgument(arg, policy.platform))) return refuse;
  return { kind: 'run', argv: shell ? [...policy.shell, line] : [command, ...args] };
}
