// Name-set selection shared by the listing and the share page (product.md §2 'Keyboard'): the
// selection is a set of item names, so it survives re-sorting and re-fetching.

/** The names of the items from index `a` to index `b`, both included, in list order. */
export function namesBetween(items: readonly { name: string }[], a: number, b: number): string[] {
  return items.slice(Math.min(a, b), Math.max(a, b) + 1).map((item) => item.name);
}

/** A copy of `selected` with `name` added, or removed when it was there. */
export function toggled(selected: ReadonlySet<string>, name: string): Set<string> {
  const next = new Set(selected);
  if (next.has(name)) next.delete(name);
  else next.add(name);
  return next;
}

/** Shift-click: the range from `anchor` to `index`, added to `selected` when `add` (Ctrl/Cmd held). */
export function rangeSelection(items: readonly { name: string }[], selected: ReadonlySet<string>, span: { anchor: number; index: number; add: boolean }): Set<string> {
  return new Set([...(span.add ? selected : []), ...namesBetween(items, span.anchor, span.index)]);
}
