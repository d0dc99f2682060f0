import { useAtomValue } from 'jotai';
import { memo, useMemo, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { FileInfo } from '../../api/types';
import { DateTime } from '../../components/date-time';
import { FileIcon } from '../../components/file-icon';
import { currentLang } from '../../i18n';
import { fileKind } from '../../lib/file-kind';
import { formatSize } from '../../lib/format';
import { joinPath, sharePath } from '../../paths';
import { nowAtom } from '../../state/clock';
import { useShareSelection } from './use-share-selection';

/** product.md §9: the share page shows 100 items, plus 100 per click. */
const PAGE = 100;

interface ItemProps {
  item: FileInfo;
  index: number;
  path: string;
  selected: boolean;
  focused: boolean;
  onClick: (index: number, event: MouseEvent) => void;
  onOpen: (index: number) => void;
}

/** One item: an `option` named exactly by the item's name (ui.md), as in the listing. */
const ShareItem = memo(function ShareItem({ item, index, path, selected, focused, onClick, onOpen }: ItemProps) {
  const now = useAtomValue(nowAtom);
  const lang = currentLang();
  const id = `share-item-${index}`;
  return (
    // Named by its content, where only the name is exposed: the name is exactly the item's name
    // (ui.md) and all of it is text on screen; size and date are the option's description.
    <div role="option" className="entry" aria-selected={selected} aria-describedby={`${id}-size ${id}-date`}
      data-path={path} data-index={index} tabIndex={focused ? 0 : -1} onClick={(e) => onClick(index, e)} onDoubleClick={() => onOpen(index)}>
      <span className="entry-media"><FileIcon kind={fileKind(item.name, item.type, item.isDir)} className={item.isDir ? 'entry-icon folder' : 'entry-icon'} /></span>
      <span className="entry-name" dir="auto" title={item.name}>{item.name}</span>
      <span className="entry-size" id={`${id}-size`} aria-hidden="true">{item.isDir ? '—' : formatSize(item.size, lang)}</span>
      <span className="entry-modified" id={`${id}-date`} aria-hidden="true"><DateTime iso={item.modified} exact={false} nowMs={now} lang={lang} /></span>
    </div>
  );
});

/** Arrow keys move the focus, Enter opens, Space selects, as in the listing. */
function useItemKeys(count: number, handlers: { open: (i: number) => void; toggle: (i: number) => void }) {
  const [focus, setFocus] = useState(0);
  const onKeyDown = (event: KeyboardEvent<HTMLElement>): void => {
    const moves: Record<string, number> = { ArrowDown: focus + 1, ArrowUp: focus - 1, Home: 0, End: count - 1 };
    const next = moves[event.key];
    if (next !== undefined) {
      event.preventDefault();
      const index = Math.max(0, Math.min(count - 1, next));
      setFocus(index);
      event.currentTarget.querySelector<HTMLElement>(`[data-index="${index}"]`)?.focus();
    } else if (event.key === 'Enter') handlers.open(focus);
    else if (event.key === ' ') {
      event.preventDefault();
      handlers.toggle(focus);
    }
  };
  return { focus, setFocus, onKeyDown };
}

/**
 * The items box of a shared folder (product.md §2): a `listbox` "Files and folders" of the first 100
 * items, folders then files, and a "+ N" button showing 100 more; a double click or Enter opens.
 */
export function ShareItems({ items: unsorted, hash, folder }: { items: readonly FileInfo[]; hash: string; folder: string }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const [shown, setShown] = useState(PAGE);
  const items = useMemo(() => [...unsorted.filter((i) => i.isDir), ...unsorted.filter((i) => !i.isDir)], [unsorted]);
  const selection = useShareSelection(items);
  const pathOf = (item: FileInfo): string => joinPath(folder, item.name, item.isDir);
  const open = (index: number): void => {
    const item = items[index];
    if (item) navigate(sharePath(hash, pathOf(item)));
  };
  const keys = useItemKeys(Math.min(shown, items.length), { open, toggle: selection.toggle });
  if (items.length === 0) return <p className="empty card">{t('listing.empty')}</p>;
  const visible = items.slice(0, shown);
  const option = (item: FileInfo, index: number) => (
    <ShareItem key={item.name} item={item} index={index} path={pathOf(item)} selected={selection.selected.has(item.name)}
      focused={index === keys.focus} onOpen={open} onClick={(i, e) => {
        keys.setFocus(i);
        selection.click(i, e);
      }} />
  );
  const dirs = visible.filter((item) => item.isDir).length;
  return (
    <section className="share-items">
      <div role="listbox" aria-label={t('listing.label')} aria-multiselectable="true" className="share-entries view-list" onKeyDown={keys.onKeyDown}>
        {dirs > 0 && <div role="group" aria-label={t('listing.folders')} className="share-group">{visible.slice(0, dirs).map((item, i) => option(item, i))}</div>}
        {visible.length > dirs && <div role="group" aria-label={t('listing.files')} className="share-group">{visible.slice(dirs).map((item, i) => option(item, dirs + i))}</div>}
      </div>
      {items.length > shown && (
        <button type="button" className="button share-more" onClick={() => setShown(shown + PAGE)}>{`+ ${items.length - shown}`}</button>
      )}
    </section>
  );
}
