import { useSetAtom } from 'jotai';
import { useEffect } from 'react';
import type { FileInfo } from '../../api/types';
import { useClickSelection } from '../../state/use-click-selection';
import { clearShareSelectionAtom, shareAnchorAtom, shareMultipleAtom, shareSelectedAtom } from './state';

/**
 * Selection in a shared folder, as in the listing (product.md §2 'Keyboard'): click selects,
 * Ctrl/Cmd-click or the multiple mode toggles, Shift-click selects a range from the last click.
 */
export function useShareSelection(items: readonly FileInfo[]) {
  const { selected, toggle, select } = useClickSelection(items, { selected: shareSelectedAtom, anchor: shareAnchorAtom, multiple: shareMultipleAtom });
  return { selected, click: select, toggle };
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
