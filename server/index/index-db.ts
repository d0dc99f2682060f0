import { DatabaseSync } from 'node:sqlite';

/**
 * The search index's SQLite file (beyond.md §7): one row per entry below the indexed root (the
 * root itself is row ROOT_ID with the name ''), linked to its parent by id, and an FTS5 trigram
 * index of the names over the same rows (external content, no positions and no sizes:
 * `detail=none, columnsize=0` keep it about 3 times smaller and LIKE queries still use it; about
 * 70 MB per million entries in all). It is a cache: a file that cannot be
 * opened or is of another version is rebuilt, never repaired.
 */
export const ROOT_ID = 1;

/** Bump when the schema changes: an index of another version is rebuilt. */
export const INDEX_VERSION = '3';

/** What an entry is, as readdir's d_type tells (a symlink is never a directory). */
export const KIND = { file: 0, dir: 1, link: 2, other: 3 } as const;
export type Kind = (typeof KIND)[keyof typeof KIND];

export interface EntryRow {
  id: number;
  parent: number;
  name: string;
  kind: Kind;
  size: number;
  /** Modification time in units of 100 µs (a directory's decides whether a rescan re-reads it). */
  mtime: number;
}

/** Opens (creating) an index file for reading and writing; a cache, so no fsync. */
export function openIndexDb(path: string): DatabaseSync {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -2000;');
  return db;
}

/** Creates the tables of an empty index; the FTS triggers come after the bulk load (addTriggers). */
export function createTables(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE entries (id INTEGER PRIMARY KEY, parent INTEGER NOT NULL, name TEXT NOT NULL,
      kind INTEGER NOT NULL, size INTEGER NOT NULL, mtime INTEGER NOT NULL);
    CREATE VIRTUAL TABLE names USING fts5(name, content='entries', content_rowid='id', tokenize='trigram', detail='none', columnsize=0);
  `);
}

/**
 * After the bulk load: the parent index (a lookup by name scans one folder's rows: a (parent,
 * name) index cost 30 MB per million entries), the trigram index built in one pass, and the
 * triggers that keep it in step with every later change.
 */
export function finishBuild(db: DatabaseSync, meta: Record<string, string>): void {
  db.exec(`
    CREATE INDEX entries_parent ON entries (parent);
    INSERT INTO names (names) VALUES ('rebuild');
    CREATE TRIGGER entries_ai AFTER INSERT ON entries BEGIN
      INSERT INTO names (rowid, name) VALUES (new.id, new.name); END;
    CREATE TRIGGER entries_ad AFTER DELETE ON entries BEGIN
      INSERT INTO names (names, rowid, name) VALUES ('delete', old.id, old.name); END;
    CREATE TRIGGER entries_au AFTER UPDATE OF name ON entries BEGIN
      INSERT INTO names (names, rowid, name) VALUES ('delete', old.id, old.name);
      INSERT INTO names (rowid, name) VALUES (new.id, new.name); END;
  `);
  const put = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
  for (const [key, value] of Object.entries({ ...meta, version: INDEX_VERSION })) put.run(key, value);
}

/** The index's metadata, or null when the file is not a finished index of this version. */
export function readMeta(db: DatabaseSync): Record<string, string> | null {
  try {
    const rows = db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
    const meta = Object.fromEntries(rows.map((r) => [r.key, r.value]));
    return meta.version === INDEX_VERSION && meta.root ? meta : null;
  } catch {
    return null;
  }
}

/** The kind of a Dirent or Stats. */
export function kindOf(s: { isDirectory(): boolean; isFile(): boolean; isSymbolicLink(): boolean }): Kind {
  if (s.isSymbolicLink()) return KIND.link;
  if (s.isDirectory()) return KIND.dir;
  return s.isFile() ? KIND.file : KIND.other;
}

/**
 * A bigint stat's mtime in units of 100 µs: exact enough to see any change a rescan looks for,
 * and small enough (about 1.8e13 now, below 2^47 until the year 2400) for SQLite's 6-byte
 * integers, where microseconds take 8 bytes: 2 MB less per million entries (beyond.md §7's disk
 * budget). Version 3 of the index file: older files are rebuilt.
 */
export function mtimeTicks(mtimeNs: bigint): number {
  return Number(mtimeNs / 100_000n);
}
