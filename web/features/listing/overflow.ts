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
 * A name cut by its ellipsis shows in full as the cell's tooltip. Set again on every check: the
 * element may show another item's name (slots.ts). Not part of the option's name or description,
 * which its aria attributes give (ui.md).
 */
function showFullName(cell: Element, cut: boolean): void {
  const full = cut ? (cell.textContent ?? '') : '';
  if (full === (cell.getAttribute('title') ?? '')) return;
  if (full) cell.setAttribute('title', full);
  else cell.removeAttribute('title');
}

/**
 * Marks the cells of the options handed to `checkCellsOf` whose text is wider than the cell
 * (`data-overflows`, styled in listing.css), and gives a cut name its tooltip. All widths are read
 * before any mark changes, so the page is laid out once, not once per option.
 */
export function markOverflowingCells(): void {
  const cells = [...pending].filter((option) => option.isConnected).flatMap((option) => [...option.querySelectorAll(CELLS)]);
  pending.clear();
  const overflows = cells.map((cell) => cell.scrollWidth > cell.clientWidth);
  cells.forEach((cell, i) => {
    const over = overflows[i] ?? false;
    if (over !== cell.hasAttribute('data-overflows')) cell.toggleAttribute('data-overflows', over);
    if (cell.classList.contains('entry-name')) showFullName(cell, over);
  });
}
