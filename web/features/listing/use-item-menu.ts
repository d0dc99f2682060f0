import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { itemsAtom, selectedAtom } from '../../state/listing';
import { focusIndexAtom } from './state';
import type { useSelection } from './use-selection';

/** How long a finger rests on an item before its menu opens, and how far it may wander meanwhile. */
const LONG_PRESS_MS = 500;
const LONG_PRESS_SLOP = 10;

export interface OpenMenu {
  index: number;
  at: { x: number; y: number };
}

type Opener = (option: HTMLElement, at: { x: number; y: number }) => void;

function optionOf(target: EventTarget | null): HTMLElement | null {
  return target instanceof Element ? target.closest<HTMLElement>('[role="option"][data-index]') : null;
}

/** Where a menu opened from the keyboard goes: under the item, at its inline start. */
function belowOf(option: HTMLElement): { x: number; y: number } {
  const rect = option.getBoundingClientRect();
  const rtl = document.documentElement.dir === 'rtl';
  return { x: rtl ? rect.right - 16 : rect.left + 16, y: rect.bottom };
}

/** Adds `handlers` (type, listener, capture) to `list`; returns their removal. */
function listen(list: HTMLElement, handlers: [string, (event: Event) => void, boolean?][]): () => void {
  for (const [type, handler, capture] of handlers) list.addEventListener(type, handler, capture);
  return () => {
    for (const [type, handler, capture] of handlers) list.removeEventListener(type, handler, capture);
  };
}

/** A finger resting LONG_PRESS_MS on an item opens its menu; the tap that ends it does nothing else. */
function listenLongPress(list: HTMLElement, open: Opener): () => void {
  let press: { timer: number; x: number; y: number } | null = null;
  let swallowClick = false;
  const cancel = (): void => {
    if (press) window.clearTimeout(press.timer);
    press = null;
  };
  const down = (event: PointerEvent): void => {
    const option = optionOf(event.target);
    if (event.pointerType !== 'touch' || !option) return;
    cancel();
    const at = { x: event.clientX, y: event.clientY };
    const timer = window.setTimeout(() => {
      press = null;
      swallowClick = true;
      open(option, at);
    }, LONG_PRESS_MS);
    press = { ...at, timer };
  };
  const move = (event: PointerEvent): void => {
    if (press && Math.hypot(event.clientX - press.x, event.clientY - press.y) > LONG_PRESS_SLOP) cancel();
  };
  const up = (): void => {
    cancel();
    window.setTimeout(() => (swallowClick = false), LONG_PRESS_MS);
  };
  const click = (event: Event): void => {
    if (!swallowClick) return;
    swallowClick = false;
    event.stopPropagation();
    event.preventDefault();
  };
  const remove = listen(list, [
    ['pointerdown', down as (event: Event) => void], ['pointermove', move as (event: Event) => void],
    ['pointerup', up], ['pointercancel', up], ['click', click, true],
  ]);
  return () => {
    cancel();
    remove();
  };
}

/** A right-click, or Shift+F10 / the ContextMenu key on the focused item, opens its menu. */
function listenMenuKeys(list: HTMLElement, open: Opener): () => void {
  const contextMenu = (event: MouseEvent): void => {
    const option = optionOf(event.target);
    if (!option) return;
    event.preventDefault();
    // A keyboard-made contextmenu has no pointer position: it opens under the item.
    open(option, event.clientX === 0 && event.clientY === 0 ? belowOf(option) : { x: event.clientX, y: event.clientY });
  };
  const keyDown = (event: KeyboardEvent): void => {
    const option = optionOf(event.target);
    if (!option || !(event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey))) return;
    event.preventDefault();
    open(option, belowOf(option));
  };
  return listen(list, [['contextmenu', contextMenu as (event: Event) => void], ['keydown', keyDown as (event: Event) => void]]);
}

/**
 * The context menu of the listing's items: a right-click, a long press (touch) or Shift+F10 / the
 * ContextMenu key on the focused item opens it, selecting the item alone unless it is already
 * selected. Closing hands the focus back to the item.
 */
export function useItemMenu(listRef: RefObject<HTMLDivElement | null>, selection: ReturnType<typeof useSelection>) {
  const [menu, setMenu] = useState<OpenMenu | null>(null);
  const items = useAtomValue(itemsAtom);
  const selected = useAtomValue(selectedAtom);
  const setFocus = useSetAtom(focusIndexAtom);
  const latest = useRef({ items, selected, selection, menu });
  useLayoutEffect(() => {
    latest.current = { items, selected, selection, menu };
  });

  const open = useCallback<Opener>((option, at) => {
    const index = Number(option.dataset.index);
    const { items: all, selected: chosen, selection: select } = latest.current;
    const item = all[index];
    if (!item) return;
    if (!chosen.has(item.name)) select.only(index);
    setFocus(index);
    option.focus({ preventScroll: true });
    setMenu({ index, at });
  }, [setFocus]);

  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const removeKeys = listenMenuKeys(list, open);
    const removePress = listenLongPress(list, open);
    return () => {
      removeKeys();
      removePress();
    };
  }, [listRef, open]);

  const close = useCallback((restoreFocus: boolean): void => {
    const index = latest.current.menu?.index;
    setMenu(null);
    if (restoreFocus && index !== undefined) listRef.current?.querySelector<HTMLElement>(`[data-index="${index}"]`)?.focus({ preventScroll: true });
  }, [listRef]);

  return { menu, close };
}
