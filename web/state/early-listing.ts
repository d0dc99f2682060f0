import { getResource, getResourceAsItArrives } from '../api/resources';
import type { FileInfo, Resource } from '../api/types';
import { stripBase, resourcePathFromLocation } from '../paths';
import { arrivesByName } from './listing-order';

interface FirstItems {
  /** A large folder's first items when they came before anyone took the answer. */
  items: FileInfo[] | null;
  /** Who gets them once the answer is taken. */
  take: ((items: FileInfo[]) => void) | null;
}

interface Early {
  path: string;
  answer: Promise<Resource>;
  first: FirstItems;
}

let early: Early | null = null;

/** The files route's resource path of `pathname`, or null when it is not the files route. */
export function filesPathOf(pathname: string, base: string): string | null {
  const inApp = stripBase(pathname, base) ?? pathname;
  return /^\/files(?:\/|$)/.test(inApp) ? resourcePathFromLocation(pathname, base) : null;
}

/**
 * Asks for the files route's resource as the page starts, before the files screen's code is
 * there: the listing then downloads beside that code instead of after it. A large folder's first
 * items are kept for whoever takes the answer.
 */
export function requestEarly(path: string): void {
  const first: FirstItems = { items: null, take: null };
  const onFirst = (items: FileInfo[]): void => {
    if (first.take) first.take(items);
    else first.items = items;
  };
  const answer = arrivesByName() ? getResourceAsItArrives(path, onFirst) : getResource(path);
  // Whoever takes the answer handles its failure; nobody may take it at all.
  answer.catch(() => undefined);
  early = { path, answer, first };
}

/**
 * The early answer for `path`, once (null when there is none, or it was for another path):
 * `onFirst` gets a large folder's first items, at once when they have already come.
 */
export function takeEarly(path: string, onFirst: (items: FileInfo[]) => void): Promise<Resource> | null {
  const entry = early;
  early = null;
  if (!entry || entry.path !== path) return null;
  if (entry.first.items) onFirst(entry.first.items);
  else entry.first.take = onFirst;
  return entry.answer;
}
