import { atom } from 'jotai';
import { updateUser } from '../../api/users';
import { requestAtom, reloadAtom } from '../../state/request';
import { renewAtom, userAtom } from '../../state/session';

export type ViewMode = 'list' | 'mosaic' | 'mosaic gallery';
const CYCLE: readonly ViewMode[] = ['list', 'mosaic', 'mosaic gallery'];

export type SortBy = 'name' | 'size' | 'modified';

/** The view chosen in this session, before the renewed token carries it. */
const viewOverrideAtom = atom<ViewMode | null>(null);

/** The view mode in force: the last switch, else the user's stored one (unknown values: list). */
export const viewModeAtom = atom<ViewMode>((get) => {
  const stored = get(userAtom)?.viewMode;
  return get(viewOverrideAtom) ?? (CYCLE.find((mode) => mode === stored) ?? 'list');
});

/** Switches list -> mosaic -> mosaic gallery -> list and stores the choice on the user. */
export const switchViewAtom = atom(null, async (get, set) => {
  const next = CYCLE[(CYCLE.indexOf(get(viewModeAtom)) + 1) % CYCLE.length] ?? 'list';
  set(viewOverrideAtom, next);
  const user = get(userAtom);
  if (!user) return;
  await updateUser({ id: user.id, which: ['viewMode'], data: { viewMode: next } });
  await set(renewAtom);
});

/** The listing's sorting as the server applied it. */
export const sortingAtom = atom((get) => {
  const sorting = get(requestAtom).resource?.sorting;
  return { by: sorting?.by ?? 'name', asc: sorting?.asc ?? false };
});

/**
 * What a column shows (ui.md: aria-sort describes the order on screen). By name the API's `asc`
 * is inverted: asc:false is A to Z (api.md §5.6).
 */
export function shownOrder(by: string, asc: boolean): 'ascending' | 'descending' {
  const ascending = by === 'name' ? !asc : asc;
  return ascending ? 'ascending' : 'descending';
}

/**
 * The sorting a click on a column asks for (product.md §2): ascending when the column's arrow
 * points up (it is the current column and not ascending), otherwise descending; so a second
 * click on the current column flips it, and another column starts with asc:false.
 */
export function nextSorting(current: { by: string; asc: boolean }, by: SortBy): { by: SortBy; asc: boolean } {
  return { by, asc: current.by === by && !current.asc };
}

/** Sorts by a column: stores the choice on the user, then the listing reloads. */
export const sortByAtom = atom(null, async (get, set, by: SortBy) => {
  const user = get(userAtom);
  if (!user) return;
  await updateUser({ id: user.id, which: ['sorting'], data: { sorting: nextSorting(get(sortingAtom), by) } });
  set(reloadAtom, (n) => n + 1);
});

/** The index (in display order) of the item with keyboard focus. */
export const focusIndexAtom = atom(0);

/** Where the last plain or Ctrl click (or arrow move) was: the start of a Shift range. */
export const anchorAtom = atom<number | null>(null);
