import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { TreeChange } from '../fs/changes';
import { isWithin } from '../lib/within';
import { KIND } from './index-db';
import type { IndexReader } from './index-query';

/** What the totals need of the index writer: a path's segments below the indexed root. */
interface Segmenter {
  segments(real: string): string[] | null;
}

/**
 * The bytes of files below folders (quota usage, beyond.md §6) from the search index, never a
 * walk. A folder's total is summed once, by one recursive query, the first time it is asked;
 * afterwards every change applied to the index adjusts it by the difference it made (the bytes of
 * the changed path before and after, queried around the change), and a rescan that re-read
 * folders sums the known totals again. So an answer is a Map lookup, whatever the size of the
 * folder. A per-instance cache of a per-instance index (each instance keeps its own).
 */
export class UsageTotals {
  private readonly totals = new Map<string, number>();
  private readonly sum: StatementSync;

  constructor(db: DatabaseSync, private readonly reader: IndexReader, private readonly paths: Segmenter) {
    // Files only carry a size in the index (folders and links are 0); the walk stops at non-folders.
    this.sum = db.prepare(`WITH RECURSIVE below(id, kind, size) AS (
      SELECT id, kind, size FROM entries WHERE id = ?
      UNION ALL SELECT e.id, e.kind, e.size FROM entries e JOIN below b ON e.parent = b.id WHERE b.kind = ${KIND.dir})
      SELECT COALESCE(SUM(size), 0) AS bytes FROM below`);
  }

  /** The known total of the folder `real`, if it was counted before. */
  known(real: string): number | undefined {
    return this.totals.get(real);
  }

  /**
   * Counts the folder `real` (one recursive query) and keeps its total from now on; null when
   * the index does not hold it. Run between changes (the writer's `exclusive`), never during one.
   */
  count(real: string): number | null {
    const bytes = this.bytesAt(real);
    if (bytes === null) return null;
    this.totals.set(real, bytes);
    return bytes;
  }

  /** Runs `apply` (one change to the index) and moves every known total by what it changed. */
  async around(change: TreeChange, apply: () => Promise<void>): Promise<void> {
    const touched = change.kind === 'moved' ? [change.from, change.to] : [change.real];
    const before = this.regions(touched);
    await apply();
    const after = this.regions(touched);
    for (const [folder, bytes] of before) {
      const total = this.totals.get(folder);
      if (total !== undefined) this.totals.set(folder, total + (after.get(folder) ?? 0) - bytes);
    }
  }

  /** Sums every known total again (after a rescan found changes made outside filemgr). */
  refresh(): void {
    for (const folder of [...this.totals.keys()]) {
      const bytes = this.bytesAt(folder);
      if (bytes === null) this.totals.delete(folder);
      else this.totals.set(folder, bytes);
    }
  }

  /** For each known folder, the bytes of the parts of it that the paths `touched` cover. */
  private regions(touched: readonly string[]): Map<string, number> {
    const out = new Map<string, number>();
    for (const folder of this.totals.keys()) {
      let bytes = 0;
      for (const path of touched) {
        if (isWithin(folder, path)) bytes += this.bytesAt(path) ?? 0;
        else if (isWithin(path, folder)) bytes += this.bytesAt(folder) ?? 0;
      }
      out.set(folder, bytes);
    }
    return out;
  }

  /** The bytes at and below `real` now, by one query; null when the index has no row for it. */
  private bytesAt(real: string): number | null {
    const segments = this.paths.segments(real);
    if (segments === null) return null;
    const row = this.reader.lookup(segments);
    if (!row) return null;
    return Number((this.sum.get(row.id) as { bytes: number | bigint }).bytes);
  }
}
