import { describe, expect, it } from 'vitest';
import { buildRows, columnsFor, rowOfItem } from './rows';

describe('buildRows', () => {
  it('puts a heading before each non-empty group and one item a row in the list', () => {
    expect(buildRows({ dirs: 2, files: 1 }, 1, 50)).toEqual([
      { kind: 'heading', group: 'folders' },
      { kind: 'items', group: 'folders', start: 0, end: 1 },
      { kind: 'items', group: 'folders', start: 1, end: 2 },
      { kind: 'heading', group: 'files' },
      { kind: 'items', group: 'files', start: 2, end: 3 },
    ]);
  });

  it('fills rows of several columns and never mixes the groups', () => {
    expect(buildRows({ dirs: 3, files: 2 }, 2, 50)).toEqual([
      { kind: 'heading', group: 'folders' },
      { kind: 'items', group: 'folders', start: 0, end: 2 },
      { kind: 'items', group: 'folders', start: 2, end: 3 },
      { kind: 'heading', group: 'files' },
      { kind: 'items', group: 'files', start: 3, end: 5 },
    ]);
  });

  it('lays out only the first `shown` items', () => {
    expect(buildRows({ dirs: 1, files: 100 }, 1, 3)).toHaveLength(1 + 1 + 1 + 2);
    expect(buildRows({ dirs: 0, files: 0 }, 1, 50)).toEqual([]);
    expect(buildRows({ dirs: 60, files: 0 }, 1, 50).at(-1)).toEqual({ kind: 'items', group: 'folders', start: 49, end: 50 });
  });

  it('finds the row of an item', () => {
    const rows = buildRows({ dirs: 3, files: 2 }, 2, 50);
    expect(rowOfItem(rows, 0)).toBe(1);
    expect(rowOfItem(rows, 2)).toBe(2);
    expect(rowOfItem(rows, 4)).toBe(4);
    expect(rowOfItem(rows, 9)).toBe(-1);
  });
});

describe('columnsFor', () => {
  it.each([
    ['list', 1200, 1],
    ['mosaic', 1200, 4],
    ['mosaic gallery', 560, 2],
    ['mosaic', 200, 1],
  ])('%s at %d px has %d columns', (view, width, columns) => {
    expect(columnsFor(view, width)).toBe(columns);
  });
});
