import { memo, useLayoutEffect, useRef, useState, type DragEvent, type MouseEvent } from 'react';
import { apiUrl } from '../../api/http';
import { DateTime } from '../../components/date-time';
import { FileIcon } from '../../components/file-icon';
import { domString } from '../../lib/dom-string';
import { fileKind } from '../../lib/file-kind';
import { formatSize } from '../../lib/format';
import { apiPaths, withQuery } from '../../paths';
import { itemPath, type Item } from '../../state/listing';
import { checkCellsOf } from './overflow';
import type { ViewMode } from './state';

export interface ItemHandlers {
  onClick: (index: number, event: MouseEvent) => void;
  onDoubleClick: (index: number) => void;
  onDragStart: (index: number, event: DragEvent) => void;
  onDragEnd: () => void;
  onDragOver: (index: number, event: DragEvent) => void;
  onDragLeave: (index: number) => void;
  onDrop: (index: number, event: DragEvent) => void;
}

/**
 * What every item is shown with, read once by the listing: an item subscribes to no store, so
 * mounting the rows that scroll into view costs no subscriptions.
 */
export interface ItemDisplay {
  view: ViewMode;
  /** The profile's "Show exact dates". */
  exact: boolean;
  nowMs: number;
  lang: string;
  thumbs: boolean;
}

interface ItemViewProps {
  item: Item;
  index: number;
  total: number;
  display: ItemDisplay;
  selected: boolean;
  focused: boolean;
  dimmed: boolean;
  target: boolean;
  draggable: boolean;
  handlers: ItemHandlers;
}

function Thumb({ item, display }: { item: Item; display: ItemDisplay }) {
  // An image the server cannot decode (415) shows the plain icon instead of a broken picture.
  // Remembered by address: the element shows another item once the list scrolls (see slots.ts).
  const [failed, setFailed] = useState<string | null>(null);
  const src = display.thumbs && item.type === 'image' ? apiUrl(withQuery(apiPaths.thumb(item.path), { key: item.modified })) : null;
  if (src !== null && src !== failed) {
    // Only rendered rows exist, so only visible items ask for their thumbnail. A new element for
    // each picture: one reused would show the last item's picture until the new one arrives.
    return <img key={src} className="entry-thumb" src={src} alt="" loading="lazy" decoding="async" draggable={false} onError={() => setFailed(src)} />;
  }
  return <FileIcon kind={fileKind(item.name, item.type, item.isDir)} className={`entry-icon${item.isDir ? ' folder' : ''}${display.view === 'mosaic gallery' ? ' large' : ''}`} />;
}

function classes(props: ItemViewProps): string {
  return ['entry', props.selected ? 'selected' : '', props.dimmed ? 'dimmed' : '', props.target ? 'drop-target' : ''].filter(Boolean).join(' ');
}

/** One item of the listing: an `option` named exactly by the item's name (ui.md). */
export const ItemView = memo(function ItemView(props: ItemViewProps) {
  const { item, index, handlers, display } = props;
  // Copies: the item's own strings live as long as the folder (see dom-string.ts).
  const name = domString(item.name);
  const element = useRef<HTMLDivElement>(null);
  // The element takes over another item as the list scrolls (slots.ts): the focus, on an item
  // scrolled out of the page, must not pass to the item now shown in its place.
  const shownIndex = useRef(index);
  useLayoutEffect(() => {
    if (shownIndex.current !== index && !props.focused && element.current === document.activeElement) element.current?.blur();
    shownIndex.current = index;
  }, [index, props.focused]);
  // After every render: the element may show another item, or the same item otherwise (the
  // listing then marks the cells whose text does not fit).
  useLayoutEffect(() => checkCellsOf(element.current));
  return (
    <div
      ref={element}
      role="option"
      id={`item-${index}`}
      className={classes(props)}
      aria-selected={props.selected}
      aria-posinset={index + 1}
      aria-setsize={props.total}
      aria-label={name}
      aria-describedby={`item-${index}-size item-${index}-modified`}
      data-path={domString(itemPath(item))}
      data-index={index}
      tabIndex={props.focused ? 0 : -1}
      draggable={props.draggable}
      onClick={(e) => handlers.onClick(index, e)}
      onDoubleClick={() => handlers.onDoubleClick(index)}
      onDragStart={(e) => handlers.onDragStart(index, e)}
      onDragEnd={handlers.onDragEnd}
      onDragOver={(e) => handlers.onDragOver(index, e)}
      onDragLeave={() => handlers.onDragLeave(index)}
      onDrop={(e) => handlers.onDrop(index, e)}
    >
      <span className="entry-media"><Thumb item={item} display={display} /></span>
      {/* dir="auto": the name takes the direction of its first letter, so a long one is cut at its
          end whatever its script (the cell still aligns to the page's side, listing.css). */}
      <span className="entry-name" dir="auto">{name}</span>
      {/* Size and date are the option's description: ui.md makes its name exactly the item's name. */}
      <span className="entry-size" id={`item-${index}-size`}>{item.isDir ? '—' : formatSize(item.size, display.lang)}</span>
      <DateTime className="entry-modified" id={`item-${index}-modified`} iso={domString(item.modified)} exact={display.exact} nowMs={display.nowMs} lang={display.lang} />
    </div>
  );
});
