// beyond.md §7 memory budgets of the search index, and P2's idle RSS: dist/filemgr on a tree of
// BENCH_INDEX_FOLDERS x BENCH_INDEX_FILES (default 1,000 x 1,000) empty files, made once in
// $TMPDIR/filemgr-bench-index-<folders>x<files>/ and kept for the next run (or BENCH_INDEX_ROOT).
// Each server starts with a fresh --database and cache folder (so the index is built from
// nothing) and `--indexInterval 5m`; VmRSS is sampled every 100 ms until the log says the index
// is built, then for BENCH_INDEX_IDLE_SECONDS (default 10) of idle. A listing of a 1,000-entry
// folder is timed every 250 ms during the build (is the event loop still answering?). The same
// tree served with --indexInterval 0 gives the RSS the index adds to.
//   npx tsx --tsconfig build/tsconfig.json scripts/bench/index-memory.ts
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { envNumber, fetchToNull } from './filemgr-process';
import { freePort, median, rssOf, sleep, stop, statusOf, type Benchmark, type Figure } from './measure';

const EXECUTABLE = process.env.BENCH_FILEMGR ?? fileURLToPath(new URL('../../dist/filemgr', import.meta.url));
const MiB = 2 ** 20;
const mib = (bytes: number): string => `${(bytes / MiB).toFixed(1)} MiB`;

/** The tree, made once: folders of empty files; a `complete` file beside it says it is whole. */
function ensureTree(): string {
  if (process.env.BENCH_INDEX_ROOT) return process.env.BENCH_INDEX_ROOT;
  const folders = envNumber('BENCH_INDEX_FOLDERS', 1000);
  const files = envNumber('BENCH_INDEX_FILES', 1000);
  const base = join(tmpdir(), `filemgr-bench-index-${folders}x${files}`);
  const root = join(base, 'root');
  if (existsSync(join(base, 'complete'))) return root;
  for (let f = 0; f < folders; f++) {
    const dir = join(root, `folder-${String(f).padStart(5, '0')}`);
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < files; i++) closeSync(openSync(join(dir, `file-${f}-${i}.dat`), 'w'));
  }
  writeFileSync(join(base, 'complete'), '');
  return root;
}

interface Server {
  child: ChildProcess;
  base: string;
  token: string;
  /** Resolves with the log line once the index is built. */
  built: Promise<string>;
  state: string;
}

/** Drops the executable from the page cache (see m1-executable.ts): each start maps it as after a reboot, not in the large folios of a file just written. */
function evictExecutable(): Promise<void> {
  return new Promise((resolve, reject) => {
    spawn('dd', [`if=${EXECUTABLE}`, 'iflag=nocache', 'count=0', 'status=none'], { stdio: 'ignore' })
      .on('error', reject)
      .on('exit', () => resolve());
  });
}

async function startServer(root: string, interval: string): Promise<Server> {
  await evictExecutable();
  const state = await mkdtemp(join(tmpdir(), 'filemgr-bench-index-state-'));
  await mkdir(join(state, 'home'));
  const port = await freePort();
  const args = ['--port', String(port), '--root', root, '--database', join(state, 'filemgr.json'), '--cacheDir', join(state, 'cache'), '--noauth', '--indexInterval', interval];
  const child = spawn(EXECUTABLE, args, { cwd: state, env: { HOME: join(state, 'home') }, stdio: ['ignore', 'pipe', 'pipe'] });
  const built = new Promise<string>((resolve) => {
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const line = /search index built[^\n"]*/.exec(out)?.[0];
      if (line) resolve(line);
      if (out.length > 1e6) out = out.slice(-1000);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
  });
  const base = `http://127.0.0.1:${port}`;
  for (const started = performance.now(); (await statusOf(`${base}/health`)) !== 200; await sleep(5)) {
    if (child.exitCode !== null || performance.now() - started > 20_000) throw new Error('filemgr did not start');
  }
  const login = await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  return { child, base, built, state, token: await login.text() };
}

async function close(server: Server): Promise<void> {
  await stop(server.child);
  await rm(server.state, { recursive: true, force: true });
}

/** Samples VmRSS every 100 ms while `until` is pending; answers the samples. */
async function sampleWhile(pid: number, until: Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    samples.push(await rssOf(pid));
    await sleep(100);
  }
  samples.push(await rssOf(pid));
  return samples;
}

/** Times a listing every 250 ms while `until` is pending. */
async function listWhile(url: string, token: string, until: Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    times.push((await fetchToNull(url, { 'x-auth': token })).ms);
    await sleep(250);
  }
  return times;
}

/** The anonymous and file-backed parts of a process's RSS, for the log. */
async function rssParts(pid: number): Promise<string> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return `anon ${mib(kb('RssAnon'))}, file ${mib(kb('RssFile'))}`;
}

async function idleRss(server: Server, seconds: number, log: (line: string) => void): Promise<number> {
  await sleep(seconds * 1000);
  const pid = server.child.pid ?? 0;
  log(`    (${await rssParts(pid)})`);
  return rssOf(pid);
}

/** A server on `root` with the index built from nothing: its peak RSS until built, its RSS after the idle time. */
async function indexedRun(root: string, idleSeconds: number, log: (line: string) => void): Promise<{ peak: number; idle: number; ms: number }> {
  const server = await startServer(root, '5m');
  try {
    const pid = server.child.pid ?? 0;
    const started = performance.now();
    const [samples, line] = await Promise.all([sampleWhile(pid, server.built), server.built]);
    const ms = performance.now() - started;
    log(`  ${line} (searchable ${(ms / 1000).toFixed(1)} s after the first answer); RSS then ${mib(samples[0] ?? 0)}, peak ${mib(Math.max(...samples))}`);
    return { peak: Math.max(...samples), idle: await idleRss(server, idleSeconds, log), ms };
  } finally {
    await close(server);
  }
}

/** The same tree without the index, sampled as long as the build took: the RSS the index adds to. */
async function plainRun(root: string, opts: { ms: number; idleSeconds: number }, log: (line: string) => void): Promise<{ peak: number; idle: number }> {
  const server = await startServer(root, '0');
  try {
    const samples = await sampleWhile(server.child.pid ?? 0, sleep(opts.ms));
    return { peak: Math.max(...samples), idle: await idleRss(server, opts.idleSeconds, log) };
  } finally {
    await close(server);
  }
}

/** A listing of a 1,000-entry folder timed every 250 ms during a build (its own run: its garbage is not the index's). */
async function listingRun(root: string): Promise<number[]> {
  const server = await startServer(root, '5m');
  try {
    return await listWhile(`${server.base}/api/resources/folder-00000/`, server.token, server.built);
  } finally {
    await close(server);
  }
}

/** Runs the benchmark, prints its progress and returns its figures. */
export async function run(log: (line: string) => void = console.log): Promise<Figure[]> {
  const idleSeconds = envNumber('BENCH_INDEX_IDLE_SECONDS', 10);
  log('  making (or finding) the tree');
  const root = ensureTree();
  const indexed = await indexedRun(root, idleSeconds, log);
  const plain = await plainRun(root, { ms: indexed.ms, idleSeconds }, log);
  log(`  without the index: peak ${mib(plain.peak)}, idle ${mib(plain.idle)}; with: peak ${mib(indexed.peak)}, idle ${mib(indexed.idle)}`);
  log(`  added while building ${mib(indexed.peak - plain.peak)} (goal 32 MB), once built ${mib(indexed.idle - plain.idle)} (goal 16 MB)`);
  const listings = await listingRun(root);
  log(`  listing during a build: median ${median(listings).toFixed(0)} ms, max ${Math.max(0, ...listings).toFixed(0)} ms (${listings.length} requests)`);
  return [
    { label: 'index: idle RSS without the index', value: plain.idle, unit: 'B', baseline: { label: 'goal', value: 80e6 } },
    { label: 'index: RSS added while building', value: indexed.peak - plain.peak, unit: 'B', baseline: { label: 'goal', value: 32e6 } },
    { label: 'index: RSS added once built', value: indexed.idle - plain.idle, unit: 'B', baseline: { label: 'goal', value: 16e6 } },
    { label: 'index: build until searchable', value: indexed.ms, unit: 'ms', baseline: { label: 'goal', value: 15_000 } },
    { label: 'index: listing during the build, max', value: Math.max(0, ...listings), unit: 'ms' },
  ];
}

/** beyond.md §7: the search index's RSS while building and once built, on 1,000,000 entries. */
export const indexMemoryBenchmark: Benchmark = {
  name: 'index-memory',
  title: 'beyond.md §7: search index memory (1,000,000 entries) and idle RSS',
  run,
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await run().then(() => undefined);
