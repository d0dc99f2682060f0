import { atom } from 'jotai';
import { createItem } from '../../api/resources';
import { folderOf } from '../../paths';
import { requestAtom } from '../../state/request';

/**
 * Creates an empty file or a folder named `name` (trimmed, product.md §5) in the folder on
 * screen, or in the root off the files route; resolves with the new item's user path.
 */
export const createItemAtom = atom(null, async (get, _set, input: { name: string; isDir: boolean }) => {
  const { path } = get(requestAtom);
  return createItem(path ? folderOf(path) : '/', input.name.trim(), input.isDir);
});
