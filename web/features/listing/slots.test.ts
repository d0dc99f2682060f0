import { describe, expect, it } from 'vitest';
import { assignSlots } from './slots';

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
