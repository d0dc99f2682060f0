import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';

/** One printed figure, with the baseline it is compared to (measured in the same run). */
export interface Figure {
  label: string;
  value: number;
  unit: 'B' | 'ms';
  baseline?: { label: string; value: number };
}

/** A benchmark module: scripts/bench/bench.ts runs each and prints its figures. */
export interface Benchmark {
  name: string;
  title: string;
  run: (log: (line: string) => void) => Promise<Figure[]>;
}

/** The median of some samples (the mean of the middle two for an even count). */
export function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export { freePort } from '../../build/free-port';

/** The status of one GET, or undefined when nothing answers yet. */
export function statusOf(url: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    request(url, (res) => {
      res.resume();
      resolve(res.statusCode);
    }).on('error', () => resolve(undefined)).end();
  });
}

export interface Started {
  child: ChildProcess;
  /** Milliseconds from spawn to the first 200. */
  ms: number;
}

/**
 * Spawns a server and polls `url` every 2 ms until it answers 200 (fails after 20 s); `stdout`,
 * when given, is told what the server writes there (its log), else that is thrown away.
 */
export async function startUntil200(command: string, args: string[], opts: { url: string; env: Record<string, string>; cwd: string; stdout?: (text: string) => void }): Promise<Started> {
  const start = performance.now();
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', opts.stdout ? 'pipe' : 'ignore', 'ignore'] });
  const onStdout = opts.stdout;
  if (onStdout) child.stdout?.setEncoding('utf8').on('data', (text: string) => onStdout(text));
  for (;;) {
    if ((await statusOf(opts.url)) === 200) return { child, ms: performance.now() - start };
    if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode} before answering`);
    if (performance.now() - start > 20_000) {
      child.kill('SIGKILL');
      throw new Error(`${command} did not answer ${opts.url} within 20 s`);
    }
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** Milliseconds a command takes to run to its exit. */
export function timeToExit(command: string, args: string[]): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    spawn(command, args, { stdio: 'ignore' })
      .on('error', reject)
      .on('exit', (code) => (code === 0 ? resolve(performance.now() - start) : reject(new Error(`${command} exited with ${code}`))));
  });
}

/** Resident set size of a process in bytes (Linux /proc). */
export async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}

/** Stops a child with SIGTERM and waits for it to exit. */
export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
