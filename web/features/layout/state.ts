import { atom } from 'jotai';
import { loadable } from 'jotai/utils';
import { getUsage } from '../../api/resources';
import { folderOf } from '../../paths';
import { reloadAtom, requestAtom } from '../../state/request';

/** The sidebar drawer on narrow screens. */
export const sidebarOpenAtom = atom(false);

const usageFolderAtom = atom((get) => {
  const { path } = get(requestAtom);
  return path ? folderOf(path) : '';
});

const usageAtom = atom(async (get) => {
  const folder = get(usageFolderAtom);
  get(reloadAtom);
  return folder ? getUsage(folder) : null;
});

/** Disk usage of the volume of the current folder: loading, data (null off the files route) or error. */
export const usageLoadableAtom = loadable(usageAtom);
