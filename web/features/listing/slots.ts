// Which element shows which virtual row. A row scrolled out of view hands its element (its slot)
// to a row scrolling in, so scrolling changes the text and attributes of the same few dozen
// elements instead of creating and dropping them: a new DOM element, and the React fiber behind
// it, is garbage only a full (major) collection of the page can free, and at 100,000 items those
// collections were the frames over 50 ms of a scroll to the end.

/** Row index to slot, for the rows on screen. */
export type Slots = ReadonlyMap<number, number>;

/**
 * The slots for `rows` (row indexes, any order, no repeats), given those of the last render: a row
 * still on screen keeps its slot, a new row takes the lowest slot no row on screen holds (so as many
 * rows arrive as leave take over the slots of those that left). Pure: the caller keeps the result
 * once the render commits.
 */
export function assignSlots(previous: Slots, rows: readonly number[]): Map<number, number> {
  const next = new Map<number, number>();
  const taken = new Set<number>();
  for (const row of rows) {
    const slot = previous.get(row);
    if (slot === undefined) continue;
    next.set(row, slot);
    taken.add(slot);
  }
  let candidate = 0;
  for (const row of rows) {
    if (next.has(row)) continue;
    while (taken.has(candidate)) candidate++;
    next.set(row, candidate);
    taken.add(candidate);
  }
  return next;
}

/** The rows of a render: each one's slot, and the rows in the order of their elements in the page. */
export interface Placement {
  slots: Slots;
  order: readonly number[];
}

export const NO_PLACEMENT: Placement = { slots: new Map(), order: [] };

/**
 * The slots of `rows` (assignSlots) and the order their elements take in the page, given the
 * last render's. Rows are placed by their top, so the order only matters to what reads the page
 * in order (screen readers): once the list is at rest the rows follow the items. While it
 * scrolls, each row keeps the place of its slot's element, rows of new slots going last:
 * putting an element elsewhere detaches it, and Chromium then builds its style and layout again
 * from nothing, which cost more than all the rest of a scroll step.
 */
export function placeRows(previous: Placement, rows: readonly number[], atRest: boolean): Placement {
  const slots = assignSlots(previous.slots, rows);
  const sorted = [...rows].sort((a, b) => a - b);
  if (atRest) return { slots, order: sorted };
  const rank = new Map(previous.order.map((row, i) => [previous.slots.get(row), i]));
  const rankOf = (row: number) => rank.get(slots.get(row)) ?? previous.order.length;
  // Stable: rows of equal rank (new slots) stay in item order.
  return { slots, order: sorted.sort((a, b) => rankOf(a) - rankOf(b)) };
}
