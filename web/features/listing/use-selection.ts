import { useAtomValue, useSetAtom } from 'jotai';
import { useLocation } from 'wouter';
import { filesPath } from '../../paths';
import { itemPath, itemsAtom, multipleAtom, selectedAtom } from '../../state/listing';
import { userAtom } from '../../state/session';
import { useClickSelection, type Modifiers } from '../../state/use-click-selection';
import { anchorAtom, focusIndexAtom } from './state';

/**
 * Selection by pointer and keyboard (product.md §2 'Keyboard', §4 'Selection'): click selects,
 * Ctrl/Cmd-click or the multiple mode toggles, Shift-click selects a range from the last click,
 * double click opens (single click with the singleClick option).
 */
export function useSelection() {
  const items = useAtomValue(itemsAtom);
  const { setSelected, multiple, toggle, only, range, select } = useClickSelection(items, { selected: selectedAtom, anchor: anchorAtom, multiple: multipleAtom });
  const setFocus = useSetAtom(focusIndexAtom);
  const singleClick = useAtomValue(userAtom)?.singleClick ?? false;
  const [, navigate] = useLocation();

  const open = (index: number): void => {
    const item = items[index];
    if (item) navigate(filesPath(itemPath(item)));
  };

  const click = (index: number, mods: Modifiers): void => {
    setFocus(index);
    const ctrl = mods.ctrlKey || mods.metaKey;
    if (singleClick && !multiple && !ctrl && !mods.shiftKey) return open(index);
    select(index, mods);
  };

  const doubleClick = (index: number): void => {
    if (!singleClick) open(index);
  };

  const selectAll = (): void => setSelected(new Set(items.map((item) => item.name)));

  return { click, doubleClick, open, toggle, only, range, selectAll };
}
