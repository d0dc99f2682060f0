import { CommandParseError, splitCommand } from '../hooks/split-command';
import { splitWindowsWords } from './windows-split';

export { CommandParseError };

/**
 * Splits a command line into program and arguments the way filebrowser's runner does on the
 * given platform (api.md §3.18 step 5): POSIX shlex everywhere (the one implementation, shared
 * with the event hooks), Windows-style on Windows hosts. Throws CommandParseError with
 * filebrowser's texts ("error parsing command: ...", "no command contained in '...'").
 */
export function splitCommandLine(line: string, platform: NodeJS.Platform = process.platform): { command: string; args: string[] } {
  if (platform !== 'win32') return splitCommand(line);
  const [command, ...args] = splitWindowsWords(line);
  if (command === undefined) throw new CommandParseError(`no command contained in '${line}'`);
  return { command, args };
}
