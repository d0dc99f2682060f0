// M3 archive benchmark: a folder of many small files downloaded as tar and zip through
// GET /api/raw, against GNU tar and zip -6 writing the same archive into a pipe. The client is
// curl writing to /dev/null, the counterpart of the `| cat > /dev/null` on the GNU side.
// Memory: the server's peak RSS (absolute) archiving the folder as tar then zip, against a fresh
// server's peak archiving a quarter of it; flat memory means the two are about the same.
// BENCH_ARCHIVE_FILES sets the file count (default 20000), BENCH_RUNS the runs (default 3).
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { curlToNull, envNumber, peakRss, startFilemgr, timeShell, type RunningFilemgr } from './filemgr-process';
import { median, type Benchmark, type Figure } from './measure';

const WORDS = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa'.split(' ');

/** Deterministic text of 200 to 8000 bytes: compressible like documents and sources are. */
function textOf(seed: number): string {
  const size = 200 + ((seed * 7919) % 7800);
  let out = '';
  for (let i = 0; out.length < size; i++) out += `${WORDS[(seed + i * 31) % WORDS.length]}${i % 12 === 11 ? '\n' : ' '}`;
  return out.slice(0, size);
}

/** `count` small files in folders of 100 below `dir`. */
function smallFiles(dir: string, count: number): void {
  for (let i = 0; i < count; i++) {
    const folder = join(dir, `folder-${String(Math.floor(i / 100)).padStart(4, '0')}`);
    if (i % 100 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `file-${String(i).padStart(6, '0')}.txt`), textOf(i));
  }
}

interface Pair {
  label: string;
  algo: string;
  gnu: string;
  gnuLabel: string;
}

const PAIRS: readonly Pair[] = [
  { label: 'tar', algo: 'tar', gnu: 'tar -cf - tree | cat > /dev/null', gnuLabel: 'GNU tar into a pipe' },
  { label: 'zip', algo: 'zip', gnu: 'zip -6 -qr - tree | cat > /dev/null', gnuLabel: 'zip -6 into a pipe' },
  { label: 'tar.zst', algo: 'tarzst', gnu: 'tar --zstd -cf - tree | cat > /dev/null', gnuLabel: 'GNU tar --zstd into a pipe' },
];

/** The formats of the memory figure: the two a small machine's users download most. */
const MEMORY_FORMATS = ['tar', 'zip'];

const headersOf = (server: RunningFilemgr): Record<string, string> => ({ 'x-auth': server.token });

async function download(server: RunningFilemgr, folder: string, algo: string): Promise<{ ms: number; bytes: number }> {
  const res = await curlToNull(`${server.base}/api/raw/${folder}?algo=${algo}`, headersOf(server));
  if (res.status !== 200) throw new Error(`/api/raw answered ${res.status}`);
  return res;
}

/** Interleaved runs of one format: the GNU tool, then filemgr, `runs` times. */
async function measurePair(pair: Pair, ctx: { dir: string; server: RunningFilemgr; runs: number; count: number }, log: (line: string) => void): Promise<Figure> {
  // Untimed first passes warm the page cache for both sides.
  await timeShell(pair.gnu, ctx.dir);
  await download(ctx.server, 'tree', pair.algo);
  const gnu: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < ctx.runs; i++) {
    const gnuMs = await timeShell(pair.gnu, ctx.dir);
    const res = await download(ctx.server, 'tree', pair.algo);
    gnu.push(gnuMs);
    ours.push(res.ms);
    log(`  ${pair.label}: ${pair.gnuLabel} ${gnuMs.toFixed(0)} ms, filemgr ${res.ms.toFixed(0)} ms (${(res.bytes / 2 ** 20).toFixed(1)} MiB)`);
  }
  return { label: `${ctx.count} files as ${pair.label} via /api/raw (median)`, value: median(ours), unit: 'ms', baseline: { label: pair.gnuLabel, value: median(gnu) } };
}

/** Peak RSS of a fresh server that archives `folder` once in every format of PAIRS. */
async function peakArchiving(dir: string, folder: string): Promise<number> {
  const server = await startFilemgr(dir);
  try {
    for (const algo of MEMORY_FORMATS) await download(server, folder, algo);
    return await peakRss(server.pid);
  } finally {
    await server.stop();
  }
}

async function memoryFigure(dir: string, count: number, log: (line: string) => void): Promise<Figure> {
  const quarter = await peakArchiving(dir, 'quarter');
  const full = await peakArchiving(dir, 'tree');
  log(`  peak RSS: ${(quarter / 2 ** 20).toFixed(1)} MiB for ${count / 4} files, ${(full / 2 ** 20).toFixed(1)} MiB for ${count}`);
  return { label: `server peak RSS, ${count} files as tar and zip`, value: full, unit: 'B', baseline: { label: `a fresh server's for ${count / 4} files`, value: quarter } };
}

/** Runs the archive benchmark, prints its progress and returns its figures. */
export async function run(log: (line: string) => void = console.log): Promise<Figure[]> {
  const count = envNumber('BENCH_ARCHIVE_FILES', 20_000);
  const runs = envNumber('BENCH_RUNS', 3);
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-bench-archive-'));
  log(`  writing ${count} + ${count / 4} small files`);
  smallFiles(join(dir, 'tree'), count);
  smallFiles(join(dir, 'quarter'), Math.floor(count / 4));
  try {
    const figures: Figure[] = [];
    const server = await startFilemgr(dir);
    try {
      for (const pair of PAIRS) figures.push(await measurePair(pair, { dir, server, runs, count }, log));
    } finally {
      await server.stop();
    }
    figures.push(await memoryFigure(dir, count, log));
    return figures;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** M3: many small files streamed as tar and zip, against GNU tar and zip. */
export const archiveBenchmark: Benchmark = {
  name: 'archive',
  title: 'M3: a folder of small files as tar and zip (GET /api/raw) against GNU tar and zip',
  run,
};
