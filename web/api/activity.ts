import type { ActivityPageView } from '@contract/activity';
import { apiPaths, withQuery } from '../paths';
import { apiUrl, fetchJson } from './http';

/** The filters of the activity page, as the API takes them (empty: not filtered). */
export interface ActivityFilterValues {
  user: string;
  action: string;
  path: string;
  /** ISO 8601 times or ''. */
  since: string;
  until: string;
}

function query(filters: ActivityFilterValues, extra: Record<string, string | undefined>): Record<string, string | undefined> {
  return { user: filters.user.trim(), action: filters.action, path: filters.path.trim(), since: filters.since, until: filters.until, ...extra };
}

/** GET /api/activity: one page newest first; `cursor` is the `next` of the page before. */
export async function getActivity(filters: ActivityFilterValues, cursor?: string): Promise<ActivityPageView> {
  return fetchJson<ActivityPageView>(withQuery(apiPaths.activity, query(filters, { limit: '100', cursor })));
}

/** The address of the CSV export of the same filters (a GET the browser makes itself; the auth cookie signs it). */
export function activityCsvUrl(filters: ActivityFilterValues): string {
  return apiUrl(withQuery(apiPaths.activityCsv, query(filters, {})));
}
