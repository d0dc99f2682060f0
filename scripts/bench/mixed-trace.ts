// Diagnostic (not a bench module): the memory bench's mixed load (P2 §3) with the server's RSS
// sampled every 100 ms, to see how a peak builds. Usage: npx tsx --tsconfig build/tsconfig.json
// scripts/bench/mixed-trace.ts [runs]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { peakRss, startFilemgr } from './filemgr-process';
import { runLoad } from './load';
import { fixture } from './memory';
import { rssOf } from './measure';

const dir = await mkdtemp(join(tmpdir(), 'filemgr-mixed-'));
const root = join(dir, 'root');
await fixture(root);
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
