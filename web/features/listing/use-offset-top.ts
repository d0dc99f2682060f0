import { useLayoutEffect, useState, type RefObject } from 'react';

/** The element and what can move it down the page: its ancestors and everything before them. */
function movers(element: HTMLElement): Element[] {
  const found: Element[] = [];
  for (let node: Element | null = element; node; node = node.parentElement) {
    found.push(node);
    for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling) found.push(sibling);
  }
  return found;
}

/**
 * Where the element starts in the page, for the window virtualizer's scroll margin. Measured
 * once, then whenever something that can move it (a banner or bar above it, the window's width)
 * changes size. A ResizeObserver reports after the browser's own layout, so reading the position
 * there costs nothing; reading it after every render instead forced a second layout of the
 * freshly rendered rows on each scroll step (a quarter of the scroll's main-thread time).
 */
export function useOffsetTop(ref: RefObject<HTMLElement | null>): number {
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    // Whole pixels: the virtualizer keeps a measurement per row (100,000 of them) derived from
    // this value, and a fraction would make V8 store each of their numbers as a boxed double.
    // An equal value does not render again.
    const measure = (): void => setTop(Math.round(element.getBoundingClientRect().top + window.scrollY));
    measure();
    const observer = new ResizeObserver(measure);
    for (const mover of movers(element)) observer.observe(mover);
    return () => observer.disconnect();
  }, [ref]);
  return top;
}
