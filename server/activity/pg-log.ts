/**
 * The activity log in PostgreSQL (beyond.md §8, §10): a table every instance appends to, in the
 * state store's schema (state/pg-schema.ts). Appends are gathered for a moment and inserted
 * together; a query first writes what this instance holds. Entries older than the retention are
 * deleted at the start, daily and before each query. The cursor is `p<id>`: the next page holds
 * the entries with a smaller id (ids grow in the order entries were written).
 */
import type pg from 'pg';
import { AppError } from '../errors';
import { STATE_SCHEMA } from '../state/pg-schema';
import { cutoffOf, type ActivityEntry, type ActivityFilters, type ActivityLog } from './entry';
import type { RetentionDeps } from './memory-log';

export interface PgLogOptions extends RetentionDeps {
  pool: pg.Pool;
  /** How long entries may wait before one insert (ms). */
  flushMs?: number;
  onError?: (err: unknown) => void;
}

const T = `${STATE_SCHEMA}.activity`;
const DAY_MS = 24 * 60 * 60 * 1000;

function cursorId(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const m = /^p(\d{1,18})$/.exec(cursor);
  if (!m?.[1]) throw new AppError('bad_request', 'cursor is not one this server gave');
  return m[1];
}

/** LIKE pattern for a literal substring. */
function contains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The WHERE clause and its parameters for `filters` (times in epoch ms). */
function whereOf(filters: ActivityFilters, since: number, cursor: string | undefined): { sql: string; params: unknown[] } {
  const params: unknown[] = [new Date(since).toISOString()];
  const parts = ['at >= $1'];
  const add = (clause: (n: string) => string, value: unknown): void => {
    params.push(value);
    parts.push(clause(`$${params.length}`));
  };
  if (filters.until !== undefined) add((n) => `at < ${n}`, new Date(filters.until).toISOString());
  if (filters.user !== undefined) add((n) => `entry->>'user' = ${n}`, filters.user);
  if (filters.action !== undefined) {
    if (filters.action.endsWith('.')) add((n) => `starts_with(entry->>'action', ${n})`, filters.action);
    else add((n) => `entry->>'action' = ${n}`, filters.action);
  }
  if (filters.path !== undefined) add((n) => `(entry->>'path' ILIKE ${n} OR entry->>'destination' ILIKE ${n})`, contains(filters.path));
  if (cursor !== undefined) add((n) => `id < ${n}::bigint`, cursor);
  return { sql: parts.join(' AND '), params };
}

/** The activity log table of a PostgreSQL store; `close()` writes what waits (the pool stays the store's). */
export function createPgActivityLog(opts: PgLogOptions): ActivityLog {
  const now = opts.now ?? Date.now;
  const onError = opts.onError ?? (() => undefined);
  let buffer: ActivityEntry[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    const batch = buffer;
    buffer = [];
    if (batch.length === 0) return writing;
    writing = writing.then(async () => {
      await opts.pool.query(`INSERT INTO ${T} (at, entry) SELECT (e->>'time')::timestamptz, e FROM unnest($1::jsonb[]) AS e`, [batch.map((e) => JSON.stringify(e))]);
    }).catch(onError);
    return writing;
  };
  const prune = async (): Promise<void> => {
    await opts.pool.query(`DELETE FROM ${T} WHERE at < $1`, [new Date(cutoffOf(opts.days(), now())).toISOString()]);
  };
  const daily = setInterval(() => void prune().catch(onError), DAY_MS).unref();
  void prune().catch(onError);
  return {
    append(entry) {
      buffer.push(entry);
      timer ??= setTimeout(() => void flush(), opts.flushMs ?? 250).unref();
    },
    async query(filters, limit, cursor) {
      const before = cursorId(cursor);
      await flush();
      const since = Math.max(filters.since ?? -Infinity, cutoffOf(opts.days(), now()));
      const where = whereOf(filters, since, before);
      const rows = (await opts.pool.query<{ id: string; entry: ActivityEntry }>(
        `SELECT id, entry FROM ${T} WHERE ${where.sql} ORDER BY id DESC LIMIT ${Math.max(0, Math.floor(limit)) + 1}`,
        where.params,
      )).rows;
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return { entries: page.map((r) => r.entry), next: rows.length > limit && last ? `p${last.id}` : null };
    },
    prune,
    async close() {
      clearInterval(daily);
      await flush();
    },
  };
}
