import { DEFAULT_ACTIVITY_DAYS } from '../state/initial';
import type pg from 'pg';
import type { ActivityLog } from './entry';
import { createFileActivityLog } from './file-log';
import { createMemoryActivityLog } from './memory-log';
import { createPgActivityLog } from './pg-log';

export interface OpenActivityLogOptions {
  /** The state store's location: a database path, or ':memory:'. */
  location: string;
  /** The `activityDays` setting as stored (undefined: the default). */
  days: () => number | undefined;
  onError?: (err: unknown) => void;
  /** Rotation size (tests set a small one). */
  maxBytes?: number;
  /** The PostgreSQL store's pool: the log is then its table (beyond.md §10). */
  pg?: pg.Pool | undefined;
}

/** The activity log: a table with PostgreSQL, else beside the database (`<db>.activity.jsonl`), or in memory for a ':memory:' store. */
export function openActivityLog(opts: OpenActivityLogOptions): ActivityLog {
  const days = (): number => opts.days() ?? DEFAULT_ACTIVITY_DAYS;
  if (opts.pg) return createPgActivityLog({ pool: opts.pg, days, ...(opts.onError ? { onError: opts.onError } : {}) });
  if (opts.location === ':memory:') return createMemoryActivityLog({ days });
  return createFileActivityLog({ path: `${opts.location}.activity.jsonl`, days, ...(opts.onError ? { onError: opts.onError } : {}), ...(opts.maxBytes ? { maxBytes: opts.maxBytes } : {}) });
}
