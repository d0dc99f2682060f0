/** Anything that takes text: process.stdout, a test buffer, a log file. */
export interface OutStream {
  write(chunk: string): unknown;
  /** True when the stream is a terminal (a person reads it). */
  isTTY?: boolean;
}

/** Where typed or piped input comes from: process.stdin, or a test stream. */
export interface InStream {
  /** True when a person types at a terminal; false or absent for a pipe or a file. */
  isTTY?: boolean;
  /** Present on terminals: turns echo and line editing off (true) or back on (false). */
  setRawMode?(raw: boolean): unknown;
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  off(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  off(event: 'end', listener: () => void): unknown;
  pause(): unknown;
  resume(): unknown;
}

/** The environment the CLI reads (process.env in production, a plain object in tests). */
export type Env = Readonly<Record<string, string | undefined>>;

/** What a command may touch of the outside world; tests pass their own. */
export interface CliIO {
  stdout: OutStream;
  stderr: OutStream;
  /** Standard input, for a password typed at a prompt or piped in; absent when there is none. */
  stdin?: InStream;
  /** The directory relative paths are resolved against. */
  cwd: string;
  /** Calls `handler` on SIGTERM or SIGINT; returns a function that stops listening. */
  onStop(handler: (signal: string) => void): () => void;
}

/** A failure the user can act on: one line on stderr, exit 1. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

/** The command was called wrongly (unknown flag, bad value, missing argument): exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The real process: its streams, working directory and termination signals. */
export function processIo(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    cwd: process.cwd(),
    onStop(handler) {
      const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];
      const listener = (signal: NodeJS.Signals): void => handler(signal);
      for (const s of signals) process.on(s, listener);
      return () => {
        for (const s of signals) process.off(s, listener);
      };
    },
  };
}
