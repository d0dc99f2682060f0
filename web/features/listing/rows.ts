// The virtual rows of the listing: a heading per group, then the group's items, `columns` a row.
// Computed, never stored: a folder of 100,000 entries needs no 100,000 row objects.

export type Group = 'folders' | 'files';

export type Row =
  | { kind: 'heading'; group: Group }
  /** Items `start` to `end` (exclusive), as indexes into the display order. */
  | { kind: 'items'; group: Group; start: number; end: number };

export interface Layout {
  /** How many rows there are. */
  count: number;
  rowAt: (row: number) => Row | undefined;
  /** Whether a row is a group heading, without building the row (the virtualizer asks for every row). */
  isHeading: (row: number) => boolean;
  /** The row holding item `index`, or -1 when it is not laid out (yet). */
  rowOfItem: (index: number) => number;
  /** How many of the rows are group headings. */
  headings: number;
}

/** Rows for `dirs` folders then `files` files, of which only the first `shown` are laid out. */
export function layoutRows({ dirs, files }: { dirs: number; files: number }, columns: number, shown: number): Layout {
  const shownDirs = Math.min(dirs, shown);
  const shownFiles = Math.min(files, Math.max(0, shown - dirs));
  const dirRows = Math.ceil(shownDirs / columns);
  const fileRows = Math.ceil(shownFiles / columns);
  const filesAt = shownDirs > 0 ? 1 + dirRows : 0;
  const count = filesAt + (shownFiles > 0 ? 1 + fileRows : 0);

  const rowAt = (row: number): Row | undefined => {
    if (row < 0 || row >= count) return undefined;
    const inFiles = row >= filesAt;
    const group: Group = inFiles ? 'files' : 'folders';
    const local = inFiles ? row - filesAt : row;
    if (local === 0) return { kind: 'heading', group };
    const first = inFiles ? dirs : 0;
    const last = inFiles ? dirs + shownFiles : shownDirs;
    const start = first + (local - 1) * columns;
    return { kind: 'items', group, start, end: Math.min(start + columns, last) };
  };

  const rowOfItem = (index: number): number => {
    if (index < 0) return -1;
    if (index < dirs) return index < shownDirs ? 1 + Math.floor(index / columns) : -1;
    const local = index - dirs;
    return local < shownFiles ? filesAt + 1 + Math.floor(local / columns) : -1;
  };

  const isHeading = (row: number): boolean => (row === 0 && filesAt > 0) || (row === filesAt && shownFiles > 0);

  return { count, rowAt, rowOfItem, isHeading, headings: (shownDirs > 0 ? 1 : 0) + (shownFiles > 0 ? 1 : 0) };
}

/**
 * The height of a layout's rows. The rows of `layoutRows(c, n, shown)` are the first rows of
 * `layoutRows(c, n, all)`, the same kinds at the same places: a virtualizer sized once for every
 * item can show a growing prefix of them.
 */
export function heightOf(layout: Layout, sizes: { heading: number; row: number }): number {
  return layout.headings * sizes.heading + (layout.count - layout.headings) * sizes.row;
}

/** How many items a row of the listing holds: 1 in the list, as many 280 px columns as fit otherwise. */
export function columnsFor(view: string, width: number): number {
  if (view === 'list') return 1;
  return Math.max(1, Math.floor(width / 280));
}

/** The virtualizer's view of the rows: the visible ones, the overscan on either side, and all rows. */
export interface VisibleRange {
  startIndex: number;
  endIndex: number;
  overscan: number;
  count: number;
}

/**
 * The rows to render: the visible ones and `overscan` rows on either side, among the first
 * `laidOut` rows. Where the laid-out rows end before the overscan below does, as many more rows
 * above are rendered instead: the page keeps the same number of rows, so the elements of a
 * scroll step are all taken over by the next one (slots.ts) rather than dropped at the end of
 * the laid-out rows and made again once 50 more items are laid out.
 */
export function rowsToRender({ startIndex, endIndex, overscan, count }: VisibleRange, laidOut: number): number[] {
  const wanted = endIndex - startIndex + 1 + 2 * overscan;
  const end = Math.min(endIndex + overscan, count - 1, laidOut - 1);
  const start = Math.max(0, Math.min(startIndex - overscan, end - wanted + 1));
  return Array.from({ length: Math.max(0, end - start + 1) }, (_, i) => start + i);
}
