import type { CliIO, Env } from '../../cli/io';
import { run } from '../../cli/run';

/** An in-memory CliIO for tests: collected output and a stop() that plays SIGTERM. */
export interface MemoryIo extends CliIO {
  out(): string;
  err(): string;
  stop(signal?: string): void;
  /** Resolves once stdout contains `text`. */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<string>;
}

/** A CliIO whose streams are strings and whose stop signal the test sends. */
export function memoryIo(cwd: string): MemoryIo {
  let stdout = '';
  let stderr = '';
  const handlers = new Set<(signal: string) => void>();
  const io: MemoryIo = {
    cwd,
    stdout: { write: (chunk: string) => { stdout += chunk; return true; } },
    stderr: { write: (chunk: string) => { stderr += chunk; return true; } },
    onStop(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    out: () => stdout,
    err: () => stderr,
    stop(signal = 'SIGTERM') {
      for (const h of [...handlers]) h(signal);
    },
    async waitFor(text, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      const match = (): string | undefined => (typeof text === 'string' ? (stdout.includes(text) ? text : undefined) : text.exec(stdout)?.[0]);
      for (let found = match(); Date.now() < deadline; found = match()) {
        if (found !== undefined) return found;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`timed out waiting for ${String(text)}; stdout: ${stdout}; stderr: ${stderr}`);
    },
  };
  return io;
}

/** Runs one command line in-process and returns its exit code and output. */
export async function runCli(argv: string[], opts: { cwd: string; env?: Env }): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = memoryIo(opts.cwd);
  // HOME points into the test directory so no real ~/.filemgr.json is picked up.
  const code = await run(argv, { HOME: opts.cwd, ...opts.env }, io);
  return { code, stdout: io.out(), stderr: io.err() };
}
