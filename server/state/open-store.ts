import { databaseKind } from './database-kind';
import type { Database } from './schema';
import { openFileStore, type Store } from './store';
import { openPgStore } from './store-pg';

export interface OpenStoreOptions {
  /** Creates the first state when there is none; without it a missing state is a StateError. */
  init?: () => Database;
  /** Told about errors no caller waits for (PostgreSQL: the LISTEN connection). */
  onError?: (error: unknown) => void;
}

/**
 * Opens the state named by `--database` (beyond.md §10): PostgreSQL for a `postgres://` URL,
 * else the JSON file at that path. `close()` (when present) ends its connections.
 */
export async function openStore(database: string, options: OpenStoreOptions = {}): Promise<{ store: Store; created: boolean }> {
  if (databaseKind(database) === 'postgres') {
    return openPgStore(database, { ...(options.init ? { init: options.init } : {}), ...(options.onError ? { onError: options.onError } : {}) });
  }
  return openFileStore(database, options.init);
}
