// B5 archive extraction (beyond.md §5), against the built executable: a zip of ~1 GiB extracted by
// PATCH /api/resources/<zip>?action=extract&destination=<folder>, against `unzip -q` of the same
// zip into an empty folder on the same disk. The zip is made by Debian's `zip -r` at its default
// level (deflate -6) from generated files: half the bytes in 4 large files, half in small files of
// 4 to 60 KiB, all pseudo-random words (compressible about 3:1, as text is, but not trivially:
// no repeat is close enough for deflate's 32 KiB window). Runs alternate the two sides; each
// output is removed and the disk synced (untimed) before the next run. filemgr makes every file durable (fsync) before it
// answers; unzip does not: the goal leaves room for that. Each run also logs `unzip -q` followed by
// `sync` (the data on disk once, at the end, not file by file), which is no row.
// Row: filemgr's time, baseline unzip -q's time (goal <= 1.25x the time, i.e. >= 0.8x the speed).
// The server's peak RSS over all runs is logged. BENCH_EXTRACT_MB (default 1024) sets the size,
// BENCH_RUNS (default 3) the runs of each side (median kept).
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envNumber, peakRss, startFilemgr, timeShell, type RunningFilemgr } from './filemgr-process';
import { expectAsk } from './http-call';
import { median, type Benchmark, type Figure } from './measure';

const MiB = 2 ** 20;
const POOL_BYTES = 16 * MiB;
const LARGE_FILES = 4;

/** A small deterministic PRNG (xorshift32): the same files every run. */
function prng(seed: number): () => number {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** 16 MiB of text: words of a 2,000-word made-up vocabulary drawn at random, in lines. */
function textPool(): Buffer {
  const rand = prng(7);
  const letters = 'etaoinshrdlucmfwypvbgkqjxz';
  const words = Array.from({ length: 2000 }, () => Array.from({ length: 2 + Math.floor(rand() * 9) }, () => letters[Math.floor(rand() ** 2 * 26)]).join(''));
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < POOL_BYTES; i++) {
    const word = `${words[Math.floor(rand() ** 1.5 * words.length)]}${i % 14 === 13 ? '\n' : ' '}`;
    parts.push(word);
    size += word.length;
  }
  return Buffer.from(parts.join('')).subarray(0, POOL_BYTES);
}

/** `size` bytes of the pool taken in pieces of 4 to 68 KiB at random places. */
function fileBytes(pool: Buffer, size: number, rand: () => number): Buffer {
  const out = Buffer.allocUnsafe(size);
  for (let at = 0; at < size; ) {
    const n = Math.min(size - at, 4096 + Math.floor(rand() * 64 * 1024));
    const from = Math.floor(rand() * (pool.length - n));
    at += pool.copy(out, at, from, from + n);
  }
  return out;
}

/** The tree to zip: half of `total` in 4 large files, half in small files in folders of 200. */
async function makeTree(dir: string, total: number): Promise<number> {
  const pool = textPool();
  const rand = prng(11);
  await mkdir(join(dir, 'large'), { recursive: true });
  for (let i = 0; i < LARGE_FILES; i++) await writeFile(join(dir, 'large', `big-${i}.txt`), fileBytes(pool, Math.floor(total / 2 / LARGE_FILES), rand));
  let count = 0;
  for (let written = 0; written < total / 2; count++) {
    const folder = join(dir, 'small', `folder-${String(Math.floor(count / 200)).padStart(3, '0')}`);
    if (count % 200 === 0) await mkdir(folder, { recursive: true });
    const size = 4096 + Math.floor(rand() * 56 * 1024);
    await writeFile(join(folder, `doc-${count}.txt`), fileBytes(pool, size, rand));
    written += size;
  }
  return LARGE_FILES + count;
}

async function extractOnce(server: RunningFilemgr, dest: string): Promise<number> {
  const url = `${server.base}/api/resources/bench.zip?action=extract&destination=${encodeURIComponent(`/${dest}`)}`;
  return (await expectAsk({ method: 'PATCH', url, headers: { 'x-auth': server.token } }, 200)).ms;
}

/**
 * One timed side, then its output removed and the disk synced (untimed): what unzip leaves in the
 * page cache is not written back during filemgr's run, whose fsyncs would wait for it.
 */
async function side(measure: () => Promise<number>, output: string): Promise<number> {
  const ms = await measure();
  await rm(output, { recursive: true, force: true });
  await timeShell('sync', tmpdir());
  return ms;
}

async function run(log: (line: string) => void): Promise<Figure[]> {
  const total = envNumber('BENCH_EXTRACT_MB', 1024) * MiB;
  const runs = envNumber('BENCH_RUNS', 3);
  const root = await mkdtemp(join(tmpdir(), 'filemgr-bench-extract-'));
  try {
    log(`  writing ${(total / MiB).toFixed(0)} MiB of files and zipping them (zip -r, default deflate -6)...`);
    const files = await makeTree(join(root, 'src'), total);
    const zipMs = await timeShell('zip -qr ../bench.zip .', join(root, 'src'));
    await rm(join(root, 'src'), { recursive: true, force: true });
    await timeShell('sync', root);
    const zipBytes = (await stat(join(root, 'bench.zip'))).size;
    log(`  ${files} files, zip of ${(zipBytes / MiB).toFixed(0)} MiB made in ${(zipMs / 1000).toFixed(1)} s`);
    const server = await startFilemgr(root);
    try {
      const ours: number[] = [];
      const unzip: number[] = [];
      for (let i = 0; i < runs; i++) {
        const unzipMs = await side(() => timeShell('mkdir unzip-out && unzip -q bench.zip -d unzip-out', root), join(root, 'unzip-out'));
        const oursMs = await side(() => extractOnce(server, 'extract-out'), join(root, 'extract-out'));
        const syncedMs = await side(() => timeShell('mkdir unzip-out && unzip -q bench.zip -d unzip-out && sync', root), join(root, 'unzip-out'));
        unzip.push(unzipMs);
        ours.push(oursMs);
        log(`  run ${i + 1}/${runs}: unzip -q ${(unzipMs / 1000).toFixed(1)} s, filemgr ${(oursMs / 1000).toFixed(1)} s (${(oursMs / unzipMs).toFixed(2)} x); unzip -q then sync ${(syncedMs / 1000).toFixed(1)} s`);
      }
      log(`  server peak RSS over the runs: ${((await peakRss(server.pid)) / MiB).toFixed(1)} MiB`);
      const label = `extract ${(total / MiB).toFixed(0)} MiB zip (time; goal <= 1.25x)`;
      return [{ label, value: median(ours), unit: 'ms', baseline: { label: 'unzip -q', value: median(unzip) } }];
    } finally {
      await server.stop();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** B5: extraction of a 1 GiB zip against unzip. */
export const extractBenchmark: Benchmark = {
  name: 'extract',
  title: 'B5 archive extraction (built executable): a 1 GiB zip via PATCH ?action=extract against unzip -q',
  run,
};
