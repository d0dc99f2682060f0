import { memo } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icon';
import { failureText } from '../../lib/notice';
import { notifyAtom } from '../../state/notices';
import { shownOrder, sortByAtom, sortingAtom, type SortBy } from './state';

const COLUMNS: { by: SortBy; key: 'name' | 'size' | 'modified'; className: string }[] = [
  { by: 'name', key: 'name', className: 'sort-name' },
  { by: 'size', key: 'size', className: 'sort-size' },
  { by: 'modified', key: 'modified', className: 'sort-modified' },
];

/**
 * The sort buttons (ui.md): the current one carries aria-sort, the order seen on screen. Memoized:
 * it reads its own state, so a render of the listing around it (a new selection) leaves it alone.
 */
export const SortBar = memo(function SortBar() {
  const { t } = useTranslation();
  const sorting = useAtomValue(sortingAtom);
  const sortBy = useSetAtom(sortByAtom);
  const notify = useSetAtom(notifyAtom);
  const order = shownOrder(sorting.by, sorting.asc);
  return (
    <div className="sort-bar">
      {COLUMNS.map(({ by, key, className }) => {
        const current = sorting.by === by;
        return (
          <button key={by} type="button" className={`sort-button ${className}${current ? ' current' : ''}`} aria-sort={current ? order : undefined}
            onClick={() => void sortBy(by).catch((error: unknown) => notify({ kind: 'error', message: failureText(error) }))}>
            <span>{t(`listing.${key}`)}</span>
            {current && <Icon name="arrow" className={order === 'ascending' ? 'sort-arrow up' : 'sort-arrow'} />}
          </button>
        );
      })}
    </div>
  );
});
