import { describe, expect, it } from 'vitest';
import { assignSlots, NO_PLACEMENT, placeRows, type Placement } from './slots';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('assignSlots', () => {
  it('numbers the first rows from 0', () => {
    expect([...assignSlots(new Map(), [0, 1, 2])]).toEqual([[0, 0], [1, 1], [2, 2]]);
  });

  it('keeps the slot of a row that stays and gives a leaving row\'s slot to an arriving one', () => {
    const first = assignSlots(new Map(), range(0, 5));
    const next = assignSlots(first, range(2, 7));
    expect([2, 3, 4].map((r) => next.get(r))).toEqual([2, 3, 4]);
    expect(new Set([next.get(5), next.get(6)])).toEqual(new Set([0, 1]));
  });

  it('reuses every slot when the view jumps past all its rows', () => {
    const first = assignSlots(new Map(), range(0, 40));
    const jumped = assignSlots(first, range(1000, 1040));
    expect(new Set(jumped.values())).toEqual(new Set(first.values()));
  });

  it('never gives two rows the same slot, however the rows change', () => {
    let slots = assignSlots(new Map(), range(0, 30));
    for (const [from, to] of [[5, 40], [38, 50], [0, 12], [200, 260], [250, 255], [100, 160]] as const) {
      slots = assignSlots(slots, range(from, to));
      expect(slots.size).toBe(to - from);
      expect(new Set(slots.values()).size).toBe(to - from);
      expect(Math.max(...slots.values())).toBeLessThan(60);
    }
  });
});

describe('placeRows', () => {
  /** The slots of a placement in page order: the elements as the page holds them. */
  const elements = (p: Placement) => p.order.map((row) => p.slots.get(row));

  it('puts rows in item order once the list is at rest', () => {
    const first = placeRows(NO_PLACEMENT, range(0, 6), false);
    const moved = placeRows(first, range(3, 9), false);
    expect(moved.order).not.toEqual(range(3, 9));
    expect(placeRows(moved, range(3, 9), true).order).toEqual(range(3, 9));
  });

  it('while scrolling, gives an arriving row the place of the row whose slot it takes', () => {
    const first = placeRows(NO_PLACEMENT, range(0, 6), true);
    const next = placeRows(first, range(2, 8), false);
    // Rows 6 and 7 took the slots of rows 0 and 1, which were first in the page.
    expect(next.order).toEqual([6, 7, 2, 3, 4, 5]);
    // So the elements stay in the page's order: none has to move.
    expect(elements(next)).toEqual(elements(first));
  });

  it('while scrolling, keeps every element in place however far the rows jump', () => {
    let placement = placeRows(NO_PLACEMENT, range(0, 20), true);
    for (const from of [7, 19, 500, 480, 3]) {
      const next = placeRows(placement, range(from, from + 20), false);
      expect([...next.order].sort((a, b) => a - b)).toEqual(range(from, from + 20));
      expect(elements(next)).toEqual(elements(placement));
      placement = next;
    }
  });

  it('puts the rows of new slots last, in item order', () => {
    const first = placeRows(NO_PLACEMENT, range(0, 3), true);
    const shuffled = { slots: first.slots, order: [2, 0, 1] };
    expect(placeRows(shuffled, range(0, 6), false).order).toEqual([2, 0, 1, 3, 4, 5]);
  });
});
