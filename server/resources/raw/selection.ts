import { posix } from 'node:path';
import { AppError } from '../../errors';
import { isWithin } from '../../lib/within';

function decodeItem(item: string): string {
  // Upstream keeps a literal '+' (the frontend never encodes it as a space) and URL-unescapes once
  // more, so a '%2C' inside a name survives the split on ','.
  try {
    return decodeURIComponent(item.replaceAll('+', '%2B'));
  } catch {
    throw new AppError('bad_request', 'invalid files selection: malformed percent-encoding');
  }
}

/**
 * The user paths a download selects (api.md §3.11): the `files` query split on `,`, each item
 * decoded again and joined onto the requested directory; without items, the directory itself.
 * A `..` segment is refused (400) instead of being cleaned away; an item inside another selected
 * item is dropped so no member is archived twice.
 */
export function parseSelection(dir: string, files: string | undefined): string[] {
  const items = (files ?? '').split(',').filter((item) => item !== '');
  if (items.length === 0) return [dir];
  const paths = items.map((item) => {
    const name = decodeItem(item);
    if (name.split('/').includes('..')) throw new AppError('bad_request', 'invalid files selection: ".." is not allowed');
    if (name.includes('\0')) throw new AppError('bad_request', 'invalid files selection: NUL in a name');
    return posix.join(dir, '/', name).replace(/(.)\/$/, '$1');
  });
  const unique = [...new Set(paths)];
  return unique.filter((path) => !unique.some((other) => other !== path && isWithin(other, path)));
}

/**
 * The longest common directory of the selected paths, on `/` boundaries (filebrowser's
 * fileutils.CommonPrefix): one path is its own common directory; paths with nothing in
 * common give ''.
 */
export function commonDir(paths: readonly string[]): string {
  const [first, ...rest] = paths.map((path) => posix.normalize(path));
  if (first === undefined) return '';
  if (rest.length === 0) return first;
  let common = `${first}/`;
  for (const path of rest) {
    const candidate = `${path}/`;
    let i = 0;
    while (i < common.length && i < candidate.length && common[i] === candidate[i]) i++;
    common = common.slice(0, i);
  }
  return common.slice(0, Math.max(0, common.lastIndexOf('/')));
}

/** What the download name of an archive is made of. */
export interface ArchiveNaming {
  common: string;
  /** Used when the common directory has no base name (the user's root). */
  fallback: string;
  selected: number;
  extension: string;
}

/**
 * The archive's file name: the common directory's base name (the fallback for the root), with a
 * `_` prefix when several paths were selected, plus the format's extension.
 */
export function archiveName({ common, fallback, selected, extension }: ArchiveNaming): string {
  const base = posix.basename(common);
  const name = base === '' || base === '.' || base === '/' ? fallback : base;
  return `${selected > 1 ? '_' : ''}${name}${extension}`;
}
