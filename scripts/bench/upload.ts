// Upload throughput of the built executable: a file sent through the raw `POST /api/resources`
// and through tus (10 MiB PATCHes, as the UI sends them), against writing the same bytes to disk
// with `fs` in this process, in the same run. A fourth way writes with `fs` in 10 MiB pieces, each
// made durable (fdatasync) before the next, as tus must (api.md §3.17 step 7): the baseline of the
// tus figure, the most any tus server can reach on this disk. Every path ends with the data on
// disk (the server fsyncs uploads, so the baselines sync too). Sizes: BENCH_UPLOAD_BYTES (default
// 1G; K/M/G suffixes), BENCH_RUNS (default 3, the median is kept). `tsx scripts/bench/upload.ts`
// runs it alone.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { Agent, request, type ClientRequest } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ServerConfig } from '../../server/config';
import { startFilemgr } from './filemgr-process';
import { median, type Benchmark, type Figure } from './measure';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// The child side lives with the test helpers it uses: the benchmark spawns it, never imports it.
const TEST_APP_SERVER = join(ROOT, 'tests/support/serve-test-app.ts');
const SOURCE_BYTES = 16 * 1024 * 1024;
const TUS_CHUNK = 10 * 1024 * 1024;

/** A size from the environment: bytes, or a number with K, M or G (binary units). */
export function sizeFromEnv(value: string | undefined, fallback: number): number {
  const m = /^(\d+)([KMG]?)$/i.exec(value ?? '');
  if (!m) return fallback;
  const unit = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[(m[2] ?? '').toUpperCase()] ?? 1;
  return Number(m[1]) * unit;
}

/** A server of the bench: a real app in a child process (so client and server do not share a thread). */
export interface BenchServer {
  port: number;
  /** The served root (a temp directory). */
  root: string;
  /** The admin's token. */
  token: string;
  stop(): Promise<void>;
}

/** Starts `buildTestApp` with `config` in a child process and waits for its address. */
export async function startBenchServer(config: Partial<ServerConfig>): Promise<BenchServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', TEST_APP_SERVER, JSON.stringify(config)], {
    cwd: ROOT,
    env: { ...process.env, TSX_TSCONFIG_PATH: join(ROOT, 'build/tsconfig.json') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await firstLine(child);
  const info = JSON.parse(line) as { port: number; root: string; token: string };
  return { ...info, stop: () => stopChild(child) };
}

export function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (l) => resolve(l));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The built executable (dist/filemgr, --noauth) on a fresh temp root, as a bench server. */
export async function startExecutableServer(): Promise<BenchServer> {
  const root = await mkdtemp(join(tmpdir(), 'filemgr-bench-upload-'));
  const running = await startFilemgr(root);
  return {
    port: Number(new URL(running.base).port),
    root,
    token: running.token,
    async stop() {
      await running.stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Writes `total` bytes of `source` (repeated) into a request, honouring backpressure. */
async function writeBody(req: ClientRequest, source: Buffer, span: { from: number; total: number }): Promise<void> {
  for (let done = 0; done < span.total; ) {
    const at = (span.from + done) % source.length;
    const piece = source.subarray(at, Math.min(source.length, at + span.total - done));
    done += piece.length;
    if (!req.write(piece)) await new Promise((r) => req.once('drain', r));
  }
  req.end();
}

interface Call {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: { source: Buffer; from: number; total: number };
}

/** One request to the bench server; resolves with the status and headers once the answer is read. */
export function call(server: BenchServer, agent: Agent, c: Call): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const headers = { 'x-auth': server.token, ...c.headers, ...(c.body ? { 'content-length': String(c.body.total) } : {}) };
    const req = request({ host: '127.0.0.1', port: server.port, method: c.method, path: c.path, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    if (c.body) writeBody(req, c.body.source, c.body).catch(reject);
    else req.end();
  });
}

function expectStatus(what: string, got: number, want: number): void {
  if (got !== want) throw new Error(`${what}: status ${got}, expected ${want}`);
}

async function fsWrite(path: string, source: Buffer, total: number): Promise<number> {
  const start = performance.now();
  const fh = await open(path, 'w', 0o640);
  try {
    for (let done = 0; done < total; ) {
      const n = Math.min(source.length, total - done);
      const { bytesWritten } = await fh.write(source, 0, n, done);
      done += bytesWritten;
    }
    await fh.sync();
  } finally {
    await fh.close();
  }
  return performance.now() - start;
}

/**
 * The same bytes written by this process 10 MiB at a time, each piece made durable before the next
 * (fdatasync): what a tus server must do for every PATCH before answering it (api.md §3.17 step 7),
 * without the network. The ceiling of any server that keeps that rule on this machine.
 */
async function fsDurableChunks(path: string, source: Buffer, total: number): Promise<number> {
  const start = performance.now();
  const fh = await open(path, 'w', 0o640);
  try {
    for (let done = 0; done < total; ) {
      const end = Math.min(total, done + TUS_CHUNK);
      while (done < end) {
        const at = done % source.length;
        const n = Math.min(source.length - at, end - done);
        done += (await fh.write(source, at, n, done)).bytesWritten;
      }
      await fh.datasync();
    }
  } finally {
    await fh.close();
  }
  return performance.now() - start;
}

export async function rawPost(server: BenchServer, agent: Agent, data: { source: Buffer; total: number }): Promise<number> {
  const start = performance.now();
  const res = await call(server, agent, { method: 'POST', path: '/api/resources/raw.bin?override=true', headers: { 'content-type': 'application/octet-stream' }, body: { ...data, from: 0 } });
  expectStatus('raw POST', res.status, 200);
  return performance.now() - start;
}

export async function tusUpload(server: BenchServer, agent: Agent, data: { source: Buffer; total: number }): Promise<number> {
  const start = performance.now();
  const path = '/api/tus/tus.bin?override=true';
  const created = await call(server, agent, { method: 'POST', path, headers: { 'upload-length': String(data.total), 'tus-resumable': '1.0.0' } });
  expectStatus('tus POST', created.status, 201);
  const location = String(created.headers.location);
  for (let offset = 0; offset < data.total; offset += TUS_CHUNK) {
    const n = Math.min(TUS_CHUNK, data.total - offset);
    const headers = { 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset), 'tus-resumable': '1.0.0' };
    const res = await call(server, agent, { method: 'PATCH', path: location, headers, body: { source: data.source, from: offset, total: n } });
    expectStatus('tus PATCH', res.status, 204);
  }
  return performance.now() - start;
}

const mbps = (bytes: number, ms: number): string => `${(bytes / 1e6 / (ms / 1000)).toFixed(0)} MB/s`;

type Way = 'fs' | 'chunks' | 'raw' | 'tus';

/** One round: the four ways in a rotating order (the disk of a shared machine drifts over time). */
async function round(server: BenchServer, agent: Agent, data: { source: Buffer; total: number; turn: number }): Promise<Record<Way, number>> {
  const ways: Record<Way, () => Promise<number>> = {
    fs: () => fsWrite(join(server.root, 'fs.bin'), data.source, data.total),
    chunks: () => fsDurableChunks(join(server.root, 'chunks.bin'), data.source, data.total),
    raw: () => rawPost(server, agent, data),
    tus: () => tusUpload(server, agent, data),
  };
  const order: Way[] = ['fs', 'chunks', 'raw', 'tus'];
  const times = { fs: 0, chunks: 0, raw: 0, tus: 0 };
  for (let i = 0; i < order.length; i++) {
    const way = order[(i + data.turn) % order.length]!;
    times[way] = await ways[way]();
    await rm(join(server.root, `${way}.bin`), { force: true });
  }
  return times;
}

/** Measures the four ways of writing BENCH_UPLOAD_BYTES; prints throughputs and their ratios. */
export async function run(log: (line: string) => void = console.log): Promise<Figure[]> {
  const total = sizeFromEnv(process.env.BENCH_UPLOAD_BYTES, 1024 ** 3);
  const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 3) || 3);
  const source = randomBytes(SOURCE_BYTES);
  const server = await startExecutableServer();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const rounds: Record<Way, number>[] = [];
  try {
    for (let turn = 0; turn < runs; turn++) {
      const r = await round(server, agent, { source, total, turn });
      rounds.push(r);
      log(`  run ${turn + 1}/${runs}: fs ${mbps(total, r.fs)}, fs in durable 10 MiB pieces ${mbps(total, r.chunks)}, raw POST ${mbps(total, r.raw)}, tus ${mbps(total, r.tus)}`);
    }
  } finally {
    agent.destroy();
    await server.stop();
  }
  const med = (way: Way) => median(rounds.map((r) => r[way]));
  // Each round's ratio compares runs minutes apart at most; the median of ratios resists drift.
  const ratio = (way: Way) => median(rounds.map((r) => r.fs / r[way])).toFixed(2);
  log(`  ${(total / 1024 ** 2).toFixed(0)} MiB, median of ${runs} rounds; throughput against fs.write + fsync in the bench process (${mbps(total, med('fs'))}):`);
  log(`    raw POST /api/resources  ${mbps(total, med('raw')).padStart(9)}  ${ratio('raw')} x fs (target >= 0.90)`);
  log(`    tus, 10 MiB PATCHes      ${mbps(total, med('tus')).padStart(9)}  ${ratio('tus')} x fs`);
  log(`    fs in durable 10 MiB pieces (no network) ${mbps(total, med('chunks'))}  ${ratio('chunks')} x fs: the ceiling of tus here, which must fsync each PATCH before its answer`);
  log(`    tus against that ceiling  ${median(rounds.map((r) => r.chunks / r.tus)).toFixed(2)} x (target >= 0.80)`);
  const mib = (total / 1024 ** 2).toFixed(0);
  const fs = { label: 'fs.write + fsync in the bench process', value: med('fs') };
  // Printed as time, so the ratio is time over time: throughput relative to the baseline is its inverse.
  return [
    { label: `raw POST of ${mib} MiB (time)`, value: med('raw'), unit: 'ms', baseline: fs },
    { label: `tus upload of ${mib} MiB, 10 MiB PATCHes (time)`, value: med('tus'), unit: 'ms', baseline: { label: 'fs in 10 MiB pieces + fdatasync each', value: med('chunks') } },
    { label: `fs in durable 10 MiB pieces, ${mib} MiB (time)`, value: med('chunks'), unit: 'ms', baseline: fs },
  ];
}

/** The module as scripts/bench/bench.ts lists benchmarks. */
export const uploadBenchmark: Benchmark = { name: 'upload', title: 'M4: upload throughput (raw POST and tus) against fs', run };

if (process.argv[1] !== undefined && pathToFileURL(process.argv[1]).href === import.meta.url) {
  run().catch((err: unknown) => {
    console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  });
}
