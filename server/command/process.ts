import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { lineSplitter } from './lines';

/** One program to run for the command runner. */
export interface ProgramRun {
  /** Program and arguments (already decided by the policy). */
  argv: readonly string[];
  /** The working directory, already through the path gate. */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Aborting kills the program and everything it started. */
  signal: AbortSignal;
  /**
   * Receives each line of stdout and stderr as it is produced; a returned promise pauses the
   * output until it settles (the client is behind).
   */
  onLine: (line: string) => void | Promise<void>;
}

/** How a run ended: `ok` only for an exit status of 0. */
export interface ProgramResult {
  ok: boolean;
  /** Why it failed: a start error, an exit status or a signal. */
  reason?: string;
}

/**
 * Kills the program's whole process group (POSIX: it was started as a group leader), so that
 * what it started dies with it, even after the leader exited while a child still holds the
 * output open; on Windows only the process itself can be signalled.
 */
function killTree(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') child.kill('SIGKILL');
    else process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Pipes both streams into line splitters, pausing both while the consumer is behind. */
function streamLines(streams: readonly Readable[], onLine: ProgramRun['onLine']): void {
  const deliver = (line: string): void => {
    const wait = onLine(line);
    if (!wait) return;
    for (const s of streams) s.pause();
    void wait.finally(() => {
      for (const s of streams) s.resume();
    });
  };
  for (const stream of streams) {
    const lines = lineSplitter(deliver);
    stream.on('data', (chunk: Buffer) => lines.push(chunk));
    stream.on('end', () => lines.end());
  }
}

/**
 * Runs one program with stdout and stderr streamed line by line as produced (api.md §14), no
 * stdin, the server's environment; resolves when the program and its output are done, or
 * when it could not start. Aborting kills the process group.
 */
export function runProgram(run: ProgramRun): Promise<ProgramResult> {
  const [program = '', ...args] = run.argv;
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(program, args, {
        cwd: run.cwd,
        env: { ...run.env },
        stdio: ['ignore', 'pipe', 'pipe'],
        // A group of its own, so that aborting kills its children too (not on Windows: a console).
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (err) {
      resolve({ ok: false, reason: (err as Error).message });
      return;
    }
    const abort = (): void => killTree(child);
    if (run.signal.aborted) abort();
    else run.signal.addEventListener('abort', abort, { once: true });
    streamLines([child.stdout, child.stderr].filter((s): s is Readable => s !== null), run.onLine);
    child.once('error', (err) => resolve({ ok: false, reason: err.message }));
    child.once('close', (code, sig) => {
      run.signal.removeEventListener('abort', abort);
      resolve(code === 0 ? { ok: true } : { ok: false, reason: sig ?? `exit status ${code ?? '?'}` });
    });
  });
}
