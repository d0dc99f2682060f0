import { CliError, type CliIO, type InStream } from './io';

const ENTER = new Set(['\r', '\n']);
const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const ERASE = new Set(['\u007f', '\b']);

/**
 * Reads lines from a stream one at a time, keeping what arrives after a line end for the next
 * line. On a terminal it turns echo off while reading, so a typed password is never shown.
 */
class LineReader {
  private pending = '';
  private ended = false;

  constructor(private readonly input: InStream) {
    input.on('end', () => {
      this.ended = true;
    });
  }

  /** The next line (without its line end); at the end of the input, what is left (maybe ''). */
  async line(): Promise<string> {
    const raw = this.input.isTTY === true && this.input.setRawMode !== undefined;
    if (raw) this.input.setRawMode?.(true);
    try {
      return await this.collect(raw);
    } finally {
      if (raw) this.input.setRawMode?.(false);
      this.input.pause();
    }
  }

  /** Takes a line from what is pending; undefined when no line end has arrived yet. */
  private take(raw: boolean): string | undefined {
    let value = '';
    for (let i = 0; i < this.pending.length; i++) {
      const ch = this.pending[i] ?? '';
      if (ENTER.has(ch) || (raw && ch === CTRL_D)) {
        // A CR LF pair ends one line, not two.
        const skip = ch === '\r' && this.pending[i + 1] === '\n' ? 2 : 1;
        this.pending = this.pending.slice(i + skip);
        return value;
      }
      if (raw && ch === CTRL_C) {
        this.pending = '';
        throw new CliError('cancelled, nothing changed');
      }
      if (raw && ERASE.has(ch)) value = [...value].slice(0, -1).join('');
      else value += ch;
    }
    return undefined;
  }

  private collect(raw: boolean): Promise<string> {
    return new Promise((resolve, reject) => {
      const settle = (finish: () => void): void => {
        this.input.off('data', onData);
        this.input.off('end', onEnd);
        finish();
      };
      const check = (): void => {
        try {
          const line = this.take(raw);
          if (line !== undefined) settle(() => resolve(line));
          else if (this.ended) settle(() => resolve(this.rest()));
        } catch (err) {
          settle(() => reject(err instanceof Error ? err : new Error(String(err))));
        }
      };
      const onData = (chunk: Buffer | string): void => {
        this.pending += String(chunk);
        check();
      };
      const onEnd = (): void => {
        this.ended = true;
        check();
      };
      this.input.on('data', onData);
      this.input.on('end', onEnd);
      this.input.resume();
      check();
    });
  }

  private rest(): string {
    const rest = this.pending;
    this.pending = '';
    return rest;
  }
}

function noPassword(command: string): CliError {
  return new CliError(`no password given: type it at the prompt, or pipe it on standard input (printf '%s\\n' "$PASSWORD" | filemgr ${command})`);
}

/**
 * A new password that is not on the command line (where it would land in the shell history):
 * typed twice at a hidden prompt on a terminal, else the first line of stdin. `command` is the
 * command line to show in the hint when there is neither.
 */
export async function readNewPassword(io: CliIO, username: string, command: string): Promise<string> {
  const { stdin } = io;
  if (stdin === undefined) throw noPassword(command);
  const reader = new LineReader(stdin);
  if (stdin.isTTY !== true) {
    const piped = await reader.line();
    if (piped === '') throw noPassword(command);
    return piped;
  }
  io.stderr.write(`Password for ${username}: `);
  const first = await reader.line();
  io.stderr.write('\n');
  if (first === '') throw noPassword(command);
  io.stderr.write('Repeat the password: ');
  const second = await reader.line();
  io.stderr.write('\n');
  if (first !== second) throw new CliError('the two passwords differ, nothing changed');
  return first;
}
