import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { apiUrl } from '../../api/http';
import { extractableSuffix } from '../../lib/archive-name';
import { startDownload } from '../../lib/download';
import { failureText } from '../../lib/notice';
import { apiPaths } from '../../paths';
import { abilitiesAtom, type Abilities } from '../../state/abilities';
import { clipboardAtom, type Clipboard } from '../../state/clipboard';
import { transferAtom } from '../../state/file-ops';
import { folderAtom, multipleAtom, selectedItemsAtom, targetOf, type Target } from '../../state/listing';
import { notifyAtom } from '../../state/notices';
import { searchOpenAtom } from '../../state/panels';
import { showPromptAtom } from '../../state/prompts';

/** What applies to the selection (enabled) of what the user may do at all (shown). */
function applicable(has: Abilities, selected: readonly { name: string; isDir: boolean }[], clipboard: Clipboard | null) {
  const count = selected.length;
  const only = count === 1 ? selected[0] : undefined;
  return {
    /** One archive selected (beyond.md §5): the create permission. */
    extract: has.create && only !== undefined && !only.isDir && extractableSuffix(only.name) !== null,
    download: has.download,
    share: has.share && count === 1,
    rename: has.rename && count === 1,
    copy: has.copy && count >= 1,
    move: has.move && count >= 1,
    delete: has.delete && count >= 1,
    paste: clipboard !== null && (clipboard.key === 'x' ? has.move : has.copy),
  };
}

/**
 * The file actions of the header and the keyboard, each with whether it applies now (product.md
 * §2: delete needs 1+ selected items, rename and share exactly 1, move and copy 1+; each needs its
 * permission).
 */
export function useFileActions() {
  const has = useAtomValue(abilitiesAtom);
  const selected = useAtomValue(selectedItemsAtom);
  const folder = useAtomValue(folderAtom) ?? '/';
  const [multiple, setMultiple] = useAtom(multipleAtom);
  const [clipboard, setClipboard] = useAtom(clipboardAtom);
  const showPrompt = useSetAtom(showPromptAtom);
  const transfer = useSetAtom(transferAtom);
  const notify = useSetAtom(notifyAtom);
  const setSearch = useSetAtom(searchOpenAtom);
  const count = selected.length;
  // Targets are built when an action runs, not on every render (Ctrl+A may select 100,000).
  const items = (): Target[] => selected.map(targetOf);
  const first = selected[0] && targetOf(selected[0]);

  const can = applicable(has, selected, clipboard);

  const download = (): void => {
    // One file downloads directly; several items or none (the folder) ask for a format.
    if (count === 1 && first && !first.isDir) startDownload(apiUrl(apiPaths.raw(first.path)));
    else showPrompt({ kind: 'download', items: items() });
  };

  const paste = (): void => {
    if (!clipboard || !can.paste) return;
    const action = clipboard.key === 'x' ? 'rename' : 'copy';
    transfer({ transfer: { action, items: clipboard.items, dest: folder, fromClipboard: true } })
      .catch((error: unknown) => notify({ kind: 'error', message: failureText(error, true) }));
  };

  return {
    has,
    can,
    count,
    multiple,
    toggleMultiple: () => setMultiple(!multiple),
    download,
    info: () => showPrompt({ kind: 'info', items: items() }),
    share: () => first && can.share && showPrompt({ kind: 'share', item: first }),
    rename: () => first && can.rename && showPrompt({ kind: 'rename', item: first }),
    copy: () => can.copy && showPrompt({ kind: 'copy', items: items() }),
    move: () => can.move && showPrompt({ kind: 'move', items: items() }),
    remove: () => can.delete && showPrompt({ kind: 'delete', items: items() }),
    extract: () => first && can.extract && showPrompt({ kind: 'extract', item: first }),
    copyToClipboard: (key: 'c' | 'x') => count > 0 && setClipboard({ key, items: items(), path: folder }),
    paste,
    search: () => setSearch(true),
  };
}

export type FileActions = ReturnType<typeof useFileActions>;
