// Shared by the M3 download, archive and search benchmarks: the built executable on a free port
// with a temp root and database, signed in through --noauth, and a client that reads to nowhere.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { freePort, startUntil200, stop } from './measure';

// BENCH_FILEMGR points at another build of the executable (default dist/filemgr).
const EXECUTABLE = process.env.BENCH_FILEMGR ?? fileURLToPath(new URL('../../dist/filemgr', import.meta.url));

/** A filemgr process serving `root`, with a token of its first user. */
export interface RunningFilemgr {
  base: string;
  pid: number;
  token: string;
  stop(): Promise<void>;
}

/** One GET read to the end and thrown away: status, bytes and milliseconds. */
export interface Fetched {
  status: number;
  bytes: number;
  ms: number;
}

/** A positive integer from the environment (benchmark sizes), or the default. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
}

/** GETs `url` and discards the body as it arrives (the client of every server under test). */
export function fetchToNull(url: string, headers: Record<string, string> = {}): Promise<Fetched> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    request(url, { headers, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - start }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/**
 * GETs `url` with curl and discards the body: a native client, as light as the `cat` that the
 * GNU tools' side writes into, so the client does not take the server's CPU on a small machine.
 */
export function curlToNull(url: string, headers: Record<string, string> = {}): Promise<Fetched> {
  const args = ['-s', '-o', '/dev/null', '-w', '%{http_code} %{size_download}', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url];
  const start = performance.now();
  return new Promise((resolve, reject) => {
    let out = '';
    const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject).on('exit', (code) => {
      const [status, bytes] = out.trim().split(' ').map(Number);
      if (code === 0) resolve({ status: status ?? 0, bytes: bytes ?? 0, ms: performance.now() - start });
      else reject(new Error(`curl exited with ${code}`));
    });
  });
}

function post(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`login answered ${res.statusCode}: ${body}`))));
    })
      .on('error', reject)
      .end('{}');
  });
}

/** Peak resident set size of a process so far (VmHWM), in bytes. */
export async function peakRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
  if (!kb) throw new Error(`no VmHWM for process ${pid}`);
  return Number(kb) * 1024;
}

/** More of a start: flags added to the command line, and a listener of the server's log (stdout). */
export interface StartExtras {
  args?: string[];
  stdout?: (text: string) => void;
}

/** Starts dist/filemgr on `root` with --noauth and signs in. */
export async function startFilemgr(root: string, extras: StartExtras = {}): Promise<RunningFilemgr> {
  const state = await mkdtemp(join(tmpdir(), 'filemgr-bench-state-'));
  await mkdir(join(state, 'home'));
  const port = await freePort();
  const args = ['--port', String(port), '--root', root, '--database', join(state, 'filemgr.json'), '--noauth', ...(extras.args ?? [])];
  const base = `http://127.0.0.1:${port}`;
  const run = await startUntil200(EXECUTABLE, args, { url: `${base}/health`, env: { HOME: join(state, 'home') }, cwd: state, ...(extras.stdout ? { stdout: extras.stdout } : {}) });
  const token = await post(`${base}/api/login`);
  return {
    base,
    pid: run.child.pid ?? 0,
    token,
    async stop() {
      await stop(run.child);
      await rm(state, { recursive: true, force: true });
    },
  };
}

/** Milliseconds a shell pipeline takes (the GNU tools' side of a comparison). */
export function timeShell(script: string, cwd: string): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    spawn('sh', ['-c', script], { cwd, stdio: 'ignore' })
      .on('error', reject)
      .on('exit', (code) => (code === 0 ? resolve(performance.now() - start) : reject(new Error(`"${script}" exited with ${code}`))));
  });
}

/** The median-of-`runs` milliseconds of an async measurement. */
export async function medianOf(runs: number, measure: () => Promise<number>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await measure());
  samples.sort((a, b) => a - b);
  const mid = Math.floor(samples.length / 2);
  return samples.length % 2 ? (samples[mid] ?? 0) : ((samples[mid - 1] ?? 0) + (samples[mid] ?? 0)) / 2;
}
