import type { Sorting } from '../state/schema';

/** What sorting needs of a listing item. */
export interface Sortable {
  name: string;
  size: number;
  /** Modification time in nanoseconds since the epoch. */
  mtimeNs: bigint;
  isDir: boolean;
}

/** A name split into digit and non-digit runs, computed once per item for sorting. */
type NameKey = string[];

function keyOf(name: string): NameKey {
  return name.match(/\d+|\D+/g) ?? [];
}

function compareKeys(ra: NameKey, rb: NameKey): number {
  const n = Math.min(ra.length, rb.length);
  for (let i = 0; i < n; i++) {
    const x = ra[i] ?? '';
    const y = rb[i] ?? '';
    if (x === y) continue;
    if (isDigit(x.charCodeAt(0)) && isDigit(y.charCodeAt(0))) return compareDigits(x, y);
    return x < y ? -1 : 1;
  }
  return ra.length - rb.length;
}

/** Compares digit runs by value and everything else by code unit (`file2` < `file10`). */
export function naturalCompare(a: string, b: string): number {
  return compareKeys(keyOf(a), keyOf(b));
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

/**
 * A name as one string whose code-unit order is naturalCompare's order, so a 100,000-item sort
 * compares plain strings instead of allocating in every comparison. Non-digit runs end with NUL
 * (no file name holds one), so a run sorts before any longer run it starts; a digit run becomes
 * '5' (a digit, so it compares with a non-digit run as its own first digit would), its length
 * without leading zeros, those digits, then its count of leading zeros.
 */
export function naturalKey(name: string): string {
  let key = '';
  let at = 0;
  // Runs found by hand, not by a regular expression: a 100,000-entry listing makes a key per name.
  while (at < name.length) {
    const digit = isDigit(name.charCodeAt(at));
    let end = at + 1;
    while (end < name.length && isDigit(name.charCodeAt(end)) === digit) end++;
    if (!digit) {
      key += `${name.slice(at, end)}\0`;
    } else {
      let first = at;
      while (first < end - 1 && name.charCodeAt(first) === 48) first++;
      key += `5${String.fromCharCode(0x100 + end - first)}${name.slice(first, end)}${String.fromCharCode(0x100 + first - at)}`;
    }
    at = end;
  }
  return key;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Code-unit order of two names (readdir's names are sorted so before anything else). */
export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Directories first in both directions; names A->Z when `reverse` is false. Keys are made once;
 * the sort is stable, so names equal but for case keep their order.
 */
export function sortNamed<T extends { name: string; isDir: boolean }>(items: T[], reverse: boolean): T[] {
  const keyed = items.map((item) => ({ item, key: naturalKey(item.name.toLowerCase()) }));
  keyed.sort((a, b) => {
    if (a.item.isDir !== b.item.isDir) return a.item.isDir ? -1 : 1;
    const order = byteOrder(a.key, b.key);
    return reverse ? -order : order;
  });
  keyed.forEach((k, i) => (items[i] = k.item));
  return items;
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
      return sortNamed(items, sorting.asc);
    default:
      return sorting.asc ? sortNamed(items, true) : items;
  }
}
