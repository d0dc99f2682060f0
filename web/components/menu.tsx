import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { Icon, type IconName } from './icon';

export interface MenuEntry {
  /** Stable key, also the item's `data-action`. */
  id: string;
  label: string;
  icon: IconName;
  disabled?: boolean;
  onSelect: () => void;
}

export interface MenuProps {
  label: string;
  entries: readonly MenuEntry[];
  /** Where the menu opens, in viewport pixels: its inline start edge sits there (left, or right in RTL). */
  at: { x: number; y: number };
  /** Closes the menu; `restoreFocus` is false when the person pressed or clicked elsewhere. */
  onClose: (restoreFocus: boolean) => void;
}

const MARGIN = 8;

/** The place of a menu of `size` opened at `at`, kept inside the viewport. */
function placed(at: { x: number; y: number }, size: { width: number; height: number }, rtl: boolean): { left: number; top: number } {
  const left = rtl ? at.x - size.width : at.x;
  const maxLeft = window.innerWidth - size.width - MARGIN;
  const maxTop = window.innerHeight - size.height - MARGIN;
  return { left: Math.max(MARGIN, Math.min(left, maxLeft)), top: Math.max(MARGIN, Math.min(at.y, maxTop)) };
}

/** The index `key` leads to from `current` among `count` items (wrapping), or null. */
function moved(key: string, current: number, count: number): number | null {
  if (key === 'ArrowDown') return (current + 1) % count;
  if (key === 'ArrowUp') return (current - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/** Closes the menu (focus left where it goes) on a press outside it, a scroll or a resize. */
function useDismiss(ref: RefObject<HTMLDivElement | null>, close: RefObject<(restoreFocus: boolean) => void>): void {
  useEffect(() => {
    const outside = (event: Event): void => {
      if (!ref.current?.contains(event.target as Node)) close.current(false);
    };
    const away = (): void => close.current(false);
    document.addEventListener('pointerdown', outside, true);
    window.addEventListener('scroll', away, true);
    window.addEventListener('resize', away);
    return () => {
      document.removeEventListener('pointerdown', outside, true);
      window.removeEventListener('scroll', away, true);
      window.removeEventListener('resize', away);
    };
  }, [ref, close]);
}

/**
 * A context menu (WAI-ARIA menu pattern): role `menu` of `menuitem`s, the first focused on open;
 * arrows, Home and End move, Enter or Space activates, Esc or Tab closes and hands the focus back;
 * a press outside, a scroll or a resize closes it. A disabled entry is shown, focusable and inert.
 */
export function Menu({ label, entries, at, onClose }: MenuProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<{ left: number; top: number } | null>(null);
  const close = useRef(onClose);
  useLayoutEffect(() => {
    close.current = onClose;
  });

  useLayoutEffect(() => {
    const menu = ref.current;
    if (!menu) return;
    setPlace(placed(at, { width: menu.offsetWidth, height: menu.offsetHeight }, document.documentElement.dir === 'rtl'));
  }, [at]);
  // Once placed (a hidden element takes no focus), the first item has the focus.
  const placedYet = place !== null;
  useLayoutEffect(() => {
    if (placedYet) ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus({ preventScroll: true });
  }, [placedYet, at]);

  useDismiss(ref, close);

  const activate = (entry: MenuEntry): void => {
    if (entry.disabled) return;
    close.current(true);
    entry.onSelect();
  };

  const onKeyDown = (event: KeyboardEvent): void => {
    const items = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const next = moved(event.key, items.indexOf(document.activeElement as HTMLElement), items.length);
    if (next !== null) {
      event.preventDefault();
      items[next]?.focus();
    } else if (event.key === 'Escape' || event.key === 'Tab') {
      event.preventDefault();
      event.stopPropagation();
      close.current(true);
    }
  };

  return createPortal(
    <div ref={ref} role="menu" aria-label={label} className="context-menu" onKeyDown={onKeyDown}
      onContextMenu={(e) => e.preventDefault()}
      style={place ? { left: place.left, top: place.top } : { left: 0, top: 0, visibility: 'hidden' }}>
      {entries.map((entry) => (
        <button key={entry.id} type="button" role="menuitem" data-action={entry.id} tabIndex={-1}
          aria-disabled={entry.disabled || undefined} className="context-menu-item" onClick={() => activate(entry)}>
          <Icon name={entry.icon} />
          <span>{entry.label}</span>
        </button>
      ))}
    </div>,
    document.body,
  );
}
