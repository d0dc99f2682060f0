import { redactIn } from './database-kind';
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
  /**
   * Settles once this instance hears what the others announce (at once in-process), or after
   * `LISTEN_WAIT_MS` when PostgreSQL is slow to answer (the channel keeps trying meanwhile).
   */
  listening(): Promise<void>;
  /** Closes both (their connections, with PostgreSQL). */
  close(): Promise<void>;
}

/** How long a start waits for the epoch channel to listen before serving anyway. */
const LISTEN_WAIT_MS = 5000;

/**
 * Opens the shared ephemerals for `databaseUrl` (PostgreSQL) or in this process when it is
 * undefined. `onError` hears connection errors nobody waited for, their text without the password.
 */
export function openSharedEphemeral(databaseUrl: string | undefined, onError: (error: Error) => void): SharedEphemeral {
  if (databaseUrl === undefined) {
    const ephemeral = createMemoryEphemeral();
    const epochs = createMemoryEpochChannel((error) => onError(asError(error)));
    return { ephemeral, epochs, listening: () => Promise.resolve(), close: async () => void (await Promise.all([epochs.close(), ephemeral.close()])) };
  }
  const url = databaseUrl.trim();
  const report = (error: unknown): void => onError(new Error(redactIn(asError(error).message, url)));
  const ephemeral = createPgEphemeral({ url, onError: report });
  const epochs = createPgEpochChannel({ url, onError: report });
  const listening = async (): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, LISTEN_WAIT_MS)));
    await Promise.race([epochs.listening(), waited]);
    clearTimeout(timer);
  };
  return { ephemeral, epochs, listening, close: async () => void (await Promise.all([epochs.close(), ephemeral.close()])) };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
