// M3 search benchmark: GET /api/search over a large tree against `find <root> -iname '*term*'`.
// BENCH_SEARCH_ENTRIES sets the tree size (default 200000), BENCH_RUNS the runs (default 3).
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { envNumber, fetchToNull, startFilemgr } from './filemgr-process';
import { median, type Benchmark, type Figure } from './measure';

const TERM = 'needle';
const PER_FOLDER = 200;

/** A tree of `entries` entries: folders of 199 empty files, about 1 name in 50 holding the term. */
function bigTree(root: string, entries: number): void {
  let made = 0;
  for (let folder = 0; made < entries; folder++) {
    const dir = join(root, `group-${folder % 20}`, `folder-${String(folder).padStart(5, '0')}`);
    mkdirSync(dir, { recursive: true });
    made++;
    for (let i = 1; i < PER_FOLDER && made < entries; i++, made++) {
      const name = i % 50 === 0 ? `report-${TERM.toUpperCase()}-${i}.txt` : `file-${folder}-${i}.dat`;
      closeSync(openSync(join(dir, name), 'w'));
    }
  }
}

/** find's time and match count, its output read through a pipe like the HTTP body is. */
function timeFind(root: string): Promise<{ ms: number; matches: number }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('find', [root, '-iname', `*${TERM}*`], { stdio: ['ignore', 'pipe', 'ignore'] });
    let lines = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      for (const byte of chunk) if (byte === 10) lines++;
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve({ ms: performance.now() - start, matches: lines }) : reject(new Error(`find exited with ${code}`))));
  });
}

/** Runs the search benchmark, prints its progress and returns its figures. */
export async function run(log: (line: string) => void = console.log): Promise<Figure[]> {
  const entries = envNumber('BENCH_SEARCH_ENTRIES', 200_000);
  const runs = envNumber('BENCH_RUNS', 3);
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-bench-search-'));
  log(`  creating a tree of ${entries} entries`);
  bigTree(join(dir, 'root'), entries);
  const filemgr = await startFilemgr(join(dir, 'root'));
  try {
    const url = `${filemgr.base}/api/search/?query=${TERM}`;
    const headers = { 'x-auth': filemgr.token };
    await timeFind(join(dir, 'root'));
    await fetchToNull(url, headers);
    const finds: number[] = [];
    const ours: number[] = [];
    for (let i = 0; i < runs; i++) {
      const found = await timeFind(join(dir, 'root'));
      const res = await fetchToNull(url, headers);
      if (res.status !== 200) throw new Error(`/api/search answered ${res.status}`);
      finds.push(found.ms);
      ours.push(res.ms);
      log(`  find ${found.ms.toFixed(0)} ms (${found.matches} matches), filemgr ${res.ms.toFixed(0)} ms (${res.bytes} bytes)`);
    }
    return [{ label: `search ${entries} entries via /api/search (median)`, value: median(ours), unit: 'ms', baseline: { label: `find -iname '*${TERM}*'`, value: median(finds) } }];
  } finally {
    await filemgr.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** M3: streaming search over a large tree, against find. */
export const searchBenchmark: Benchmark = {
  name: 'search',
  title: 'M3: search over a large tree (GET /api/search) against find',
  run,
};
