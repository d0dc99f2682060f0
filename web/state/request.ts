import { atom } from 'jotai';
import { getResource } from '../api/resources';
import type { Resource } from '../api/types';
import { statusOf } from '../lib/errors';
import { nowAtom } from './clock';

export interface RequestState {
  /** The user path the files route asked for ('' before the first request). */
  path: string;
  status: 'idle' | 'loading' | 'ready' | 'error';
  resource: Resource | null;
  /** The HTTP status of a failed request (0 = no connection). */
  errorStatus: number;
}

const IDLE: RequestState = { path: '', status: 'idle', resource: null, errorStatus: 0 };

/** The resource of the files route: what was asked for, and what came back. */
export const requestAtom = atom<RequestState>(IDLE);

/** Bumped to fetch the current path again (after uploads, deletes, renames...). */
export const reloadAtom = atom(0);

/**
 * Fetches `path` into requestAtom. An answer for a path the route has since left is dropped
 * (product.md §2, Files screen), so a slow response never replaces a newer one.
 */
export const loadResourceAtom = atom(null, async (get, set, path: string) => {
  const previous = get(requestAtom);
  const keep = previous.path === path ? previous.resource : null;
  set(requestAtom, { path, status: 'loading', resource: keep, errorStatus: 0 });
  try {
    const resource = await getResource(path);
    if (get(requestAtom).path === path) set(requestAtom, { path, status: 'ready', resource, errorStatus: 0 });
    // Relative dates are measured from now, not from the last minute tick: a file saved a moment
    // ago reads 'now', never 'in 2 seconds'.
    set(nowAtom, Date.now());
  } catch (error) {
    if (get(requestAtom).path === path) {
      set(requestAtom, { path, status: 'error', resource: null, errorStatus: statusOf(error) });
    }
  }
});

/** Leaves the files route: the request state is cleared. */
export const clearRequestAtom = atom(null, (_get, set) => set(requestAtom, IDLE));
