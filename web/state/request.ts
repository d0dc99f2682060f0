import { atom } from 'jotai';
import { getResource, getResourceAsItArrives } from '../api/resources';
import type { FileInfo, Resource } from '../api/types';
import { statusOf } from '../lib/errors';
import { nowAtom } from './clock';
import { takeEarly } from './early-listing';
import { arrivesByName, rememberOrder } from './listing-order';

export interface RequestState {
  /** The user path the files route asked for ('' before the first request). */
  path: string;
  status: 'idle' | 'loading' | 'ready' | 'error';
  resource: Resource | null;
  /** The HTTP status of a failed request (0 = no connection). */
  errorStatus: number;
  /**
   * While a large folder is still arriving (no resource yet): its first items, in the server's
   * order. Shown, but nothing acts on them (the listing is busy until the resource is here).
   */
  firstItems: readonly FileInfo[] | null;
}

const IDLE: RequestState = { path: '', status: 'idle', resource: null, errorStatus: 0, firstItems: null };

/** The resource of the files route: what was asked for, and what came back. */
export const requestAtom = atom<RequestState>(IDLE);

/** Bumped to fetch the current path again (after uploads, deletes, renames...). */
export const reloadAtom = atom(0);

/** The latest loadResourceAtom call: only its answer may write. */
let lastLoad = 0;

/**
 * Fetches `path` into requestAtom. An answer for a path the route has since left is dropped
 * (product.md §2, Files screen), so a slow response never replaces a newer one.
 */
export const loadResourceAtom = atom(null, async (get, set, path: string) => {
  // Only the latest request writes: a reload while the folder still arrives (a new sorting, say)
  // must not be overwritten by the answer it replaced.
  const load = ++lastLoad;
  const current = () => load === lastLoad && get(requestAtom).path === path;
  const previous = get(requestAtom);
  const keep = previous.path === path ? previous.resource : null;
  set(requestAtom, { path, status: 'loading', resource: keep, errorStatus: 0, firstItems: null });
  // Relative dates are measured from now, not from the last minute tick: a file saved a moment
  // ago reads 'now', never 'in 2 seconds'.
  const showFirst = (firstItems: FileInfo[]) => {
    const now = get(requestAtom);
    if (!current() || now.status !== 'loading' || now.resource) return;
    set(nowAtom, Date.now());
    set(requestAtom, { ...now, firstItems });
  };
  try {
    // A reload keeps the folder on screen until the new answer is whole, and a folder sorted by
    // size or time may put a subfolder after its first items: no first items then.
    // The page's first load may find its answer already on the way (early-listing.ts).
    const early = takeEarly(path, showFirst);
    const resource = early ? await early : keep || !arrivesByName() ? await getResource(path) : await getResourceAsItArrives(path, showFirst);
    rememberOrder(resource);
    if (current()) set(requestAtom, { path, status: 'ready', resource, errorStatus: 0, firstItems: null });
    set(nowAtom, Date.now());
  } catch (error) {
    if (current()) {
      set(requestAtom, { path, status: 'error', resource: null, errorStatus: statusOf(error), firstItems: null });
    }
  }
});

/** Leaves the files route: the request state is cleared. */
export const clearRequestAtom = atom(null, (_get, set) => set(requestAtom, IDLE));
