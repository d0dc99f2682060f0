import { lstat } from 'node:fs/promises';
import type { DatabaseSync } from 'node:sqlite';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { KIND, mtimeTicks, ROOT_ID } from './index-db';
import { PathsBelow, type IndexReader } from './index-query';
import type { IndexWriter } from './index-writer';

const CHUNK = 2000;

/** Reads one folder again when its time changed (or looks at what replaced it); true when it did. */
async function rescanFolder(writer: IndexWriter, row: { id: number; mtime: number }, real: string): Promise<boolean> {
  const stats = await lstat(real, { bigint: true }).catch(() => null);
  if (!stats?.isDirectory()) {
    await writer.look(real);
    return false;
  }
  if (mtimeTicks(stats.mtimeNs) === row.mtime) return false;
  writer.touch(row.id, stats);
  await writer.reconcile(row.id, real, false);
  return true;
}

/**
 * Brings the index up to date with changes made outside filemgr (beyond.md §7): every indexed
 * folder's time is compared with the disk's, and only folders whose time changed are read again
 * (no recursive watchers: Node would add one inotify watch per file). Answers how many folders
 * were read again.
 */
export async function rescan(db: DatabaseSync, parts: { reader: IndexReader; writer: IndexWriter; root: string; signal: AbortSignal }): Promise<number> {
  const { reader, writer, root, signal } = parts;
  const dirs = db.prepare('SELECT id, mtime FROM entries WHERE kind = ? AND id > ? ORDER BY id LIMIT ?');
  const paths = new PathsBelow(reader.byId, ROOT_ID);
  let reread = 0;
  let after = 0;
  for (;;) {
    const rows = dirs.all(KIND.dir, after, CHUNK) as unknown as { id: number; mtime: number }[];
    for (const row of rows) {
      if (signal.aborted) return reread;
      const rel = paths.of(row.id);
      if (rel === null) continue;
      const real = rel === '' ? root : root === '/' ? `/${rel}` : `${root}/${rel}`;
      if (await writer.exclusive(() => rescanFolder(writer, row, real))) reread++;
    }
    if (rows.length < CHUNK) return reread;
    after = rows[rows.length - 1]!.id;
    await yieldToLoop();
  }
}
