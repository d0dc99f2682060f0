/**
 * The state store on PostgreSQL (beyond.md §10), for several instances sharing one state.
 *
 * The document is kept as rows (pg-rows.ts: one per user, share, token, TOTP record, trash
 * record, dead-property path, and one per other top-level field), each with the version that
 * last changed it. Every instance holds the whole document in memory, so `data()` stays
 * synchronous and a listing never touches the database.
 *
 * `update(fn)` runs in a transaction that locks the version row (SELECT … FOR UPDATE), so the
 * updates of all instances queue there: it reads the rows changed since this instance's
 * snapshot, applies `fn` to a copy, writes only the rows whose JSON changed, bumps the version
 * and NOTIFYs it at commit. A throwing `fn` rolls back and changes nothing.
 *
 * Reads after another instance's write: each instance LISTENs on a connection of its own; a
 * NOTIFY of a newer version starts a read of the changed rows, and `refresh()` (called at the
 * start of every request) waits for that read. A NOTIFY can still arrive a moment after a
 * client's next request to another instance (a token created on A used at once on B), so a
 * lookup that misses calls `refresh({ verify: true })`, which asks the database for its version
 * (one round trip, only on a miss) and reads what changed. While the LISTEN connection is down,
 * every `refresh()` verifies. A revocation (a password change bumps the user's session epoch)
 * thus reaches every instance within the NOTIFY's delivery, milliseconds.
 */
import pg from 'pg';
import { redactDatabase, redactIn } from './database-kind';
import { StateError, migrate } from './migrations';
import { listen, type Listener } from './pg-listen';
import { beginLocked, readSince, writeRows, type ReadResult } from './pg-queries';
import { applyRows, diffRows, documentOf, type Rows } from './pg-rows';
import { STATE_CHANNEL, migrateSchema } from './pg-schema';
import type { Database } from './schema';
import type { RefreshOptions, Store } from './store';

export interface PgStoreOptions {
  /** Creates the first state when the database holds none (first run); without it that is an error. */
  init?: () => Database;
  /** Told about errors no caller waits for (the LISTEN connection, a background read). */
  onError?: (error: unknown) => void;
  /** Connections for updates and reads (the LISTEN connection is one more). */
  poolSize?: number;
}

/** The PostgreSQL store; `pool` is shared with the activity log (activity/pg-log.ts). */
export interface PgStore extends Store {
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

class PgStateStore implements PgStore {
  readonly location: string;
  private db!: Database;
  private rows: Rows = new Map();
  private version = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private inflight: Promise<void> | undefined;
  private listener: Listener | undefined;

  constructor(
    readonly pool: pg.Pool,
    private readonly url: string,
    private readonly onError: (error: unknown) => void,
  ) {
    this.location = redactDatabase(url);
  }

  data(): Readonly<Database> {
    return this.db;
  }

  async refresh(options?: RefreshOptions): Promise<void> {
    if (options?.verify) {
      // A read already under way may have started before the change the caller misses: one after it.
      await this.inflight?.catch(() => undefined);
      return this.pull();
    }
    if (!this.listener?.up()) return this.pull();
    return this.inflight;
  }

  update<T>(fn: (db: Database) => T): Promise<T> {
    const run = this.queue.then(() => this.commit(fn));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    await this.listener?.close();
    this.listener = undefined;
    await this.queue;
    await this.inflight?.catch(() => undefined);
    await this.pool.end();
  }

  /** Loads everything, listening first so that no change between the two is missed. */
  async start(): Promise<void> {
    this.listener = await listen({
      url: this.url,
      channel: STATE_CHANNEL,
      name: 'filemgr-state',
      onNotify: (payload) => {
        if (Number(payload) > this.version) this.background();
      },
      onReconnect: () => this.background(),
      onError: this.onError,
    });
    this.replace(await readSince(this.pool, -1));
  }

  private background(): void {
    this.pull().catch(this.onError);
  }

  /** Reads what changed since the snapshot; concurrent callers share one read. */
  private pull(): Promise<void> {
    this.inflight ??= this.pullLoop().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async pullLoop(): Promise<void> {
    for (;;) {
      const base = this.version;
      const read = await readSince(this.pool, base);
      if (read.version <= this.version) return;
      // An update of this instance moved the snapshot meanwhile: read from there.
      if (this.version !== base) continue;
      if (read.horizon > base) this.replace(await readSince(this.pool, -1));
      else this.apply(read);
      return;
    }
  }

  /** The snapshot from a read of everything. */
  private replace(read: ReadResult): void {
    const rows: Rows = new Map();
    applyRows(rows, read.rows);
    this.rows = rows;
    this.db = migrate(documentOf(rows), this.location);
    this.version = read.version;
  }

  /** The snapshot plus a read of the rows changed since it. */
  private apply(read: ReadResult): void {
    if (read.version <= this.version) return;
    const rows: Rows = new Map([...this.rows].map(([k, v]) => [k, new Map(v)]));
    applyRows(rows, read.rows);
    this.rows = rows;
    this.db = migrate(documentOf(rows), this.location);
    this.version = read.version;
  }

  private async commit<T>(fn: (db: Database) => T): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      const locked = await beginLocked(client);
      if (locked.version !== this.version) {
        if (locked.horizon > this.version) this.replace(await readSince(client, -1));
        else this.apply(await readSince(client, this.version));
      }
      const copy = structuredClone(this.db);
      const result = fn(copy);
      const { writes, rows } = diffRows(this.rows, copy);
      if (writes.length === 0) {
        await client.query('COMMIT');
        return result;
      }
      const next = this.version + 1;
      await writeRows(client, writes, next);
      await client.query('COMMIT');
      this.rows = rows;
      this.db = copy;
      this.version = next;
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((e: unknown) => {
        broken = e as Error;
      });
      throw error instanceof StateError || !(error instanceof Error) || !('severity' in error) ? error : new StateError(redactIn(error.message, this.url));
    } finally {
      client.release(broken);
    }
  }
}

/** Writes the first state when the database has none; answers whether it did. */
async function initialise(pool: pg.Pool, init: (() => Database) | undefined, where: string): Promise<boolean> {
  const client = await pool.connect();
  try {
    const { version } = await beginLocked(client);
    if (version > 0) {
      await client.query('COMMIT');
      return false;
    }
    if (!init) throw new StateError(`the database ${where} holds no filemgr state; run filemgr once to create it, or copy one there with filemgr db copy`);
    const { writes } = diffRows(new Map(), init());
    await writeRows(client, writes, 1);
    await client.query('COMMIT');
    return true;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Opens the state in the PostgreSQL database at `url` (creating or migrating its schema, and
 * with `init` its first state). Errors never show the URL's password.
 */
export async function openPgStore(url: string, options: PgStoreOptions = {}): Promise<{ store: PgStore; created: boolean }> {
  const where = redactDatabase(url);
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 4, application_name: 'filemgr' });
  const onError = options.onError ?? (() => undefined);
  pool.on('error', onError);
  const store = new PgStateStore(pool, url, onError);
  try {
    await migrateSchema(pool, where);
    const created = await initialise(pool, options.init, where);
    await store.start();
    return { store, created };
  } catch (error) {
    await store.close().catch(() => undefined);
    if (error instanceof StateError) throw error;
    throw new StateError(`cannot open the database ${where}: ${redactIn(error instanceof Error ? error.message : String(error), url)}`);
  }
}

/** The connection pool of a PostgreSQL store (the activity log shares it), else undefined. */
export function pgPoolOf(store: Store): pg.Pool | undefined {
  return store instanceof PgStateStore ? store.pool : undefined;
}
