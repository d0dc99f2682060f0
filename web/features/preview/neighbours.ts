import type { FileInfo } from '../../api/types';

/** The types Previous and Next step through (product.md §2 'Preview page'). */
const STEPPABLE: ReadonlySet<string> = new Set(['image', 'video', 'audio', 'blob']);

/** Extensions the browser cannot show, decoded with utif2 instead (product.md §2 'Image viewer'). */
const TIFF_LIKE: ReadonlySet<string> = new Set(['.tif', '.tiff', '.dng', '.cr2', '.nef']);

export interface Neighbours {
  previous?: FileInfo;
  next?: FileInfo;
}

/** Whether Previous and Next stop at an item of the folder. */
export function isSteppable(item: FileInfo): boolean {
  return !item.isDir && STEPPABLE.has(item.type);
}

/** The lower-case extension of a name, with its dot ('' when none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
}

/** Whether a file is a TIFF or a TIFF-based camera raw that the browser decodes with utif2. */
export function isTiffLike(name: string): boolean {
  return TIFF_LIKE.has(extensionOf(name));
}

/**
 * The nearest steppable items before and after `path` in the folder's display order; none when
 * the file is not listed (a hidden or just-deleted item).
 */
export function neighboursOf(items: readonly FileInfo[], path: string): Neighbours {
  const at = items.findIndex((item) => item.path === path);
  if (at < 0) return {};
  let previous: FileInfo | undefined;
  let next: FileInfo | undefined;
  for (let i = at - 1; i >= 0 && !previous; i--) {
    const item = items[i];
    if (item && isSteppable(item)) previous = item;
  }
  for (let i = at + 1; i < items.length && !next; i++) {
    const item = items[i];
    if (item && isSteppable(item)) next = item;
  }
  return { previous, next };
}
