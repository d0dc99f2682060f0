import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** Where the notices stand: the bottom edge (product.md §8) or, when that would cover a control, the top. */
export type NoticeEdge = 'bottom' | 'top';

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

function cssLength(name: string): number {
  return parseFloat(getComputedStyle(document.documentElement).getPropertyValue(name)) || 0;
}

/**
 * The area the notices take at `edge` (web/styles/notices.css: --space-4 above the bottom, or
 * just below the header at the top, which they must not hide either).
 */
function boxAt(edge: NoticeEdge, now: DOMRect): Box {
  const top = edge === 'top'
    ? cssLength('--header-height') + cssLength('--space-2')
    : window.innerHeight - cssLength('--space-4') - now.height;
  return { top, bottom: top + now.height, left: now.left, right: now.right };
}

/**
 * Keeps the notices clear of the control the person last used (the Save button that made an
 * error, product.md §8): the last element pressed or focused outside the notices is remembered,
 * and when the notices at the bottom edge would cover it they move to the top edge. `list` is the
 * element holding the notices; `count` their number (the area is measured again when it changes).
 */
export function useClearEdge(list: RefObject<HTMLElement | null>, count: number): NoticeEdge {
  const [edge, setEdge] = useState<NoticeEdge>('bottom');
  const anchor = useRef<Element | null>(null);

  useEffect(() => {
    const remember = (event: Event): void => {
      const target = event.target;
      if (target instanceof Element && !list.current?.contains(target)) anchor.current = target.closest('button, a, input, select, textarea, [role]') ?? target;
    };
    document.addEventListener('pointerdown', remember, true);
    document.addEventListener('focusin', remember, true);
    return () => {
      document.removeEventListener('pointerdown', remember, true);
      document.removeEventListener('focusin', remember, true);
    };
  }, [list]);

  useLayoutEffect(() => {
    const place = (): void => {
      const now = list.current?.getBoundingClientRect();
      const control = anchor.current;
      if (!now || now.height === 0 || !control?.isConnected) return setEdge('bottom');
      const covered = overlaps(boxAt('bottom', now), control.getBoundingClientRect());
      setEdge(covered && !overlaps(boxAt('top', now), control.getBoundingClientRect()) ? 'top' : 'bottom');
    };
    place();
    // No notices: nothing to keep clear while the page scrolls.
    if (count === 0) return;
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, true);
    return () => {
      window.removeEventListener('resize', place);
      window.removeEventListener('scroll', place, true);
    };
  }, [list, count]);

  return edge;
}
