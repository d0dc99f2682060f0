// The M3 listing benchmark, against the built executable: GET /api/resources of a folder of
// 10,000 and of 100,000 files, each against Node's own readdir + lstat of the same folder (same
// run, interleaved), and the server's peak RSS (VmHWM) after listing the 100,000 files, against
// the 250 MB budget of a small machine. Sizes: BENCH_LISTING_FILES (default 10000),
// BENCH_LISTING_HUGE (default 100000); BENCH_RUNS runs of each timing (default 3, median kept).
import { lstat, readdir, writeFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { envNumber, fetchToNull, peakRss, startFilemgr, type RunningFilemgr } from './filemgr-process';
import { median, type Benchmark, type Figure } from './measure';

const BUDGET = 250 * 2 ** 20;

async function makeFolder(dir: string, count: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  const names = Array.from({ length: count }, (_, i) => `file-${i}.${['txt', 'jpg', 'mp4', 'bin', 'md'][i % 5] ?? 'txt'}`);
  for (let i = 0; i < names.length; i += 256) {
    await Promise.all(names.slice(i, i + 256).map((n) => writeFile(join(dir, n), 'x'.repeat(64))));
  }
}

async function list(server: RunningFilemgr, folder: string): Promise<number> {
  const res = await fetchToNull(`${server.base}/api/resources/${folder}`, { 'x-auth': server.token });
  if (res.status !== 200) throw new Error(`GET /api/resources/${folder} answered ${res.status}`);
  return res.ms;
}

/** Node's own work for the same folder: readdir, then lstat every entry (P2 §3's baseline). */
async function readdirAndStat(dir: string): Promise<number> {
  const start = performance.now();
  const names = await readdir(dir);
  await Promise.all(names.map((n) => lstat(join(dir, n))));
  return performance.now() - start;
}

/** Runs two measurements alternately, so a busy machine slows both alike; their medians. */
async function interleaved(runs: number, a: () => Promise<number>, b: () => Promise<number>): Promise<[number, number]> {
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < runs; i++) {
    as.push(await a());
    bs.push(await b());
  }
  return [median(as), median(bs)];
}

/** A fresh server's peak RSS after one listing of `folder` (nothing else ran in it). */
async function peakListing(root: string, folder: string): Promise<{ peak: number; ms: number }> {
  const server = await startFilemgr(root);
  try {
    const ms = await list(server, folder);
    return { peak: await peakRss(server.pid), ms };
  } finally {
    await server.stop();
  }
}

async function run(log: (line: string) => void): Promise<Figure[]> {
  const files = envNumber('BENCH_LISTING_FILES', 10_000);
  const huge = envNumber('BENCH_LISTING_HUGE', 100_000);
  const runs = envNumber('BENCH_RUNS', 3);
  const root = await mkdtemp(join(tmpdir(), 'filemgr-bench-listing-'));
  try {
    log(`  creating ${files} and ${huge} files...`);
    await makeFolder(join(root, 'big'), files);
    await makeFolder(join(root, 'huge'), huge);
    const { peak, ms: first } = await peakListing(root, 'huge');
    log(`  peak RSS of a fresh server listing ${huge} files: ${(peak / 2 ** 20).toFixed(1)} MiB (${first.toFixed(0)} ms)`);
    const server = await startFilemgr(root);
    try {
      await list(server, 'big');
      const [big, bigNode] = await interleaved(runs, () => list(server, 'big'), () => readdirAndStat(join(root, 'big')));
      const [all, hugeNode] = await interleaved(runs, () => list(server, 'huge'), () => readdirAndStat(join(root, 'huge')));
      return [
        { label: `list ${files} files (GET /api/resources)`, value: big, unit: 'ms', baseline: { label: 'readdir + lstat', value: bigNode } },
        { label: `list ${huge} files (GET /api/resources)`, value: all, unit: 'ms', baseline: { label: 'readdir + lstat', value: hugeNode } },
        { label: `server peak RSS listing ${huge} files`, value: peak, unit: 'B', baseline: { label: 'budget', value: BUDGET } },
      ];
    } finally {
      await server.stop();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export const listingBenchmark: Benchmark = {
  name: 'listing',
  title: 'M3 listing (built executable): folder listings against readdir + lstat, peak RSS against 250 MB',
  run,
};
