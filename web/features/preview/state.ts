import { atom } from 'jotai';
import { getResource } from '../../api/resources';
import type { FileInfo } from '../../api/types';
import { requestAtom } from '../../state/request';

/** The items of the previewed file's folder, files in display order, for Previous and Next. */
export interface FolderItems {
  folder: string;
  items: readonly FileInfo[];
}

export const folderItemsAtom = atom<FolderItems | null>(null);

/** Lists the folder of the previewed file (again after a reload: a rename or delete changed it). */
export const loadFolderItemsAtom = atom(null, async (get, set, folder: string) => {
  const listing = await getResource(folder);
  // Folders first, then files, each group in the server's order (as the listing shows them).
  const items = listing.items ?? [];
  const ordered = [...items.filter((i) => i.isDir), ...items.filter((i) => !i.isDir)];
  set(folderItemsAtom, { folder, items: ordered });
});

/** Once a medium was played, the next audio or video starts by itself (product.md §2). */
export const autoplayAtom = atom(false);

/** The original instead of the big preview, for every image until toggled back. */
export const fullSizeAtom = atom(false);

/**
 * Before the route moves to another file: what the folder listing knows about it stands in for
 * the file while its own answer loads (loadResourceAtom keeps a resource of the same path), so
 * the preview stays on screen and a prefetched image shows at once.
 */
export const seedRequestAtom = atom(null, (_get, set, item: FileInfo) => {
  set(requestAtom, { path: item.path, status: 'loading', resource: item, errorStatus: 0, firstItems: null });
});
