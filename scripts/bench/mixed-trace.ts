// Diagnostic (not a bench module): the memory bench's mixed load (P2 §3) with the server's RSS
// sampled every 100 ms, to see how a peak builds. Usage: npx tsx --tsconfig build/tsconfig.json
// scripts/bench/mixed-trace.ts [runs]
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { peakRss, startFilemgr } from './filemgr-process';
import { runLoad } from './load';
import { rssOf } from './measure';

const dir = await mkdtemp(join(tmpdir(), 'filemgr-mixed-'));
const root = join(dir, 'root');
await mkdir(join(root, 'list'), { recursive: true });
for (let i = 0; i < 2000; i += 250) await Promise.all(Array.from({ length: 250 }, (_, j) => writeFile(join(root, 'list', `entry-${i + j}.txt`), `entry ${i + j}\n`)));
await writeFile(join(root, 'one.bin'), randomBytes(2 ** 20));
await writeFile(join(root, 'notes.txt'), 'A line of notes that a text editor opens.\n'.repeat(500));
for (let folder = 0; folder < 20; folder++) {
  const sub = join(root, 'tree', `folder-${folder}`);
  await mkdir(sub, { recursive: true });
  await Promise.all(Array.from({ length: 20 }, (_, i) => writeFile(join(sub, i % 5 === 0 ? `needle-${i}.txt` : `file-${i}.txt`), `file ${i}\n`)));
}
const runs = Number(process.argv[2] ?? 3);
for (let run = 0; run < runs; run++) {
  let loadStart = 0;
  const notes: string[] = [];
  const server = await startFilemgr(root, {
    stdout: (text) => {
      for (const m of text.matchAll(/search index built: [^"]*/g)) notes.push(`${m[0]} at ${loadStart ? ((performance.now() - loadStart) / 1000).toFixed(1) : 'start +0'} s`);
    },
  });
  loadStart = performance.now();
  const headers = { 'x-auth': server.token };
  const samples: number[] = [];
  const timer = setInterval(() => void rssOf(server.pid).then((r) => samples.push(Math.round(r / 2 ** 20))), 100);
  const names = ['list', 'raw', 'text', 'search', 'usage'];
  const load = await runLoad({
    clients: 200,
    durationMs: 30_000,
    targets: [`/api/resources/list/`, `/api/raw/one.bin`, `/api/resources/notes.txt`, `/api/search/tree?query=needle`, `/api/usage/tree`].map((p) => ({ url: `${server.base}${p}`, headers })),
  });
  clearInterval(timer);
  const peak = await peakRss(server.pid);
  console.log(`run ${run}: ${load.requests} requests, peak ${(peak / 2 ** 20).toFixed(1)} MiB; ${names.join(',')}`);
  console.log(`  ${notes.join('; ')}`);
  console.log(`  RSS MiB every 0.5 s: ${samples.filter((_, i) => i % 5 === 0).join(' ')}`);
  await server.stop();
}
await rm(dir, { recursive: true, force: true });
