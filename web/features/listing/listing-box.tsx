import { useWindowVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { ListingRow, type RowContext } from './listing-row';
import { markOverflowingCells } from './overflow';
import { heightOf, layoutRows, rowsToRender, type Group, type Layout, type Row } from './rows';
import { NO_PLACEMENT, placeRows, type Placement } from './slots';
import { useListingKeys } from './use-listing-keys';
import type { useSelection } from './use-selection';
import { useShownCount } from './use-shown-count';

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

/** The slot (React key) of each row on screen and the order to render them in (see placeRows). */
function useRowPlacement(rows: readonly number[], atRest: boolean): Placement {
  const committed = useRef<Placement>(NO_PLACEMENT);
  // Read in render on purpose: this render's keys and order follow from the last committed ones.
  // Only the commit writes the ref, so a render React throws away changes nothing.
  // eslint-disable-next-line react-hooks/refs
  const placement = placeRows(committed.current, rows, atRest);
  useLayoutEffect(() => {
    committed.current = placement;
  });
  return placement;
}

export interface ListingBoxProps {
  listRef: RefObject<HTMLDivElement | null>;
  /** How many folders and files the folder holds. */
  counts: { dirs: number; files: number };
  /** The rows of every item, laid out or not. */
  all: Layout;
  columns: number;
  rowHeight: number;
  context: RowContext;
  selection: ReturnType<typeof useSelection>;
  /** The folder is still arriving: its first rows show, but nothing acts on them yet. */
  arriving: boolean;
  label: string;
}

/**
 * The `listbox` and its two `group`s (ui.md), virtualized against the window: only about three
 * window heights of rows exist in the page, however large the folder. The one part of the files
 * screen that renders on every scroll step: the state it is drawn from is read by the listing
 * around it, which the scroll leaves alone.
 */
export const ListingBox = memo(function ListingBox(props: ListingBoxProps) {
  const { listRef, counts, all, columns, rowHeight, context, arriving } = props;
  const [shown, showUpTo] = useShownCount(counts.dirs + counts.files);
  const layout = useMemo(() => layoutRows(counts, columns, shown), [counts, columns, shown]);
  const scrollMargin = useOffsetTop(listRef);
  // After the options' own layout effects, and after the page was laid out for the offset.
  useLayoutEffect(() => markOverflowingCells());
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
  const onKeyDown = useListingKeys({ layout, columns, virtualizer, listRef, showUpTo, selection: props.selection });
  const onScreen = virtualizer.getVirtualItems();
  // While the list scrolls, rows stay where their elements are in the page (placeRows).
  const { slots, order } = useRowPlacement(onScreen.map((v) => v.index), !virtualizer.isScrolling);
  const byIndex = new Map(onScreen.map((v) => [v.index, v]));
  const virtualRows = order.map((index) => byIndex.get(index) as VirtualItem);
  const row = (v: VirtualItem) => (
    <ListingRow key={slots.get(v.index)} row={layout.rowAt(v.index) as Row} place={{ top: v.start - scrollMargin, height: v.size, columns }} context={context} />
  );
  const inGroup = (group: Group) => virtualRows.filter((v) => {
    const r = layout.rowAt(v.index);
    return r?.kind === 'items' && r.group === group;
  }).map(row);
  return (
    <div ref={listRef} role="listbox" aria-label={props.label} aria-multiselectable="true" className="entries"
      style={{ blockSize: heightOf(layout, { heading: HEADING_HEIGHT, row: rowHeight }) }} onKeyDown={onKeyDown}
      aria-busy={arriving || undefined} inert={arriving}>
      {virtualRows.filter((v) => layout.rowAt(v.index)?.kind === 'heading').map(row)}
      {counts.dirs > 0 && <div role="group" aria-label={context.headings.folders} className="entry-group">{inGroup('folders')}</div>}
      {counts.files > 0 && <div role="group" aria-label={context.headings.files} className="entry-group">{inGroup('files')}</div>}
    </div>
  );
});
