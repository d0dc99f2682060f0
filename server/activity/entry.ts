/**
 * The activity log (beyond.md §8): one entry per change or sign-in, and the interface every
 * backing store implements (a JSON-lines file on one instance, a memory log in tests, a
 * PostgreSQL table with several instances).
 */

/*
 * Actions recorded today: login, signup, create, upload, save, rename, move, copy, delete,
 * share.create, share.delete, share.use, user.create, user.update, user.delete, user.logout,
 * settings.update (route-map.ts, resources/auth). Capabilities add theirs through
 * recordActivity (plugins/activity.ts): restore, extract, token.create ... ('family.verb').
 */

/** One recorded event. Paths are relative to the server root ('/' led); '' when none applies. */
export interface ActivityEntry {
  /** ISO 8601, UTC, milliseconds. */
  time: string;
  /** The acting user's name; '' for an anonymous visitor (a public share). */
  user: string;
  /** The client address (`--trustedProxy` aware). */
  address: string;
  action: string;
  path: string;
  destination: string;
  /** Bytes written (uploads, saves) or sent (share downloads); 0 otherwise. */
  bytes: number;
  result: 'ok' | 'failed';
  /** The HTTP status answered (0 when the event had none). */
  status: number;
  /** Extra words: the sign-in method ('password' ...), a share's hash, a user's changed fields. */
  detail: string;
}

/** What `query` filters by; every field is optional and they combine with AND. */
export interface ActivityFilters {
  /** Exact user name. */
  user?: string;
  /** Exact action, or a family prefix ending with '.' ('share.'). */
  action?: string;
  /** Case-insensitive substring of the path or the destination. */
  path?: string;
  /** Inclusive lower bound, epoch milliseconds. */
  since?: number;
  /** Exclusive upper bound, epoch milliseconds. */
  until?: number;
}

/** One page of entries, newest first, and the cursor of the next page (null: no more). */
export interface ActivityPage {
  entries: ActivityEntry[];
  next: string | null;
}

/**
 * Where entries are kept. `append` never blocks its caller (a file store buffers and flushes
 * within a second); `query` sees every entry appended before it was called.
 */
export interface ActivityLog {
  append(entry: ActivityEntry): void;
  /** Newest first; `cursor` is the opaque `next` of a previous page. Throws AppError('bad_request') on a malformed cursor. */
  query(filters: ActivityFilters, limit: number, cursor?: string): Promise<ActivityPage>;
  /** Drops entries older than the retention (also done by the store on its own schedule). */
  prune(): Promise<void>;
  /** Writes what is buffered and stops timers. */
  close(): Promise<void>;
}

/** Whether `entry` passes `filters` (the part of the cutoff `since` included). */
export function matches(entry: ActivityEntry, filters: ActivityFilters): boolean {
  if (filters.user !== undefined && entry.user !== filters.user) return false;
  if (filters.action !== undefined && !actionMatches(entry.action, filters.action)) return false;
  if (filters.path !== undefined && !pathMatches(entry, filters.path.toLowerCase())) return false;
  if (filters.since === undefined && filters.until === undefined) return true;
  const at = Date.parse(entry.time);
  if (filters.since !== undefined && !(at >= filters.since)) return false;
  return filters.until === undefined || at < filters.until;
}

function actionMatches(action: string, wanted: string): boolean {
  return wanted.endsWith('.') ? action.startsWith(wanted) : action === wanted;
}

function pathMatches(entry: ActivityEntry, needle: string): boolean {
  return entry.path.toLowerCase().includes(needle) || entry.destination.toLowerCase().includes(needle);
}

/** A full entry from its parts: missing fields get their empty value, the time is now. */
export function completeEntry(parts: Partial<ActivityEntry> & { action: string }, nowMs: number): ActivityEntry {
  return {
    time: parts.time ?? new Date(nowMs).toISOString(),
    user: parts.user ?? '',
    address: parts.address ?? '',
    action: parts.action,
    path: parts.path ?? '',
    destination: parts.destination ?? '',
    bytes: parts.bytes ?? 0,
    result: parts.result ?? 'ok',
    status: parts.status ?? 0,
    detail: parts.detail ?? '',
  };
}

/** Parses one stored line; undefined for a line that is not an entry (a torn write, garbage). */
export function parseEntry(line: string): ActivityEntry | undefined {
  if (line.trim() === '') return undefined;
  try {
    const v = JSON.parse(line) as Partial<ActivityEntry> | null;
    if (typeof v !== 'object' || v === null || typeof v.time !== 'string' || typeof v.action !== 'string') return undefined;
    return completeEntry(v as Partial<ActivityEntry> & { action: string }, 0);
  } catch {
    return undefined;
  }
}

/** The oldest time kept, in epoch milliseconds, for a retention of `days`. */
export function cutoffOf(days: number, nowMs: number): number {
  return nowMs - days * 24 * 60 * 60 * 1000;
}

/** Records an entry from its parts (time filled in): what a Fastify-free service is handed. */
export type RecordEntry = (parts: Partial<ActivityEntry> & { action: string }) => void;

/** The recorder of a log: completes the parts with the current time and appends them. */
export function entryRecorder(log: ActivityLog, now: () => number = Date.now): RecordEntry {
  return (parts) => log.append(completeEntry(parts, now()));
}
