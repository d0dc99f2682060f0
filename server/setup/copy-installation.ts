/**
 * `filemgr db copy` (beyond.md §10): moves an installation between a JSON file and PostgreSQL,
 * either way (or file to file, PostgreSQL to PostgreSQL): the whole state (users, settings,
 * shares and their counts, API tokens, TOTP secrets, dead properties, trash records) and the
 * activity log. A target that holds anything is left alone unless `force`.
 */
import { stat } from 'node:fs/promises';
import { readActivity, replaceActivity, type ActivityPlace } from '../activity/transfer';
import { databaseKind, redactDatabase } from '../state/database-kind';
import { StateError } from '../state/migrations';
import { openStore } from '../state/open-store';
import type { Database } from '../state/schema';
import type { Store } from '../state/store';
import { pgPoolOf } from '../state/store-pg';

export interface CopyCounts {
  users: number;
  shares: number;
  tokens: number;
  totp: number;
  davProperties: number;
  trash: number;
  activity: number;
}

function placeOf(store: Store, database: string): ActivityPlace {
  const pool = pgPoolOf(store);
  return pool ? { pool } : { file: database };
}

function countsOf(db: Readonly<Database>, activity: number): CopyCounts {
  return {
    users: db.users.length,
    shares: db.shares.length,
    tokens: db.tokens?.length ?? 0,
    totp: db.totp?.length ?? 0,
    davProperties: Object.keys(db.davProperties ?? {}).length,
    trash: db.trash?.length ?? 0,
    activity,
  };
}

async function fileExists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}

/** Opens the target with the copy as its first state; when it had one already, replaces it (force) or refuses. */
async function openTarget(to: string, state: Database, force: boolean): Promise<Store> {
  const where = redactDatabase(to);
  const refuse = `the target ${where} is not empty; filemgr left it untouched (pass --force to replace what it holds)`;
  if (databaseKind(to) === 'file' && !force && (await fileExists(to))) throw new StateError(refuse);
  const { store, created } = await openStore(to, { init: () => structuredClone(state) });
  try {
    if (!created) {
      if (!force) throw new StateError(refuse);
      await store.update((db) => {
        for (const key of Object.keys(db)) delete (db as unknown as Record<string, unknown>)[key];
        Object.assign(db, structuredClone(state));
      });
    }
    return store;
  } catch (error) {
    await store.close?.();
    throw error;
  }
}

/** Copies the installation at `from` to `to`; answers what it copied. */
export async function copyInstallation(from: string, to: string, options: { force?: boolean } = {}): Promise<CopyCounts> {
  if (from.trim() === to.trim()) throw new StateError('--from and --to name the same database');
  const source = (await openStore(from)).store;
  try {
    const state = structuredClone(source.data()) as Database;
    const entries = await readActivity(placeOf(source, from));
    const target = await openTarget(to, state, options.force === true);
    try {
      await replaceActivity(placeOf(target, to), entries);
      return countsOf(target.data(), entries.length);
    } finally {
      await target.close?.();
    }
  } finally {
    await source.close?.();
  }
}
