import { cp, lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AppError } from '../errors';
import { syncDir } from '../lib/sync-dir';
import { errnoCode, fsError } from './fs-error';
import { TRASH_DIR } from './hidden';
import { lstatOrNull } from './write';
import { treeChanged } from './changes';

/**
 * The recycle bin on disk (beyond.md §3): `<root>/.filemgr-trash/<userId>/<id>/<name>`. The
 * folder is one of the server's own files (fs/hidden.ts), so no request path reaches it; only the
 * trash service touches it, with the real paths below.
 */

/** The recycle bin folder of a served root. */
export function trashRootOf(serverRoot: string): string {
  return join(serverRoot, TRASH_DIR);
}

/** The folder of one trashed item (it holds the item under its own name). */
export function trashItemDir(trashRoot: string, userId: number, id: string): string {
  return join(trashRoot, String(userId), id);
}

/** The rename call, a seam for tests of the cross-filesystem fallback. */
export type RenameFn = (from: string, to: string) => Promise<void>;

/**
 * Moves an entry (file, link or tree) to `to`, whose parent exists: one rename on the same
 * filesystem (a 100,000-file folder moves in one call); across filesystems (EXDEV) a copy that
 * keeps links as links and times, then removal of the source. A target that exists is 409.
 */
export async function moveEntry(from: string, to: string, doRename: RenameFn = rename): Promise<void> {
  try {
    if ((await lstatOrNull(to, { lenient: true })) !== null) throw new AppError('exists');
    await doRename(from, to);
    await syncDir(dirname(to));
    await treeChanged({ kind: 'moved', from, to });
    return;
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') throw new AppError('exists');
    if (code !== 'EXDEV') throw fsError(err);
  }
  try {
    await cp(from, to, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true, errorOnExist: true, force: false });
  } catch (err) {
    await rm(to, { recursive: true, force: true });
    throw fsError(err);
  }
  await rm(from, { recursive: true, force: true });
  await syncDir(dirname(to));
  await treeChanged({ kind: 'moved', from, to });
}

/** Creates an item's folder (and the trash folders above it), readable by the server only. */
export async function makeItemDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw fsError(err);
  }
}

/** Removes a trashed item's folder and all it holds; a folder already gone is fine. */
export async function removeItemDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 2 });
}

/** Bytes of the files in a tree, links not followed (what a trashed item weighs). */
export async function treeBytes(path: string): Promise<number> {
  const s = await lstat(path).catch(() => null);
  if (!s) return 0;
  if (!s.isDirectory()) return s.isFile() ? s.size : 0;
  let total = 0;
  const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
  for (const e of entries) total += await treeBytes(join(path, e.name));
  return total;
}

/** The user-id folders in the trash (to remove those of users that no longer exist). */
export async function trashUserDirs(trashRoot: string): Promise<number[]> {
  const names = await readdir(trashRoot).catch(() => [] as string[]);
  return names.filter((n) => /^\d+$/.test(n)).map(Number);
}

/** Relative paths of everything below a directory (for the rule check of a restored tree). */
export async function relativeEntries(dir: string): Promise<string[]> {
  const s = await lstat(dir).catch(() => null);
  if (!s?.isDirectory()) return [];
  return (await readdir(dir, { recursive: true })).map(String);
}
