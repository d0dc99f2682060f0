import { atom } from 'jotai';
import type { TrashItem } from '@contract/trash';
import { deleteTrashItem, emptyTrash, listTrash, restoreTrashItem } from '../../api/trash';

const trashVersionAtom = atom(0);

/** The user's trash, fetched anew after every change and each time the page is entered. */
export const trashAtom = atom(async (get): Promise<TrashItem[]> => {
  get(trashVersionAtom);
  return listTrash();
});

/** Marks the list stale. */
export const refreshTrashAtom = atom(null, (_get, set) => set(trashVersionAtom, (v) => v + 1));

/** Restores an item (replacing or renaming on a conflict when asked); the list reloads, also after a failure. */
export const restoreTrashAtom = atom(null, async (_get, set, req: { id: string; override?: boolean; rename?: boolean }) => {
  try {
    return await restoreTrashItem(req.id, req);
  } finally {
    set(trashVersionAtom, (v) => v + 1);
  }
});

/** Deletes one item for ever. */
export const deleteTrashAtom = atom(null, async (_get, set, id: string) => {
  try {
    await deleteTrashItem(id);
  } finally {
    set(trashVersionAtom, (v) => v + 1);
  }
});

/** Empties the trash. */
export const emptyTrashAtom = atom(null, async (_get, set) => {
  try {
    await emptyTrash();
  } finally {
    set(trashVersionAtom, (v) => v + 1);
  }
});
