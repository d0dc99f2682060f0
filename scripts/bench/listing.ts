// The M3 listing benchmark: GET /api/resources of a folder of 10,000 files against Node's own
// readdir + stat of the same folder (same run), and the server's memory growth while it lists
// 100,000 files against the 300 MB budget. Runs the app from source on a real socket.
// Sizes: BENCH_LISTING_FILES (default 10000), BENCH_LISTING_HUGE (default 100000).
import { readdir, stat, writeFile, mkdir, readFile } from 'node:fs/promises';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildTestApp } from '../../tests/support/test-app';
import { median, type Benchmark, type Figure } from './measure';

const RUNS = 7;
const BUDGET = 300 * 2 ** 20;

function sizeFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw ? Number(raw) : fallback;
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return n;
}

async function makeFolder(dir: string, count: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  const names = Array.from({ length: count }, (_, i) => `file-${i}.${['txt', 'jpg', 'mp4', 'bin', 'md'][i % 5] ?? 'txt'}`);
  for (let i = 0; i < names.length; i += 256) {
    await Promise.all(names.slice(i, i + 256).map((n) => writeFile(join(dir, n), 'x'.repeat(64))));
  }
}

/** GETs a URL and throws the body away as it arrives; resolves with the milliseconds taken. */
function timedGet(url: string, token: string): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'x-auth': token }, agent: false }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - start) : reject(new Error(`GET ${url} answered ${res.statusCode}`))));
    })
      .on('error', reject)
      .end();
  });
}

/** Node's own work for the same folder: readdir, then lstat every entry. */
async function readdirAndStat(dir: string): Promise<number> {
  const start = performance.now();
  const names = await readdir(dir);
  await Promise.all(names.map((n) => stat(join(dir, n))));
  return performance.now() - start;
}

async function rssField(field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile('/proc/self/status', 'utf8');
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? 0) * 1024;
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

async function run(log: (line: string) => void): Promise<Figure[]> {
  const files = sizeFromEnv('BENCH_LISTING_FILES', 10_000);
  const huge = sizeFromEnv('BENCH_LISTING_HUGE', 100_000);
  const t = await buildTestApp({ config: { typeDetectionByHeader: true } });
  try {
    log(`  creating ${files} and ${huge} files...`);
    await makeFolder(join(t.root, 'big'), files);
    await makeFolder(join(t.root, 'huge'), huge);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const token = t.token();
    await timedGet(`${base}/api/resources/big`, token);
    const [server, node] = await interleaved(RUNS, () => timedGet(`${base}/api/resources/big`, token), () => readdirAndStat(join(t.root, 'big')));
    const before = await rssField('VmRSS');
    const hugeMs = await timedGet(`${base}/api/resources/huge`, token);
    const growth = Math.max(0, (await rssField('VmHWM')) - before);
    return [
      { label: `list ${files} files (GET /api/resources)`, value: server, unit: 'ms', baseline: { label: 'readdir + stat', value: node } },
      { label: `list ${huge} files`, value: hugeMs, unit: 'ms' },
      { label: `memory growth listing ${huge} files`, value: growth, unit: 'B', baseline: { label: 'budget', value: BUDGET } },
    ];
  } finally {
    await t.close();
  }
}

export const listingBenchmark: Benchmark = {
  name: 'listing',
  title: 'M3 listing: folder listings against readdir + stat, memory against the 300 MB budget',
  run,
};
