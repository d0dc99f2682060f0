import { atom } from 'jotai';
import { deleteItem, getResource, transferItem, type TransferFlags } from '../api/resources';
import { joinPath, parentPath } from '../paths';
import { clipboardAtom } from './clipboard';
import { clearSelectionAtom, type Target } from './listing';
import { showPromptAtom, type Transfer } from './prompts';
import { reloadAtom } from './request';

/** Runs `work` on every item, all of them even when some fail; rejects with the first failure. */
async function eachOf(items: readonly Target[], work: (item: Target) => Promise<void>): Promise<void> {
  const outcomes = await Promise.allSettled(items.map(work));
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Deletes the items; the listing reloads afterwards, also when a delete failed (product.md §4). */
export const deleteItemsAtom = atom(null, async (_get, set, items: readonly Target[]) => {
  try {
    await eachOf(items, (item) => deleteItem(item.path));
  } finally {
    set(clearSelectionAtom);
    set(reloadAtom, (n) => n + 1);
  }
});

/** Renames one item inside its folder to `name` (already trimmed and not empty); reloads and resolves with the new path. */
export const renameItemAtom = atom(null, async (_get, set, { item, name }: { item: Target; name: string }) => {
  const to = joinPath(parentPath(item.path), name, item.isDir);
  await transferItem({ action: 'rename', from: item.path, to }, { override: false, rename: false });
  set(clearSelectionAtom);
  set(reloadAtom, (n) => n + 1);
  return to;
});

async function clashes(items: readonly Target[], dest: string): Promise<boolean> {
  const listing = await getResource(dest);
  const names = new Set((listing.items ?? []).map((i) => i.name));
  return items.some((item) => names.has(item.name));
}

/**
 * Copies or moves items into a folder (product.md §4). With no flags, a name that exists there
 * opens the replace-or-rename prompt instead; a copy into the items' own folder keeps both
 * directly, and a move into it changes nothing and is skipped. Resolves true once the items were
 * copied or moved (false when skipped or handed to the replace-or-rename prompt).
 */
export const transferAtom = atom(null, async (_get, set, { transfer, flags }: { transfer: Transfer; flags?: TransferFlags }) => {
  const inPlace = (item: Target): boolean => parentPath(item.path) === transfer.dest;
  const items = transfer.action === 'rename' ? transfer.items.filter((item) => !inPlace(item)) : transfer.items;
  if (items.length === 0) return false;
  let chosen = flags;
  if (!chosen && transfer.action === 'copy' && items.every(inPlace)) chosen = { override: false, rename: true };
  if (!chosen && (await clashes(items, transfer.dest))) {
    set(showPromptAtom, { kind: 'replaceRename', transfer: { ...transfer, items } });
    return false;
  }
  const use = chosen ?? { override: false, rename: false };
  try {
    await eachOf(items, (item) => transferItem({ action: transfer.action, from: item.path, to: joinPath(transfer.dest, item.name, item.isDir) }, use));
    if (transfer.fromClipboard && transfer.action === 'rename') set(clipboardAtom, null);
    return true;
  } finally {
    set(clearSelectionAtom);
    set(reloadAtom, (n) => n + 1);
  }
});
