import { useAtomValue } from 'jotai';
import { useLayoutEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { arrivingAtom, itemsAtom } from '../../state/listing';
import { ItemMenu } from './item-menu';
import { ListingBox } from './listing-box';
import { checkCellsOf, markOverflowingCells } from './overflow';
import { rowHeightFor } from './row-height';
import { columnsFor, layoutRows } from './rows';
import { SortBar } from './sort-bar';
import { viewModeAtom } from './state';
import { useDragMove } from './use-drag-move';
import { useElementWidth } from './use-element-width';
import { useItemMenu } from './use-item-menu';
import { useRowContext, useStableHandlers } from './use-row-context';
import { useSelection } from './use-selection';

/**
 * The files listing: the sort bar and the listbox of the folder's items. What the rows are drawn
 * from (items, view, selection, drag, clock, language) is read here, and handed to the listbox as
 * values that keep their identity while the list only scrolls: a scroll step renders the listbox
 * alone, not the dozen stores and hooks read here.
 */
export function Listing() {
  const { t } = useTranslation();
  const label = useMemo(() => t('listing.label'), [t]);
  const listRef = useRef<HTMLDivElement>(null);
  const items = useAtomValue(itemsAtom);
  const view = useAtomValue(viewModeAtom);
  const width = useElementWidth(listRef);
  const columns = columnsFor(view, width);
  const dirs = useMemo(() => items.filter((item) => item.isDir).length, [items]);
  const counts = useMemo(() => ({ dirs, files: items.length - dirs }), [dirs, items.length]);
  const all = useMemo(() => layoutRows(counts, columns, counts.dirs + counts.files), [counts, columns]);
  // A new width changes the room of every cell (a rendered option asks for its own check).
  useLayoutEffect(() => {
    for (const option of listRef.current?.querySelectorAll('[role="option"]') ?? []) checkCellsOf(option);
    markOverflowingCells();
  }, [width]);
  const selection = useSelection();
  const drag = useDragMove();
  const context = useRowContext(items, drag, useStableHandlers(selection, drag.handlers));
  const arriving = useAtomValue(arrivingAtom);
  const itemMenu = useItemMenu(listRef, selection);
  return (
    <div className={`listing view-${view.replace(' ', '-')}`}>
      <SortBar />
      <ListingBox listRef={listRef} counts={counts} all={all} columns={columns} rowHeight={rowHeightFor(view, width, columns)} context={context}
        selection={selection} arriving={arriving} label={label} />
      {itemMenu.menu && <ItemMenu menu={itemMenu.menu} onClose={itemMenu.close} />}
    </div>
  );
}
