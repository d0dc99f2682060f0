import { useWindowVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { useAtomValue } from 'jotai';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { arrivingAtom, itemsAtom } from '../../state/listing';
import { ListingRow } from './listing-row';
import { columnsFor, heightOf, layoutRows, rowsToRender, type Group, type Row } from './rows';
import { assignSlots, type Slots } from './slots';
import { SortBar } from './sort-bar';
import { viewModeAtom, type ViewMode } from './state';
import { useDragMove } from './use-drag-move';
import { useElementWidth } from './use-element-width';
import { useListingKeys } from './use-listing-keys';
import { useRowContext, useStableHandlers } from './use-row-context';
import { useSelection } from './use-selection';
import { useShownCount } from './use-shown-count';

const ROW_HEIGHT: Record<ViewMode, number> = { list: 52, mosaic: 76, 'mosaic gallery': 236 };
const HEADING_HEIGHT = 40;

/** Where the list starts in the page, for the window virtualizer's scroll margin. */
function useOffsetTop(ref: RefObject<HTMLElement | null>): number {
  const [top, setTop] = useState(0);
  // Measured after every render: a banner above the list may come and go. An equal value
  // does not render again. Whole pixels: the virtualizer derives a measurement per row (100,000
  // of them) from it, and a fraction would make V8 store their numbers as boxed doubles.
  // (Measured from a ResizeObserver instead, the two renders of a scroll step often fell into one
  // frame: less work in all, but longer frames.)
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => {
    const element = ref.current;
    if (element) setTop(Math.round(element.getBoundingClientRect().top + window.scrollY));
  });
  return top;
}

/** The slot (React key) of each row on screen: rows scrolling in take over the elements of rows scrolled out. */
function useRowSlots(rows: readonly number[]): Slots {
  const committed = useRef<Slots>(new Map());
  // Read in render on purpose: this render's keys follow from the last committed ones. Only the
  // commit writes the ref, so a render React throws away changes nothing.
  // eslint-disable-next-line react-hooks/refs
  const slots = assignSlots(committed.current, rows);
  useLayoutEffect(() => {
    committed.current = slots;
  });
  return slots;
}

/**
 * The rows of the folder on screen for the current view and width: `all` of them, and the first
 * `shown` items' rows, a prefix of those (50 more as the page nears its end).
 */
function useRows(listRef: RefObject<HTMLElement | null>) {
  const items = useAtomValue(itemsAtom);
  const view = useAtomValue(viewModeAtom);
  const columns = columnsFor(view, useElementWidth(listRef));
  const [shown, showUpTo] = useShownCount(items.length);
  const dirs = useMemo(() => items.filter((item) => item.isDir).length, [items]);
  const counts = useMemo(() => ({ dirs, files: items.length - dirs }), [dirs, items.length]);
  const all = useMemo(() => layoutRows(counts, columns, counts.dirs + counts.files), [counts, columns]);
  const layout = useMemo(() => layoutRows(counts, columns, shown), [counts, columns, shown]);
  return { items, all, layout, columns, showUpTo, dirs, total: items.length, rowHeight: ROW_HEIGHT[view], view };
}

/**
 * The folder's items as a `listbox` of two `group`s (ui.md), virtualized against the window: only
 * about three window heights of rows exist in the page, however large the folder.
 */
export function Listing() {
  const { t } = useTranslation();
  const listRef = useRef<HTMLDivElement>(null);
  const { items, all, layout, columns, showUpTo, dirs, total, rowHeight, view } = useRows(listRef);
  const scrollMargin = useOffsetTop(listRef);
  // Sized for every row once, not for the rows shown: a count that grows by 50 items would make
  // the virtualizer lay out all rows again each time (O(n) a step, long frames at 100,000).
  const virtualizer = useWindowVirtualizer({
    count: all.count,
    estimateSize: (i) => (all.isHeading(i) ? HEADING_HEIGHT : rowHeight),
    // One window height above and one below the visible one: about three window heights in all.
    overscan: Math.ceil(window.innerHeight / rowHeight),
    rangeExtractor: (range) => rowsToRender(range, layout.count),
    scrollMargin,
  });
  // Row heights, columns and the group sizes change with the view, the width and the folder.
  useEffect(() => virtualizer.measure(), [virtualizer, rowHeight, all]);
  const selection = useSelection();
  const drag = useDragMove();
  const onKeyDown = useListingKeys({ layout, columns, virtualizer, listRef, showUpTo, selection });
  const context = useRowContext(items, drag, useStableHandlers(selection, drag.handlers));
  // While a large folder is still arriving its first rows show, but nothing acts on them yet.
  const arriving = useAtomValue(arrivingAtom);
  const virtualRows = virtualizer.getVirtualItems();
  const slots = useRowSlots(virtualRows.map((v) => v.index));
  const row = (v: VirtualItem) => (
    <ListingRow key={slots.get(v.index)} row={layout.rowAt(v.index) as Row} place={{ top: v.start - scrollMargin, height: v.size, columns }} context={context} />
  );
  const inGroup = (group: Group) => virtualRows.filter((v) => {
    const r = layout.rowAt(v.index);
    return r?.kind === 'items' && r.group === group;
  }).map(row);
  return (
    <div className={`listing view-${view.replace(' ', '-')}`}>
      <SortBar />
      <div ref={listRef} role="listbox" aria-label={t('listing.label')} aria-multiselectable="true" className="entries"
        style={{ blockSize: heightOf(layout, { heading: HEADING_HEIGHT, row: rowHeight }) }} onKeyDown={onKeyDown}
        aria-busy={arriving || undefined} inert={arriving}>
        {virtualRows.filter((v) => layout.rowAt(v.index)?.kind === 'heading').map(row)}
        {dirs > 0 && <div role="group" aria-label={t('listing.folders')} className="entry-group">{inGroup('folders')}</div>}
        {total > dirs && <div role="group" aria-label={t('listing.files')} className="entry-group">{inGroup('files')}</div>}
      </div>
    </div>
  );
}
