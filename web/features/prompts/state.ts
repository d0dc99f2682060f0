import { atom } from 'jotai';
import { HttpError } from '../../api/http';
import { checksum, createItem, getResource, type ChecksumAlgo } from '../../api/resources';
import { createShare, deleteShare, sharesOf } from '../../api/shares';
import type { Share } from '../../api/types';
import { folderOf } from '../../paths';
import { folderAtom, itemsAtom, type Item } from '../../state/listing';
import { requestAtom } from '../../state/request';

/** The names in `dir`: those of the folder on screen when it is `dir`, else asked of the server. */
async function namesIn(dir: string, shown: { folder: string | null; items: readonly Item[] }): Promise<ReadonlySet<string>> {
  const items = shown.folder === dir ? shown.items : ((await getResource(dir)).items ?? []);
  return new Set(items.map((item) => item.name));
}

/**
 * Creates an empty file or a folder named `name` (trimmed, product.md §5) in the folder on
 * screen, or in the root off the files route; resolves with the new item's user path. A taken
 * name fails with 409 for a folder as for a file: the server's mkdir -p takes an existing folder
 * as success (api.md §3.6), so the name is looked up first rather than the folder opened.
 */
export const createItemAtom = atom(null, async (get, _set, input: { name: string; isDir: boolean }) => {
  const { path } = get(requestAtom);
  const dir = path ? folderOf(path) : '/';
  const name = input.name.trim();
  if (input.isDir && (await namesIn(dir, { folder: get(folderAtom), items: get(itemsAtom) })).has(name)) throw new HttpError(409, 'exists');
  return createItem(dir, name, input.isDir);
});

/** The folder picker of the move and copy prompts: the folder shown and its subfolders. */
export interface PickerState {
  path: string;
  folders: readonly string[] | null;
  failed: boolean;
}

export const pickerAtom = atom<PickerState>({ path: '/', folders: null, failed: false });

/** Opens `path` in the folder picker and lists its subfolders. */
export const openPickerAtom = atom(null, async (get, set, path: string) => {
  set(pickerAtom, { path, folders: null, failed: false });
  try {
    const listing = await getResource(path);
    const folders = (listing.items ?? []).filter((item) => item.isDir).map((item) => item.name);
    if (get(pickerAtom).path === path) set(pickerAtom, { path, folders, failed: false });
  } catch {
    if (get(pickerAtom).path === path) set(pickerAtom, { path, folders: [], failed: true });
  }
});

/** Computes a file's checksum on the server (GET ?checksum=). */
export const checksumAtom = atom(null, async (_get, _set, { path, algo }: { path: string; algo: ChecksumAlgo }) => checksum(path, algo));

/** Permanent links first, then by expiry, soonest first (product.md §4 'Share prompt'). */
export function sortLinks(links: readonly Share[]): Share[] {
  const key = (link: Share): number => (link.expire === 0 ? -Infinity : link.expire);
  return [...links].sort((a, b) => key(a) - key(b) || 0);
}

/** The links of one item, sorted for the share prompt. */
export const loadLinksAtom = atom(null, async (_get, _set, path: string) => sortLinks(await sharesOf(path)));

/** Creates a link for an item. */
export const createLinkAtom = atom(null, async (_get, _set, { path, link }: { path: string; link: Parameters<typeof createShare>[1] }) => createShare(path, link));

/** Deletes a link. */
export const deleteLinkAtom = atom(null, async (_get, _set, hash: string) => deleteShare(hash));
