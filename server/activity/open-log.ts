import { DEFAULT_ACTIVITY_DAYS } from '../state/initial';
import type { ActivityLog } from './entry';
import { createFileActivityLog } from './file-log';
import { createMemoryActivityLog } from './memory-log';

export interface OpenActivityLogOptions {
  /** The state store's location: a database path, or ':memory:'. */
  location: string;
  /** The `activityDays` setting as stored (undefined: the default). */
  days: () => number | undefined;
  onError?: (err: unknown) => void;
  /** Rotation size (tests set a small one). */
  maxBytes?: number;
}

/** The activity log beside the database (`<db>.activity.jsonl`), or in memory for a ':memory:' store. */
export function openActivityLog(opts: OpenActivityLogOptions): ActivityLog {
  const days = (): number => opts.days() ?? DEFAULT_ACTIVITY_DAYS;
  if (opts.location === ':memory:') return createMemoryActivityLog({ days });
  return createFileActivityLog({ path: `${opts.location}.activity.jsonl`, days, ...(opts.onError ? { onError: opts.onError } : {}), ...(opts.maxBytes ? { maxBytes: opts.maxBytes } : {}) });
}
