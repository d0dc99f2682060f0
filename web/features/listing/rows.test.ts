import { describe, expect, it } from 'vitest';
import { columnsFor, heightOf, layoutRows, rowsToRender, type Layout } from './rows';

const all = (layout: Layout) => Array.from({ length: layout.count }, (_, i) => layout.rowAt(i));

describe('layoutRows', () => {
  it('puts a heading before each non-empty group and one item a row in the list', () => {
    expect(all(layoutRows({ dirs: 2, files: 1 }, 1, 50))).toEqual([
      { kind: 'heading', group: 'folders' },
      { kind: 'items', group: 'folders', start: 0, end: 1 },
      { kind: 'items', group: 'folders', start: 1, end: 2 },
      { kind: 'heading', group: 'files' },
      { kind: 'items', group: 'files', start: 2, end: 3 },
    ]);
  });

  it('fills rows of several columns and never mixes the groups', () => {
    expect(all(layoutRows({ dirs: 3, files: 2 }, 2, 50))).toEqual([
      { kind: 'heading', group: 'folders' },
      { kind: 'items', group: 'folders', start: 0, end: 2 },
      { kind: 'items', group: 'folders', start: 2, end: 3 },
      { kind: 'heading', group: 'files' },
      { kind: 'items', group: 'files', start: 3, end: 5 },
    ]);
  });

  it('lays out only the first `shown` items', () => {
    expect(layoutRows({ dirs: 1, files: 100 }, 1, 3).count).toBe(1 + 1 + 1 + 2);
    expect(layoutRows({ dirs: 0, files: 0 }, 1, 50).count).toBe(0);
    const sixty = layoutRows({ dirs: 60, files: 0 }, 1, 50);
    expect(sixty.rowAt(sixty.count - 1)).toEqual({ kind: 'items', group: 'folders', start: 49, end: 50 });
    expect(sixty.rowAt(sixty.count)).toBeUndefined();
  });

  it('finds the row of an item, or -1 when it is not laid out', () => {
    const layout = layoutRows({ dirs: 3, files: 2 }, 2, 50);
    expect([0, 2, 3, 4, 9].map(layout.rowOfItem)).toEqual([1, 2, 4, 4, -1]);
    expect(layoutRows({ dirs: 0, files: 100 }, 1, 50).rowOfItem(60)).toBe(-1);
    expect(layoutRows({ dirs: 0, files: 100 }, 1, 50).rowOfItem(49)).toBe(50);
  });

  it('tells headings apart without building rows', () => {
    for (const layout of [layoutRows({ dirs: 3, files: 2 }, 2, 50), layoutRows({ dirs: 0, files: 5 }, 1, 50), layoutRows({ dirs: 4, files: 0 }, 3, 50)]) {
      expect(all(layout).map((row) => row?.kind === 'heading')).toEqual(Array.from({ length: layout.count }, (_, i) => layout.isHeading(i)));
    }
  });

  it('handles a folder of 100,000 entries without building its rows', () => {
    const layout = layoutRows({ dirs: 10, files: 99_990 }, 4, 100_000);
    expect(layout.count).toBe(1 + 3 + 1 + 24_998);
    expect(layout.rowAt(layout.count - 1)).toEqual({ kind: 'items', group: 'files', start: 99_998, end: 100_000 });
    expect(layout.rowOfItem(99_999)).toBe(layout.count - 1);
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

describe('heightOf', () => {
  const sizes = { heading: 40, row: 52 };

  it('adds the headings and the rows of the items laid out', () => {
    expect(heightOf(layoutRows({ dirs: 2, files: 3 }, 1, 50), sizes)).toBe(2 * 40 + 5 * 52);
    expect(heightOf(layoutRows({ dirs: 0, files: 0 }, 1, 50), sizes)).toBe(0);
    expect(heightOf(layoutRows({ dirs: 60, files: 10 }, 1, 50), sizes)).toBe(40 + 50 * 52);
  });

  it.each([
    { dirs: 70, files: 100_000, columns: 1 },
    { dirs: 3, files: 1_000, columns: 4 },
    { dirs: 0, files: 333, columns: 3 },
  ])('lays out a growing prefix of the rows of every item ($dirs folders, $files files, $columns columns)', ({ dirs, files, columns }) => {
    const full = layoutRows({ dirs, files }, columns, dirs + files);
    for (const shown of [1, 50, 100, 150, dirs + 1, dirs + files - 1]) {
      const part = layoutRows({ dirs, files }, columns, shown);
      for (let row = 0; row < part.count; row++) {
        expect(part.isHeading(row)).toBe(full.isHeading(row));
        expect(part.rowAt(row)?.group).toBe(full.rowAt(row)?.group);
      }
    }
  });
});

describe('rowsToRender', () => {
  const range = { startIndex: 100, endIndex: 109, overscan: 10, count: 1000 };

  it('renders the visible rows and the overscan on either side', () => {
    expect(rowsToRender(range, 1000)).toEqual(Array.from({ length: 30 }, (_, i) => 90 + i));
  });

  it('renders as many rows above where the laid-out rows end early, so the count stays the same', () => {
    expect(rowsToRender(range, 112)).toEqual(Array.from({ length: 30 }, (_, i) => 82 + i));
    expect(rowsToRender({ ...range, startIndex: 990, endIndex: 999 }, 1000)).toEqual(Array.from({ length: 30 }, (_, i) => 970 + i));
  });

  it('never renders a row before the first, after the last or beyond those laid out', () => {
    expect(rowsToRender({ ...range, startIndex: 0, endIndex: 9 }, 1000)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(rowsToRender(range, 15)).toEqual(Array.from({ length: 15 }, (_, i) => i));
    expect(rowsToRender(range, 0)).toEqual([]);
  });
});
