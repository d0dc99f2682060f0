import type { Resource } from '../api/types';

// The order the server streams folders in, as the last folder answer said (its `sorting`). By
// name, folders come first and the first items of a large folder are its first rows; by size or
// modification time a folder may still come after them, so the rows would move when it arrives.
// Kept in localStorage: the user record in the token has no sorting, and a first load must know.

const STORAGE_KEY = 'filemgr.listingOrder';

/** The remembered `sorting.by`; undefined until read, null when nothing was ever stored. */
let order: string | null | undefined;

function read(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Whether folders arrive by name (the default sorting), so their first items may be shown early. */
export function arrivesByName(): boolean {
  if (order === undefined) order = read();
  return (order ?? 'name') === 'name';
}

/** Remembers the order a folder answer was sorted in. */
export function rememberOrder(resource: Resource): void {
  const by = resource.sorting?.by;
  if (!resource.isDir || by === undefined || by === order) return;
  order = by;
  try {
    localStorage.setItem(STORAGE_KEY, by);
  } catch {
    // Storage refused (a private window): this page still remembers it.
  }
}
