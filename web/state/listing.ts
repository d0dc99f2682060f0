import { atom } from 'jotai';
import type { FileInfo } from '../api/types';
import { requestAtom } from './request';

/** An item of the listing as the actions need it: where it is and what it is. */
export interface Target {
  path: string;
  name: string;
  isDir: boolean;
}

/** A listing item as the API sends it; `itemPath` gives its user path. */
export type Item = FileInfo;

/** The item's user path; a folder's ends with `/`, as ui.md's data-path and the API want. */
export function itemPath(item: Item): string {
  return item.isDir && !item.path.endsWith('/') ? `${item.path}/` : item.path;
}

/** What the actions need of an item. */
export function targetOf(item: Item): Target {
  return { path: itemPath(item), name: item.name, isDir: item.isDir };
}

const EMPTY: readonly Item[] = [];

/** The folder on screen, ending with `/`, or null when the files route shows a file or nothing. */
export const folderAtom = atom((get) => {
  const { resource, path } = get(requestAtom);
  if (!resource?.isDir || !Array.isArray(resource.items)) return null;
  return path.endsWith('/') ? path : `${path}/`;
});

/**
 * The items in display order: folders, then files, each group in the server's order (api.md §5.6:
 * the server sorts; the UI only splits the groups). The items themselves are not copied: a folder
 * of 100,000 entries is held once.
 */
export const itemsAtom = atom<readonly Item[]>((get) => {
  const request = get(requestAtom);
  const items = get(folderAtom) === null ? request.firstItems : request.resource?.items;
  if (!items) return EMPTY;
  const dirs: Item[] = [];
  const files: Item[] = [];
  for (const item of items) (item.isDir ? dirs : files).push(item);
  return dirs.length === 0 ? files : files.length === 0 ? dirs : dirs.concat(files);
});

/**
 * A large folder's first items are on screen while the rest is still arriving: the listing is
 * busy, and neither its keys nor the shortcuts act until the whole folder is here.
 */
export const arrivingAtom = atom((get) => get(requestAtom).firstItems !== null && get(folderAtom) === null);

/** The names selected in the folder on screen. */
export const selectedAtom = atom<ReadonlySet<string>>(new Set<string>());

/** The "Select multiple" mode: a click or tap toggles an item instead of selecting only it. */
export const multipleAtom = atom(false);

/** The selected items in display order. */
export const selectedItemsAtom = atom<readonly Item[]>((get) => {
  const selected = get(selectedAtom);
  if (selected.size === 0) return EMPTY;
  return get(itemsAtom).filter((item) => selected.has(item.name));
});

/** Clears the selection (Esc, Clear, a new fetch); the multiple mode goes with it when asked. */
export const clearSelectionAtom = atom(null, (_get, set, leaveMultiple: boolean = false) => {
  set(selectedAtom, new Set<string>());
  if (leaveMultiple) set(multipleAtom, false);
});
