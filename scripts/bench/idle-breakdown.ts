// Diagnostic (not a bench module): where an idle server's RSS lives. Starts dist/filemgr on a
// small root, waits 5 s after its first answer, then prints /proc/<pid>/smaps by mapping: the
// executable's segments (with their file offsets), other files, the heap and anonymous memory.
// Usage: npx tsx --tsconfig build/tsconfig.json scripts/bench/idle-breakdown.ts [runs]
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFilemgr } from './filemgr-process';
import { sleep } from './measure';

interface Mapping {
  range: string;
  perms: string;
  offset: string;
  path: string;
  rss: number;
}

async function mappings(pid: number): Promise<Mapping[]> {
  const smaps = await readFile(`/proc/${pid}/smaps`, 'utf8');
  const out: Mapping[] = [];
  for (const line of smaps.split('\n')) {
    const head = /^([0-9a-f]+-[0-9a-f]+) (\S+) ([0-9a-f]+) \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      out.push({ range: head[1] ?? '', perms: head[2] ?? '', offset: head[3] ?? '', path: head[4] || '[anon]', rss: 0 });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    const last = out.at(-1);
    if (rss && last) last.rss += Number(rss[1]);
  }
  return out;
}

const runs = Number(process.argv[2] ?? 3);
const dir = await mkdtemp(join(tmpdir(), 'filemgr-idle-'));
await writeFile(join(dir, 'a.txt'), 'a\n');
try {
  for (let i = 0; i < runs; i++) {
    const server = await startFilemgr(dir);
    await sleep(5000);
    const maps = await mappings(server.pid);
    const status = await readFile(`/proc/${server.pid}/status`, 'utf8');
    const field = (name: string): string => new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? '?';
    console.log(`run ${i}: VmRSS ${field('VmRSS')} kB, anon ${field('RssAnon')}, file ${field('RssFile')}`);
    const anon = maps.filter((m) => m.path === '[anon]').reduce((s, m) => s + m.rss, 0);
    console.log(`   anonymous mappings: ${anon} kB in ${maps.filter((m) => m.path === '[anon]').length}`);
    for (const m of maps.filter((m) => m.rss >= 100 && m.path !== '[anon]')) console.log(`   ${String(m.rss).padStart(7)} kB  ${m.perms} @${m.offset} ${m.range} ${m.path}`);
    for (const m of maps.filter((m) => m.rss >= 1000 && m.path === '[anon]')) console.log(`   ${String(m.rss).padStart(7)} kB  ${m.perms} ${m.range} anon`);
    await server.stop();
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
