import { posix } from 'node:path';

/**
 * User paths (api.md §1.4): virtual, '/'-separated, absolute, relative to a gate's root. These
 * helpers are pure string functions; nothing here touches the disk.
 */

/**
 * Canonical form of a request path: leading '/', lexically cleaned ('.', '..', duplicate slashes;
 * cannot climb above '/'), trailing '/' kept when the input had one. A backslash is an ordinary
 * filename character on POSIX hosts and survives unchanged.
 */
export function canonicalPath(raw: string): string {
  const cleaned = cleanPath(raw);
  if (cleaned !== '/' && raw.endsWith('/')) return `${cleaned}/`;
  return cleaned;
}

/** Canonical form without a trailing slash ('/' for the root). */
export function cleanPath(raw: string): string {
  // Most paths are clean already (joined from clean parts): they are returned without the two
  // strings normalize makes, which a walk or listing of thousands of entries would pay each time.
  if (isClean(raw)) return raw;
  const normalized = posix.normalize(`/${raw}`);
  // normalize('/') keeps a trailing slash on paths like '/a/'; the clean form has none.
  if (normalized.length > 1 && normalized.endsWith('/')) return normalized.slice(0, -1);
  return normalized;
}

/** Whether `raw` is in the form cleanPath gives: rooted, no empty, '.' or '..' segment, no trailing slash. */
function isClean(raw: string): boolean {
  if (raw === '/') return true;
  if (raw.charCodeAt(0) !== 47 || raw.charCodeAt(raw.length - 1) === 47) return false;
  return !raw.includes('//') && !raw.includes('/./') && !raw.includes('/../') && !raw.endsWith('/.') && !raw.endsWith('/..');
}

/** True when the raw request path ends with '/' (POST: create a directory; PUT: 405). */
export function hasTrailingSlash(raw: string): boolean {
  return raw.length > 0 && raw.endsWith('/');
}

/** The base name of a clean user path; '' for the root. */
export function baseName(path: string): string {
  if (path === '/') return '';
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The parent of a clean user path ('/' for the root and its children). */
export function parentPath(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/** Joins a child name onto a clean user path. */
export function joinPath(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

/** The last `.xxx` of a name including the dot, or '' (api.md §4.3; '.bashrc' -> '.bashrc'). */
export function extensionOf(name: string): string {
  const i = name.lastIndexOf('.');
  return i < 0 ? '' : name.slice(i);
}

/**
 * The first free name of `name(1).ext`, `name(2).ext`, ... (api.md §3.9 step 6): ext is the last
 * `.xxx`, so 'a.tar.gz' -> 'a.tar(1).gz' and '.bashrc' -> '(1).bashrc'.
 */
export function numberedName(name: string, n: number): string {
  const ext = extensionOf(name);
  return `${name.slice(0, name.length - ext.length)}(${n})${ext}`;
}
