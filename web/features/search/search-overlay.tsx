import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useRef, useState, type FormEvent, type UIEvent } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useModal } from '../../components/dialog';
import { Icon } from '../../components/icon';
import { failureText } from '../../lib/notice';
import { folderAtom } from '../../state/listing';
import { notifyAtom } from '../../state/notices';
import { searchOpenAtom } from '../../state/panels';
import { SearchHitLink } from './search-hit';
import { clearSearchAtom, queryOf, runSearchAtom, searchStateAtom, type TypeFilter } from './state';
import { useSearchAsYouType } from './use-search-as-you-type';

// product.md §9: 50 results at a time, more within 100 px of the end.
const PAGE = 50;
const NEAR_END_PX = 100;
const FILTERS: [TypeFilter, 'images' | 'music' | 'video' | 'pdf'][] = [['image', 'images'], ['audio', 'music'], ['video', 'video'], ['pdf', 'pdf']];

/** What the results say above the list: the hint, searching, nothing found or why it failed. */
function useStatus(typing: boolean): string {
  const { t } = useTranslation();
  const state = useAtomValue(searchStateAtom);
  if (state.failure) return 'key' in state.failure ? t(state.failure.key, state.failure.values) : state.failure.text;
  // Text typed and the pause not over yet: the search is as good as started.
  if ((state.running || (typing && !state.query)) && state.hits.length === 0) return t('search.searching');
  if (!state.running && state.query && state.hits.length === 0) return t('search.none');
  if (!state.query) return t('search.hint');
  return '';
}

function Results({ root, typing, onOpen }: { root: string; typing: boolean; onOpen: () => void }) {
  const { t } = useTranslation();
  const state = useAtomValue(searchStateAtom);
  const status = useStatus(typing);
  // How many hits show, for the query they were loaded for: a new query starts again at 50.
  const [page, setPage] = useState({ query: state.query, shown: PAGE });
  const shown = page.query === state.query ? page.shown : PAGE;
  const list = useRef<HTMLDivElement>(null);
  // A new query's hits start at the top. (A block: Chromium's scrollTo returns a promise, which
  // React would take for the effect's cleanup.)
  useEffect(() => {
    if (list.current) list.current.scrollTop = 0;
  }, [state.query]);
  const onScroll = (event: UIEvent<HTMLDivElement>): void => {
    const box = event.currentTarget;
    // Only a list that overflows was scrolled by someone: a list just emptied for the next query
    // also gets a scroll event (the browser moves it back to the top), which must not count.
    if (box.scrollHeight <= box.clientHeight) return;
    if (box.scrollHeight - box.scrollTop - box.clientHeight < NEAR_END_PX) setPage({ query: state.query, shown: shown + PAGE });
  };
  return (
    <div className="search-results" ref={list} onScroll={onScroll}>
      <p className={state.failure ? 'search-status failed' : 'search-status'} aria-live="polite">{status}</p>
      <ul aria-label={t('search.results')} aria-busy={state.running} className="search-list">
        {state.hits.slice(0, shown).map((hit) => (
          <li key={hit.path} className="search-row">
            <SearchHitLink hit={hit} root={root} query={state.query} onOpen={onOpen} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The search overlay (product.md §2): typing clears the results and searches below the folder on
 * screen once it pauses (Enter at once), the type buttons narrow it, results stream in with the
 * match marked; Esc closes.
 */
export function SearchOverlay() {
  const { t } = useTranslation();
  const [open, setOpen] = useAtom(searchOpenAtom);
  const root = useAtomValue(folderAtom) ?? '/';
  const run = useSetAtom(runSearchAtom);
  const clear = useSetAtom(clearSearchAtom);
  const notify = useSetAtom(notifyAtom);
  const [text, setText] = useState('');
  const [filter, setFilter] = useState<TypeFilter | null>(null);
  const close = useCallback(() => setOpen(false), [setOpen]);
  const [ref, modal] = useModal(close);
  // Closing forgets the results and stops a search still streaming.
  useEffect(() => () => clear(), [clear]);

  const start = (next: TypeFilter | null): void => {
    run({ folder: root, query: queryOf(text, next) }).catch((error: unknown) => notify({ kind: 'error', message: failureText(error) }));
  };
  const cancelTyped = useSearchAsYouType(text, filter, start);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    cancelTyped();
    if (text.trim() || filter) start(filter);
  };
  const toggle = (type: TypeFilter): void => {
    const next = filter === type ? null : type;
    cancelTyped();
    setFilter(next);
    if (next || text.trim()) start(next);
    else clear();
  };

  if (!open) return null;
  return createPortal(
    <dialog ref={ref} className="search-overlay" aria-label={t('search.label')} onCancel={modal.onCancel} onClose={modal.onClose}>
      <form role="search" className="search-bar" onSubmit={submit}>
        <Icon name="search" className="search-icon" />
        <input type="search" className="search-input" aria-label={t('search.label')} placeholder={t('search.placeholder')} value={text} autoFocus
          onChange={(e) => { setText(e.target.value); clear(); }}
          // A search field's own Esc would only empty it; product.md §2: Esc closes the overlay.
          onKeyDown={(e) => { if (e.key === 'Escape') { e.preventDefault(); close(); } }} />
        <button type="button" className="icon-button" aria-label={t('prompts.close')} onClick={close}><Icon name="close" /></button>
      </form>
      <div className="search-filters">
        {FILTERS.map(([type, key]) => (
          <button key={type} type="button" className="button button-small" aria-pressed={filter === type} onClick={() => toggle(type)}>{t(`search.${key}`)}</button>
        ))}
      </div>
      <Results root={root} typing={text.trim() !== ''} onOpen={close} />
    </dialog>,
    document.body,
  );
}
