import { access, constants, rm, stat } from 'node:fs/promises';
import type { Database } from '../server/state/schema';
import { openFileStore, type Store } from '../server/state/store';
import { CliError } from './io';
import { fsReason } from './fs-errors';

/**
 * True when the database file exists and holds something. An empty file counts as missing, as
 * it does for filebrowser, whose Docker instructions `touch` the database before the first run.
 */
export async function databaseExists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).size > 0;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw new CliError(`cannot read the database ${path}: ${fsReason(err)}`);
  }
}

/** Opens a database that must exist (every subcommand but config init/import). */
export async function openExisting(path: string): Promise<Store> {
  if (!(await databaseExists(path))) {
    throw new CliError(`the database ${path} does not exist; run filemgr (or filemgr config init) to create it, or pass --database`);
  }
  // Said here, as a sentence: the store would only report the errno code.
  await access(path, constants.R_OK).catch((err: unknown) => {
    throw new CliError(`cannot read the database ${path}: ${fsReason(err)}`);
  });
  return (await openFileStore(path)).store;
}

/** Opens the database, creating it with `init` when missing (an empty file is replaced). */
export async function openOrCreate(path: string, init: () => Database): Promise<{ store: Store; created: boolean }> {
  if (!(await databaseExists(path))) await rm(path, { force: true });
  return openFileStore(path, init);
}
