// The B4 quota benchmark (beyond.md §6): the usage of a user with 1,000,000 files, from the
// search index's totals (server/index/usage.ts), against the 10 ms budget of the issue. The index
// is built by its worker as the server builds it; the quota service is composed as app-services
// composes it, with a walk that fails the run if it is ever asked (the figure must come from the
// index). Sizes: BENCH_QUOTA_FILES (default 1000000, folders of 1,000), BENCH_RUNS usage calls
// timed after the first (default 1000, median kept).
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { defaultServerConfig } from '../../server/config';
import { watchTreeChanges } from '../../server/fs/changes';
import { createGateFactory } from '../../server/fs/gates';
import { writeFileAtomic } from '../../server/fs/write';
import { INDEX_WORKER } from '../../server/index/build-protocol';
import { startSearchIndex } from '../../server/index/search-index';
import { workerCode } from '../../server/lib/worker-code';
import { createQuotaService } from '../../server/quota/quota';
import { createMemoryEphemeral } from '../../server/state/ephemeral';
import { emptyDatabase } from '../../server/state/initial';
import type { UserRecord } from '../../server/state/schema';
import { memoryStore } from '../../server/state/store';
import { envNumber } from './filemgr-process';
import { median, type Benchmark, type Figure } from './measure';

const BUDGET_MS = 10;
const PER_FOLDER = 1000;

/** `files` one-byte files, in folders of 1,000, below `root/user`. */
function makeTree(root: string, files: number): void {
  const one = Buffer.from('x');
  for (let d = 0; d * PER_FOLDER < files; d++) {
    const dir = join(root, 'user', `d${d}`);
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < PER_FOLDER && d * PER_FOLDER + i < files; i++) {
      const fd = openSync(join(dir, `f${i}.txt`), 'w');
      writeSync(fd, one);
      closeSync(fd);
    }
  }
}

async function timedUsage(usage: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await usage();
  return performance.now() - start;
}

async function run(log: (line: string) => void): Promise<Figure[]> {
  const files = envNumber('BENCH_QUOTA_FILES', 1_000_000);
  const runs = envNumber('BENCH_RUNS', 1000);
  const root = await mkdtemp(join(tmpdir(), 'filemgr-bench-quota-'));
  try {
    log(`  creating ${files} files...`);
    makeTree(root, files);
    const quiet = { info: () => undefined, warn: (err: unknown) => log(`  index: ${String(err)}`) };
    const built = performance.now();
    const index = await startSearchIndex({ root, dir: '', intervalMs: 0, workerCode: workerCode(INDEX_WORKER), skip: [], log: quiet });
    const unwatch = watchTreeChanges((change) => index.changed(change));
    try {
      await index.built();
      if (!index.ready()) throw new Error('the index was not built');
      log(`  index built in ${(performance.now() - built).toFixed(0)} ms`);
      const db = emptyDatabase();
      const user = { id: 7, username: 'user', scope: '/user', quota: 10 * 2 ** 30, rules: [], hideDotfiles: false, perm: { admin: false } } as unknown as UserRecord;
      db.users.push(user);
      const store = memoryStore(db);
      const walk = { bytesBelow: () => Promise.reject(new Error('the walk was asked: the index did not answer')), grew: () => undefined, changed: () => undefined };
      const quota = createQuotaService({ store, gates: await createGateFactory(defaultServerConfig({ root })), ephemeral: createMemoryEphemeral(), index, walk });
      const first = await timedUsage(() => quota.usage(user));
      const samples: number[] = [];
      for (let i = 0; i < runs; i++) samples.push(await timedUsage(() => quota.usage(user)));
      const gate = await createGateFactory(defaultServerConfig({ root }));
      const target = await (await gate.forUser(user, db.settings)).resolve('/d0/new.bin', 'write');
      await writeFileAtomic(target, Readable.from([Buffer.alloc(4096)]), { fileMode: 0o640, dirMode: 0o750 });
      const afterWrite = await timedUsage(() => quota.usage(user));
      const figure = await quota.usage(user);
      log(`  usage: ${figure?.used ?? 0} bytes used of ${figure?.quota ?? 0}; median ${median(samples).toFixed(3)} ms, first ${first.toFixed(1)} ms, after a write ${afterWrite.toFixed(3)} ms`);
      return [
        { label: `usage of a user with ${files} files`, value: median(samples), unit: 'ms', baseline: { label: 'budget', value: BUDGET_MS } },
        { label: 'first usage of that user (one recursive sum)', value: first, unit: 'ms' },
        { label: 'usage just after a write through filemgr', value: afterWrite, unit: 'ms', baseline: { label: 'budget', value: BUDGET_MS } },
      ];
    } finally {
      unwatch();
      await index.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export const quotaBenchmark: Benchmark = {
  name: 'quota',
  title: 'Quotas (B4): usage of a user with 1,000,000 files, from the index',
  run,
};
