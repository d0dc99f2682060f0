import { atom } from 'jotai';
import { unwrap } from 'jotai/utils';
import { getUsage } from '../../api/resources';
import type { DiskUsage } from '../../api/types';
import { folderOf } from '../../paths';
import { reloadAtom, requestAtom } from '../../state/request';

/** The sidebar drawer on narrow screens. */
export const sidebarOpenAtom = atom(false);

const usageFolderAtom = atom((get) => {
  const { path } = get(requestAtom);
  return path ? folderOf(path) : '';
});

const usageAtom = atom(async (get): Promise<DiskUsage | null> => {
  const folder = get(usageFolderAtom);
  get(reloadAtom);
  if (!folder) return null;
  // The bar is a hint: when usage cannot be read the sidebar simply goes without it.
  return getUsage(folder).catch(() => null);
});

/** Disk usage of the volume of the current folder; null while loading, off the files route or on failure. */
export const usageValueAtom = unwrap(usageAtom, (previous) => previous ?? null);
