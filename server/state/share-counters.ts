import type { Store } from './store';

/**
 * The counts of a share (beyond.md §2): downloads against the link's limit and files received by
 * an upload link. They must survive a restart, so they live in the share's record in the state
 * store. A limited link's download is one serialised `store.update` (an increment-if-below), which
 * makes the limit exact under concurrency; S1 backs the same interface with PostgreSQL (an
 * `UPDATE ... WHERE downloads < limit RETURNING`) for several instances (beyond.md §10).
 */
export interface ShareCounters {
  /**
   * Counts one download of link `hash` unless `limit` (> 0) is reached: true when counted (the
   * visitor may have the file), false at the limit or when the link is gone. Atomic: with one
   * download left, of N concurrent calls exactly one is true. A limit of 0 never refuses; those
   * counts are written a moment later, several at once (see `flush`).
   */
  takeDownload(hash: string, limit: number): Promise<boolean>;
  /** Counts one file received through upload link `hash` (nothing when the link is gone). */
  countUpload(hash: string): Promise<void>;
  /** Writes the buffered counts of unlimited links now (the server is closing). */
  flush(): Promise<void>;
}

export interface ShareCountersOptions {
  /** How long the downloads of unlimited links are gathered before one write (ms). */
  flushMs?: number;
}

/**
 * The counters kept in the share records of the state store. Downloads of unlimited links are
 * only informative: they are gathered in this instance and added to the records in one write a
 * second later, so a busy public link does not cost a state-file write (an fsync) per download.
 * Each instance adds its own downloads, so several instances still sum up right.
 */
export function createStoreShareCounters(store: Store, options: ShareCountersOptions = {}): ShareCounters {
  const pending = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  const flush = async (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.size === 0) return;
    const counts = [...pending];
    pending.clear();
    await store.update((db) => {
      for (const [hash, n] of counts) {
        const link = db.shares.find((s) => s.hash === hash);
        if (link) link.downloads = (link.downloads ?? 0) + n;
      }
    });
  };
  const later = (hash: string): boolean => {
    pending.set(hash, (pending.get(hash) ?? 0) + 1);
    timer ??= setTimeout(() => void flush().catch(() => undefined), options.flushMs ?? 1000);
    timer.unref();
    return true;
  };
  const takeLimited = (hash: string, limit: number): Promise<boolean> =>
    store.update((db) => {
      const link = db.shares.find((s) => s.hash === hash);
      const downloads = link?.downloads ?? 0;
      if (!link || downloads >= limit) return false;
      link.downloads = downloads + 1;
      return true;
    });
  return {
    takeDownload: (hash, limit) => (limit > 0 ? takeLimited(hash, limit) : Promise.resolve(later(hash))),
    countUpload: (hash) =>
      store.update((db) => {
        const link = db.shares.find((s) => s.hash === hash);
        if (link) link.uploads = (link.uploads ?? 0) + 1;
      }),
    flush,
  };
}
