/**
 * POSIX shell-like splitting of a command line (google/shlex semantics, as filebrowser's command
 * runner and event hooks use): whitespace separates words; single quotes keep everything
 * literally; double quotes keep spaces and honour backslash escapes; a bare backslash escapes
 * the next character. Nothing is expanded or executed.
 */

/** Thrown for an unterminated quote or escape, with filebrowser's message prefix. */
export class CommandParseError extends Error {}

type State = 'space' | 'word' | 'single' | 'double';

interface Scan {
  words: string[];
  word: string;
  inWord: boolean;
  state: State;
}

function endWord(s: Scan): void {
  if (s.inWord) s.words.push(s.word);
  s.word = '';
  s.inWord = false;
}

/** Handles one character outside quotes; returns how many characters were consumed. */
function plain(s: Scan, line: string, i: number): number {
  const c = line[i] ?? '';
  if (/\s/.test(c)) {
    endWord(s);
    return 1;
  }
  s.inWord = true;
  if (c === "'") s.state = 'single';
  else if (c === '"') s.state = 'double';
  else if (c === '\\') {
    if (i + 1 >= line.length) throw new CommandParseError('EOF found after escape character');
    s.word += line[i + 1];
    return 2;
  } else s.word += c;
  return 1;
}

function quoted(s: Scan, line: string, i: number): number {
  const c = line[i] ?? '';
  if (s.state === 'single') {
    if (c === "'") s.state = 'word';
    else s.word += c;
    return 1;
  }
  if (c === '"') s.state = 'word';
  else if (c === '\\') {
    if (i + 1 >= line.length) throw new CommandParseError('EOF found when expecting closing quote');
    s.word += line[i + 1];
    return 2;
  } else s.word += c;
  return 1;
}

/** Splits a command line into words; throws CommandParseError on an unclosed quote. */
export function splitWords(line: string): string[] {
  const s: Scan = { words: [], word: '', inWord: false, state: 'space' };
  for (let i = 0; i < line.length; ) {
    i += s.state === 'single' || s.state === 'double' ? quoted(s, line, i) : plain(s, line, i);
  }
  if (s.state === 'single' || s.state === 'double') throw new CommandParseError('EOF found when expecting closing quote');
  endWord(s);
  return s.words;
}

/** Splits into program and arguments with filebrowser's error texts (runner/commands_test.go). */
export function splitCommand(line: string): { command: string; args: string[] } {
  let words: string[];
  try {
    words = splitWords(line);
  } catch (err) {
    throw new CommandParseError(`error parsing command: ${(err as Error).message}`);
  }
  const [command, ...args] = words;
  if (command === undefined) throw new CommandParseError(`no command contained in '${line}'`);
  return { command, args };
}
