// The B5 recycle bin benchmark, against the built executable: DELETE /api/resources of a folder of
// 100,000 files while the trash is on (one rename into <root>/.filemgr-trash), against the 100 ms
// budget of the issue, then its restore. Size: BENCH_TRASH_FILES (default 100000, in folders of
// 1,000); BENCH_RUNS delete+restore rounds (default 3, median kept).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { envNumber, startFilemgr, type RunningFilemgr } from './filemgr-process';
import { median, type Benchmark, type Figure } from './measure';

const BUDGET_MS = 100;

async function makeFolder(dir: string, count: number): Promise<void> {
  for (let d = 0; d * 1000 < count; d++) {
    const sub = join(dir, `d${d}`);
    await mkdir(sub, { recursive: true });
    const n = Math.min(1000, count - d * 1000);
    await Promise.all(Array.from({ length: n }, (_, i) => writeFile(join(sub, `f${i}.txt`), 'x')));
  }
}

async function timed(server: RunningFilemgr, method: string, path: string): Promise<{ ms: number; body: string }> {
  const start = performance.now();
  const res = await fetch(`${server.base}${path}`, { method, headers: { 'x-auth': server.token } });
  const body = await res.text();
  const ms = performance.now() - start;
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}`);
  return { ms, body };
}

/** One round: delete into the trash, then restore from it; the two times. */
async function round(server: RunningFilemgr): Promise<[number, number]> {
  const deleted = await timed(server, 'DELETE', '/api/resources/huge');
  const [item] = JSON.parse((await timed(server, 'GET', '/api/trash')).body) as { id: string }[];
  if (!item) throw new Error('the deleted folder is not in the trash');
  const restored = await timed(server, 'POST', `/api/trash/${item.id}/restore`);
  return [deleted.ms, restored.ms];
}

async function run(log: (line: string) => void): Promise<Figure[]> {
  const files = envNumber('BENCH_TRASH_FILES', 100_000);
  const runs = envNumber('BENCH_RUNS', 3);
  const root = await mkdtemp(join(tmpdir(), 'filemgr-bench-trash-'));
  try {
    log(`  creating ${files} files...`);
    await makeFolder(join(root, 'huge'), files);
    const server = await startFilemgr(root);
    try {
      const deletes: number[] = [];
      const restores: number[] = [];
      for (let i = 0; i < runs; i++) {
        const [d, r] = await round(server);
        deletes.push(d);
        restores.push(r);
      }
      return [
        { label: `delete ${files} files into the trash`, value: median(deletes), unit: 'ms', baseline: { label: 'budget', value: BUDGET_MS } },
        { label: `restore ${files} files from the trash`, value: median(restores), unit: 'ms' },
      ];
    } finally {
      await server.stop();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export const trashBenchmark: Benchmark = {
  name: 'trash',
  title: 'B5 recycle bin (built executable): delete of a 100,000-file folder into the trash, against 100 ms',
  run,
};
