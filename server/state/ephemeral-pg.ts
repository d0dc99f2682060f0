/**
 * The shared-ephemeral store (`Ephemeral`, ephemeral.ts) on PostgreSQL, for several instances
 * serving one root (beyond.md §10). Its tables live in a schema of their own, created at first
 * use; times come from the database's clock, so instances whose clocks drift still agree on
 * expiries and windows. Counters and windows change in one statement each (atomic under
 * concurrency); locks are session advisory locks, each holder on a connection of its own, so a
 * holder whose connection or process dies releases its lock with it.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Ephemeral, RateWindow } from './ephemeral';
import { inTransaction } from './pg-transaction';

export interface PgEphemeralOptions {
  /** `postgres://user:password@host:port/db` */
  url: string;
  /** The schema that holds the tables (created when missing). */
  schema?: string;
  /** How often expired records and old windows are deleted (ms); 0 turns the sweep off. */
  sweepMs?: number;
  /** Connections for queries (locks take one more each, outside this pool). */
  poolSize?: number;
  /** Told about a connection error that no call was waiting for (the pool replaces it). */
  onError?: (error: Error) => void;
}

/** The shared-ephemeral store on PostgreSQL; `close()` ends its connections. */
export function createPgEphemeral(options: PgEphemeralOptions): Ephemeral {
  return new PgEphemeral(options);
}

const DEFAULT_SCHEMA = 'filemgr_ephemeral';
/** Rate windows older than this are swept (no caller counts over a longer window). */
const WINDOW_KEEP_MS = 24 * 3600_000;
/** The database's clock in milliseconds since the Unix epoch (the statement's start). */
const NOW_MS = '(extract(epoch from now()) * 1000)::bigint';
/** The advisory lock that serialises creating the tables when instances start together. */
const CREATE_LOCK = lockKey('filemgr:create-ephemeral-schema');

/** Keys up to this many bytes, without NUL, are stored as they are. */
const MAX_PLAIN_KEY = 1000;

/**
 * The key as stored: PostgreSQL text holds no NUL and a btree entry at most ~2.7 kB, so a key with
 * a NUL or longer than MAX_PLAIN_KEY bytes (a deep real path, say) is its first 200 characters
 * (NULs replaced) and a hash of the whole: still unique, still under the prefixes callers list by
 * (`list` answers the stored key: callers that list read the values).
 */
function storedKey(key: string): string {
  if (!key.includes('\0') && Buffer.byteLength(key) <= MAX_PLAIN_KEY) return key;
  return `${key.slice(0, 200).replaceAll('\0', '\u2400')}#${createHash('sha256').update(key).digest('hex')}`;
}

/** A lock name as the signed 64-bit key `pg_advisory_lock` takes (as text: pg's int8). */
export function lockKey(name: string): string {
  return createHash('sha256').update(name).digest().readBigInt64BE(0).toString();
}

class PgEphemeral implements Ephemeral {
  private readonly pool: pg.Pool;
  private readonly schema: string;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly onError: (error: Error) => void;
  private ready: Promise<void> | undefined;
  private closed = false;
  /** The last holder (or waiter) of each lock name on this instance. */
  private readonly queued = new Map<string, Promise<void>>();

  constructor(private readonly options: PgEphemeralOptions) {
    this.schema = options.schema ?? DEFAULT_SCHEMA;
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(this.schema)) throw new Error(`invalid schema name: ${this.schema}`);
    this.onError = options.onError ?? (() => undefined);
    this.pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    this.pool.on('error', (error) => this.onError(error));
    const sweepMs = options.sweepMs ?? 60_000;
    this.timer = sweepMs > 0 ? setInterval(() => void this.sweep().catch(this.onError), sweepMs) : undefined;
    this.timer?.unref();
  }

  async incrementIfBelow(key: string, limit: number): Promise<number | null> {
    // One statement either way; the row lock of UPDATE (and of ON CONFLICT) re-checks the
    // condition on the newest value, so of N concurrent calls with one step left one wins.
    // A missing counter is 0: it may only come into being when 0 is below the limit.
    const rows = await this.query<{ value: string }>(
      limit > 0
        ? `INSERT INTO ${this.t('counters')} (key, value) VALUES ($1, 1)
           ON CONFLICT (key) DO UPDATE SET value = counters.value + 1 WHERE counters.value < $2::float8
           RETURNING value`
        : `UPDATE ${this.t('counters')} SET value = value + 1 WHERE key = $1 AND value < $2::float8 RETURNING value`,
      [storedKey(key), limit],
    );
    return rows[0] ? Number(rows[0].value) : null;
  }

  async add(key: string, delta: number): Promise<number> {
    const rows = await this.query<{ value: string }>(
      `INSERT INTO ${this.t('counters')} (key, value) VALUES ($1, $2)
       ON CONFLICT (key) DO UPDATE SET value = counters.value + excluded.value RETURNING value`,
      [storedKey(key), delta],
    );
    return Number(rows[0]?.value ?? 0);
  }

  async count(key: string): Promise<number> {
    const rows = await this.query<{ value: string }>(`SELECT value FROM ${this.t('counters')} WHERE key = $1`, [storedKey(key)]);
    return Number(rows[0]?.value ?? 0);
  }

  async hit(key: string, windowMs: number): Promise<number> {
    const rows = await this.query<{ count: number }>(
      `INSERT INTO ${this.t('windows')} (key, started, count) VALUES ($1, ${NOW_MS}, 1)
       ON CONFLICT (key) DO UPDATE SET
         started = CASE WHEN ${NOW_MS} - windows.started >= $2::float8 THEN ${NOW_MS} ELSE windows.started END,
         count = CASE WHEN ${NOW_MS} - windows.started >= $2::float8 THEN 1 ELSE windows.count + 1 END
       RETURNING count`,
      [storedKey(key), windowMs],
    );
    return rows[0]?.count ?? 1;
  }

  async peekWindow(key: string, windowMs: number): Promise<RateWindow | undefined> {
    const rows = await this.query<{ count: number; ends: string }>(
      `SELECT count, started + $2::bigint - ${NOW_MS} AS ends FROM ${this.t('windows')}
       WHERE key = $1 AND ${NOW_MS} - started < $2::bigint`,
      [storedKey(key), Math.round(windowMs)],
    );
    const row = rows[0];
    return row ? { count: row.count, endsInMs: Number(row.ends) } : undefined;
  }

  async clearWindow(key: string): Promise<void> {
    await this.query(`DELETE FROM ${this.t('windows')} WHERE key = $1`, [storedKey(key)]);
  }

  async get<T>(key: string): Promise<T | undefined> {
    const rows = await this.query<{ value: string }>(
      `SELECT value FROM ${this.t('records')} WHERE key = $1 AND ${this.live()}`,
      [storedKey(key)],
    );
    return rows[0] ? (JSON.parse(rows[0].value) as T) : undefined;
  }

  async put(key: string, value: unknown, ttlMs?: number): Promise<void> {
    await this.query(
      `INSERT INTO ${this.t('records')} (key, value, expires)
       VALUES ($1, $2, CASE WHEN $3::bigint IS NULL THEN NULL ELSE ${NOW_MS} + $3::bigint END)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires = excluded.expires`,
      [storedKey(key), JSON.stringify(value) ?? 'null', ttlMs === undefined ? null : Math.round(ttlMs)],
    );
  }

  async putIfAbsent(key: string, value: unknown, ttlMs?: number): Promise<boolean> {
    // One statement: the conflict's row lock re-checks the condition on the newest row, so of N
    // concurrent calls one inserts and the others find a live record; an expired one is replaced.
    const rows = await this.query(
      `INSERT INTO ${this.t('records')} (key, value, expires)
       VALUES ($1, $2, CASE WHEN $3::bigint IS NULL THEN NULL ELSE ${NOW_MS} + $3::bigint END)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires = excluded.expires
       WHERE records.expires IS NOT NULL AND records.expires <= ${NOW_MS}
       RETURNING key`,
      [storedKey(key), JSON.stringify(value) ?? 'null', ttlMs === undefined ? null : Math.round(ttlMs)],
    );
    return rows.length === 1;
  }

  async delete(key: string): Promise<void> {
    await this.query(`DELETE FROM ${this.t('records')} WHERE key = $1`, [storedKey(key)]);
  }

  async list<T>(prefix: string): Promise<Array<{ key: string; value: T }>> {
    const rows = await this.query<{ key: string; value: string }>(
      `SELECT key, value FROM ${this.t('records')} WHERE starts_with(key, $1) AND ${this.live()}`,
      // A NUL cannot be sent; stored keys hold U+2400 in its place.
      [prefix.replaceAll('\0', '\u2400')],
    );
    return rows.map((r) => ({ key: r.key, value: JSON.parse(r.value) as T }));
  }

  async withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    this.assertOpen();
    // Holders of one name on this instance queue here first, so one connection per name and
    // instance waits in the database, not one per request (a busy WebDAV mutex, racing PATCHes).
    const previous = this.queued.get(name) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.queued.set(name, tail);
    await previous;
    try {
      return await this.databaseLock(name, fn);
    } finally {
      release();
      if (this.queued.get(name) === tail) this.queued.delete(name);
    }
  }

  private async databaseLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    this.assertOpen();
    // A connection of its own: waiters must never take the pool's connections from a holder
    // whose `fn` queries the store (that would deadlock once the pool is full of waiters).
    const client = new pg.Client({ connectionString: this.options.url });
    client.on('error', (error) => this.onError(error));
    await client.connect();
    const key = lockKey(name);
    try {
      await client.query('SELECT pg_advisory_lock($1::bigint)', [key]);
      try {
        return await fn();
      } finally {
        // When the connection has died the server has released the lock already.
        await client.query('SELECT pg_advisory_unlock($1::bigint)', [key]).catch(() => undefined);
      }
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.ready?.catch(() => undefined);
    await this.pool.end();
  }

  /** Deletes expired records and windows nobody counts in any more. */
  async sweep(): Promise<void> {
    await this.query(`DELETE FROM ${this.t('records')} WHERE expires <= ${NOW_MS}`);
    await this.query(`DELETE FROM ${this.t('windows')} WHERE ${NOW_MS} - started >= $1::bigint`, [WINDOW_KEEP_MS]);
  }

  private async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    this.assertOpen();
    await this.prepare();
    const result = await this.pool.query<R>(sql, params);
    return result.rows;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the shared-ephemeral store is closed');
  }

  /** Creates the schema and tables once; a failure is retried by the next call. */
  private prepare(): Promise<void> {
    this.ready ??= this.createTables().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private createTables(): Promise<void> {
    return inTransaction(this.pool, async (client) => {
      // Two instances starting together would both try CREATE ... IF NOT EXISTS and one fail.
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [CREATE_LOCK]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${this.t('counters')} (key text PRIMARY KEY, value bigint NOT NULL)`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.t('windows')} (key text PRIMARY KEY, started bigint NOT NULL, count integer NOT NULL)`,
      );
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.t('records')} (key text COLLATE "C" PRIMARY KEY, value text NOT NULL, expires bigint)`,
      );
    });
  }


  /** A table of this store's schema. */
  private t(table: 'counters' | 'windows' | 'records'): string {
    return `${this.schema}.${table}`;
  }

  /** The condition of a record that has not expired. */
  private live(): string {
    return `(expires IS NULL OR expires > ${NOW_MS})`;
  }
}
