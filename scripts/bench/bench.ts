// `npm run bench [name...]`: runs the benchmark modules (all by default) and prints their figures,
// each with its ratio to a baseline measured in the same run. Benchmarks print; they never assert.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { activityBenchmark } from './activity-log';
import { archiveBenchmark } from './archive';
import { clusterBenchmark } from './cluster';
import { davBenchmark } from './dav';
import { browserUploadBenchmark } from './browser-upload';
import { downloadBenchmark } from './download';
import { extractBenchmark } from './extract';
import { filesScreenBenchmark } from './files-screen';
import { indexMemoryBenchmark } from './index-memory';
import { linksBenchmark } from './links';
import { listingBenchmark } from './listing';
import { m1Benchmark } from './m1-executable';
import { memoryBenchmark } from './memory';
import type { Benchmark, Figure } from './measure';
import { previewBenchmark } from './preview';
import { quotaBenchmark } from './quota';
import { searchBenchmark } from './search';
import { searchIndexBenchmark } from './search-index';
import { thumbsBenchmark } from './thumbs';
import { tokensBenchmark } from './tokens';
import { trashBenchmark } from './trash';
import { uploadBenchmark } from './upload';
import { webLoadBenchmark } from './web-load';

/** Every benchmark; add a module and list it here. */
const BENCHMARKS: readonly Benchmark[] = [
  m1Benchmark,
  listingBenchmark,
  downloadBenchmark,
  archiveBenchmark,
  searchBenchmark,
  searchIndexBenchmark,
  uploadBenchmark,
  thumbsBenchmark,
  filesScreenBenchmark,
  browserUploadBenchmark,
  previewBenchmark,
  webLoadBenchmark,
  memoryBenchmark,
  trashBenchmark,
  davBenchmark,
  clusterBenchmark,
  quotaBenchmark,
  indexMemoryBenchmark,
  extractBenchmark,
  tokensBenchmark,
  linksBenchmark,
  activityBenchmark,
];

function format(value: number, unit: Figure['unit']): string {
  // Below 10 ms two decimals, below 0.1 ms two significant digits (per-request and per-entry costs).
  if (unit === 'ms') return `${value >= 10 ? value.toFixed(0) : value >= 0.1 ? value.toFixed(2) : value.toPrecision(2)} ms`;
  if (value >= 2 ** 20) return `${(value / 2 ** 20).toFixed(1)} MiB`;
  if (value >= 1024) return `${(value / 1024).toFixed(1)} KiB`;
  return `${value} B`;
}

function line(f: Figure): string {
  const head = `  ${f.label.padEnd(44)} ${format(f.value, f.unit).padStart(10)}`;
  if (!f.baseline) return head;
  const r = f.value / f.baseline.value;
  // Two decimals, or two significant digits below 0.01 (a cost far under its goal).
  const ratio = f.baseline.value > 0 ? r.toFixed(r > 0 && r < 0.01 ? Math.min(20, 1 - Math.floor(Math.log10(r))) : 2) : 'n/a';
  return `${head}   ${ratio} x ${f.baseline.label} (${format(f.baseline.value, f.unit)})`;
}

async function main(names: string[]): Promise<number> {
  const unknown = names.filter((n) => !BENCHMARKS.some((b) => b.name === n));
  if (unknown.length > 0) {
    console.error(`bench: unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.name).join(', ')}`);
    return 2;
  }
  if (!existsSync(fileURLToPath(new URL('../../dist/filemgr', import.meta.url)))) {
    console.error('bench: dist/filemgr is missing: run npm run build first');
    return 1;
  }
  for (const bench of BENCHMARKS.filter((b) => names.length === 0 || names.includes(b.name))) {
    console.log(bench.title);
    const figures = await bench.run((l) => console.log(l));
    console.log(figures.map(line).join('\n'));
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  return 1;
});
