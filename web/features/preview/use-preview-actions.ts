import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useMemo } from 'react';
import { useLocation } from 'wouter';
import { apiUrl } from '../../api/http';
import type { FileInfo } from '../../api/types';
import { startDownload } from '../../lib/download';
import { opensRendered } from '../../lib/markdown';
import { apiPaths, baseName, editPath, filesPath, parentPath } from '../../paths';
import { abilitiesAtom } from '../../state/abilities';
import type { Target } from '../../state/listing';
import { showPromptAtom } from '../../state/prompts';
import { reloadAtom } from '../../state/request';
import { neighboursOf, type Neighbours } from './neighbours';
import { folderItemsAtom, loadFolderItemsAtom, seedRequestAtom } from './state';

/** Previous and next of the file in its folder; the folder is listed again after every reload. */
function useNeighbours(path: string): Neighbours {
  const folder = parentPath(path);
  const reload = useAtomValue(reloadAtom);
  const listing = useAtomValue(folderItemsAtom);
  const load = useSetAtom(loadFolderItemsAtom);
  useEffect(() => {
    // Without the folder (no permission, gone) there is simply no Previous or Next.
    load(folder).catch(() => undefined);
  }, [folder, reload, load]);
  return useMemo(() => (listing?.folder === folder ? neighboursOf(listing.items, path) : {}), [listing, folder, path]);
}

/**
 * What the preview can do with its file (product.md §2, §4): each header action by permission;
 * Previous and Next; delete moves to the next item, else the previous, else closes; rename
 * opens the new path.
 */
export function usePreviewActions(file: FileInfo) {
  const [, navigate] = useLocation();
  const may = useAtomValue(abilitiesAtom);
  const showPrompt = useSetAtom(showPromptAtom);
  const seed = useSetAtom(seedRequestAtom);
  const neighbours = useNeighbours(file.path);
  const can = { rename: may.rename, delete: may.delete, download: may.download, edit: opensRendered(file) };
  const target: Target = { path: file.path, name: file.name, isDir: false };

  const open = (item: FileInfo): void => {
    seed(item);
    navigate(filesPath(item.path));
  };
  const close = (): void => navigate(filesPath(parentPath(file.path)));
  const afterDelete = (): void => {
    const to = neighbours.next ?? neighbours.previous;
    if (to) open(to);
    else close();
  };

  return {
    can,
    neighbours,
    close,
    previous: () => neighbours.previous && open(neighbours.previous),
    next: () => neighbours.next && open(neighbours.next),
    rename: () => can.rename && showPrompt({ kind: 'rename', item: target, onDone: (to) => open({ ...file, path: to, name: baseName(to) }) }),
    remove: () => can.delete && showPrompt({ kind: 'delete', items: [target], onDone: afterDelete }),
    download: () => can.download && startDownload(apiUrl(apiPaths.raw(file.path))),
    info: () => showPrompt({ kind: 'info', items: [target] }),
    edit: () => can.edit && navigate(editPath(file.path)),
  };
}

export type PreviewActions = ReturnType<typeof usePreviewActions>;
