import { atom } from 'jotai';
import type { FileInfo } from '../api/types';
import { joinPath } from '../paths';
import { requestAtom } from './request';

/** An item of the listing as the actions need it: where it is and what it is. */
export interface Target {
  path: string;
  name: string;
  isDir: boolean;
}

/** A listing item with its user path (folders end with `/`, as the API and ui.md's data-path want). */
export type Item = FileInfo & { path: string };

const EMPTY: readonly Item[] = [];

/** The folder on screen, ending with `/`, or null when the files route shows a file or nothing. */
export const folderAtom = atom((get) => {
  const { resource, path } = get(requestAtom);
  if (!resource?.isDir || !Array.isArray(resource.items)) return null;
  return path.endsWith('/') ? path : `${path}/`;
});

/**
 * The items in display order: folders, then files, each group in the server's order (api.md §5.6:
 * the server sorts; the UI only splits the groups).
 */
export const itemsAtom = atom<readonly Item[]>((get) => {
  const folder = get(folderAtom);
  const items = get(requestAtom).resource?.items;
  if (folder === null || !items) return EMPTY;
  const withPath = (item: FileInfo): Item => ({ ...item, path: joinPath(folder, item.name, item.isDir) });
  return [...items.filter((i) => i.isDir).map(withPath), ...items.filter((i) => !i.isDir).map(withPath)];
});

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
