import { atom } from 'jotai';
import { search, type SearchHit } from '../../api/search';
import { failureText, type NoticeText } from '../../lib/notice';

export type TypeFilter = 'image' | 'audio' | 'video' | 'pdf';

export interface SearchState {
  /** The query last sent, '' before the first search. */
  query: string;
  hits: readonly SearchHit[];
  running: boolean;
  /** Why the last search failed (shown in the results as well as in a notice), or null. */
  failure: NoticeText | null;
}

const IDLE: SearchState = { query: '', hits: [], running: false, failure: null };

export const searchStateAtom = atom<SearchState>(IDLE);

let current: AbortController | null = null;

/** The query the server gets: the text, and `type:` for a chosen filter (api.md §3.14). */
export function queryOf(text: string, filter: TypeFilter | null): string {
  return [filter ? `type:${filter}` : '', text.trim()].filter(Boolean).join(' ');
}

/** Forgets the results (typing starts a new search) and stops one still streaming. */
export const clearSearchAtom = atom(null, (_get, set) => {
  current?.abort();
  current = null;
  set(searchStateAtom, IDLE);
});

// Hits arrive one by one; the list is updated at most once a frame, so a search that finds
// thousands of entries does not render thousands of times.
function batcher(onFlush: (hits: SearchHit[]) => void): { add: (hit: SearchHit) => void; flush: () => void } {
  let queued: SearchHit[] = [];
  let frame = 0;
  const flush = (): void => {
    cancelAnimationFrame(frame);
    frame = 0;
    if (queued.length === 0) return;
    const batch = queued;
    queued = [];
    onFlush(batch);
  };
  return {
    add: (hit) => {
      queued.push(hit);
      if (!frame) frame = requestAnimationFrame(flush);
    },
    flush,
  };
}

/** Searches below `folder`; results show as they stream in. Rejects on failure (not on a stop). */
export const runSearchAtom = atom(null, async (_get, set, { folder, query }: { folder: string; query: string }) => {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  set(searchStateAtom, { query, hits: [], running: true, failure: null });
  const batch = batcher((hits) => set(searchStateAtom, (s) => ({ ...s, hits: [...s.hits, ...hits] })));
  try {
    await search({ folder, query }, batch.add, controller.signal);
  } catch (error) {
    if (controller.signal.aborted) return;
    if (current === controller) set(searchStateAtom, (s) => ({ ...s, failure: failureText(error) }));
    throw error;
  } finally {
    if (current === controller) {
      batch.flush();
      set(searchStateAtom, (s) => ({ ...s, running: false }));
      current = null;
    }
  }
});
