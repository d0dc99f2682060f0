import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Low, Memory, type Adapter } from 'lowdb';
import { writeFileAtomic } from './atomic-file';
import { acquireFileLock } from './lock';
import { StateError, migrate } from './migrations';
import type { Database } from './schema';

/**
 * The state of the whole server. Every mutation goes through `update(fn)`: it runs `fn` on a
 * copy, so a throwing `fn` changes nothing, and commits the copy atomically. Never keep a
 * reference into `data()` across an await.
 */
export interface Store {
  /** The current state, read-only. */
  data(): Readonly<Database>;
  /** Applies `fn` to a copy of the state and commits it; returns what `fn` returned. */
  update<T>(fn: (db: Database) => T): Promise<T>;
  /**
   * Re-reads the state when another process (a CLI command, another instance) changed it. With
   * `verify`, asks the backing store even when no change was announced: what a lookup that
   * missed (an unknown token, user or link) calls before it answers no.
   */
  refresh(options?: RefreshOptions): Promise<void>;
  /** Where the state lives (for messages; a database URL without its password), or ':memory:'. */
  readonly location: string;
  /** Ends the store's connections (the PostgreSQL store); the file store has none. */
  close?(): Promise<void>;
}

export interface RefreshOptions {
  /** Check the backing store now, not only when a change was announced. */
  verify?: boolean;
}

class JsonFileAdapter implements Adapter<Database> {
  constructor(private readonly path: string) {}

  async read(): Promise<Database | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return null;
      throw new StateError(`cannot read the database ${this.path}: ${code ?? String(err)}`);
    }
    // A 0-byte file is not a missing one: it may be a database truncated by a full disk or a bad
    // copy, and creating a new one over it would replace its users with a fresh admin.
    if (text.trim() === '') {
      throw new StateError(`the database ${this.path} is empty; filemgr left it untouched: restore it from a backup, delete it to create a new one, or point --database elsewhere`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new StateError(`the database ${this.path} is corrupt (${(err as Error).message}); filemgr left it untouched: restore it from a backup or point --database elsewhere`);
    }
    return migrate(parsed, this.path);
  }

  async write(data: Database): Promise<void> {
    await writeFileAtomic(this.path, `${JSON.stringify(data, null, 2)}\n`, 0o600);
  }
}

type Stamp = string;

async function stampOf(path: string): Promise<Stamp> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch {
    return 'missing';
  }
}

/**
 * Opens (or, with `init`, creates) the JSON state file. Creation writes mode 0600 and makes the
 * parent directory (0700). A corrupt, unreadable or newer file raises StateError and is never
 * overwritten.
 */
export async function openFileStore(path: string, init?: () => Database): Promise<{ store: Store; created: boolean }> {
  const db = new Low<Database>(new JsonFileAdapter(path), null as unknown as Database);
  await db.read();
  let created = false;
  if (db.data == null) {
    if (!init) throw new StateError(`the database ${path} does not exist; run filemgr once to create it, or pass --database`);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const release = await acquireFileLock(`${path}.lock`);
    try {
      // Never initialise over an existing path: another process may have created it meanwhile.
      if ((await stampOf(path)) !== 'missing') throw new StateError(`the database ${path} appeared while filemgr was creating it; filemgr left it untouched: start again`);
      db.data = init();
      await db.write();
      created = true;
    } finally {
      await release();
    }
  }
  return { store: fileStore(db, path, await stampOf(path)), created };
}

function fileStore(db: Low<Database>, path: string, initial: Stamp): Store {
  let stamp = initial;
  // Bumped by every commit, so a re-read that started before one never replaces its result.
  let generation = 0;
  let reading: Promise<void> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const reread = async (): Promise<void> => {
    const now = await stampOf(path);
    if (now === stamp) return;
    const startedAt = generation;
    const fresh = await db.adapter.read();
    if (fresh == null) throw new StateError(`the database ${path} disappeared`);
    if (startedAt !== generation) return;
    db.data = fresh;
    stamp = now;
  };
  // One stat per call; concurrent callers share one re-read of a changed file.
  const refresh = (): Promise<void> => {
    reading ??= reread().finally(() => { reading = undefined; });
    return reading;
  };
  const commit = async <T>(fn: (d: Database) => T): Promise<T> => {
    const release = await acquireFileLock(`${path}.lock`);
    try {
      // Its own re-read under the lock: a shared one may have opened the file before the lock.
      await reread();
      const copy = structuredClone(db.data);
      const result = fn(copy);
      await db.adapter.write(copy);
      db.data = copy;
      generation += 1;
      stamp = await stampOf(path);
      return result;
    } finally {
      await release();
    }
  };
  return {
    location: path,
    data: () => db.data,
    refresh,
    update<T>(fn: (d: Database) => T): Promise<T> {
      const run = queue.then(() => commit(fn));
      queue = run.catch(() => undefined);
      return run;
    },
  };
}

/** A store held in memory (tests), with the same copy-then-commit semantics. */
export function memoryStore(initial: Database): Store {
  const db = new Low<Database>(new Memory<Database>(), structuredClone(initial));
  let queue: Promise<unknown> = Promise.resolve();
  return {
    location: ':memory:',
    data: () => db.data,
    refresh: () => Promise.resolve(),
    update<T>(fn: (d: Database) => T): Promise<T> {
      const run = queue.then(async () => {
        const copy = structuredClone(db.data);
        const result = fn(copy);
        db.data = copy;
        await db.write();
        return result;
      });
      queue = run.catch(() => undefined);
      return run;
    },
  };
}
