/*
 * The index builder, run in a worker thread (beyond.md §7: the server answers at once, whatever
 * the size of the root). It reads the whole tree below `root` depth first with synchronous calls
 * (a worker has nothing else to do), writes rows in batched transactions into a new file and
 * renames it over the old index when done, so a crash mid-way leaves the old index or none.
 * Code string for the executable: see server/lib/worker-code.ts (asset index-worker.js).
 */
import { lstatSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { createTables, finishBuild, kindOf, KIND, micros, openIndexDb, ROOT_ID } from './index-db';
import type { BuildRequest, BuildResult } from './build-protocol';

const BATCH = 20_000;

function build(req: BuildRequest): BuildResult {
  const started = Date.now();
  const partial = `${req.file}.building`;
  rmSync(partial, { force: true });
  rmSync(`${partial}-wal`, { force: true });
  const db = openIndexDb(partial);
  createTables(db);
  const insert = db.prepare('INSERT INTO entries (id, parent, name, kind, size, mtime) VALUES (?, ?, ?, ?, ?, ?)');
  const skip = new Set(req.skip);
  const rootStat = lstatSync(req.root, { bigint: true });
  insert.run(ROOT_ID, 0, '', KIND.dir, 0, micros(rootStat.mtimeNs));
  const stack: { id: number; real: string }[] = [{ id: ROOT_ID, real: req.root }];
  let nextId = ROOT_ID + 1;
  let inBatch = 0;
  db.exec('BEGIN');
  for (let dir = stack.pop(); dir; dir = stack.pop()) {
    let names;
    try {
      names = readdirSync(dir.real, { withFileTypes: true });
    } catch {
      continue; // unreadable: skipped, as the walk skips it
    }
    for (const dirent of names) {
      const real = dir.real === '/' ? `/${dirent.name}` : `${dir.real}/${dirent.name}`;
      if (skip.has(real)) continue;
      const stats = lstatSync(real, { bigint: true, throwIfNoEntry: false });
      if (!stats) continue;
      const kind = kindOf(stats);
      const id = nextId++;
      insert.run(id, dir.id, dirent.name, kind, kind === KIND.file ? Number(stats.size) : 0, micros(stats.mtimeNs));
      if (kind === KIND.dir) stack.push({ id, real });
      if (++inBatch >= BATCH) {
        db.exec('COMMIT; BEGIN');
        inBatch = 0;
      }
    }
  }
  db.exec('COMMIT');
  finishBuild(db, { root: req.root, built: String(Date.now()) });
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  rmSync(`${partial}-wal`, { force: true });
  rmSync(`${partial}-shm`, { force: true });
  renameSync(partial, req.file);
  return { entries: nextId - ROOT_ID, ms: Date.now() - started };
}

const port = parentPort;
if (port) {
  try {
    port.postMessage({ ok: true, result: build(workerData as BuildRequest) });
  } catch (err) {
    port.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
  }
}
