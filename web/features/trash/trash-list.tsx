import type { TrashItem } from '@contract/trash';
import { memo, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FileIcon } from '../../components/file-icon';
import { currentLang } from '../../i18n';
import { fileKind } from '../../lib/file-kind';
import { formatDateTime, formatSize } from '../../lib/format';

interface RowProps {
  item: TrashItem;
  index: number;
  selected: boolean;
  focused: boolean;
  onSelect: (index: number) => void;
}

/** One deleted item: an option named exactly by its name; where it was, size and dates describe it. */
const TrashRow = memo(function TrashRow({ item, index, selected, focused, onSelect }: RowProps) {
  const { t } = useTranslation();
  const lang = currentLang();
  const id = `trash-item-${index}`;
  return (
    <div role="option" id={id} className="trash-entry" aria-selected={selected} aria-describedby={`${id}-path ${id}-meta`}
      tabIndex={focused ? 0 : -1} data-index={index} onClick={() => onSelect(index)}>
      <span className="trash-media" aria-hidden="true"><FileIcon kind={fileKind(item.name, '', item.isDir)} className={item.isDir ? 'entry-icon folder' : 'entry-icon'} /></span>
      <span className="trash-name" dir="auto" title={item.name}>{item.name}</span>
      {/* A path reads left to right, also in a right-to-left language, but sits at the row's start. */}
      <span className="trash-path mono" id={`${id}-path`} aria-hidden="true" title={item.path}><bdi dir="ltr">{item.path}</bdi></span>
      <span className="trash-meta" id={`${id}-meta`} aria-hidden="true">
        <span>{item.isDir && item.size === 0 ? '—' : formatSize(item.size, lang)}</span>
        <span>{t('trash.deletedOn', { date: formatDateTime(item.deleted, lang) })}</span>
        <span>{t('trash.expiresOn', { date: formatDateTime(item.expires, lang) })}</span>
      </span>
    </div>
  );
});

/** Arrow keys, Home and End move the selection, as in a single-select listbox. */
function useListKeys(count: number, select: (index: number) => void, current: number) {
  return (event: KeyboardEvent<HTMLElement>): void => {
    const moves: Record<string, number> = { ArrowDown: current + 1, ArrowUp: current - 1, Home: 0, End: count - 1 };
    const next = moves[event.key];
    if (next === undefined || count === 0) return;
    event.preventDefault();
    const index = Math.max(0, Math.min(count - 1, next));
    select(index);
    event.currentTarget.querySelector<HTMLElement>(`[data-index="${index}"]`)?.focus();
  };
}

/** The listbox "Trash" (beyond.md §3): one option per deleted item, newest first, one selected at a time. */
export function TrashList({ items, selectedId, onSelect }: { items: readonly TrashItem[]; selectedId: string | null; onSelect: (id: string) => void }) {
  const { t } = useTranslation();
  const [focus, setFocus] = useState(0);
  const selectedIndex = items.findIndex((i) => i.id === selectedId);
  const current = selectedIndex >= 0 ? selectedIndex : Math.min(focus, items.length - 1);
  const select = (index: number): void => {
    const item = items[index];
    if (!item) return;
    setFocus(index);
    onSelect(item.id);
  };
  const onKeyDown = useListKeys(items.length, select, current);
  return (
    <div role="listbox" aria-label={t('trash.title')} className="trash-entries" onKeyDown={onKeyDown}>
      {items.map((item, index) => (
        <TrashRow key={item.id} item={item} index={index} selected={item.id === selectedId} focused={index === current} onSelect={select} />
      ))}
    </div>
  );
}
