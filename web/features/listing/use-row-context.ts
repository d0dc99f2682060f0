import { useAtomValue } from 'jotai';
import { useLayoutEffect, useMemo, useRef, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLang } from '../../i18n';
import { nowAtom } from '../../state/clock';
import { configAtom } from '../../state/config';
import { selectedAtom, type Item } from '../../state/listing';
import { userAtom } from '../../state/session';
import type { ItemDisplay, ItemHandlers } from './item-view';
import type { DragState, RowContext } from './listing-row';
import { focusIndexAtom, viewModeAtom } from './state';
import type { useDragMove } from './use-drag-move';
import type { useSelection } from './use-selection';

/**
 * Item event handlers that never change identity, calling the latest selection and drag logic:
 * an item re-renders only when its own state changes, not on every scroll step of the list.
 */
export function useStableHandlers(selection: ReturnType<typeof useSelection>, drag: ReturnType<typeof useDragMove>['handlers']): ItemHandlers {
  const latest = useRef({ selection, drag });
  useLayoutEffect(() => {
    latest.current = { selection, drag };
  });
  return useMemo<ItemHandlers>(() => ({
    onClick: (index: number, e: MouseEvent) => latest.current.selection.click(index, e),
    onDoubleClick: (index: number) => latest.current.selection.doubleClick(index),
    onDragStart: (index, e) => latest.current.drag.onDragStart(index, e),
    onDragEnd: () => latest.current.drag.onDragEnd(),
    onDragOver: (index, e) => latest.current.drag.onDragOver(index, e),
    onDragLeave: (index) => latest.current.drag.onDragLeave(index),
    onDrop: (index, e) => latest.current.drag.onDrop(index, e),
  }), []);
}

/** How items look: the view, the date style, the clock, the language and whether thumbnails show. */
function useItemDisplay(): ItemDisplay {
  const view = useAtomValue(viewModeAtom);
  const exact = useAtomValue(userAtom)?.dateFormat ?? false;
  const nowMs = useAtomValue(nowAtom);
  const thumbs = useAtomValue(configAtom).EnableThumbs;
  const lang = currentLang();
  return useMemo(() => ({ view, exact, nowMs, lang, thumbs }), [view, exact, nowMs, lang, thumbs]);
}

/**
 * Everything the rows are drawn from, read here once: a row that scrolls into view subscribes to
 * no store and builds no translation wrapper, and the object keeps its identity while the list
 * only scrolls, so rows that stay on screen are not rendered again.
 */
export function useRowContext(items: readonly Item[], drag: ReturnType<typeof useDragMove>, handlers: ItemHandlers): RowContext {
  const { t } = useTranslation();
  const selected = useAtomValue(selectedAtom);
  const focusIndex = useAtomValue(focusIndexAtom);
  const display = useItemDisplay();
  const { dragged, target, canMove } = drag;
  const dragState = useMemo<DragState>(() => ({ dragged, target, canMove }), [dragged, target, canMove]);
  const headings = useMemo(() => ({ folders: t('listing.folders'), files: t('listing.files') }), [t]);
  return useMemo(
    () => ({ items, selected, focusIndex, drag: dragState, handlers, display, headings }),
    [items, selected, focusIndex, dragState, handlers, display, headings],
  );
}
