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
