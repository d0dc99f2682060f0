/**
 * The whole activity log read out of one store and written into another (`filemgr db copy`,
 * beyond.md §10): the JSON-lines files beside a database file (the previous one first), or the
 * table of a PostgreSQL store.
 */
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type pg from 'pg';
import { writeFileAtomic } from '../state/atomic-file';
import { STATE_SCHEMA } from '../state/pg-schema';
import { inTransaction } from '../state/pg-transaction';
import { parseEntry, type ActivityEntry } from './entry';

/** Where an activity log lives: beside the database file, or in a PostgreSQL store's pool. */
export type ActivityPlace = { file: string } | { pool: pg.Pool };

const T = `${STATE_SCHEMA}.activity`;
const BATCH = 1000;

async function linesOf(path: string, out: ActivityEntry[]): Promise<void> {
  if (!(await stat(path).catch(() => undefined))) return;
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    const entry = parseEntry(line);
    if (entry) out.push(entry);
  }
}

/** Every entry of the log, oldest first. */
export async function readActivity(place: ActivityPlace): Promise<ActivityEntry[]> {
  if ('pool' in place) {
    return (await place.pool.query<{ entry: ActivityEntry }>(`SELECT entry FROM ${T} ORDER BY id`)).rows.map((r) => r.entry);
  }
  const out: ActivityEntry[] = [];
  await linesOf(`${place.file}.activity.jsonl.1`, out);
  await linesOf(`${place.file}.activity.jsonl`, out);
  return out;
}

/** Replaces the log with `entries` (oldest first). */
export async function replaceActivity(place: ActivityPlace, entries: ActivityEntry[]): Promise<void> {
  if ('file' in place) {
    await rm(`${place.file}.activity.jsonl.1`, { force: true });
    await writeFileAtomic(`${place.file}.activity.jsonl`, entries.map((e) => `${JSON.stringify(e)}\n`).join(''), 0o600);
    return;
  }
  await inTransaction(place.pool, async (client) => {
    await client.query(`DELETE FROM ${T}`);
    for (let i = 0; i < entries.length; i += BATCH) {
      const batch = entries.slice(i, i + BATCH).map((e) => JSON.stringify(e));
      await client.query(`INSERT INTO ${T} (at, entry) SELECT (e->>'time')::timestamptz, e FROM unnest($1::jsonb[]) WITH ORDINALITY AS t(e, n) ORDER BY n`, [batch]);
    }
  });
}
