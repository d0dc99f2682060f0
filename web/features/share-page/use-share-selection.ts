import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useEffect, type MouseEvent } from 'react';
import type { FileInfo } from '../../api/types';
import { rangeSelection, toggled } from '../../lib/selection';
import { clearShareSelectionAtom, shareAnchorAtom, shareMultipleAtom, shareSelectedAtom } from './state';

/**
 * Selection in a shared folder, as in the listing (product.md §2 'Keyboard'): click selects,
 * Ctrl/Cmd-click or the multiple mode toggles, Shift-click selects a range from the last click.
 */
export function useShareSelection(items: readonly FileInfo[]) {
  const [selected, setSelected] = useAtom(shareSelectedAtom);
  const [anchor, setAnchor] = useAtom(shareAnchorAtom);
  const multiple = useAtomValue(shareMultipleAtom);

  const toggle = (index: number): void => {
    const name = items[index]?.name;
    if (name === undefined) return;
    setSelected(toggled(selected, name));
    setAnchor(index);
  };

  const click = (index: number, event: Pick<MouseEvent, 'ctrlKey' | 'metaKey' | 'shiftKey'>): void => {
    const ctrl = event.ctrlKey || event.metaKey;
    if (event.shiftKey) {
      setSelected(rangeSelection(items, selected, { anchor: anchor ?? index, index, add: ctrl }));
      return;
    }
    if (ctrl || multiple) return toggle(index);
    const name = items[index]?.name;
    setSelected(new Set(name === undefined ? [] : [name]));
    setAnchor(index);
  };

  return { selected, click, toggle };
}

/** Esc clears the selection (product.md §2, Share page). */
export function useEscClears(): void {
  const clear = useSetAtom(clearShareSelectionAtom);
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape' && !event.defaultPrevented) clear();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [clear]);
}
