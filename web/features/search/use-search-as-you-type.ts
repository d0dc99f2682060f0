import { useEffect, useRef } from 'react';
import type { TypeFilter } from './state';

/**
 * How long typing must pause before the search starts by itself: short enough that results
 * follow the typing (the index answers in milliseconds), long enough that a word typed at speed
 * is one request; a newer search aborts the one before it anyway (state.ts).
 */
export const TYPE_PAUSE_MS = 150;

/**
 * Searches as the person types: once the text has rested TYPE_PAUSE_MS (a newer keystroke
 * restarts the wait). Empty text searches nothing here, and the overlay opening does not search.
 * Returns `cancel`, for a search started otherwise (Enter, a type button) meanwhile; the wait
 * reads the latest filter and start when it ends.
 */
export function useSearchAsYouType(text: string, filter: TypeFilter | null, start: (filter: TypeFilter | null) => void): () => void {
  const latest = useRef({ start, filter });
  const timer = useRef<number | undefined>(undefined);
  const first = useRef(true);
  useEffect(() => {
    latest.current = { start, filter };
  });
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (!text.trim()) return;
    timer.current = window.setTimeout(() => {
      timer.current = undefined;
      latest.current.start(latest.current.filter);
    }, TYPE_PAUSE_MS);
    return () => window.clearTimeout(timer.current);
  }, [text]);
  return () => {
    window.clearTimeout(timer.current);
    timer.current = undefined;
  };
}
