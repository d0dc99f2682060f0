// P2 §3 "Memory and speed", the rows measured under load (the listing ratio is in listing.ts,
// the archive peak in archive.ts). Each row starts a fresh dist/filemgr, so one row's garbage
// does not count in another's RSS. Every load is bounded in count and time, on loopback only.
//   idle:     RSS of a server 5 s after it answered its first request (settled), against 80 MB.
//   mixed:    200 clients for 30 s over a 2,000-entry listing, a 1 MiB download, a text file, a
//             search and usage: the peak RSS against 300 MB, then the RSS 30 s later against 150 MB.
//   searches: 50 concurrent searches of a 400-file tree, then 50 concurrent usage calls: RSS after each.
//   tail:     50 clients downloading a 1 MiB file, p99 latency against nginx with the same client.
// BENCH_LOAD_SECONDS (default 30) sets the mixed load's and the cool-down's length, BENCH_LOAD_CLIENTS
// (default 200) its clients, BENCH_RUNS (default 3) the interleaved rounds of the tail latency,
// BENCH_MEMORY_ROWS (default idle,searches,tail,mixed) the rows measured.
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureNginx, startNginx } from './download';
import { envNumber, peakRss, startFilemgr, type RunningFilemgr } from './filemgr-process';
import { percentile, runLoad, type LoadTarget } from './load';
import { rssOf, sleep, stop, type Benchmark, type Figure } from './measure';

const MB = 1e6;
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** The tree every row serves: a 2,000-entry folder, a 1 MiB file, a text file and a 400-file tree. */
export async function fixture(root: string): Promise<void> {
  await mkdir(join(root, 'list'), { recursive: true });
  for (let i = 0; i < 2000; i += 250) {
    await Promise.all(Array.from({ length: 250 }, (_, j) => writeFile(join(root, 'list', `entry-${i + j}.txt`), `entry ${i + j}\n`)));
  }
  await writeFile(join(root, 'one.bin'), randomBytes(2 ** 20));
  await writeFile(join(root, 'notes.txt'), 'A line of notes that a text editor opens.\n'.repeat(500));
  for (let folder = 0; folder < 20; folder++) {
    const dir = join(root, 'tree', `folder-${folder}`);
    await mkdir(dir, { recursive: true });
    await Promise.all(Array.from({ length: 20 }, (_, i) => writeFile(join(dir, i % 5 === 0 ? `needle-${i}.txt` : `file-${i}.txt`), `file ${i}\n`)));
  }
}

const auth = (server: RunningFilemgr): Record<string, string> => ({ 'x-auth': server.token });
const searchTarget = (s: RunningFilemgr): LoadTarget => ({ url: `${s.base}/api/search/tree?query=needle`, headers: auth(s) });
const usageTarget = (s: RunningFilemgr): LoadTarget => ({ url: `${s.base}/api/usage/tree`, headers: auth(s) });

async function withServer<T>(root: string, work: (server: RunningFilemgr) => Promise<T>): Promise<T> {
  const server = await startFilemgr(root);
  try {
    return await work(server);
  } finally {
    await server.stop();
  }
}

async function idleRow(root: string, log: (line: string) => void): Promise<Figure> {
  const rss = await withServer(root, async (server) => {
    await sleep(5000);
    return rssOf(server.pid);
  });
  log(`  idle RSS after start: ${mib(rss)}`);
  return { label: 'idle RSS after start', value: rss, unit: 'B', baseline: { label: 'goal', value: 80 * MB } };
}

async function mixedRows(root: string, log: (line: string) => void): Promise<Figure[]> {
  const seconds = envNumber('BENCH_LOAD_SECONDS', 30);
  const clients = envNumber('BENCH_LOAD_CLIENTS', 200);
  return withServer(root, async (server) => {
    const targets: LoadTarget[] = [
      { url: `${server.base}/api/resources/list/`, headers: auth(server) },
      { url: `${server.base}/api/raw/one.bin`, headers: auth(server) },
      { url: `${server.base}/api/resources/notes.txt`, headers: auth(server) },
      searchTarget(server),
      usageTarget(server),
    ];
    const load = await runLoad({ clients, targets, durationMs: seconds * 1000 });
    const peak = await peakRss(server.pid);
    log(`  ${clients} clients, ${seconds} s: ${load.requests} requests (${load.failures} failed), p99 ${percentile(load.latencies, 99).toFixed(0)} ms, peak RSS ${mib(peak)}`);
    const after: number[] = [];
    for (let s = 1; s <= seconds; s++) {
      await sleep(1000);
      after.push(await rssOf(server.pid));
    }
    const settled = after.at(-1) ?? 0;
    const under = after.findIndex((rss) => rss < 150 * MB);
    log(`  RSS after the load: ${after.filter((_, i) => i % 5 === 4).map(mib).join(', ')} (every 5 s); under 150 MB ${under < 0 ? 'never' : `after ${under + 1} s`}`);
    return [
      { label: `peak RSS, ${clients} clients for ${seconds} s, mixed`, value: peak, unit: 'B', baseline: { label: 'goal', value: 300 * MB } },
      { label: `RSS ${seconds} s after that load`, value: settled, unit: 'B', baseline: { label: 'goal', value: 150 * MB } },
    ];
  });
}

async function searchRows(root: string, log: (line: string) => void): Promise<Figure[]> {
  return withServer(root, async (server) => {
    const searches = await runLoad({ clients: 50, targets: [searchTarget(server)], perClient: 1 });
    const afterSearches = await rssOf(server.pid);
    const usages = await runLoad({ clients: 50, targets: [usageTarget(server)], perClient: 1 });
    const afterUsage = await rssOf(server.pid);
    log(`  RSS after 50 searches: ${mib(afterSearches)} (${searches.failures} failed), after 50 usage calls: ${mib(afterUsage)} (${usages.failures} failed)`);
    return [
      { label: 'RSS after 50 concurrent searches', value: afterSearches, unit: 'B', baseline: { label: 'goal', value: 250 * MB } },
      { label: 'RSS after 50 usage calls after them', value: afterUsage, unit: 'B', baseline: { label: 'goal', value: 250 * MB } },
    ];
  });
}

async function tailRow(dir: string, root: string, log: (line: string) => void): Promise<Figure> {
  const rounds = envNumber('BENCH_RUNS', 3);
  ensureNginx(log);
  // nginx's workers run as nobody: the served tree must be world-readable.
  await chmod(dir, 0o755);
  await chmod(root, 0o755);
  await chmod(join(root, 'one.bin'), 0o644);
  await writeFile(join(root, 'index.html'), 'ok');
  const nginx = await startNginx(dir, root);
  try {
    return await withServer(root, async (server) => {
      const ours: number[] = [];
      const theirs: number[] = [];
      const round = async (target: LoadTarget, into: number[], who: string): Promise<void> => {
        const load = await runLoad({ clients: 50, targets: [target], perClient: 10 });
        if (load.failures > 0) throw new Error(`${who}: ${load.failures} of ${load.requests} downloads failed`);
        into.push(...load.latencies);
        log(`  ${who}: p50 ${percentile(load.latencies, 50).toFixed(0)} ms, p99 ${percentile(load.latencies, 99).toFixed(0)} ms`);
      };
      // Interleaved rounds, so that a change in the machine's load hits both servers.
      for (let i = 0; i < rounds; i++) {
        await round({ url: `${nginx.base}/one.bin` }, theirs, 'nginx');
        await round({ url: `${server.base}/api/raw/one.bin`, headers: auth(server) }, ours, 'filemgr');
      }
      const p99 = (xs: number[]): number => percentile([...xs].sort((a, b) => a - b), 99);
      return { label: 'p99, 50 clients downloading 1 MiB', value: p99(ours), unit: 'ms', baseline: { label: 'nginx, same client', value: p99(theirs) } };
    });
  } finally {
    await stop(nginx.child);
  }
}

/** Runs the rows; each prints its progress. */
async function run(log: (line: string) => void): Promise<Figure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-bench-memory-'));
  const root = join(dir, 'root');
  try {
    await fixture(root);
    const rows = (process.env.BENCH_MEMORY_ROWS ?? 'idle,searches,tail,mixed').split(',');
    const figures: Figure[] = [];
    if (rows.includes('idle')) figures.push(await idleRow(root, log));
    if (rows.includes('searches')) figures.push(...(await searchRows(root, log)));
    if (rows.includes('tail')) figures.push(await tailRow(dir, root, log));
    if (rows.includes('mixed')) figures.push(...(await mixedRows(root, log)));
    return figures;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** P2 §3: memory under load, idle memory and download tail latency. */
export const memoryBenchmark: Benchmark = {
  name: 'memory',
  title: 'P2 §3: RSS idle, under mixed load and after searches; download tail latency against nginx',
  run,
};
