import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useLocation } from 'wouter';
import { rangeSelection, toggled } from '../../lib/selection';
import { filesPath } from '../../paths';
import { itemPath, itemsAtom, multipleAtom, selectedAtom } from '../../state/listing';
import { userAtom } from '../../state/session';
import { anchorAtom, focusIndexAtom } from './state';

export interface Modifiers {
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}

/**
 * Selection by pointer and keyboard (product.md §2 'Keyboard', §4 'Selection'): click selects,
 * Ctrl/Cmd-click or the multiple mode toggles, Shift-click selects a range from the last click,
 * double click opens (single click with the singleClick option).
 */
export function useSelection() {
  const items = useAtomValue(itemsAtom);
  const [selected, setSelected] = useAtom(selectedAtom);
  const [anchor, setAnchor] = useAtom(anchorAtom);
  const setFocus = useSetAtom(focusIndexAtom);
  const multiple = useAtomValue(multipleAtom);
  const singleClick = useAtomValue(userAtom)?.singleClick ?? false;
  const [, navigate] = useLocation();

  const open = (index: number): void => {
    const item = items[index];
    if (item) navigate(filesPath(itemPath(item)));
  };

  const toggle = (index: number): void => {
    const name = items[index]?.name;
    if (name === undefined) return;
    setSelected(toggled(selected, name));
    setAnchor(index);
  };

  const only = (index: number): void => {
    const name = items[index]?.name;
    setSelected(new Set(name === undefined ? [] : [name]));
    setAnchor(index);
  };

  /** Selects from the anchor to `index`, added to the selection with Ctrl/Cmd held. */
  const range = (index: number, add: boolean): void => {
    setSelected(rangeSelection(items, selected, { anchor: anchor ?? index, index, add }));
  };

  const click = (index: number, mods: Modifiers): void => {
    setFocus(index);
    const ctrl = mods.ctrlKey || mods.metaKey;
    if (singleClick && !multiple && !ctrl && !mods.shiftKey) return open(index);
    if (mods.shiftKey) return range(index, ctrl);
    if (ctrl || multiple) return toggle(index);
    only(index);
  };

  const doubleClick = (index: number): void => {
    if (!singleClick) open(index);
  };

  const selectAll = (): void => setSelected(new Set(items.map((item) => item.name)));

  return { click, doubleClick, open, toggle, only, range, selectAll };
}
