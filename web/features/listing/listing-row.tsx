import { memo } from 'react';
import type { Item } from '../../state/listing';
import { ItemView, type ItemDisplay, type ItemHandlers } from './item-view';
import type { Group, Row } from './rows';

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

/**
 * What every row is drawn from, read once by the listing and the same object until one of its
 * parts changes: rows subscribe to nothing themselves.
 */
export interface RowContext {
  items: readonly Item[];
  selected: ReadonlySet<string>;
  focusIndex: number;
  drag: DragState;
  handlers: ItemHandlers;
  display: ItemDisplay;
  /** The group headings' text. */
  headings: Record<Group, string>;
}

interface ListingRowProps {
  row: Row;
  place: RowPlacement;
  context: RowContext;
}

function sameRow(a: Row, b: Row): boolean {
  if (a.kind === 'heading' || b.kind === 'heading') return a.kind === b.kind && a.group === b.group;
  return a.group === b.group && a.start === b.start && a.end === b.end;
}

function sameProps(a: ListingRowProps, b: ListingRowProps): boolean {
  const [p, q] = [a.place, b.place];
  return a.context === b.context && sameRow(a.row, b.row) && p.top === q.top && p.height === q.height && p.columns === q.columns;
}

/**
 * One virtual row: a group heading (hidden from screen readers: the group has the name) or items.
 * Compared by value: a row that stays on screen while the list scrolls is not rendered again.
 */
export const ListingRow = memo(function ListingRow({ row, place, context }: ListingRowProps) {
  // Placed by its top, not a transform: a row only moves when it takes over another row, and
  // then its content is laid out anyway; a transform made each row a paint chunk of its own to
  // layerize every frame.
  const style = { insetBlockStart: place.top, blockSize: place.height, gridTemplateColumns: `repeat(${place.columns}, minmax(0, 1fr))` };
  if (row.kind === 'heading') return <div className="entry-heading" aria-hidden="true" style={style}>{context.headings[row.group]}</div>;
  const { items, selected, focusIndex, drag, handlers, display } = context;
  // Only a selection (or a drag) looks names up: V8 interns a string it hashes, for good, and
  // every major GC walks the interned strings, so rows scrolled past with no selection must not
  // hash their names (100,000 interned names made each GC pause four times longer).
  const anySelected = selected.size > 0;
  const cells = [];
  for (let index = row.start; index < row.end; index++) {
    const item = items[index];
    if (!item) continue;
    cells.push(
      // Keyed by column: the row's element, handed to another row as the list scrolls, keeps its items' elements too.
      <ItemView key={index - row.start} item={item} index={index} total={items.length} display={display} selected={anySelected && selected.has(item.name)}
        focused={index === focusIndex} dimmed={drag.dragged?.has(item.name) ?? false} target={drag.target === index}
        draggable={drag.canMove} handlers={handlers} />,
    );
  }
  return <div className="entry-row" style={style}>{cells}</div>;
}, sameProps);
