import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { itemsAtom, selectedAtom } from '../../state/listing';
import { ItemView, type ItemHandlers } from './item-view';
import type { Row } from './rows';
import { focusIndexAtom, viewModeAtom } from './state';

export interface RowPlacement {
  /** Pixels from the top of the list. */
  top: number;
  height: number;
  columns: number;
}

export interface DragState {
  dragged: ReadonlySet<string> | null;
  target: number | null;
  canMove: boolean;
}

interface ListingRowProps {
  row: Row;
  place: RowPlacement;
  drag: DragState;
  handlers: ItemHandlers;
}

/** One virtual row: a group heading (hidden from screen readers: the group has the name) or items. */
export function ListingRow({ row, place, drag, handlers }: ListingRowProps) {
  const { t } = useTranslation();
  const items = useAtomValue(itemsAtom);
  const selected = useAtomValue(selectedAtom);
  const focusIndex = useAtomValue(focusIndexAtom);
  const view = useAtomValue(viewModeAtom);
  const style = { transform: `translateY(${place.top}px)`, blockSize: place.height, gridTemplateColumns: `repeat(${place.columns}, minmax(0, 1fr))` };
  if (row.kind === 'heading') return <div className="entry-heading" aria-hidden="true" style={style}>{t(`listing.${row.group}`)}</div>;
  return (
    <div className="entry-row" style={style}>
      {items.slice(row.start, row.end).map((item, i) => {
        const index = row.start + i;
        return (
          <ItemView key={item.name} item={item} index={index} total={items.length} view={view} selected={selected.has(item.name)}
            focused={index === focusIndex} dimmed={drag.dragged?.has(item.name) ?? false} target={drag.target === index}
            draggable={drag.canMove} handlers={handlers} />
        );
      })}
    </div>
  );
}
