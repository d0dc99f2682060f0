/*
 * The index builder (beyond.md §7). It reads the whole tree below `root` depth first with
 * synchronous calls, writes rows in batched transactions into a new file and renames it over the
 * old index when done, so a crash mid-way leaves the old index or none. It runs in a worker thread
 * (build-worker.ts), or in the server's own thread for a tree small enough to take a few
 * milliseconds (search-index.ts).
 * Memory (beyond.md §7: <= 32 MB added while building): a folder is read through a Dir handle a
 * few hundred names at a time, so neither a huge folder nor the garbage of 1,000 Dirents per folder
 * lands in the old generation (readdirSync's arrays grew the worker's heap to 22 MB on 1,000,000
 * entries, the stream keeps it at 8 MB), and SQLite sorts the parent index and the trigram rebuild
 * in temporary files (in memory they added 45 MB in the last seconds of the build).
 */
import { lstatSync, opendirSync, renameSync, rmSync, type Dir, type Dirent } from 'node:fs';
import { createTables, finishBuild, kindOf, KIND, mtimeTicks, openIndexDb, ROOT_ID } from './index-db';
import type { BuildRequest, BuildResult } from './build-protocol';

const BATCH = 20_000;

/** Calls `each` with every name in the folder, a few hundred read at a time; an unreadable folder (or the rest of it) is skipped, as the walk skips it. */
function eachName(real: string, each: (name: string) => void): void {
  let handle: Dir;
  try {
    handle = opendirSync(real, { bufferSize: 256 });
  } catch {
    return;
  }
  try {
    for (let dirent = readOrEnd(handle); dirent; dirent = readOrEnd(handle)) each(dirent.name);
  } finally {
    handle.closeSync();
  }
}

function readOrEnd(handle: Dir): Dirent | null {
  try {
    return handle.readSync();
  } catch {
    return null;
  }
}

/**
 * The build, one folder per step (synchronous calls between yields): driven to its end at once
 * by buildIndexFile in the worker, or in slices by buildIndexFileInSlices in the server's thread.
 */
function* buildSteps(req: BuildRequest): Generator<void, BuildResult> {
  const started = Date.now();
  const partial = `${req.file}.building`;
  rmSync(partial, { force: true });
  rmSync(`${partial}-wal`, { force: true });
  const db = openIndexDb(partial);
  // A small page cache: the build writes in order, and its sorts go to temporary files.
  db.exec('PRAGMA temp_store = FILE; PRAGMA cache_size = -256');
  createTables(db);
  const insert = db.prepare('INSERT INTO entries (id, parent, name, kind, size, mtime) VALUES (?, ?, ?, ?, ?, ?)');
  const skip = new Set(req.skip);
  const rootStat = lstatSync(req.root, { bigint: true });
  insert.run(ROOT_ID, 0, '', KIND.dir, 0, mtimeTicks(rootStat.mtimeNs));
  const stack: { id: number; real: string }[] = [{ id: ROOT_ID, real: req.root }];
  let nextId = ROOT_ID + 1;
  let inBatch = 0;
  db.exec('BEGIN');
  try {
    for (let dir = stack.pop(); dir; dir = stack.pop()) {
      eachName(dir.real, (name) => {
        const real = dir.real === '/' ? `/${name}` : `${dir.real}/${name}`;
        if (skip.has(real)) return;
        const stats = lstatSync(real, { bigint: true, throwIfNoEntry: false });
        if (!stats) return;
        const kind = kindOf(stats);
        const id = nextId++;
        insert.run(id, dir.id, name, kind, kind === KIND.file ? Number(stats.size) : 0, mtimeTicks(stats.mtimeNs));
        if (kind === KIND.dir) stack.push({ id, real });
        if (++inBatch >= BATCH) {
          db.exec('COMMIT; BEGIN');
          inBatch = 0;
        }
      });
      yield;
    }
    db.exec('COMMIT');
    finishBuild(db, { root: req.root, built: String(Date.now()) });
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    // A build abandoned half-way (the server closing) leaves only its partial file behind.
    db.close();
  }
  rmSync(`${partial}-wal`, { force: true });
  rmSync(`${partial}-shm`, { force: true });
  renameSync(partial, req.file);
  return { entries: nextId - ROOT_ID, ms: Date.now() - started };
}

/** Builds the index file `req.file` from the tree below `req.root`, synchronously (in the worker). */
export function buildIndexFile(req: BuildRequest): BuildResult {
  const steps = buildSteps(req);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The same build in the server's thread for a small tree, giving the event loop a turn whenever
 * a slice has run `sliceMs`: a worker would cost the idle server several MB for good (its
 * isolate, the code it touched), more than the build itself. Undefined when `aborted` (closing).
 */
export async function buildIndexFileInSlices(req: BuildRequest, opts: { sliceMs: number; aborted: () => boolean }): Promise<BuildResult | undefined> {
  const steps = buildSteps(req);
  let sliceStart = Date.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (Date.now() - sliceStart < opts.sliceMs) continue;
    await new Promise((resolve) => setImmediate(resolve));
    if (opts.aborted()) {
      steps.return(undefined as never);
      return undefined;
    }
    sliceStart = Date.now();
  }
}
