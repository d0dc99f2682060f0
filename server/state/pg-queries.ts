/**
 * The statements of the PostgreSQL state store (store-pg.ts) on the rows of pg-rows.ts: read
 * what changed since a version, write a diff and bump the version with its NOTIFY.
 */
import type pg from 'pg';
import type { RowWrite } from './pg-rows';
import { STATE_CHANNEL, STATE_SCHEMA } from './pg-schema';

const S = STATE_SCHEMA;

/** What a read found: the version it saw, the tombstone horizon, and the rows changed since. */
export interface ReadResult {
  version: number;
  horizon: number;
  rows: RowWrite[];
}

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

interface ReadRow {
  version: string;
  horizon: string;
  coll: string | null;
  key: string | null;
  pos: string | null;
  value: unknown;
}

/**
 * The rows changed after version `since` (tombstones included, json null) with the version and
 * horizon they belong to: one statement, so one consistent snapshot even without a transaction.
 * `since` -1 reads everything that exists (tombstones left out).
 */
export async function readSince(db: Queryable, since: number): Promise<ReadResult> {
  const all = since < 0;
  const result = await db.query<ReadRow>(
    `WITH m AS (SELECT version, horizon FROM ${S}.meta WHERE id = 1)
     SELECT m.version, m.horizon, i.coll, i.key, i.pos, i.value
     FROM m LEFT JOIN ${S}.items i ON ${all ? 'i.value IS NOT NULL' : 'i.changed > $1'}`,
    all ? [] : [since],
  );
  const first = result.rows[0];
  if (!first) throw new Error('the state version row is missing');
  const rows: RowWrite[] = [];
  for (const r of result.rows) {
    if (r.coll === null || r.key === null) continue;
    // jsonb comes back parsed (keys in jsonb's order); its JSON text is what later diffs compare.
    rows.push({ coll: r.coll, key: r.key, pos: Number(r.pos), json: r.value === null ? null : JSON.stringify(r.value) });
  }
  return { version: Number(first.version), horizon: Number(first.horizon), rows };
}

/**
 * Starts a transaction and locks the version row in it (updates of every instance queue here);
 * answers the version. One round trip: both statements go as one simple query.
 */
export async function beginLocked(client: pg.PoolClient): Promise<{ version: number; horizon: number }> {
  const results = (await client.query(`BEGIN; SELECT version, horizon FROM ${S}.meta WHERE id = 1 FOR UPDATE`)) as unknown as pg.QueryResult<{ version: string; horizon: string }>[];
  const row = results[1]?.rows[0];
  if (!row) throw new Error('the state version row is missing');
  return { version: Number(row.version), horizon: Number(row.horizon) };
}

/** Tombstones are kept for this many versions: a snapshot older than that reloads everything. */
const TOMBSTONE_KEEP = 256;

/** Writes the rows (json null = tombstone), sets the version to `version` and NOTIFYs it at commit. */
export async function writeRows(client: pg.PoolClient, writes: RowWrite[], version: number): Promise<void> {
  await client.query(
    `WITH w AS (
       INSERT INTO ${S}.items (coll, key, pos, value, changed)
       SELECT c, k, p, v::jsonb, $5 FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[]) AS t(c, k, p, v)
       ON CONFLICT (coll, key) DO UPDATE SET pos = EXCLUDED.pos, value = EXCLUDED.value, changed = EXCLUDED.changed
       RETURNING 1
     ), m AS (UPDATE ${S}.meta SET version = $5 WHERE id = 1 RETURNING version)
     SELECT pg_notify($6, m.version::text) FROM m`,
    [writes.map((w) => w.coll), writes.map((w) => w.key), writes.map((w) => w.pos), writes.map((w) => w.json), version, STATE_CHANNEL],
  );
  if (version % TOMBSTONE_KEEP !== 0) return;
  const horizon = version - TOMBSTONE_KEEP;
  await client.query(`DELETE FROM ${S}.items WHERE value IS NULL AND changed <= $1`, [horizon]);
  await client.query(`UPDATE ${S}.meta SET horizon = $1 WHERE id = 1`, [horizon]);
}
