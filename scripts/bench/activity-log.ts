// Activity log figures (beyond.md §8, issue B5): the cost of one append, and the first page of a
// log of 1,000,000 entries read newest first (the file is read backwards, never whole).
// Run: npx tsx --tsconfig build/tsconfig.json scripts/bench/activity-log.ts [entries]
// Prints figures; asserts nothing.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { completeEntry } from '../../server/activity/entry';
import { createFileActivityLog } from '../../server/activity/file-log';

const USERS = ['admin', 'ann', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace'];
const ACTIONS = ['upload', 'save', 'rename', 'move', 'copy', 'delete', 'create', 'share.use'];

function line(i: number, atMs: number): string {
  return `${JSON.stringify(completeEntry({
    time: new Date(atMs).toISOString(), user: USERS[i % USERS.length], address: `192.0.2.${i % 250}`, action: ACTIONS[(i * 7) % ACTIONS.length] ?? 'save',
    path: `/projects/team-${i % 40}/folder-${i % 997}/document-${i}.txt`, bytes: (i * 7919) % 100000, status: 200,
  }, 0))}\n`;
}

/** A log file of `count` entries spread over the last 80 days, oldest first. */
async function generate(path: string, count: number): Promise<void> {
  const out = createWriteStream(path, { mode: 0o600 });
  const span = 80 * 24 * 60 * 60 * 1000;
  const start = Date.now() - span;
  let batch = '';
  for (let i = 0; i < count; i++) {
    batch += line(i, start + Math.floor((i / count) * span));
    if (batch.length > 1 << 20) {
      if (!out.write(batch)) await once(out, 'drain');
      batch = '';
    }
  }
  out.end(batch);
  await once(out, 'finish');
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 1_000_000);
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-activity-bench-'));
  const path = join(dir, 'filemgr.json.activity.jsonl');
  try {
    const [genMs] = await timed(() => generate(path, count));
    console.log(`generated ${count} entries, ${((await stat(path)).size / 2 ** 20).toFixed(1)} MiB, in ${genMs.toFixed(0)} ms`);
    // Rotation far away: the generated file is bigger than 100 MB, as if written by a bigger limit.
    const log = createFileActivityLog({ path, days: () => 90, maxBytes: 2 ** 40 });
    for (const [name, filters, limit] of [
      ['first page, 100', {}, 100], ['first page, 1000', {}, 1000], ['first page, user=ann, 100', { user: 'ann' }, 100],
      ['first page, action=delete, 1000', { action: 'delete' }, 1000], ['first page, path=team-7/, 100', { path: 'team-7/' }, 100],
    ] as const) {
      const runs: number[] = [];
      for (let r = 0; r < 5; r++) runs.push((await timed(() => log.query(filters, limit)))[0]);
      runs.sort((a, b) => a - b);
      console.log(`${name}: median ${runs[2]?.toFixed(1)} ms (min ${runs[0]?.toFixed(1)}, max ${runs[4]?.toFixed(1)})`);
    }
    const appends = 100_000;
    const entry = completeEntry({ action: 'save', user: 'ann', path: '/a/b/c.txt', bytes: 123, status: 200 }, Date.now());
    const t0 = performance.now();
    for (let i = 0; i < appends; i++) log.append(entry);
    const perAppend = ((performance.now() - t0) / appends) * 1000;
    console.log(`append: ${perAppend.toFixed(2)} µs each (${appends} appends, buffered)`);
    const [flushMs] = await timed(() => log.close());
    console.log(`flush of ${appends} buffered entries at close: ${flushMs.toFixed(0)} ms`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
