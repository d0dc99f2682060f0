import { link, lstat, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { syncDir } from '../lib/sync-dir';
import { errnoCode, fsError } from './fs-error';
import { fill, removeIfPresent, tempSibling, type CreateModes } from './write';
import { pathChanged } from './changes';

/**
 * Files that must never replace anything (uploads through an upload link, beyond.md §2): the
 * bytes go to a hidden temporary file, fsynced, which is then hard-linked to its name, an
 * atomic "create unless it exists" (rename would replace what another request put there).
 */

/** Link errors of filesystems without hard links: there the name is checked, then renamed to. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

/** Writes `body` durably to a new hidden temporary file beside `near` (fileMode); returns its path. */
export async function writeTemp(near: string, body: Readable, modes: CreateModes): Promise<string> {
  const tmp = tempSibling(near);
  try {
    await fill(tmp, body, { ...modes, mode: modes.fileMode });
    return tmp;
  } catch (err) {
    body.resume();
    await removeIfPresent(tmp, { recursive: false });
    throw fsError(err);
  }
}

async function renameIfFree(temp: string, dest: string): Promise<boolean> {
  const there = await lstat(dest).then(
    () => true,
    (err: unknown) => errnoCode(err) !== 'ENOENT',
  );
  if (there) return false;
  await rename(temp, dest);
  return true;
}

/**
 * Gives the complete temporary file `temp` the real path `dest` unless something (a file, a
 * folder, a link, even a dangling one) is there: false then, and `temp` stays. When placed, the
 * temporary name is gone and the folder's entry is durable.
 */
export async function placeIfFree(temp: string, dest: string): Promise<boolean> {
  try {
    try {
      await link(temp, dest);
    } catch (err) {
      if (errnoCode(err) === 'EEXIST') return false;
      if (!NO_HARD_LINKS.has(errnoCode(err) ?? '')) throw err;
      if (!(await renameIfFree(temp, dest))) return false;
    }
    await removeIfPresent(temp, { recursive: false });
    await syncDir(dirname(dest));
    await pathChanged(dest);
    return true;
  } catch (err) {
    throw fsError(err);
  }
}
