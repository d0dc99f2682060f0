/**
 * The PostgreSQL schema of the state store (store-pg.ts) and the activity log
 * (activity/pg-log.ts), versioned: `schema_version` holds the number of migrations applied and
 * each start applies the missing ones, in one transaction under an advisory lock, so instances
 * starting together never race (the second waits, then finds nothing to do).
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { StateError } from './migrations';
import { inTransaction } from './pg-transaction';

/** The schema that holds the state tables. */
export const STATE_SCHEMA = 'filemgr_state';
/** The NOTIFY channel that announces a new state version (the payload is the version). */
export const STATE_CHANNEL = 'filemgr_state_changed';

const S = STATE_SCHEMA;

/**
 * The migrations, in order; index + 1 is the version each one brings the schema to. Append
 * only: a released migration never changes.
 */
const MIGRATIONS: readonly string[] = [
  // 1: the state as rows (pg-rows.ts), the version counter, the activity log.
  `CREATE TABLE ${S}.items (
     coll text COLLATE "C" NOT NULL,
     key text COLLATE "C" NOT NULL,
     pos bigint NOT NULL,
     value jsonb,
     changed bigint NOT NULL,
     PRIMARY KEY (coll, key)
   );
   CREATE INDEX items_changed ON ${S}.items (changed);
   CREATE TABLE ${S}.meta (
     id int PRIMARY KEY CHECK (id = 1),
     version bigint NOT NULL,
     horizon bigint NOT NULL
   );
   INSERT INTO ${S}.meta (id, version, horizon) VALUES (1, 0, 0);
   CREATE TABLE ${S}.activity (
     id bigserial PRIMARY KEY,
     at timestamptz NOT NULL,
     entry jsonb NOT NULL
   );
   CREATE INDEX activity_at ON ${S}.activity (at);`,
];

/** The schema version this build writes. */
export const PG_SCHEMA_VERSION = MIGRATIONS.length;

/** A name as the signed 64-bit key `pg_advisory_lock` takes (as text: pg's int8). */
export function advisoryKey(name: string): string {
  return createHash('sha256').update(name).digest().readBigInt64BE(0).toString();
}

const MIGRATE_LOCK = advisoryKey('filemgr:state-schema');

async function versionOf(client: pg.PoolClient): Promise<number> {
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${S}`);
  await client.query(`CREATE TABLE IF NOT EXISTS ${S}.schema_version (version int NOT NULL)`);
  const rows = (await client.query<{ version: number }>(`SELECT version FROM ${S}.schema_version`)).rows;
  if (rows.length === 0) {
    await client.query(`INSERT INTO ${S}.schema_version (version) VALUES (0)`);
    return 0;
  }
  return rows[0]?.version ?? 0;
}

/**
 * Creates or migrates the schema; answers the version found before. Refuses a schema written by
 * a newer filemgr.
 */
export async function migrateSchema(pool: pg.Pool, where: string): Promise<number> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATE_LOCK]);
    const found = await versionOf(client);
    if (found > PG_SCHEMA_VERSION) {
      throw new StateError(`the database ${where} was written by a newer filemgr (schema ${found}, this build knows ${PG_SCHEMA_VERSION}); upgrade filemgr`);
    }
    for (let v = found; v < PG_SCHEMA_VERSION; v++) await client.query(MIGRATIONS[v] ?? '');
    if (found !== PG_SCHEMA_VERSION) await client.query(`UPDATE ${S}.schema_version SET version = $1`, [PG_SCHEMA_VERSION]);
    return found;
  });
}
