import { access, constants, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database } from '../server/state/schema';
import { databaseKind } from '../server/state/database-kind';
import { openStore } from '../server/state/open-store';
import { openFileStore, type Store } from '../server/state/store';
import { CliError } from './io';
import { fsReason } from './fs-errors';

/**
 * True when something is at the database path. An empty file counts as existing (and is then
 * refused as corrupt when opened): it is never replaced by a fresh database.
 */
export async function databaseExists(path: string): Promise<boolean> {
  // PostgreSQL: only opening tells; openOrCreate creates a state only where there is none.
  if (databaseKind(path) === 'postgres') return false;
  try {
    await stat(path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw new CliError(`cannot read the database ${path}: ${fsReason(err)}`);
  }
}

/** Opens a database that must exist (every subcommand but config init/import). */
export async function openExisting(path: string): Promise<Store> {
  if (databaseKind(path) === 'postgres') return (await openStore(path)).store;
  if (!(await databaseExists(path))) {
    throw new CliError(`the database ${path} does not exist; run filemgr (or filemgr config init) to create it, or pass --database`);
  }
  // Said here, as a sentence: the store would only report the errno code.
  await access(path, constants.R_OK).catch((err: unknown) => {
    throw new CliError(`cannot read the database ${path}: ${fsReason(err)}`);
  });
  return (await openFileStore(path)).store;
}

/**
 * What the files beside the database (the first admin password) are named after, and what the
 * server hides from listings: the database file, or `<cwd>/filemgr` with PostgreSQL, whose URL is
 * no place for a file.
 */
export function besideDatabase(database: string, cwd: string): string {
  return databaseKind(database) === 'postgres' ? join(cwd, 'filemgr') : database;
}

/** Opens the database, creating it with `init` when nothing is at its path. */
export function openOrCreate(path: string, init: () => Database, onError?: (error: unknown) => void): Promise<{ store: Store; created: boolean }> {
  return openStore(path, { init, ...(onError ? { onError } : {}) });
}
