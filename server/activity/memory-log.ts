import { AppError } from '../errors';
import { cutoffOf, matches, type ActivityEntry, type ActivityLog } from './entry';

export interface RetentionDeps {
  /** The retention in days, read at each use (the `activityDays` setting). */
  days: () => number;
  now?: () => number;
}

/** The cursor of the memory log: `m` and the count of entries before the next page's first one. */
function parseMemoryCursor(cursor: string | undefined, length: number): number {
  if (cursor === undefined) return length;
  const m = /^m(\d{1,15})$/.exec(cursor);
  if (!m) throw new AppError('bad_request', 'cursor is not one this server gave');
  return Math.min(Number(m[1]), length);
}

/** The activity log of a ':memory:' store (tests): an array, pruned by age on each query. */
export function createMemoryActivityLog(deps: RetentionDeps): ActivityLog {
  const now = deps.now ?? Date.now;
  // Kept in a holder so prune can replace the array while positions stay meaningful: dropped
  // entries are the oldest, so a cursor shifts by the count dropped.
  const state = { entries: [] as ActivityEntry[], dropped: 0 };
  const prune = (): Promise<void> => {
    const cutoff = cutoffOf(deps.days(), now());
    const first = state.entries.findIndex((e) => Date.parse(e.time) >= cutoff);
    const drop = first < 0 ? state.entries.length : first;
    state.entries = state.entries.slice(drop);
    state.dropped += drop;
    return Promise.resolve();
  };
  return {
    append: (entry) => void state.entries.push(entry),
    async query(filters, limit, cursor) {
      await prune();
      const total = state.dropped + state.entries.length;
      let i = parseMemoryCursor(cursor, total) - state.dropped;
      const out: ActivityEntry[] = [];
      for (i -= 1; i >= 0 && out.length < limit; i--) {
        const entry = state.entries[i];
        if (entry && matches(entry, filters)) out.push(entry);
      }
      return { entries: out, next: i >= 0 ? `m${i + 1 + state.dropped}` : null };
    },
    prune,
    close: () => Promise.resolve(),
  };
}
