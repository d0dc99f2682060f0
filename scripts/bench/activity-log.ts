// B5 activity log (beyond.md §8), in this process on the server's own file log (the one beside the
// JSON database): the cost of recording one entry, and the first page of a log of 1,000,000
// entries read newest first (the file is read backwards, never whole). Rows, each against its goal:
// - append: the time of BENCH_ACTIVITY_APPENDS appends (default 100,000; buffered in memory) plus
//   the flush of all of them to the file at close, per entry; goal < 1 ms.
// - first page: GET /api/activity's query with its default page (100 newest) and with a filter
//   (user=ann, 100), median of 5 each; goal < 200 ms. Three more queries are logged.
// The log is generated first (entries spread over 80 days, oldest first; BENCH_ACTIVITY_ENTRIES,
// default 1,000,000). There is no setting that turns the activity log off, so the cost an entry adds
// to a real request (a rename with the log on against off) is not measured.
// `tsx scripts/bench/activity-log.ts` runs it alone.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { completeEntry, type ActivityLog } from '../../server/activity/entry';
import { createFileActivityLog } from '../../server/activity/file-log';
import { envNumber } from './filemgr-process';
import { median, type Benchmark, type Figure } from './measure';

const USERS = ['admin', 'ann', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace'];
const ACTIONS = ['upload', 'save', 'rename', 'move', 'copy', 'delete', 'create', 'share.use'];
const PAGE_GOAL_MS = 200;
const APPEND_GOAL_MS = 1;

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

type Query = readonly [name: string, filters: Parameters<ActivityLog['query']>[0], limit: number];

const QUERIES: readonly Query[] = [
  ['first page, 100', {}, 100],
  ['first page, user=ann, 100', { user: 'ann' }, 100],
  ['first page, 1000', {}, 1000],
  ['first page, action=delete, 1000', { action: 'delete' }, 1000],
  ['first page, path=team-7/, 100', { path: 'team-7/' }, 100],
];

/** Median of 5 runs of each query; the figures of the first two. */
async function pageFigures(log: ActivityLog, count: number, say: (line: string) => void): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const [name, filters, limit] of QUERIES) {
    const runs: number[] = [];
    for (let r = 0; r < 5; r++) runs.push((await timed(() => log.query(filters, limit)))[0]);
    say(`  ${name}: median ${median(runs).toFixed(1)} ms (runs ${runs.map((ms) => ms.toFixed(1)).join(', ')})`);
    if (figures.length < 2) figures.push({ label: `activity: ${name} of ${count}`, value: median(runs), unit: 'ms', baseline: { label: 'goal', value: PAGE_GOAL_MS } });
  }
  return figures;
}

/** Appends `appends` entries, then closes the log (which writes them out); the cost per entry. */
async function appendFigure(log: ActivityLog, appends: number, say: (line: string) => void): Promise<Figure> {
  const entry = completeEntry({ action: 'save', user: 'ann', path: '/a/b/c.txt', bytes: 123, status: 200 }, Date.now());
  const t0 = performance.now();
  for (let i = 0; i < appends; i++) log.append(entry);
  const appendMs = performance.now() - t0;
  const [flushMs] = await timed(() => log.close());
  say(`  ${appends} appends: ${((appendMs / appends) * 1000).toFixed(2)} µs each buffered, then ${flushMs.toFixed(0)} ms to write them all out at close`);
  return { label: 'activity: an append, with its write-out', value: (appendMs + flushMs) / appends, unit: 'ms', baseline: { label: 'goal', value: APPEND_GOAL_MS } };
}

export async function run(say: (line: string) => void = console.log): Promise<Figure[]> {
  const count = envNumber('BENCH_ACTIVITY_ENTRIES', 1_000_000);
  const appends = envNumber('BENCH_ACTIVITY_APPENDS', 100_000);
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-activity-bench-'));
  const path = join(dir, 'filemgr.json.activity.jsonl');
  try {
    const [genMs] = await timed(() => generate(path, count));
    say(`  generated ${count} entries, ${((await stat(path)).size / 2 ** 20).toFixed(1)} MiB, in ${genMs.toFixed(0)} ms`);
    // Rotation far away: the generated file is bigger than 100 MB, as if written by a bigger limit.
    const log = createFileActivityLog({ path, days: () => 90, maxBytes: 2 ** 40 });
    const figures = await pageFigures(log, count, say);
    return [await appendFigure(log, appends, say), ...figures];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** B5: the activity log's append and first page against their goals. */
export const activityBenchmark: Benchmark = {
  name: 'activity',
  title: 'B5 activity log (file log, in process): an append and the first page of 1,000,000 entries against their goals',
  run,
};

if (process.argv[1] !== undefined && pathToFileURL(process.argv[1]).href === import.meta.url) {
  run().catch((err: unknown) => {
    console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  });
}
