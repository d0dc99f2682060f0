import { apiUrl } from '../../api/http';
import type { FileInfo } from '../../api/types';
import { apiPaths, withQuery } from '../../paths';

/** The file itself, inline (the server sandboxes it: it never runs in the app's origin, api.md §14). */
export function rawInlinePath(file: FileInfo): string {
  return withQuery(apiPaths.raw(file.path), { inline: 'true', key: file.modified });
}

/**
 * The picture to show: the big preview (at most 1080 px, api.md §3.12) unless resizing is off or
 * the original was asked for. `key` only busts caches when the file changes.
 */
export function imagePath(file: FileInfo, full: boolean, resize: boolean): string {
  if (full || !resize) return rawInlinePath(file);
  return withQuery(apiPaths.big(file.path), { inline: 'true', key: file.modified });
}

/** A subtitle file converted to WebVTT (api.md §3.13), for a <track>. */
export function subtitleUrl(path: string): string {
  return apiUrl(withQuery(apiPaths.subtitle(path), { inline: 'true' }));
}

const cache = new Map<string, HTMLImageElement>();
const KEEP = 6;

/**
 * Starts loading and decoding an image the user is likely to open next; the element is kept so
 * the decoded picture stays in memory and the <img> of the same URL paints at once.
 */
export function prefetchImage(url: string): void {
  if (cache.has(url)) return;
  const image = new Image();
  image.decoding = 'async';
  image.src = url;
  image.decode().catch(() => cache.delete(url));
  cache.set(url, image);
  for (const old of cache.keys()) {
    if (cache.size <= KEEP) break;
    cache.delete(old);
  }
}
