// Which cells of a listing option clip their text. A cell clips (with an ellipsis) only when its
// text does not fit: every clip is a paint property of its own, and one on each of the three cells
// of the ~140 options on the page made the compositor's work per frame of a scroll 2.5 times as long.

const CELLS = ':scope > .entry-name, :scope > .entry-size, :scope > .entry-modified';

/** Options rendered since the last check. */
const pending = new Set<Element>();

/** Has the option's cells checked at the next `markOverflowingCells`: it shows new text, or has new room. */
export function checkCellsOf(option: Element | null): void {
  if (option) pending.add(option);
}

/**
 * Marks the cells of the options handed to `checkCellsOf` whose text is wider than the cell
 * (`data-overflows`, styled in listing.css). All widths are read before any mark changes, so the
 * page is laid out once, not once per option.
 */
export function markOverflowingCells(): void {
  const cells = [...pending].filter((option) => option.isConnected).flatMap((option) => [...option.querySelectorAll(CELLS)]);
  pending.clear();
  const overflows = cells.map((cell) => cell.scrollWidth > cell.clientWidth);
  cells.forEach((cell, i) => {
    const over = overflows[i] ?? false;
    if (over !== cell.hasAttribute('data-overflows')) cell.toggleAttribute('data-overflows', over);
  });
}
