import { Fragment, useLayoutEffect, useRef, useState } from 'react';
import { Icon } from './icon';
import { MoreMenu, type BarAction } from './more-menu';

export type { BarAction } from './more-menu';

/** A bar button's size and the gap between two (web/styles/files-bar.css, phone width). */
const SLOT = 36 + 2;

/** How many bar buttons `toolbar` has room for, or Infinity where the bar wraps (wide screens). */
function roomOf(toolbar: HTMLElement): number {
  const style = getComputedStyle(toolbar);
  if (style.flexWrap !== 'nowrap') return Infinity;
  const inner = toolbar.clientWidth - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd);
  return Math.max(1, Math.floor((inner + 2) / SLOT));
}

interface FitToolbarProps {
  label: string;
  /** The name of the menu button that holds what does not fit ("More actions"). */
  moreLabel: string;
  /** In their order on the bar; `gapBefore` draws a separator before one (wide screens). */
  actions: readonly (BarAction & { gapBefore?: boolean })[];
  /** Action ids, most important first: those stay on the bar when not all fit. */
  priority: readonly string[];
}

/**
 * A toolbar that never cuts a button: where the bar has one line (a phone), the buttons that do
 * not fit go, in their order, into a "More actions" menu at its end; the most important ones stay.
 */
export function FitToolbar({ label, moreLabel, actions, priority }: FitToolbarProps) {
  const bar = useRef<HTMLDivElement>(null);
  const [room, setRoom] = useState(Infinity);

  useLayoutEffect(() => {
    const toolbar = bar.current;
    if (!toolbar) return;
    const measure = (): void => setRoom(roomOf(toolbar));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(toolbar);
    return () => observer.disconnect();
  }, []);

  const rank = (id: string): number => {
    const at = priority.indexOf(id);
    return at < 0 ? priority.length : at;
  };
  const fits = actions.length <= room;
  const kept = new Set(fits ? actions.map((a) => a.id) : [...actions].sort((a, b) => rank(a.id) - rank(b.id)).slice(0, room - 1).map((a) => a.id));
  const rest = actions.filter((a) => !kept.has(a.id));

  return (
    <div className="toolbar" role="toolbar" aria-label={label} ref={bar}>
      {actions.filter((a) => kept.has(a.id)).map((action) => (
        <Fragment key={action.id}>
          {action.gapBefore && <span className="toolbar-gap" />}
          <button type="button" className="icon-button action" aria-label={action.label} title={action.label} disabled={action.disabled}
            aria-pressed={action.pressed} onClick={action.onClick}>
            <Icon name={action.icon} />
          </button>
        </Fragment>
      ))}
      {rest.length > 0 && <MoreMenu label={moreLabel} actions={rest} />}
    </div>
  );
}
