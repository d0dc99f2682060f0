/**
 * Changes to the tree made through filemgr, told to whoever keeps a copy of it (the search index,
 * beyond.md §7: "in the index before their answer"). The functions of this folder that write,
 * move or remove call `treeChanged` after the disk has changed and before they return; a
 * capability that changes files by other means calls it itself. A per-process notification, not
 * shared state: each instance keeps its own index and is told of its own changes.
 */
export type TreeChange = { kind: 'changed'; real: string } | { kind: 'moved'; from: string; to: string };

type Listener = (change: TreeChange) => Promise<void>;

const listeners = new Set<Listener>();

/** Calls `listener` with every later change until the returned function is called. */
export function watchTreeChanges(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells every listener that `change` happened; a listener's failure is its own (never the request's). */
export async function treeChanged(change: TreeChange): Promise<void> {
  if (listeners.size === 0) return;
  await Promise.all([...listeners].map((listener) => listener(change).catch(() => undefined)));
}

/** Shorthand: the entry at (real path) `real` was created, written or removed. */
export function pathChanged(real: string): Promise<void> {
  return treeChanged({ kind: 'changed', real });
}
