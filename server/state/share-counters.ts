import type { Store } from './store';

/**
 * The counts of a share (beyond.md §2): downloads against the link's limit and files received by
 * an upload link. They must survive a restart, so they live in the share's record in the state
 * store; every change is one serialised `store.update`, which makes the limit exact under
 * concurrency. S1 backs the same interface with PostgreSQL (an `UPDATE ... WHERE downloads <
 * limit RETURNING`) for several instances (beyond.md §10).
 */
export interface ShareCounters {
  /**
   * Counts one download of link `hash` unless `limit` (> 0) is reached: true when counted (the
   * visitor may have the file), false at the limit or when the link is gone. A limit of 0 counts
   * without a bound. Atomic: with one download left, of N concurrent calls exactly one is true.
   */
  takeDownload(hash: string, limit: number): Promise<boolean>;
  /** Counts one file received through upload link `hash` (nothing when the link is gone). */
  countUpload(hash: string): Promise<void>;
}

/** The counters kept in the share records of the state store. */
export function createStoreShareCounters(store: Store): ShareCounters {
  return {
    takeDownload: (hash, limit) =>
      store.update((db) => {
        const link = db.shares.find((s) => s.hash === hash);
        const downloads = link?.downloads ?? 0;
        if (!link || (limit > 0 && downloads >= limit)) return false;
        link.downloads = downloads + 1;
        return true;
      }),
    countUpload: (hash) =>
      store.update((db) => {
        const link = db.shares.find((s) => s.hash === hash);
        if (link) link.uploads = (link.uploads ?? 0) + 1;
      }),
  };
}
