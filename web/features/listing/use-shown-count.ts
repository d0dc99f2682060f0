import { useCallback, useEffect, useState } from 'react';

/** product.md §9: the listing shows 50 items at first and 50 more each time. */
export const PAGE_SIZE = 50;

function nearTheEnd(): boolean {
  const left = document.documentElement.scrollHeight - (window.scrollY + window.innerHeight);
  // product.md §9: within 25% of the window height of the end.
  return left < window.innerHeight * 0.25;
}

/**
 * How many items the listing lays out: 50, then 50 more whenever the page is scrolled near its
 * end; `showUpTo(n)` makes room at once for an item the keyboard moved to.
 */
export function useShownCount(total: number): [number, (count: number) => void] {
  const [shown, setShown] = useState(PAGE_SIZE);

  useEffect(() => {
    if (shown >= total) return undefined;
    const check = (): void => {
      if (nearTheEnd()) setShown((s) => Math.min(total, s + PAGE_SIZE));
    };
    check();
    window.addEventListener('scroll', check, { passive: true });
    window.addEventListener('resize', check);
    return () => {
      window.removeEventListener('scroll', check);
      window.removeEventListener('resize', check);
    };
  }, [shown, total]);

  const showUpTo = useCallback((count: number) => {
    setShown((s) => (count <= s ? s : Math.min(total, Math.ceil(count / PAGE_SIZE) * PAGE_SIZE)));
  }, [total]);

  return [Math.min(shown, total), showUpTo];
}
