import type { BigIntStats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { kindOf, KIND, mtimeTicks, type EntryRow, type Kind } from './index-db';
import type { TreeChange } from '../fs/changes';
import type { IndexReader } from './index-query';


/**
 * Keeps the index in step with the disk: a changed path is looked at again (and, for a folder,
 * everything below it), a move renames one row. Reads of the disk are async; each write to the
 * index is one short transaction. Changes run one at a time (`exclusive`): two looks at one
 * folder at once would add its new names twice.
 */
export class IndexWriter {
  private readonly insert: StatementSync;
  private readonly update: StatementSync;
  private readonly rename: StatementSync;
  private readonly children: StatementSync;
  private readonly remove: StatementSync;
  private readonly named: StatementSync;

  private readonly root: string;
  private readonly skip: readonly string[];

  constructor(private readonly db: DatabaseSync, private readonly reader: IndexReader, scope: { root: string; skip?: readonly string[] }) {
    this.root = scope.root;
    this.skip = scope.skip ?? [];
    this.insert = db.prepare('INSERT INTO entries (parent, name, kind, size, mtime) VALUES (?, ?, ?, ?, ?)');
    this.update = db.prepare('UPDATE entries SET kind = ?, size = ?, mtime = ? WHERE id = ?');
    this.rename = db.prepare('UPDATE entries SET parent = ?, name = ? WHERE id = ?');
    this.named = db.prepare('SELECT id, kind FROM entries WHERE parent = ? AND name = ?');
    this.children = db.prepare('SELECT id, parent, name, kind, size, mtime FROM entries WHERE parent = ?');
    this.remove = db.prepare(`DELETE FROM entries WHERE id IN (
      WITH RECURSIVE below(id) AS (SELECT ? UNION ALL SELECT e.id FROM entries e JOIN below b ON e.parent = b.id) SELECT id FROM below)`);
  }

  /** The path's segments below the indexed root, or null when it is not below it or lies in a skipped folder. */
  segments(real: string): string[] | null {
    if (this.skipped(real)) return null;
    if (real === this.root) return [];
    const prefix = this.root === '/' ? '/' : `${this.root}/`;
    return real.startsWith(prefix) ? real.slice(prefix.length).split('/') : null;
  }

  private queue: Promise<unknown> = Promise.resolve();

  /** Runs `fn` after every change queued before it, and before those queued after. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Whether `real` lies in a folder the index leaves out (the server's cache, the recycle bin). */
  private skipped(real: string): boolean {
    return this.skip.some((dir) => real === dir || real.startsWith(`${dir}/`));
  }

  /** Told around every applied change (the usage totals of ./usage.ts keep count through it). */
  observe: ((change: TreeChange, apply: () => Promise<void>) => Promise<void>) | undefined;

  /** Applies one change (queued behind the others). */
  apply(change: TreeChange): Promise<void> {
    const observe = this.observe;
    return this.exclusive(() => (observe ? observe(change, () => this.applyNow(change)) : this.applyNow(change)));
  }

  private async applyNow(change: TreeChange): Promise<void> {
    if (change.kind === 'moved') {
      if (this.move(change.from, change.to)) return;
      await this.look(change.from);
      await this.look(change.to);
      return;
    }
    await this.look(change.real);
  }

  /** Renames the row of `from` into the place of `to`; false when either end is not indexed. */
  private move(from: string, to: string): boolean {
    const src = this.segments(from);
    const dst = this.segments(to);
    if (!src || !dst || src.length === 0 || dst.length === 0) return false;
    const row = this.reader.lookup(src);
    const parent = this.reader.lookup(dst.slice(0, -1));
    if (!row || parent?.kind !== KIND.dir) return false;
    this.transaction(() => {
      const there = this.reader.lookup(dst);
      if (there) this.remove.run(there.id);
      this.rename.run(parent.id, dst[dst.length - 1]!, row.id);
    });
    return true;
  }

  /** Looks at `real` again: gone (its rows go), there (its row, and a folder's whole subtree, updated). */
  async look(real: string): Promise<void> {
    const segs = this.segments(real);
    if (segs === null) return;
    if (segs.length === 0) {
      await this.reconcile(this.reader.lookup([])!.id, real);
      return;
    }
    const stats = await lstat(real, { bigint: true }).catch(() => null);
    const row = this.reader.lookup(segs);
    if (!stats) {
      if (row) this.transaction(() => this.remove.run(row.id));
      return;
    }
    const parent = this.reader.lookup(segs.slice(0, -1));
    if (parent?.kind !== KIND.dir) {
      // The parent is not indexed yet (made outside, or just now): index from the parent down.
      await this.look(real.slice(0, real.lastIndexOf('/')) || '/');
      return;
    }
    const id = this.put({ parent: parent.id, name: segs[segs.length - 1]! }, stats);
    if (kindOf(stats) === KIND.dir) await this.reconcile(id, real);
  }

  /**
   * Writes one entry's row (replacing a row of another kind with its subtree); answers its id.
   * `row` is the entry's row when the caller has it, else it is looked up.
   */
  private put(at: { parent: number; name: string; known?: { id: number; kind: Kind } | null }, stats: BigIntStats): number {
    const { parent, name, known } = at;
    const kind = kindOf(stats);
    const size = kind === KIND.file ? Number(stats.size) : 0;
    return this.transaction(() => {
      const row = known === undefined ? (this.named.get(parent, name) as { id: number; kind: Kind } | undefined) : known;
      if (row && row.kind === kind) {
        this.update.run(kind, size, mtimeTicks(stats.mtimeNs), row.id);
        return row.id;
      }
      if (row) this.remove.run(row.id);
      return Number(this.insert.run(parent, name, kind, size, mtimeTicks(stats.mtimeNs)).lastInsertRowid);
    });
  }

  /**
   * Makes the rows below folder `id` match the disk below `real`: new names added, vanished ones
   * removed with their subtrees, changed ones updated; every sub-folder reconciled in turn when
   * `deep`, else only new ones (a rescan re-reads the other folders by their own times).
   */
  async reconcile(id: number, real: string, deep = true): Promise<void> {
    const stack = [{ id, real }];
    for (let dir = stack.pop(); dir; dir = stack.pop()) {
      const names = await readdir(dir.real).catch(() => null);
      const rows = new Map((this.children.all(dir.id) as unknown as EntryRow[]).map((r) => [r.name, r]));
      const seen = new Set<string>();
      for (const name of names ?? []) {
        const real = dir.real === '/' ? `/${name}` : `${dir.real}/${name}`;
        if (this.skipped(real)) continue;
        const stats = await lstat(real, { bigint: true }).catch(() => null);
        if (!stats) continue;
        seen.add(name);
        const row = rows.get(name);
        const child = this.put({ parent: dir.id, name, known: row ?? null }, stats);
        if (kindOf(stats) === KIND.dir && (deep || row?.kind !== KIND.dir)) stack.push({ id: child, real });
      }
      this.transaction(() => {
        for (const [name, row] of rows) if (!seen.has(name)) this.remove.run(row.id);
      });
    }
  }

  /** Updates a folder's own time after a rescan read it. */
  touch(id: number, stats: BigIntStats): void {
    this.update.run(KIND.dir, 0, mtimeTicks(stats.mtimeNs), id);
  }

  private transaction<T>(fn: () => T): T {
    this.db.exec('BEGIN');
    try {
      const result = fn();
      this.db.exec('COMMIT');
      return result;
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
  }
}
