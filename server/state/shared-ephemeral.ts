import { createMemoryEphemeral, type Ephemeral } from './ephemeral';
import { createPgEphemeral } from './ephemeral-pg';
import { createMemoryEpochChannel, type EpochChannel } from './epochs';
import { createPgEpochChannel } from './epochs-pg';

/**
 * What several instances share beside the state store (beyond.md §10): the shared-ephemeral store
 * and the session-epoch channel. On PostgreSQL when the database is a `postgres://` URL (every
 * instance on the same database then agrees), else in this process.
 */
export interface SharedEphemeral {
  ephemeral: Ephemeral;
  epochs: EpochChannel;
  /** Closes both (their connections, with PostgreSQL). */
  close(): Promise<void>;
}

/** True when `database` (the --database value) is a PostgreSQL URL rather than a file path. */
export function isPostgresUrl(database: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(database.trim());
}

/** `text` with the URL's password (and the whole URL) replaced: a driver's message may quote them. */
export function withoutPassword(text: string, url: string): string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    // No password to find in an unparseable URL; the URL itself is still replaced below.
  }
  let out = text.split(url).join('postgres://***');
  if (password.length >= 3) out = out.split(password).join('***');
  return out;
}

/**
 * Opens the shared ephemerals for `databaseUrl` (PostgreSQL) or in this process when it is
 * undefined. `onError` hears connection errors nobody waited for, their text without the password.
 */
export function openSharedEphemeral(databaseUrl: string | undefined, onError: (error: Error) => void): SharedEphemeral {
  if (databaseUrl === undefined) {
    const ephemeral = createMemoryEphemeral();
    const epochs = createMemoryEpochChannel((error) => onError(asError(error)));
    return { ephemeral, epochs, close: async () => void (await Promise.all([epochs.close(), ephemeral.close()])) };
  }
  const url = databaseUrl.trim();
  const report = (error: unknown): void => onError(new Error(withoutPassword(asError(error).message, url)));
  const ephemeral = createPgEphemeral({ url, onError: report });
  const epochs = createPgEpochChannel({ url, onError: report });
  return { ephemeral, epochs, close: async () => void (await Promise.all([epochs.close(), ephemeral.close()])) };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
