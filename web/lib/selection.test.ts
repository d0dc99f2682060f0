import { describe, expect, it } from 'vitest';
import { namesBetween, rangeSelection, toggled } from './selection';

const items = ['a', 'b', 'c', 'd'].map((name) => ({ name }));

describe('selection by names', () => {
  it('takes the names between two indexes in either order', () => {
    expect(namesBetween(items, 1, 3)).toEqual(['b', 'c', 'd']);
    expect(namesBetween(items, 3, 1)).toEqual(['b', 'c', 'd']);
    expect(namesBetween(items, 2, 2)).toEqual(['c']);
  });

  it('toggles a name without touching the set it was given', () => {
    const start = new Set(['a']);
    expect([...toggled(start, 'b')]).toEqual(['a', 'b']);
    expect([...toggled(start, 'a')]).toEqual([]);
    expect([...start]).toEqual(['a']);
  });

  it('replaces the selection with a range, or adds the range with Ctrl/Cmd', () => {
    const start = new Set(['a']);
    expect([...rangeSelection(items, start, { anchor: 3, index: 2, add: false })]).toEqual(['c', 'd']);
    expect([...rangeSelection(items, start, { anchor: 3, index: 2, add: true })]).toEqual(['a', 'c', 'd']);
  });
});
