import { atom } from 'jotai';
import type { ActivityEntryView } from '@contract/activity';
import { getActivity, type ActivityFilterValues } from '../../api/activity';
import type { Messages } from '../../i18n/locales';

export type { ActivityFilterValues };

/** The filters as the form holds them: dates are `YYYY-MM-DD` (the date inputs' value). */
export interface ActivityForm {
  user: string;
  action: string;
  path: string;
  since: string;
  until: string;
}

export const EMPTY_FORM: ActivityForm = { user: '', action: '', path: '', since: '', until: '' };

type ActionKey = keyof Messages['activity']['actions'];

/** The recorded actions the filter offers, by their wire name, and their label key. */
export const ACTION_LABELS: ReadonlyArray<readonly [string, ActionKey]> = [
  ['login', 'login'], ['signup', 'signup'], ['create', 'create'], ['upload', 'upload'], ['save', 'save'], ['rename', 'rename'],
  ['move', 'move'], ['copy', 'copy'], ['delete', 'delete'], ['share.create', 'shareCreate'], ['share.delete', 'shareDelete'],
  ['share.use', 'shareUse'], ['user.create', 'userCreate'], ['user.update', 'userUpdate'], ['user.delete', 'userDelete'],
  ['user.logout', 'userLogout'], ['settings.update', 'settingsUpdate'],
];

const LABEL_OF = new Map<string, ActionKey>(ACTION_LABELS);

/** The label key of a recorded action; undefined for one this build does not name (shown as is). */
export function actionLabelKey(action: string): ActionKey | undefined {
  return LABEL_OF.get(action);
}

/** Local midnight of a `YYYY-MM-DD` day, `days` later, as ISO 8601; '' for no day. */
function localDay(day: string, days: number): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return '';
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days).toISOString();
}

/** The API filters of the form: "From" is its day's start, "To" includes its whole day. */
export function filtersOf(form: ActivityForm): ActivityFilterValues {
  return { user: form.user, action: form.action, path: form.path, since: localDay(form.since, 0), until: localDay(form.until, 1) };
}

export interface ActivityList {
  filters: ActivityFilterValues;
  items: ActivityEntryView[];
  next: string | null;
  /** False until the first page of these filters arrived. */
  loaded: boolean;
}

/** The entries shown, newest first, with the cursor of the next page. */
export const activityListAtom = atom<ActivityList>({ filters: filtersOf(EMPTY_FORM), items: [], next: null, loaded: false });

/** Shows the first page for `filters` (a later call wins over an earlier one still running). */
export const loadActivityAtom = atom(null, async (get, set, filters: ActivityFilterValues) => {
  set(activityListAtom, { filters, items: [], next: null, loaded: false });
  const page = await getActivity(filters);
  if (get(activityListAtom).filters !== filters) return;
  set(activityListAtom, { filters, items: page.items, next: page.next, loaded: true });
});

/** Appends the next page of the current filters. */
export const loadMoreActivityAtom = atom(null, async (get, set) => {
  const list = get(activityListAtom);
  if (list.next === null) return;
  const page = await getActivity(list.filters, list.next);
  if (get(activityListAtom) !== list) return;
  set(activityListAtom, { ...list, items: [...list.items, ...page.items], next: page.next });
});
