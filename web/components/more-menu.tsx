import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Icon, type IconName } from './icon';

/** One action of a toolbar: a button on the bar, or an item of its "More actions" menu. */
export interface BarAction {
  id: string;
  icon: IconName;
  label: string;
  onClick: () => void;
  disabled?: boolean;
  /** A toggle's state (aria-pressed on the bar, aria-checked in the menu). */
  pressed?: boolean;
}

function focusItem(menu: HTMLElement | null, step: 1 | -1 | 'first' | 'last'): void {
  const items = [...(menu?.querySelectorAll<HTMLButtonElement>('[role^="menuitem"]:not(:disabled)') ?? [])];
  if (items.length === 0) return;
  const at = items.indexOf(document.activeElement as HTMLButtonElement);
  const next = step === 'first' ? 0 : step === 'last' ? items.length - 1 : (at + step + items.length) % items.length;
  items[next]?.focus();
}

/** The keys of an open menu: arrows, Home and End move; Escape closes back to its button; Tab closes. */
function onMenuKey(event: KeyboardEvent, menu: HTMLElement | null, close: (refocus: boolean) => void): void {
  const moves: Partial<Record<string, 1 | -1 | 'first' | 'last'>> = { ArrowDown: 1, ArrowUp: -1, Home: 'first', End: 'last' };
  const step = moves[event.key];
  if (step !== undefined) {
    event.preventDefault();
    focusItem(menu, step);
  } else if (event.key === 'Escape') {
    event.preventDefault();
    event.stopPropagation();
    close(true);
  } else if (event.key === 'Tab') {
    close(false);
  }
}

function MenuItem({ action, run }: { action: BarAction; run: (action: BarAction) => void }) {
  return (
    <button type="button" tabIndex={-1} className="more-menu-item" disabled={action.disabled}
      role={action.pressed === undefined ? 'menuitem' : 'menuitemcheckbox'} aria-checked={action.pressed} onClick={() => run(action)}>
      <Icon name={action.icon} />
      <span>{action.label}</span>
    </button>
  );
}

/**
 * The "More actions" menu button of a toolbar (WAI-ARIA menu button): the actions that do not fit
 * on the bar, as menu items with their icon and label. Arrow keys, Home and End move, Escape
 * closes back to the button, a click outside or Tab closes it.
 */
export function MoreMenu({ label, actions }: { label: string; actions: readonly BarAction[] }) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();

  useEffect(() => {
    if (!open) return;
    focusItem(menu.current, 'first');
    const outside = (event: PointerEvent): void => {
      if (!(event.target instanceof Node) || !box.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside, true);
    return () => document.removeEventListener('pointerdown', outside, true);
  }, [open]);

  const close = (refocus: boolean): void => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const run = (action: BarAction): void => {
    close(true);
    action.onClick();
  };
  const openByArrow = (event: KeyboardEvent): void => {
    if (event.key !== 'ArrowDown') return;
    event.preventDefault();
    setOpen(true);
  };

  return (
    <div className="more-menu" ref={box}>
      <button type="button" ref={button} className="icon-button action" aria-label={label} title={label} aria-haspopup="menu"
        aria-expanded={open} aria-controls={open ? id : undefined} onClick={() => setOpen(!open)} onKeyDown={openByArrow}>
        <Icon name="more" />
      </button>
      {open && (
        <div className="more-menu-list" role="menu" id={id} aria-label={label} ref={menu} onKeyDown={(event) => onMenuKey(event, menu.current, close)}>
          {actions.map((action) => <MenuItem key={action.id} action={action} run={run} />)}
        </div>
      )}
    </div>
  );
}
