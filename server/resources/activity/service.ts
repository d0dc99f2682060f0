import { Readable } from 'node:stream';
import type { ActivityPageView, ActivityQuery } from '../../contract/activity';
import { csvEntry, csvHeader } from '../../activity/csv';
import type { ActivityFilters, ActivityLog } from '../../activity/entry';
import { AppError } from '../../errors';
import type { UserRecord } from '../../state/schema';

export interface ActivityServiceDeps {
  log: ActivityLog;
}

export const DEFAULT_PAGE = 100;
export const MAX_PAGE = 1000;

/** A time filter: an ISO 8601 date or date-time, or epoch milliseconds. */
function timeOf(name: string, text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  const ms = /^\d{1,15}$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(ms)) throw new AppError('bad_request', `${name} must be an ISO 8601 date or time`);
  return ms;
}

function limitOf(text: string | undefined, fallback: number | undefined): number | undefined {
  if (text === undefined || text === '') return fallback;
  if (!/^\d{1,4}$/.test(text) || Number(text) < 1 || Number(text) > MAX_PAGE) throw new AppError('bad_request', `limit must be a whole number from 1 to ${MAX_PAGE}`);
  return Number(text);
}

/**
 * The filters a caller may use: an admin any; anyone else only `user=self`, their own entries
 * (403 otherwise). `self` names the caller for an admin too.
 */
function filtersFor(caller: UserRecord, q: ActivityQuery): ActivityFilters {
  const self = q.user === 'self';
  if (!caller.perm.admin && !self) throw new AppError('forbidden');
  const filters: ActivityFilters = {};
  if (q.user !== undefined && q.user !== '') filters.user = self ? caller.username : q.user;
  if (q.action !== undefined && q.action !== '') filters.action = q.action;
  if (q.path !== undefined && q.path !== '') filters.path = q.path;
  const since = timeOf('since', q.since);
  const until = timeOf('until', q.until);
  if (since !== undefined) filters.since = since;
  if (until !== undefined) filters.until = until;
  return filters;
}

async function page(deps: ActivityServiceDeps, caller: UserRecord, q: ActivityQuery): Promise<ActivityPageView> {
  const filters = filtersFor(caller, q);
  const { entries, next } = await deps.log.query(filters, limitOf(q.limit, DEFAULT_PAGE) ?? DEFAULT_PAGE, q.cursor || undefined);
  return { items: entries, next };
}

/** Every matching entry (or the first `limit`), newest first, read a page at a time. */
async function* csvLines(deps: ActivityServiceDeps, filters: ActivityFilters, q: ActivityQuery): AsyncGenerator<string> {
  yield csvHeader();
  let left = limitOf(q.limit, undefined) ?? Number.POSITIVE_INFINITY;
  let cursor = q.cursor || undefined;
  while (left > 0) {
    const { entries, next } = await deps.log.query(filters, Math.min(MAX_PAGE, left), cursor);
    if (entries.length > 0) yield entries.map(csvEntry).join('');
    left -= entries.length;
    if (next === null) return;
    cursor = next;
  }
}

/** GET /api/activity and /api/activity.csv (beyond.md §8). */
export function createActivityService(deps: ActivityServiceDeps) {
  return {
    /** One page, newest first, and the cursor of the next. */
    page: (caller: UserRecord, q: ActivityQuery) => page(deps, caller, q),
    /** The CSV export of the same filters; the filters are checked before the first byte. */
    csv(caller: UserRecord, q: ActivityQuery): Readable {
      const filters = filtersFor(caller, q);
      limitOf(q.limit, undefined);
      return Readable.from(csvLines(deps, filters, q));
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
