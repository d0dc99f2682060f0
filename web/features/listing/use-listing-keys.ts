import type { Virtualizer } from '@tanstack/react-virtual';
import { useAtom, useAtomValue } from 'jotai';
import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { itemsAtom } from '../../state/listing';
import type { Layout } from './rows';
import { anchorAtom, focusIndexAtom } from './state';
import type { useSelection } from './use-selection';

interface KeysInput {
  layout: Layout;
  columns: number;
  virtualizer: Virtualizer<Window, Element>;
  listRef: RefObject<HTMLDivElement | null>;
  showUpTo: (count: number) => void;
  selection: ReturnType<typeof useSelection>;
}

/** The index an arrow key leads to; left and right swap in right-to-left languages. */
function moveOf(key: string, columns: number, rtl: boolean): number | 'home' | 'end' | null {
  const forward = rtl ? 'ArrowLeft' : 'ArrowRight';
  const back = rtl ? 'ArrowRight' : 'ArrowLeft';
  if (key === 'ArrowDown') return columns;
  if (key === 'ArrowUp') return -columns;
  if (key === forward && columns > 1) return 1;
  if (key === back && columns > 1) return -1;
  if (key === 'Home') return 'home';
  if (key === 'End') return 'end';
  return null;
}

/**
 * Keyboard inside the listbox over every item, rendered or not: arrows and Home/End move the focus
 * and select (Shift extends from the anchor, Ctrl/Cmd only moves), Space toggles, Enter opens.
 */
export function useListingKeys({ layout, columns, virtualizer, listRef, showUpTo, selection }: KeysInput) {
  const items = useAtomValue(itemsAtom);
  const [focusIndex, setFocus] = useAtom(focusIndexAtom);
  const anchor = useAtomValue(anchorAtom);
  const pending = useRef<{ index: number; scrolled: boolean } | null>(null);

  // The target may lie beyond the items laid out, or outside the rendered rows: once it has a
  // row, scroll to it; once its element exists, focus it.
  useEffect(() => {
    const target = pending.current;
    if (target === null) return;
    const row = layout.rowOfItem(target.index);
    if (row >= 0 && !target.scrolled) {
      virtualizer.scrollToIndex(row, { align: 'auto' });
      target.scrolled = true;
    }
    const element = listRef.current?.querySelector<HTMLElement>(`[data-index="${target.index}"]`);
    if (!element || !target.scrolled) return;
    element.focus({ preventScroll: true });
    pending.current = null;
  });

  const focusItem = (index: number): void => {
    showUpTo(index + 1);
    setFocus(index);
    pending.current = { index, scrolled: false };
  };

  return (event: KeyboardEvent): void => {
    if (items.length === 0) return;
    if (event.key === 'Enter') return selection.open(focusIndex);
    if (event.key === ' ') {
      event.preventDefault();
      return selection.toggle(focusIndex);
    }
    const move = moveOf(event.key, columns, document.documentElement.dir === 'rtl');
    if (move === null) return;
    event.preventDefault();
    const last = items.length - 1;
    const next = move === 'home' ? 0 : move === 'end' ? last : Math.max(0, Math.min(last, focusIndex + move));
    focusItem(next);
    if (event.shiftKey) selection.range(next, event.ctrlKey || event.metaKey);
    else if (!event.ctrlKey && !event.metaKey) selection.only(next);
    if (event.shiftKey && anchor === null) selection.only(next);
  };
}
