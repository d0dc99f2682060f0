// S1 (beyond.md §10), several instances: three dist/filemgr nodes on one PostgreSQL behind nginx
// round robin (tests/support/serve-cluster.ts, spawned by path), against one dist/filemgr on the
// JSON file serving the same tree. Rows: a 2,000-entry listing on a PostgreSQL node against the
// JSON node (goal <= 1.1x); a share's creation (goal: <= 2 ms more); 200 clients spread over the
// three nodes for 30 s (goal: no error) against the same load on the single node.
// BENCH_CLUSTER_LISTING (2000) entries, BENCH_LOAD_CLIENTS (200), BENCH_LOAD_SECONDS (30), BENCH_RUNS (15 samples per median = 5x).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { envNumber, fetchToNull, medianOf, startFilemgr } from './filemgr-process';
import { percentile, runLoad, type LoadResult, type LoadTarget } from './load';
import type { Benchmark, Figure } from './measure';
import { firstLine, stopChild } from './upload';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVE_CLUSTER = join(ROOT, 'tests/support/serve-cluster.ts');

interface ClusterInfo {
  url: string;
  nodes: string[];
  username: string;
  password: string;
}

/** The same tree serve-cluster.ts writes: a listing, a 1 MiB file and a text file. */
async function fixture(root: string, listing: number): Promise<void> {
  await mkdir(join(root, 'list'), { recursive: true });
  for (let i = 0; i < listing; i += 250) {
    await Promise.all(Array.from({ length: Math.min(250, listing - i) }, (_, j) => writeFile(join(root, 'list', `entry-${i + j}.txt`), `entry ${i + j}\n`)));
  }
  await writeFile(join(root, 'one.bin'), randomBytes(2 ** 20));
  await writeFile(join(root, 'notes.txt'), 'A line of notes.\n'.repeat(500));
}

async function signIn(base: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password, recaptcha: '' }) });
  if (!res.ok) throw new Error(`sign-in at ${base} answered ${res.status}`);
  return res.text();
}

/** Milliseconds of one share creation (POST /api/share/notes.txt). */
async function shareOnce(base: string, token: string): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${base}/api/share/notes.txt`, { method: 'POST', headers: { 'x-auth': token, 'content-type': 'application/json' }, body: '{}' });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`share creation answered ${res.status}`);
  return performance.now() - start;
}

async function listOnce(base: string, token: string): Promise<number> {
  const got = await fetchToNull(`${base}/api/resources/list/`, { 'x-auth': token });
  if (got.status !== 200) throw new Error(`listing answered ${got.status}`);
  return got.ms;
}

const targetsOf = (base: string, token: string): LoadTarget[] =>
  ['/api/resources/list/', '/api/raw/one.bin', '/api/raw/notes.txt'].map((path) => ({ url: `${base}${path}`, headers: { 'x-auth': token } }));

const loadLine = (what: string, r: LoadResult): string =>
  `  ${what}: ${r.requests} requests, ${r.failures} errors, p50 ${percentile(r.latencies, 50).toFixed(0)} ms, p99 ${percentile(r.latencies, 99).toFixed(0)} ms`;

async function startClusterChild(listing: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVE_CLUSTER, JSON.stringify({ listing })], {
    cwd: ROOT,
    env: { ...process.env, TSX_TSCONFIG_PATH: join(ROOT, 'build/tsconfig.json') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const info = JSON.parse(await firstLine(child)) as ClusterInfo;
  return { info, stop: () => stopChild(child) };
}

async function measure(log: (line: string) => void): Promise<Figure[]> {
  const listing = envNumber('BENCH_CLUSTER_LISTING', 2000);
  const samples = envNumber('BENCH_RUNS', 3) * 5;
  const load = { clients: envNumber('BENCH_LOAD_CLIENTS', 200), durationMs: envNumber('BENCH_LOAD_SECONDS', 30) * 1000 };
  const root = await mkdtemp(join(tmpdir(), 'filemgr-bench-cluster-'));
  await fixture(root, listing);
  const single = await startFilemgr(root);
  const cluster = await startClusterChild(listing).catch(async (err: unknown) => {
    await single.stop();
    throw err;
  });
  try {
    const { info } = cluster;
    const token = await signIn(info.url, info.username, info.password);
    const node = info.nodes[0] ?? info.url;
    await listOnce(single.base, single.token);
    await listOnce(node, token);
    const jsonList = await medianOf(samples, () => listOnce(single.base, single.token));
    const pgList = await medianOf(samples, () => listOnce(node, token));
    const jsonShare = await medianOf(samples, () => shareOnce(single.base, single.token));
    const pgShare = await medianOf(samples, () => shareOnce(node, token));
    log(`  listing of ${listing} entries: JSON file ${jsonList.toFixed(1)} ms, PostgreSQL node ${pgList.toFixed(1)} ms; share creation ${jsonShare.toFixed(1)} ms against ${pgShare.toFixed(1)} ms`);
    const alone = await runLoad({ ...load, targets: targetsOf(single.base, single.token) });
    log(loadLine(`${load.clients} clients on the single node`, alone));
    const spread = await runLoad({ ...load, targets: targetsOf(info.url, token) });
    log(loadLine(`${load.clients} clients through nginx over ${info.nodes.length} nodes`, spread));
    return [
      { label: `listing of ${listing} entries, PostgreSQL node`, value: pgList, unit: 'ms', baseline: { label: 'JSON file', value: jsonList } },
      { label: 'share creation, PostgreSQL node', value: pgShare, unit: 'ms', baseline: { label: 'JSON file', value: jsonShare } },
      { label: `${load.clients} clients over ${info.nodes.length} nodes, p99 (${spread.failures} errors)`, value: percentile(spread.latencies, 99), unit: 'ms', baseline: { label: `one node (${alone.failures} errors)`, value: percentile(alone.latencies, 99) } },
    ];
  } finally {
    await cluster.stop();
    await single.stop();
    await rm(root, { recursive: true, force: true });
  }
}

export const clusterBenchmark: Benchmark = {
  name: 'cluster',
  title: 'S1 several instances: three nodes on PostgreSQL behind nginx against one node on the JSON file',
  run: measure,
};
