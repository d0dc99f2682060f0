// Thumbnails: JPEG photos without embedded thumbnails through GET /api/preview/thumb (a server in
// a child process, --imageProcessors at its default), against libvips' own `vipsthumbnail` (Debian
// libvips-tools) making the same 256x256 centre crops of the same files, in the same run; then the
// latency of a thumbnail answered from the --cacheDir cache. BENCH_THUMBS_COUNT (default 20),
// BENCH_THUMBS_MP (megapixels, default 24), BENCH_RUNS (default 3, medians kept).
// `tsx scripts/bench/thumbs.ts` runs it alone.
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { Agent } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { median, type Benchmark, type Figure } from './measure';
import { call, startBenchServer, type BenchServer } from './upload';

/** Requests in flight at once, as a browser loading a folder of thumbnails (6 per host). */
const CLIENT_CONCURRENCY = 6;
const CACHED_PASSES = 10;

/** A photo-like JPEG of `mp` megapixels (3:2): smooth structure, no EXIF, so no embedded thumbnail. */
async function photo(mp: number): Promise<Buffer> {
  const width = Math.round(Math.sqrt(mp * 1e6 * 1.5));
  const height = Math.round(width / 1.5);
  const seed = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 70 } } }).png().toBuffer();
  return sharp(seed).resize(width, height, { kernel: 'cubic' }).jpeg({ quality: 90 }).toBuffer();
}

async function makePhotos(dir: string, opts: { count: number; mp: number }): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const names: string[] = [];
  for (let i = 0; i < opts.count; i++) {
    const name = `img-${String(i).padStart(2, '0')}.jpg`;
    await writeFile(join(dir, name), await photo(opts.mp));
    names.push(name);
  }
  return names;
}

/** Runs `tasks` with at most `limit` at once. */
async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function thumb(server: BenchServer, agent: Agent, name: string): Promise<void> {
  const res = await call(server, agent, { method: 'GET', path: `/api/preview/thumb/photos/${name}?inline=true`, headers: {} });
  if (res.status !== 200 || res.headers['content-type'] !== 'image/jpeg') throw new Error(`thumbnail of ${name}: status ${res.status}`);
}

/** Milliseconds for the server to make every thumbnail (each file touched first: no cache hit). */
async function serverPass(server: BenchServer, agent: Agent, names: string[]): Promise<number> {
  const when = new Date();
  await Promise.all(names.map((n) => utimes(join(server.root, 'photos', n), when, when)));
  const start = performance.now();
  await pool(names, CLIENT_CONCURRENCY, (n) => thumb(server, agent, n));
  return performance.now() - start;
}

function vipsthumbnail(files: string[], outDir: string): Promise<void> {
  const args = ['--size', '256x256', '--smartcrop', 'centre', '-o', `${outDir}/%s.jpg[Q=85]`, ...files];
  return new Promise((resolve, reject) => {
    spawn('vipsthumbnail', args, { stdio: 'inherit' })
      .on('error', reject)
      .on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vipsthumbnail exited with ${code}`))));
  });
}

/**
 * Milliseconds for vipsthumbnail to make the same thumbnails (256x256, centre crop, JPEG Q85):
 * one process over the whole list (as it is used), or `processes` processes sharing the list
 * (a JPEG decodes on one core, so this is the stricter baseline on a machine with several).
 */
async function vipsPass(files: string[], opts: { outDir: string; processes: number }): Promise<number> {
  const start = performance.now();
  const shares = Array.from({ length: opts.processes }, (_, i) => files.filter((_f, j) => j % opts.processes === i));
  await Promise.all(shares.filter((s) => s.length > 0).map((share) => vipsthumbnail(share, opts.outDir)));
  return performance.now() - start;
}

/** Latencies of thumbnails answered from the disk cache, one request at a time. */
async function cachedLatencies(server: BenchServer, agent: Agent, names: string[]): Promise<number[]> {
  const samples: number[] = [];
  for (let pass = 0; pass < CACHED_PASSES; pass++) {
    for (const name of names) {
      const start = performance.now();
      await thumb(server, agent, name);
      samples.push(performance.now() - start);
    }
  }
  return samples;
}

function requireVips(): void {
  if (spawnSync('vipsthumbnail', ['--version']).status !== 0) {
    throw new Error('vipsthumbnail is missing: apt-get install libvips-tools');
  }
}

/** Thumbnail rate against vipsthumbnail, and the cached thumbnail's median latency. */
export async function run(log: (line: string) => void = console.log): Promise<Figure[]> {
  requireVips();
  const count = Math.max(1, Number(process.env.BENCH_THUMBS_COUNT ?? 20) || 20);
  const mp = Math.max(1, Number(process.env.BENCH_THUMBS_MP ?? 24) || 24);
  const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 3) || 3);
  const work = await mkdtemp(join(tmpdir(), 'filemgr-bench-thumbs-'));
  const server = await startBenchServer({ cacheDir: join(work, 'cache') });
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENT_CONCURRENCY });
  try {
    log(`  making ${count} JPEGs of ${mp} MP`);
    const names = await makePhotos(join(server.root, 'photos'), { count, mp });
    const files = names.map((n) => join(server.root, 'photos', n));
    const ours: number[] = [];
    const vips: number[] = [];
    const vipsCores: number[] = [];
    const rate = (ms: number | undefined) => (count / ((ms ?? 0) / 1000)).toFixed(2);
    for (let i = 1; i <= runs; i++) {
      ours.push(await serverPass(server, agent, names));
      vips.push(await vipsPass(files, { outDir: work, processes: 1 }));
      vipsCores.push(await vipsPass(files, { outDir: work, processes: availableParallelism() }));
      log(`  run ${i}/${runs}: filemgr ${rate(ours.at(-1))}/s, vipsthumbnail ${rate(vips.at(-1))}/s, one per core ${rate(vipsCores.at(-1))}/s`);
    }
    const cached = await cachedLatencies(server, agent, names);
    // Medians of per-run ratios: each run compares the ways within seconds of each other.
    const ratioTo = (base: number[]) => median(ours.map((o, i) => (base[i] ?? 0) / o));
    return report({ count, mp, ours: median(ours), vips: median(vips), ratio: ratioTo(vips), coresRatio: ratioTo(vipsCores), cached }, log);
  } finally {
    agent.destroy();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
}

interface Results {
  count: number;
  mp: number;
  ours: number;
  vips: number;
  ratio: number;
  coresRatio: number;
  cached: number[];
}

function report(r: Results, log: (line: string) => void): Figure[] {
  const rate = (ms: number) => r.count / (ms / 1000);
  const sorted = [...r.cached].sort((a, b) => a - b);
  const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? 0;
  log(`  ${r.count} JPEGs of ${r.mp} MP, thumbnails per second (medians; the ratio is the median of per-run ratios):`);
  log(`    GET /api/preview/thumb   ${rate(r.ours).toFixed(2).padStart(6)}/s  ${r.ratio.toFixed(2)} x vipsthumbnail (${rate(r.vips).toFixed(2)}/s; target >= 0.90)`);
  log(`                                       ${r.coresRatio.toFixed(2)} x vipsthumbnail, one process per core`);
  log(`    cached thumbnail         median ${median(r.cached).toFixed(2)} ms, p95 ${p95.toFixed(2)} ms over ${r.cached.length} requests (target: median < 5 ms)`);
  return [
    { label: `${r.count} thumbnails of ${r.mp} MP JPEGs (time)`, value: r.ours, unit: 'ms', baseline: { label: 'vipsthumbnail on the same files', value: r.vips } },
    { label: 'cached thumbnail (median)', value: median(r.cached), unit: 'ms' },
  ];
}

/** The module as scripts/bench/bench.ts lists benchmarks. */
export const thumbsBenchmark: Benchmark = { name: 'thumbs', title: 'M4: thumbnails against vipsthumbnail, and from the cache', run };

if (process.argv[1] !== undefined && pathToFileURL(process.argv[1]).href === import.meta.url) {
  run().catch((err: unknown) => {
    console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  });
}
