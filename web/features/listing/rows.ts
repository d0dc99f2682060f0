// The virtual rows of the listing: a heading per group, then the group's items, `columns` a row.

export type Group = 'folders' | 'files';

export type Row =
  | { kind: 'heading'; group: Group }
  /** Items `start` to `end` (exclusive), as indexes into the display order. */
  | { kind: 'items'; group: Group; start: number; end: number };

/** Rows for `dirs` folders then `files` files, of which only the first `shown` are laid out. */
export function buildRows({ dirs, files }: { dirs: number; files: number }, columns: number, shown: number): Row[] {
  const rows: Row[] = [];
  const add = (group: Group, from: number, count: number): void => {
    const end = Math.min(from + count, shown);
    if (end <= from) return;
    rows.push({ kind: 'heading', group });
    for (let start = from; start < end; start += columns) rows.push({ kind: 'items', group, start, end: Math.min(start + columns, end) });
  };
  add('folders', 0, dirs);
  add('files', dirs, files);
  return rows;
}

/** The row holding item `index`. */
export function rowOfItem(rows: readonly Row[], index: number): number {
  return rows.findIndex((row) => row.kind === 'items' && index >= row.start && index < row.end);
}

/** How many items a row of the listing holds: 1 in the list, as many 280 px columns as fit otherwise. */
export function columnsFor(view: string, width: number): number {
  if (view === 'list') return 1;
  return Math.max(1, Math.floor(width / 280));
}
