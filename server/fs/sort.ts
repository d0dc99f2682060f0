import type { Sorting } from '../state/schema';

/** What sorting needs of a listing item. */
export interface Sortable {
  name: string;
  size: number;
  /** Modification time in nanoseconds since the epoch. */
  mtimeNs: bigint;
  isDir: boolean;
}

/** Compares digit runs by value and everything else by code unit (`file2` < `file10`). */
export function naturalCompare(a: string, b: string): number {
  const ra = a.match(/\d+|\D+/g) ?? [];
  const rb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(ra.length, rb.length); i++) {
    const x = ra[i] ?? '';
    const y = rb[i] ?? '';
    if (x === y) continue;
    const bothDigits = /^\d/.test(x) && /^\d/.test(y);
    if (bothDigits) return compareDigits(x, y);
    return x < y ? -1 : 1;
  }
  return ra.length - rb.length;
}

function compareDigits(x: string, y: string): number {
  const a = x.replace(/^0+(?=\d)/, '');
  const b = y.replace(/^0+(?=\d)/, '');
  if (a.length !== b.length) return a.length - b.length;
  if (a !== b) return a < b ? -1 : 1;
  // Equal values: fewer leading zeros first, so the order is total.
  return x.length - y.length;
}

const DIR_SIZE_OFFSET = -(2 ** 31);

/** Directories first in both directions; names A->Z when `reverse` is false. */
function byName(reverse: boolean): (a: Sortable, b: Sortable) => number {
  return (a, b) => {
    if (a.isDir !== b.isDir) return a.isDir ? -1 : 1;
    const order = naturalCompare(a.name.toLowerCase(), b.name.toLowerCase());
    return reverse ? -order : order;
  };
}

function sizeKey(item: Sortable): number {
  return item.isDir ? item.size + DIR_SIZE_OFFSET : item.size;
}

function byModified(a: Sortable, b: Sortable): number {
  return a.mtimeNs < b.mtimeNs ? -1 : a.mtimeNs > b.mtimeNs ? 1 : 0;
}

/**
 * Sorts listing items in place as api.md §5.6 observes: name puts directories first and
 * `asc:false` means A->Z (inverted on purpose, the UI relies on it); size offsets directories by
 * -2^31; modified is oldest first when ascending; an unknown key keeps read order unless asc.
 */
export function sortItems<T extends Sortable>(items: T[], sorting: Sorting): T[] {
  switch (sorting.by) {
    case 'size':
      return items.sort((a, b) => (sorting.asc ? 1 : -1) * (sizeKey(a) - sizeKey(b)));
    case 'modified':
      return items.sort((a, b) => (sorting.asc ? 1 : -1) * byModified(a, b));
    case 'name':
      return items.sort(byName(sorting.asc));
    default:
      return sorting.asc ? items.sort(byName(true)) : items;
  }
}
