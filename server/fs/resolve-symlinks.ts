import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { AppError } from '../errors';
import { errnoCode } from './fs-error';

/** api.md §12: a chain of more than 255 dangling links is refused. */
export const MAX_SYMLINK_HOPS = 255;

function isMissing(err: unknown): boolean {
  const code = errnoCode(err);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Where a real path ends up once every symlink is followed (api.md §5.2): an existing path is
 * realpath'ed; a missing one is its nearest existing ancestor resolved plus the missing tail,
 * except that a dangling symlink is followed (a relative target against the link's real
 * directory) so a write through it is judged by where it would land. Loops and chains past
 * 255 hops are refused as 403.
 */
export async function resolveTarget(path: string): Promise<string> {
  return resolveFrom(path, 0);
}

async function resolveFrom(path: string, hops: number): Promise<string> {
  if (hops > MAX_SYMLINK_HOPS) throw new AppError('forbidden');
  try {
    return await realpath(path);
  } catch (err) {
    if (errnoCode(err) === 'ELOOP') throw new AppError('forbidden');
    if (!isMissing(err)) throw err;
  }
  let isLink: boolean;
  try {
    isLink = (await lstat(path)).isSymbolicLink();
  } catch (err) {
    if (!isMissing(err)) throw err;
    if (path === dirname(path)) return path;
    return join(await resolveFrom(dirname(path), hops), basename(path));
  }
  // realpath failed on an existing entry: it is a dangling link (or a race); follow it by hand.
  if (!isLink) return path;
  const target = await readlink(path);
  const realDir = await resolveFrom(dirname(path), hops);
  return resolveFrom(resolve(realDir, target), hops + 1);
}
