// B4's index rows (beyond.md §7): a generated tree of BENCH_INDEX_FOLDERS folders (default 1,000)
// of BENCH_INDEX_FILES empty files (default 1,000), made once into a temp folder and removed after.
//   build:   from the spawn of dist/filemgr to a search answered from the index (the server logs
//            "search index built", then a miss is asked; its answer ends the time);
//   queries: the first result of a query with one hit per folder, and a query matching nothing,
//            medians of BENCH_RUNS (default 5); the walk's figures (--indexInterval 0) are logged;
//   memory:  server RSS sampled every 100 ms while it builds, and 5 s after the queries, each
//            less the RSS of the same server on the same tree without an index (settled 5 s);
//   disk:    the index's files in the cache folder, per million entries.
// Each row's baseline is its goal in issue B4 / beyond.md §7.
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { envNumber, fetchToNull, startFilemgr, type RunningFilemgr } from './filemgr-process';
import { median, rssOf, sleep, type Benchmark, type Figure } from './measure';

const HIT = 'needle';
const MISS = 'nothing-is-called-this';
const MB = 1e6;
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const pad = (n: number): string => String(n).padStart(4, '0');

/** `folders` folders of `files` empty files; the middle file of each folder holds the hit term. */
function makeTree(root: string, folders: number, files: number): number {
  for (let f = 0; f < folders; f++) {
    const dir = join(root, `folder-${pad(f)}`);
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < files; i++) {
      const name = i === Math.floor(files / 2) ? `${HIT}-${pad(f)}.txt` : `document-${pad(f)}-${pad(i)}.txt`;
      closeSync(openSync(join(dir, name), 'w'));
    }
  }
  return folders * (files + 1);
}

/** Milliseconds to the first result line of a search, and the number of results. */
function firstResult(server: RunningFilemgr, query: string): Promise<{ first: number; hits: number; ms: number }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const url = `${server.base}/api/search/?query=${encodeURIComponent(query)}`;
    request(url, { headers: { 'x-auth': server.token }, agent: false }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`/api/search answered ${res.statusCode}`));
      let first = -1;
      let hits = 0;
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        // A result is a JSON line; the heartbeat is an empty line.
        const found = (text.match(/\{/g) ?? []).length;
        if (found > 0 && first < 0) first = performance.now() - start;
        hits += found;
      });
      res.on('end', () => resolve({ first, hits, ms: performance.now() - start }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** Samples a process's RSS now and every 100 ms until stopped (a last sample then); the highest sample. */
function sampleRss(pid: number): { stop: () => Promise<number> } {
  let peak = 0;
  const sample = (): Promise<void> => rssOf(pid).then((rss) => void (peak = Math.max(peak, rss)), () => undefined);
  void sample();
  const timer = setInterval(() => void sample(), 100);
  return {
    stop: async () => {
      clearInterval(timer);
      await sample();
      return peak;
    },
  };
}

/** The bytes of every file below `dir`. */
async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

interface Walked {
  rss: number;
}

/** The same server without an index: its settled RSS (the baseline of the memory rows) and the walk's times. */
async function withoutIndex(root: string, log: (line: string) => void): Promise<Walked> {
  const server = await startFilemgr(root, { args: ['--indexInterval', '0'] });
  try {
    await sleep(5000);
    const rss = await rssOf(server.pid);
    const hit = await firstResult(server, HIT);
    const miss = await fetchToNull(`${server.base}/api/search/?query=${MISS}`, { 'x-auth': server.token });
    log(`  without an index: RSS ${mib(rss)}; the walk's first of ${hit.hits} results ${hit.first.toFixed(0)} ms (all ${hit.ms.toFixed(0)} ms), a miss ${miss.ms.toFixed(0)} ms`);
    return { rss };
  } finally {
    await server.stop();
  }
}

interface Built {
  server: RunningFilemgr;
  /** From the spawn to a search answered from the index. */
  ms: number;
  entries: number;
  peakRss: number;
}

/** Starts the server with an index in `cache` and waits for its log to say the index is built. */
async function startIndexed(root: string, cache: string): Promise<Built> {
  let logged = '';
  let built: (line: string) => void = () => undefined;
  const done = new Promise<string>((resolve) => (built = resolve));
  const onLog = (text: string): void => {
    logged = (logged + text).slice(-4096);
    const line = /search index (built: [^"]*|not built[^"]*)/.exec(logged)?.[0];
    if (line) built(line);
  };
  const start = performance.now();
  const server = await startFilemgr(root, { args: ['--cacheDir', cache], stdout: onLog });
  const sampler = sampleRss(server.pid);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('search index: no build within 10 minutes'), 600_000)));
  const line = await Promise.race([done, late]);
  clearTimeout(timer);
  const peakRss = await sampler.stop();
  const entries = Number(/built: (\d+) entries/.exec(line)?.[1]);
  if (!Number.isFinite(entries)) {
    await server.stop();
    throw new Error(line);
  }
  const miss = await fetchToNull(`${server.base}/api/search/?query=${MISS}`, { 'x-auth': server.token });
  if (miss.status !== 200 || miss.bytes !== 0) throw new Error(`a miss answered ${miss.status} with ${miss.bytes} bytes`);
  return { server, ms: performance.now() - start, entries, peakRss };
}

/** The query rows: medians over `runs` of the first result of the hit query and of a whole miss. */
async function queryRows(server: RunningFilemgr, folders: number, log: (line: string) => void): Promise<{ first: number; miss: number }> {
  const runs = envNumber('BENCH_RUNS', 5);
  const firsts: number[] = [];
  const misses: number[] = [];
  for (let i = 0; i < runs; i++) {
    const hit = await firstResult(server, HIT);
    if (hit.hits !== folders) throw new Error(`"${HIT}" found ${hit.hits} results, expected ${folders}`);
    const miss = await fetchToNull(`${server.base}/api/search/?query=${MISS}`, { 'x-auth': server.token });
    firsts.push(hit.first);
    misses.push(miss.ms);
    log(`  from the index: first of ${hit.hits} results ${hit.first.toFixed(1)} ms (all ${hit.ms.toFixed(0)} ms), a miss ${miss.ms.toFixed(1)} ms`);
  }
  return { first: median(firsts), miss: median(misses) };
}

async function indexRows({ root, cache, base }: { root: string; cache: string; base: Walked }, log: (line: string) => void): Promise<Figure[]> {
  const folders = envNumber('BENCH_INDEX_FOLDERS', 1000);
  const built = await startIndexed(root, cache);
  try {
    log(`  index built: ${built.entries} entries, searched from it ${(built.ms / 1000).toFixed(1)} s after the start; peak RSS sampled ${mib(built.peakRss)}`);
    const { first, miss } = await queryRows(built.server, folders, log);
    await sleep(5000);
    const settled = await rssOf(built.server.pid);
    const bytes = await sizeOf(join(cache, 'index'));
    log(`  RSS once built ${mib(settled)}; index files ${mib(bytes)}`);
    const perMillion = (bytes * 1e6) / built.entries;
    const m = `${(built.entries / 1e6).toFixed(2)}M`;
    return [
      { label: `index ${m} entries: start to searched from it`, value: built.ms, unit: 'ms', baseline: { label: 'goal', value: 15_000 } },
      { label: 'index: RSS added while building', value: built.peakRss - base.rss, unit: 'B', baseline: { label: 'goal', value: 32 * MB } },
      { label: 'index: RSS added once built', value: settled - base.rss, unit: 'B', baseline: { label: 'goal', value: 16 * MB } },
      { label: `index: first result of ${folders} hits (median)`, value: first, unit: 'ms', baseline: { label: 'goal', value: 50 } },
      { label: 'index: a query matching nothing (median)', value: miss, unit: 'ms', baseline: { label: 'goal', value: 100 } },
      { label: 'index: on disk per million entries', value: perMillion, unit: 'B', baseline: { label: 'goal', value: 80 * MB } },
    ];
  } finally {
    await built.server.stop();
  }
}

/** Makes the tree, measures without and with the index, removes everything. */
async function run(log: (line: string) => void): Promise<Figure[]> {
  const folders = envNumber('BENCH_INDEX_FOLDERS', 1000);
  const files = envNumber('BENCH_INDEX_FILES', 1000);
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-bench-index-'));
  try {
    const root = join(dir, 'root');
    log(`  creating ${folders} folders of ${files} files`);
    const made = performance.now();
    const entries = makeTree(root, folders, files);
    log(`  ${entries} entries made in ${((performance.now() - made) / 1000).toFixed(1)} s`);
    const base = await withoutIndex(root, log);
    return await indexRows({ root, cache: join(dir, 'cache'), base }, log);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** B4: the search index over a million entries. */
export const searchIndexBenchmark: Benchmark = {
  name: 'search-index',
  title: 'B4: search index over 1,000 folders of 1,000 files (build, queries, RSS, disk) against its goals',
  run,
};
