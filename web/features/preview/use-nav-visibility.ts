import { useCallback, useEffect, useRef, useState } from 'react';

/** Previous and Next hide after this long without pointer movement (product.md §9). */
const HIDE_AFTER_MS = 1500;
/** Pointer moves are taken into account at most this often (product.md §9: debounced 500 ms). */
const DEBOUNCE_MS = 500;

/** Whether Previous and Next are shown, and the handler that reports pointer activity. */
export function useNavVisibility() {
  const [shown, setShown] = useState(true);
  const lastMove = useRef(0);
  const timer = useRef<number | undefined>(undefined);

  const check = useCallback(function check(): void {
    const idle = performance.now() - lastMove.current;
    if (idle >= HIDE_AFTER_MS) {
      timer.current = undefined;
      setShown(false);
    } else {
      timer.current = window.setTimeout(check, HIDE_AFTER_MS - idle);
    }
  }, []);

  const onActivity = useCallback((): void => {
    const now = performance.now();
    if (timer.current !== undefined && now - lastMove.current < DEBOUNCE_MS) return;
    lastMove.current = now;
    setShown(true);
    if (timer.current === undefined) timer.current = window.setTimeout(check, HIDE_AFTER_MS);
  }, [check]);

  useEffect(() => {
    onActivity();
    return () => window.clearTimeout(timer.current);
  }, [onActivity]);

  return { shown, onActivity };
}
